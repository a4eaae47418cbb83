package coordinator

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/schedfarm/schedfarm/broker"
	"github.com/schedfarm/schedfarm/runner"
)

// Session is a coordinator kept open across several runs of one experiment
// — a tuner's generations — so that the fixed cost of a run is paid once:
// the streams and the object store are looked up (or created) and the
// experiment's durable results and advisories consumers created once, at
// the first run with cells to publish, and they keep pulling between runs.
// Every run keeps Run's guarantees: results are written to the sink, made
// durable by its Flush and only then acked; a cell already done (in a
// run's Done or written by an earlier run of the session) is neither
// published nor written again, and a late duplicate result of one is
// dropped. After a run that leaves every cell the session knows with a
// result, the experiment's leftover cell messages (a redelivered copy of a
// finished cell) are purged, so no worker runs them again. A Session is not
// safe for concurrent runs; Close ends it.
type Session struct{ c *coordinator }

// Batch is what one run of a Session publishes and collects.
type Batch struct {
	// Cells are the run's cells; every one must carry the session's
	// experiment, with unique ids.
	Cells []runner.Cell
	// Done holds the ids of cells already in the output; they are neither
	// published nor written again (cells written by earlier runs of the
	// session count as done too).
	Done map[string]bool
	// Progress receives the run's progress; nothing is shown when nil.
	Progress Progress
}

// NewSession returns a session over js for cfg's experiment. cfg.Cells,
// cfg.Done and cfg.Progress are not used: each run brings its own (Batch).
// Nothing is sent to the broker before the first run with cells to
// publish. TopologyReady says the caller has run broker.Ensure already;
// otherwise the first such run does.
func NewSession(js jetstream.JetStream, cfg Config) (*Session, error) {
	if err := errors.Join(cfg.validateSession()...); err != nil {
		return nil, fmt.Errorf("coordinator: %w", err)
	}
	c := newCoordinator(js, cfg)
	c.session = true
	return &Session{c: c}, nil
}

// Run publishes the batch's cells that are not done yet and collects their
// results into the session's sink, as Run does for a whole experiment, and
// returns the run's summary once every one of them has its result (flushed
// and acked). Cancelling ctx stops it after flushing and acking what was
// written; a later run (or a later process) can take the cells up again.
func (s *Session) Run(ctx context.Context, b Batch) (Summary, error) {
	if err := errors.Join(validateCells(s.c.cfg.Experiment, b.Cells)...); err != nil {
		return Summary{}, fmt.Errorf("coordinator: %w", err)
	}
	return s.c.run(ctx, b)
}

// Close ends the session: it waits for the deletions of the per-job
// records objects still queued (at most until ctx is done or for
// reapWait; the bucket's TTL removes what is left), then, when its last
// run succeeded and every cell it knows has its result, it purges what is
// left of the experiment from the streams (as Run does at its end; a
// purge that fails is logged, the leftovers are harmless duplicates), then
// stops the consumers. The sink is not closed. Close is idempotent.
func (s *Session) Close(ctx context.Context) { s.c.close(ctx) }

// close waits for the queued deletions of jobs objects, purges the
// experiment's leftovers when the session ended clean and stops the
// consumers.
func (c *coordinator) close(ctx context.Context) {
	if c.closed {
		return
	}
	c.closed = true
	c.reaper.wait(ctx)
	if c.conn.opened && c.clean {
		c.tidy(ctx, true)
	}
	c.stopConsumers()
}

// reopen re-creates the consumers of a session after the one named what
// stopped (its consumer was deleted, e.g. by a broker that lost its store
// between two runs): the streams are looked up, or created again, as at
// the first run. Run, which creates its consumers just before it publishes,
// reports the closed subscription instead.
func (c *coordinator) reopen(ctx context.Context, n *int, what string) error {
	if !c.session || *n >= maxReopens || c.js.Conn().IsClosed() {
		return fmt.Errorf("coordinator: %s subscription closed", what)
	}
	*n++
	c.cfg.Logf("coordinator: the %s subscription closed; creating the consumers again", what)
	c.stopConsumers()
	c.cfg.TopologyReady = true // look the streams up; Ensure if they are gone
	if err := c.open(ctx); err != nil {
		return fmt.Errorf("coordinator: %s subscription closed; opening it again: %w", what, err)
	}
	return nil
}

// open looks up (or creates) the streams and the object store and starts
// both consumers.
func (c *coordinator) open(ctx context.Context) error {
	if err := c.setup(ctx); err != nil {
		return fmt.Errorf("coordinator: %w", err)
	}
	var err error
	var resCons jetstream.Consumer
	if resCons, c.conn.results, err = c.consume(ctx, c.conn.resSt, broker.ResultFilter(c.cfg.Experiment)); err != nil {
		return fmt.Errorf("coordinator: results consumer: %w", err)
	}
	advSt, err := c.js.Stream(ctx, broker.AdvisoriesStream)
	if err != nil {
		c.conn.results.Stop()
		return fmt.Errorf("coordinator: advisories stream: %w", err)
	}
	if _, c.conn.advisories, err = c.consume(ctx, advSt, ""); err != nil {
		c.conn.results.Stop()
		return fmt.Errorf("coordinator: advisories consumer: %w", err)
	}
	c.conn.waitingAtOpen = resCons.CachedInfo().NumPending
	c.conn.resCons = resCons
	c.conn.quit = make(chan struct{})
	c.conn.resCh = pump(c.conn.results, c.conn.quit)
	c.conn.advCh = pump(c.conn.advisories, c.conn.quit)
	c.conn.opened = true
	return nil
}

// stopConsumers stops both consumers' pulls and their pumps.
func (c *coordinator) stopConsumers() {
	if !c.conn.opened {
		return
	}
	c.conn.opened = false
	close(c.conn.quit)
	c.conn.results.Stop()
	c.conn.advisories.Stop()
}

// tidy removes what is left of a finished experiment from the streams:
// every cell has its result, so remaining cell messages and results are
// redundant duplicates (e.g. results delivered to a coordinator that
// crashed and done since). Between the runs of a session only the cell
// messages are purged (results is false): a late duplicate result reaches
// the session's consumer, which drops and acks it.
func (c *coordinator) tidy(ctx context.Context, results bool) {
	purges := []struct {
		st      jetstream.Stream
		subject string
	}{
		{c.conn.cellsSt, broker.CellFilter(c.cfg.Experiment)},
		{c.conn.resSt, broker.ResultFilter(c.cfg.Experiment)},
	}
	if !results {
		purges = purges[:1]
	}
	for _, p := range purges {
		// A clustered stream that just lost its leader answers nothing
		// until it elects the next one: retry for a bounded while, then
		// leave the duplicates (they are harmless, only wasted space).
		var err error
		for attempt := 0; attempt < tidyAttempts; attempt++ {
			if err = p.st.Purge(ctx, jetstream.WithPurgeSubject(p.subject)); err == nil || ctx.Err() != nil {
				break
			}
			select {
			case <-ctx.Done():
			case <-time.After(tidyBackoff):
			}
		}
		if err != nil {
			c.cfg.Logf("coordinator: tidy %s: %v (left in the stream; harmless duplicates)", p.subject, err)
		}
	}
}

func (c *coordinator) setup(ctx context.Context) error {
	if c.cfg.TopologyReady && c.lookUpStreams(ctx) == nil {
		return c.openJobs(ctx)
	}
	// Not ready, or the streams went missing (a broker that lost its
	// store): create or update them.
	if err := broker.Ensure(ctx, c.js, c.cfg.Topology); err != nil {
		return err
	}
	if err := c.lookUpStreams(ctx); err != nil {
		return err
	}
	return c.openJobs(ctx)
}

// lookUpStreams finds the cells and results streams.
func (c *coordinator) lookUpStreams(ctx context.Context) error {
	var err error
	if c.conn.cellsSt, err = c.js.Stream(ctx, broker.CellsStream); err != nil {
		return fmt.Errorf("cells stream: %w", err)
	}
	if c.conn.resSt, err = c.js.Stream(ctx, broker.ResultsStream); err != nil {
		return fmt.Errorf("results stream: %w", err)
	}
	return nil
}

// openJobs opens the object store of oversized per-job records.
func (c *coordinator) openJobs(ctx context.Context) error {
	var err error
	if c.conn.jobs, err = broker.JobsStore(ctx, c.js, c.cfg.Topology); err != nil {
		return err
	}
	if wrapJobsStore != nil {
		c.conn.jobs = wrapJobsStore(c.conn.jobs)
	}
	return nil
}

// wrapJobsStore, set by tests, wraps the object store a coordinator opens
// (to hold its deletions up; export_test.go).
var wrapJobsStore func(jetstream.ObjectStore) jetstream.ObjectStore

// consume creates (or reuses) the experiment's durable consumer on st and
// starts pulling from it.
func (c *coordinator) consume(ctx context.Context, st jetstream.Stream, filter string) (jetstream.Consumer, jetstream.MessagesContext, error) {
	cons, err := st.CreateOrUpdateConsumer(ctx, jetstream.ConsumerConfig{
		Durable:           broker.CoordinatorConsumer(c.cfg.Experiment),
		Description:       "schedfarm coordinator of experiment " + c.cfg.Experiment,
		AckPolicy:         jetstream.AckExplicitPolicy,
		AckWait:           resultAckWait,
		MaxAckPending:     -1,
		FilterSubject:     filter,
		DeliverPolicy:     jetstream.DeliverAllPolicy,
		InactiveThreshold: 72 * time.Hour,
	})
	if err != nil {
		return nil, nil, err
	}
	// The consumer's info (its pending count) is taken before the first
	// pull, which delivers what waits and so empties that count.
	it, err := cons.Messages(jetstream.PullMaxMessages(512))
	return cons, it, err
}

// pump turns a message iterator into a channel, closed when the iterator
// stops or quit is closed.
func pump(it jetstream.MessagesContext, quit <-chan struct{}) <-chan jetstream.Msg {
	ch := make(chan jetstream.Msg)
	go func() {
		defer close(ch)
		for {
			msg, err := it.Next()
			if err != nil {
				return
			}
			select {
			case ch <- msg:
			case <-quit:
				return
			}
		}
	}()
	return ch
}
