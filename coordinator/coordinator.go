package coordinator

import (
	"bytes"
	"cmp"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/schedfarm/schedfarm/runner"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/schedfarm/schedfarm/broker"
	"github.com/schedfarm/schedfarm/internal/buildinfo"
)

// ResultSink receives each cell's result once.
type ResultSink interface {
	// Write records the result of cell c.
	Write(c runner.Cell, r runner.CellResult) error
	// Flush makes every result written so far durable. The coordinator acks
	// results on the broker only after Flush returns nil, so a crash loses
	// nothing that was not flushed: it is delivered again.
	Flush() error
}

// Config configures one coordinator run over one experiment.
type Config struct {
	// Experiment is the experiment's name; every cell must carry it.
	Experiment string
	// Cells are all the experiment's cells.
	Cells []runner.Cell
	// Done holds the ids of cells already in the output; they are neither
	// published nor written again.
	Done map[string]bool
	// Sink receives the results; required.
	Sink ResultSink
	// Topology sets the workers consumer's AckWait and MaxDeliver.
	Topology broker.Topology
	// TopologyReady says the caller has already run broker.Ensure with
	// Topology on this connection (several sweeps on one connection), so
	// Run (or a Session's first run) only looks the streams up instead of
	// creating or updating them again.
	TopologyReady bool
	// Progress receives progress snapshots; nothing is shown when nil.
	Progress Progress
	// FlushEvery flushes the sink after this many results (256 when zero) and
	// FlushInterval at the latest this long after the first unflushed one
	// (1s when zero).
	FlushEvery    int
	FlushInterval time.Duration
	// Logf receives notable events; silent when nil.
	Logf func(format string, args ...any)
	// DataRoot is the directory workers mirror (their --data-root): cells
	// travel with their directory relative to it, and every file a cell
	// names must lie under it. The working directory when empty.
	DataRoot string
	// MaxResultBytes bounds a result message; DefaultMaxResultBytes when
	// zero.
	MaxResultBytes int
	// StallCheck is how long a run may go without a result before it
	// looks for its missing cells (DefaultStallCheck when zero): a cell
	// that is neither queued nor being run, and whose result is not on its
	// way, is lost (a broker that lost messages) and is published again.
	StallCheck time.Duration
}

// DefaultStallCheck is the default Config.StallCheck.
const DefaultStallCheck = 30 * time.Second

// Failure is one failed cell.
type Failure struct {
	Cell  runner.Cell
	Error string
}

// Summary reports a coordinator run.
type Summary struct {
	// Total is the number of cells in the experiment; Skipped were already
	// done before this run; Published were sent to the work queue.
	Total, Skipped, Published int
	// OK and Failed count the results written in this run.
	OK, Failed int
	// Waiting counts the results that already waited for this run when it
	// started (cells finished while no coordinator ran): they are read
	// before anything is published, so their cells are not published.
	Waiting int
	// Requeued counts the cells published again because they were lost:
	// no message of the experiment was left in the work queue and no result
	// was on its way while cells still lacked one.
	Requeued int
	// Duplicates counts the results dropped because their cell already had
	// one (a cell run twice: redelivered after its worker crashed or was
	// cut off, then finished by both).
	Duplicates int
	// Failures lists the failed cells of this run in the order they came.
	Failures []Failure
	// Rejected counts the messages refused because they were not a
	// well-formed result of a cell this coordinator published (forged,
	// malformed, oversized, non-finite, for an unknown cell or for another
	// version of the cell message); nothing of them is written.
	// Rejections lists the first 100 of them.
	Rejected   int
	Rejections []Rejection
	// Wall is the run's duration.
	Wall time.Duration
}

func (c *Config) validate() error {
	return errors.Join(append(c.validateSession(), validateCells(c.Experiment, c.Cells)...)...)
}

// validateSession checks the fields that stay the same across a session's
// runs.
func (c *Config) validateSession() []error {
	var errs []error
	if c.Experiment == "" {
		errs = append(errs, errors.New("experiment name: empty; want the spec's name"))
	}
	if c.Sink == nil {
		errs = append(errs, errors.New("result sink: nil; want a sink such as the Parquet writer"))
	}
	return errs
}

// validateCells checks the cells of one run.
func validateCells(experiment string, cells []runner.Cell) []error {
	var errs []error
	seen := make(map[string]int, len(cells))
	for i, cell := range cells {
		switch {
		case cell.ID == "":
			errs = append(errs, fmt.Errorf("cell %d: empty id; want the cell's stable hash", i))
		case cell.Experiment != experiment:
			errs = append(errs, fmt.Errorf("cell %d (%s): experiment %q; want %q", i, cell.ID, cell.Experiment, experiment))
		}
		if j, dup := seen[cell.ID]; dup && cell.ID != "" {
			errs = append(errs, fmt.Errorf("cell %d: id %s repeats cell %d; want unique ids", i, cell.ID, j))
		}
		seen[cell.ID] = i
	}
	return errs
}

// coordinator is the state of a Session. What it has learnt about the
// experiment's cells (cells, done, digests) and its broker handles (streams,
// object store, consumers) last for the session; sum, left, started, prog
// and the pending results belong to the run under way.
type coordinator struct {
	cfg     Config
	js      jetstream.JetStream
	cells   map[string]runner.Cell
	cellsSt jetstream.Stream
	resSt   jetstream.Stream
	jobs    jetstream.ObjectStore // per-job records too large for a message

	// opened: the streams and object store are looked up and both
	// consumers are pulling into resCh and advCh, until quit is closed.
	opened bool
	// waitingAtOpen: the results consumer's pending count when it was
	// created, before its first pull (readWaiting).
	waitingAtOpen       uint64
	resCons             jetstream.Consumer
	results, advisories jetstream.MessagesContext
	resCh, advCh        <-chan jetstream.Msg
	quit                chan struct{}
	// session: runs of a Session (not the one run of Run), which purge the
	// experiment's leftover cell messages at the end of every run.
	session bool
	// clean: the last run ended without error and every cell the session
	// knows has its result, so Close may purge the experiment's leftovers.
	clean  bool
	closed bool

	mu   sync.Mutex
	done map[string]bool

	sum     Summary
	left    map[string]bool // cells of this run still without a result
	prog    Progress
	started time.Time
	pending []jetstream.Msg // written but not yet flushed and acked
	first   time.Time       // when the oldest pending result was written
	// pendingObjects are the jobs objects of the pending results, deleted
	// once those results are durable.
	pendingObjects []string
	// digests holds the SHA-256 of the cell messages published: a result
	// counts only for the very message published.
	digests map[string][32]byte
}

// Run publishes every cell not yet done, collects results into cfg.Sink
// until every cell has a result, flushes the sink and returns a summary. It
// does not close the sink. Cancelling ctx stops it after flushing and acking
// what was written; the run can be resumed later.
//
// Run is a Session of one run: it creates the experiment's consumers, runs,
// and on success purges what is left of the experiment from the streams.
func Run(ctx context.Context, js jetstream.JetStream, cfg Config) (Summary, error) {
	if err := cfg.validate(); err != nil {
		return Summary{}, fmt.Errorf("coordinator: %w", err)
	}
	c := newCoordinator(js, cfg)
	defer c.close(ctx)
	return c.run(ctx, Batch{Cells: cfg.Cells, Done: cfg.Done, Progress: cfg.Progress})
}

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

// Close ends the session: when its last run succeeded and every cell it
// knows has its result, it purges what is left of the experiment from the
// streams (as Run does at its end; a purge that fails is logged, the
// leftovers are harmless duplicates), then stops the consumers. The sink
// is not closed. Close is idempotent.
func (s *Session) Close(ctx context.Context) { s.c.close(ctx) }

func newCoordinator(js jetstream.JetStream, cfg Config) *coordinator {
	if cfg.FlushEvery <= 0 {
		cfg.FlushEvery = 256
	}
	if cfg.FlushInterval <= 0 {
		cfg.FlushInterval = time.Second
	}
	if cfg.StallCheck <= 0 {
		cfg.StallCheck = DefaultStallCheck
	}
	if cfg.Logf == nil {
		cfg.Logf = func(string, ...any) {}
	}
	cfg.Cells, cfg.Done, cfg.Progress = nil, nil, nil
	return &coordinator{cfg: cfg, js: js, cells: map[string]runner.Cell{},
		done: map[string]bool{}, digests: map[string][32]byte{}}
}

// close purges the experiment's leftovers when the session ended clean and
// stops the consumers.
func (c *coordinator) close(ctx context.Context) {
	if c.closed {
		return
	}
	c.closed = true
	if c.opened && c.clean {
		c.tidy(ctx, true)
	}
	c.stopConsumers()
}

// run publishes b's cells not yet done and collects results until each of
// them has one.
func (c *coordinator) run(ctx context.Context, b Batch) (Summary, error) {
	if c.closed {
		return Summary{}, errors.New("coordinator: run on a closed session")
	}
	c.clean = false
	c.sum, c.prog, c.started = Summary{Total: len(b.Cells)}, b.Progress, time.Now()
	c.left = make(map[string]bool, len(b.Cells))
	if err := CheckDataRoot(c.cfg.DataRoot, b.Cells); err != nil {
		return Summary{}, fmt.Errorf("coordinator: %w", err)
	}
	root, err := filepath.Abs(cmp.Or(c.cfg.DataRoot, "."))
	if err != nil {
		return Summary{}, fmt.Errorf("coordinator: data root: %w", err)
	}
	var todo []runner.Cell
	for _, cell := range b.Cells {
		c.cells[cell.ID] = cell
		if b.Done[cell.ID] {
			c.done[cell.ID] = true // no publisher is running: no lock needed
		}
		if c.done[cell.ID] {
			c.sum.Skipped++
			continue
		}
		w, err := wireCell(root, cell)
		if err != nil {
			return Summary{}, fmt.Errorf("coordinator: cell %s: %w", cell.ID, err)
		}
		data, err := json.Marshal(w)
		if err != nil {
			return Summary{}, fmt.Errorf("coordinator: encode cell %s: %w", cell.ID, err)
		}
		c.digests[cell.ID] = cellDigest(data)
		todo = append(todo, w)
		c.left[cell.ID] = true
	}

	c.progress(false)
	if len(todo) == 0 {
		c.sum.Wall = time.Since(c.started)
		c.progress(true)
		c.clean = c.allDone()
		return c.sum, nil
	}
	if !c.opened {
		if err := c.open(ctx); err != nil {
			return c.sum, err
		}
	}

	if err := c.readWaiting(ctx); err != nil {
		return c.finish(err)
	}
	todo = slices.DeleteFunc(todo, func(cell runner.Cell) bool { return !c.left[cell.ID] })
	var pubErr chan error
	pubCtx, cancelPub := context.WithCancel(ctx)
	if len(todo) > 0 {
		pubErr = make(chan error, 1)
		go func() { pubErr <- c.publish(pubCtx, todo) }()
	}
	// An early return stops the publisher and waits for it, so that the
	// next run of a session finds no goroutine of this one.
	defer func() {
		cancelPub()
		if pubErr != nil {
			<-pubErr
		}
	}()

	tick := time.NewTicker(min(c.cfg.FlushInterval, 250*time.Millisecond))
	defer tick.Stop()
	reopened := 0
	lastProgress, lastLeft := time.Now(), len(c.left)
	for len(c.left) > 0 {
		if n := len(c.left); n != lastLeft {
			lastProgress, lastLeft = time.Now(), n
		}
		select {
		case <-ctx.Done():
			return c.finish(fmt.Errorf("coordinator: interrupted with %d of %d cells to go: %w", len(c.left), c.sum.Total, ctx.Err()))
		case err := <-pubErr:
			pubErr = nil
			if err != nil {
				return c.finish(fmt.Errorf("coordinator: publish cells: %w", err))
			}
			c.sum.Published = len(todo)
		case msg, ok := <-c.resCh:
			if !ok {
				if err := c.reopen(ctx, &reopened, "results"); err != nil {
					return c.finish(err)
				}
				continue
			}
			if err := c.onResult(msg); err != nil {
				return c.finish(err)
			}
		case msg, ok := <-c.advCh:
			if !ok {
				if err := c.reopen(ctx, &reopened, "advisories"); err != nil {
					return c.finish(err)
				}
				continue
			}
			if err := c.onAdvisory(ctx, msg); err != nil {
				return c.finish(err)
			}
		case <-tick.C:
			if len(c.pending) > 0 && time.Since(c.first) >= c.cfg.FlushInterval {
				if err := c.flush(); err != nil {
					return c.finish(err)
				}
			}
			if pubErr == nil && time.Since(lastProgress) >= c.cfg.StallCheck {
				lastProgress = time.Now() // look again a StallCheck later
				if err := c.requeueLost(ctx); err != nil {
					c.cfg.Logf("coordinator: looking for lost cells: %v", err)
				}
			}
			c.progress(false)
		}
	}
	if pubErr != nil {
		// Every cell has its result, so every publication was acked; the
		// publisher is about to report.
		err := <-pubErr
		pubErr = nil
		if err != nil {
			return c.finish(fmt.Errorf("coordinator: publish cells: %w", err))
		}
		c.sum.Published = len(todo)
	}
	sum, err := c.finish(nil)
	if err == nil {
		c.clean = c.allDone()
		if c.session && c.clean {
			c.tidy(ctx, false)
		}
	}
	return sum, err
}

// requeueLost publishes again, under fresh message ids, the cells of this
// run that are nowhere: no message of the experiment is left in the cells
// stream (queued or held by a worker), and no result waits for this
// coordinator or is being handled by it. Such cells would keep a run
// waiting for ever (a broker that lost part of its store, a stream purged
// by hand); with them published again it ends. A result of one that turns
// up after all is dropped as a duplicate.
func (c *coordinator) requeueLost(ctx context.Context) error {
	if len(c.left) == 0 || c.resCons == nil {
		return nil
	}
	info, err := c.cellsSt.Info(ctx, jetstream.WithSubjectFilter(broker.CellFilter(c.cfg.Experiment)))
	if err != nil {
		return err
	}
	queued := uint64(0)
	for _, n := range info.State.Subjects {
		queued += n
	}
	if queued > 0 {
		return nil // still in the work queue, or held by a worker
	}
	ci, err := c.resCons.Info(ctx)
	if err != nil {
		return err
	}
	if ci.NumPending > 0 || ci.NumAckPending > 0 || len(c.pending) > 0 {
		return nil // results on their way
	}
	var lost []runner.Cell
	for id := range c.left {
		lost = append(lost, c.cells[id])
	}
	slices.SortFunc(lost, func(a, b runner.Cell) int { return cmp.Compare(a.Index, b.Index) })
	root, err := filepath.Abs(cmp.Or(c.cfg.DataRoot, "."))
	if err != nil {
		return err
	}
	for _, cell := range lost {
		w, err := wireCell(root, cell)
		if err != nil {
			return err
		}
		if err := c.requeue(ctx, w); err != nil {
			return fmt.Errorf("cell %s: %w", cell.ID, err)
		}
	}
	c.sum.Requeued += len(lost)
	c.cfg.Logf("coordinator: %d cells without a result were neither queued nor being run, and no result of theirs was on its way (a broker that lost messages?): published again", len(lost))
	return nil
}

// readWaiting handles, before anything is published, the results that
// already waited in the experiment's consumer when it was created: those of
// cells that finished while no coordinator ran. Their cells are then not
// published again: after a broker restart the cells stream no longer knows
// the message ids of consumed cells, so such a publication would not be
// de-duplicated and a worker would run the cell a second time (its result
// dropped as a duplicate, the work wasted). It reads at most that many
// results and stops early when none arrives for waitingIdle. (Results a
// stopped coordinator had pulled but not acked come back only after
// resultAckWait; their cells are handled by the publication's
// de-duplication as before.)
func (c *coordinator) readWaiting(ctx context.Context) error {
	n := c.waitingAtOpen
	c.waitingAtOpen = 0 // once per consumer
	if n == 0 {
		return nil
	}
	idle := time.NewTimer(waitingIdle)
	defer idle.Stop()
	for ; n > 0 && len(c.left) > 0; n-- {
		select {
		case <-ctx.Done():
			return fmt.Errorf("coordinator: interrupted while reading the waiting results: %w", ctx.Err())
		case msg, ok := <-c.resCh:
			if !ok {
				return nil // the main loop opens the consumer again
			}
			if err := c.onResult(msg); err != nil {
				return err
			}
			c.sum.Waiting++
			idle.Reset(waitingIdle)
		case <-idle.C:
			return nil
		}
	}
	return nil
}

// waitingIdle bounds how long readWaiting waits for the next of the
// results the consumer reported pending.
const waitingIdle = 2 * time.Second

// allDone reports whether every cell the coordinator knows has its result.
func (c *coordinator) allDone() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for id := range c.cells {
		if !c.done[id] {
			return false
		}
	}
	return true
}

// maxReopens bounds how often one run re-creates consumers that stopped.
const maxReopens = 3

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
	if resCons, c.results, err = c.consume(ctx, c.resSt, broker.ResultFilter(c.cfg.Experiment)); err != nil {
		return fmt.Errorf("coordinator: results consumer: %w", err)
	}
	advSt, err := c.js.Stream(ctx, broker.AdvisoriesStream)
	if err != nil {
		c.results.Stop()
		return fmt.Errorf("coordinator: advisories stream: %w", err)
	}
	if _, c.advisories, err = c.consume(ctx, advSt, ""); err != nil {
		c.results.Stop()
		return fmt.Errorf("coordinator: advisories consumer: %w", err)
	}
	c.waitingAtOpen = resCons.CachedInfo().NumPending
	c.resCons = resCons
	c.quit = make(chan struct{})
	c.resCh = pump(c.results, c.quit)
	c.advCh = pump(c.advisories, c.quit)
	c.opened = true
	return nil
}

// stopConsumers stops both consumers' pulls and their pumps.
func (c *coordinator) stopConsumers() {
	if !c.opened {
		return
	}
	c.opened = false
	close(c.quit)
	c.results.Stop()
	c.advisories.Stop()
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
		{c.cellsSt, broker.CellFilter(c.cfg.Experiment)},
		{c.resSt, broker.ResultFilter(c.cfg.Experiment)},
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

// tidyAttempts and tidyBackoff bound how long tidy waits for a stream
// whose leader is being re-elected.
const (
	tidyAttempts = 3
	tidyBackoff  = time.Second
)

// finish flushes and acks what was written, then reports.
func (c *coordinator) finish(err error) (Summary, error) {
	if ferr := c.flush(); ferr != nil {
		err = errors.Join(err, ferr)
	}
	c.sum.Wall = time.Since(c.started)
	c.progress(true)
	return c.sum, err
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
	if c.cellsSt, err = c.js.Stream(ctx, broker.CellsStream); err != nil {
		return fmt.Errorf("cells stream: %w", err)
	}
	if c.resSt, err = c.js.Stream(ctx, broker.ResultsStream); err != nil {
		return fmt.Errorf("results stream: %w", err)
	}
	return nil
}

// openJobs opens the object store of oversized per-job records.
func (c *coordinator) openJobs(ctx context.Context) error {
	var err error
	if c.jobs, err = broker.JobsStore(ctx, c.js, c.cfg.Topology); err != nil {
		return err
	}
	return nil
}

// resultAckWait bounds how long a result delivered to a coordinator that
// crashed before writing it waits before it is delivered again. Results are
// acked at the latest FlushInterval after they are written (plus the time a
// flush takes), well within it; an early redelivery is dropped as done.
const resultAckWait = 30 * time.Second

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

// publish sends the cells with Nats-Msg-Id = cell id. A cell the stream
// reports as a duplicate is published again under a fresh id unless it is
// still queued, its result is waiting, or it is done (see resolveDuplicate).
// A publication that gets no ack (a broker restarting, a cluster electing a
// new stream leader) is sent again with the same id, which the stream
// de-duplicates, for up to republishWait.
func (c *coordinator) publish(ctx context.Context, cells []runner.Cell) error {
	type sent struct {
		cell runner.Cell
		data []byte
		ack  jetstream.PubAckFuture
	}
	const window = 256
	var inflight []sent
	settle := func(s sent) error {
		var ack *jetstream.PubAck
		select {
		case <-ctx.Done():
			return ctx.Err()
		case err := <-s.ack.Err():
			if ack, err = c.republish(ctx, s.cell, s.data, err); err != nil {
				return err
			}
		case ack = <-s.ack.Ok():
		}
		if ack.Duplicate {
			return c.resolveDuplicate(ctx, s.cell, s.data)
		}
		return nil
	}
	for _, cell := range cells {
		data, err := json.Marshal(cell)
		if err != nil {
			return fmt.Errorf("encode cell %s: %w", cell.ID, err)
		}
		f, err := c.js.PublishAsync(broker.CellSubject(cell.Experiment, cell.ID), data, jetstream.WithMsgID(cell.ID))
		if err != nil {
			return fmt.Errorf("cell %s: %w", cell.ID, err)
		}
		inflight = append(inflight, sent{cell, data, f})
		if len(inflight) >= window {
			if err := settle(inflight[0]); err != nil {
				return err
			}
			inflight = inflight[1:]
		}
	}
	for _, s := range inflight {
		if err := settle(s); err != nil {
			return err
		}
	}
	return nil
}

// republishWait bounds how long a cell whose publication was not acked is
// published again.
const republishWait = 2 * time.Minute

// republish publishes a cell again, with the same message id, after its
// asynchronous publication failed with first, until the stream acks it or
// republishWait has passed.
func (c *coordinator) republish(ctx context.Context, cell runner.Cell, data []byte, first error) (*jetstream.PubAck, error) {
	c.cfg.Logf("coordinator: cell %s: publish: %v; publishing again", cell.ID, first)
	deadline := time.Now().Add(republishWait)
	last := first
	for time.Now().Before(deadline) {
		pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		ack, err := c.js.Publish(pctx, broker.CellSubject(cell.Experiment, cell.ID), data, jetstream.WithMsgID(cell.ID))
		cancel()
		if err == nil {
			return ack, nil
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		last = err
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(500 * time.Millisecond):
		}
	}
	return nil, fmt.Errorf("cell %s: no ack for %v: %w", cell.ID, republishWait, last)
}

// resolveDuplicate handles a cell whose publication the stream dropped as a
// duplicate of an earlier one. The checks run in the order the cell's
// messages disappear (a worker publishes the result before it acks the cell;
// the coordinator marks a result done before it acks it), so a cell found in
// none of the three places was run and collected by an earlier coordinator
// whose output no longer has it: it is queued again under a fresh id. A
// queued message or a waiting result of another form of the cell (an
// earlier coordinator with another data root) does not count: the message
// is replaced, and the cell queued again when only such a result waits
// (it will be refused).
func (c *coordinator) resolveDuplicate(ctx context.Context, cell runner.Cell, data []byte) error {
	old, err := c.cellsSt.GetLastMsgForSubject(ctx, broker.CellSubject(cell.Experiment, cell.ID))
	switch {
	case err == nil && bytes.Equal(old.Data, data):
		return nil // queued
	case err == nil:
		// An earlier coordinator published another form of the cell (e.g.
		// from another data root); its result would be refused, so it is
		// replaced by this one.
		if err := c.cellsSt.DeleteMsg(ctx, old.Sequence); err != nil && !errors.Is(err, jetstream.ErrMsgNotFound) {
			return fmt.Errorf("replace queued cell %s: %w", cell.ID, err)
		}
		return c.requeue(ctx, cell)
	case !errors.Is(err, jetstream.ErrMsgNotFound):
		return fmt.Errorf("look up %s: %w", broker.CellSubject(cell.Experiment, cell.ID), err)
	}
	switch res, err := c.resSt.GetLastMsgForSubject(ctx, broker.ResultSubject(cell.Experiment, cell.ID)); {
	case err == nil:
		// A result waits. It counts only if it is for this very message
		// (a result of an earlier coordinator's other form of the cell is
		// refused): otherwise the cell is queued again below.
		var r struct {
			Digest string `json:"cell_digest"`
		}
		sum := cellDigest(data)
		if json.Unmarshal(res.Data, &r) == nil && r.Digest == hex.EncodeToString(sum[:]) {
			return nil
		}
	case !errors.Is(err, jetstream.ErrMsgNotFound):
		return fmt.Errorf("look up %s: %w", broker.ResultSubject(cell.Experiment, cell.ID), err)
	}
	c.mu.Lock()
	done := c.done[cell.ID]
	c.mu.Unlock()
	if done {
		return nil
	}
	return c.requeue(ctx, cell)
}

// requeue publishes a cell again under a fresh message id.
func (c *coordinator) requeue(ctx context.Context, cell runner.Cell) error {
	data, err := json.Marshal(cell)
	if err != nil {
		return err
	}
	id := cell.ID + ":" + strconv.FormatInt(time.Now().UnixNano(), 36)
	_, err = c.js.Publish(ctx, broker.CellSubject(cell.Experiment, cell.ID), data, jetstream.WithMsgID(id))
	return err
}

// reject counts and logs a refused result message and acks it; nothing of
// it is written.
func (c *coordinator) reject(msg jetstream.Msg, cellID, reason string) error {
	c.rejectRaw(msg.Subject(), cellID, reason)
	return msg.Ack()
}

func (c *coordinator) rejectRaw(subject, cellID, reason string) {
	c.sum.Rejected++
	if len(c.sum.Rejections) < maxRejections {
		c.sum.Rejections = append(c.sum.Rejections, Rejection{Subject: subject, CellID: cellID, Reason: reason})
	}
	c.cfg.Logf("coordinator: rejected the message on %s: %s", subject, reason)
}

func hasSubject(ctx context.Context, st jetstream.Stream, subject string) (bool, error) {
	_, err := st.GetLastMsgForSubject(ctx, subject)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, jetstream.ErrMsgNotFound):
		return false, nil
	default:
		return false, fmt.Errorf("look up %s: %w", subject, err)
	}
}

// onResult writes a result unless its cell is unknown or already done.
func (c *coordinator) onResult(msg jetstream.Msg) error {
	res, err := DecodeResult(msg.Data(), c.cfg.MaxResultBytes)
	if err == nil {
		err = CheckResult(res, c.cfg.Experiment, msg.Subject())
	}
	if err != nil {
		return c.reject(msg, res.CellID, err.Error())
	}
	cell, known := c.cells[res.CellID]
	if !known {
		return c.reject(msg, res.CellID, fmt.Sprintf("cell %s is not in experiment %s as specified now", res.CellID, c.cfg.Experiment))
	}
	c.mu.Lock()
	done := c.done[res.CellID]
	c.mu.Unlock()
	if want, published := c.digests[res.CellID]; published && hex.EncodeToString(want[:]) != res.CellDigest || !published && !done {
		return c.reject(msg, res.CellID, fmt.Sprintf("result of a cell message this coordinator did not publish (cell_digest %s; the cell's message has another); the cell's own message runs as usual", res.CellDigest))
	}
	if done {
		c.sum.Duplicates++
		c.cfg.Logf("coordinator: dropping a duplicate result of cell %s from %s: the cell already has its result", res.CellID, res.Worker)
		c.deleteJobs(res.JobsObject)
		return msg.Ack()
	}
	if name := res.JobsObject; name != "" {
		data, err := c.jobs.GetBytes(context.Background(), name)
		switch {
		case errors.Is(err, jetstream.ErrObjectNotFound):
			res = runner.CellResult{CellID: res.CellID, Status: runner.StatusFailed, Worker: res.Worker,
				WallSeconds: res.WallSeconds, Version: res.Version, GoVersion: res.GoVersion, Commit: res.Commit,
				Error: fmt.Sprintf("the per-job records of this result (object %s in %s) are gone: expired or deleted before the coordinator read them", name, broker.JobsBucket)}
		case err != nil:
			c.cfg.Logf("coordinator: read per-job records of cell %s (%s): %v; retrying", res.CellID, name, err)
			return msg.NakWithDelay(time.Second)
		default:
			if err := json.Unmarshal(data, &res.Jobs); err != nil {
				res = runner.CellResult{CellID: res.CellID, Status: runner.StatusFailed, Worker: res.Worker,
					Error: fmt.Sprintf("the per-job records of this result (object %s in %s) do not decode: %v", name, broker.JobsBucket, err)}
			} else if err := checkJobs(res.Jobs); err != nil {
				res = runner.CellResult{CellID: res.CellID, Status: runner.StatusFailed, Worker: res.Worker,
					Error: fmt.Sprintf("the per-job records of this result (object %s in %s): %v", name, broker.JobsBucket, err)}
			}
			c.pendingObjects = append(c.pendingObjects, name)
		}
		res.JobsObject = ""
	}
	if err := c.write(cell, res); err != nil {
		return err
	}
	c.pending = append(c.pending, msg)
	if len(c.pending) >= c.cfg.FlushEvery {
		return c.flush()
	}
	return nil
}

// onAdvisory records a cell that exhausted its deliveries as failed and
// removes its message from the work queue.
func (c *coordinator) onAdvisory(ctx context.Context, msg jetstream.Msg) error {
	var adv broker.MaxDeliveriesAdvisory
	if err := json.Unmarshal(msg.Data(), &adv); err != nil || adv.StreamSeq == 0 {
		c.cfg.Logf("coordinator: dropping undecodable advisory: %v", err)
		return msg.Ack()
	}
	raw, err := c.cellsSt.GetMsg(ctx, adv.StreamSeq)
	if errors.Is(err, jetstream.ErrMsgNotFound) {
		return msg.Ack() // handled before, or acked at last
	}
	if err != nil {
		return fmt.Errorf("coordinator: look up cell message %d: %w", adv.StreamSeq, err)
	}
	var cell runner.Cell
	if err := json.Unmarshal(raw.Data, &cell); err != nil || cell.Experiment != c.cfg.Experiment {
		return msg.Ack() // another experiment's cell: its coordinator handles it
	}
	known := c.cells[cell.ID].ID != ""
	c.mu.Lock()
	done := c.done[cell.ID]
	c.mu.Unlock()
	if want, ok := c.digests[cell.ID]; known && !done && (!ok || want != cellDigest(raw.Data)) {
		// Not the message this coordinator published: a forged or stale
		// one exhausted its deliveries; the cell's own message is not
		// affected.
		c.rejectRaw(raw.Subject, cell.ID, fmt.Sprintf("cell message (stream sequence %d) exhausted its deliveries, but it is not the message this coordinator published for the cell; deleted", adv.StreamSeq))
		known = false
	}
	if known && !done {
		res := runner.CellResult{CellID: cell.ID, Status: runner.StatusFailed,
			Version: buildinfo.Version, GoVersion: buildinfo.GoVersion(), Commit: buildinfo.Commit(), // the row is this coordinator's
			Error: fmt.Sprintf("no result after %d deliveries: every worker that took the cell crashed or let its ack wait expire", adv.Deliveries)}
		if err := c.write(c.cells[cell.ID], res); err != nil {
			return err
		}
	}
	if err := c.sync(); err != nil {
		return err
	}
	if err := c.cellsSt.DeleteMsg(ctx, adv.StreamSeq); err != nil && !errors.Is(err, jetstream.ErrMsgNotFound) {
		return fmt.Errorf("coordinator: delete exhausted cell message %d: %w", adv.StreamSeq, err)
	}
	return msg.Ack()
}

func (c *coordinator) write(cell runner.Cell, res runner.CellResult) error {
	if err := c.cfg.Sink.Write(cell, res); err != nil {
		return fmt.Errorf("coordinator: write result of cell %s: %w", cell.ID, err)
	}
	c.mu.Lock()
	c.done[cell.ID] = true
	c.mu.Unlock()
	delete(c.left, cell.ID)
	if res.Status == runner.StatusOK {
		c.sum.OK++
	} else {
		c.sum.Failed++
		c.sum.Failures = append(c.sum.Failures, Failure{Cell: cell, Error: res.Error})
		c.cfg.Logf("coordinator: cell %s (%s, replication %d) failed: %s", cell.ID, cell.Scheduler, cell.Replication, strings.SplitN(res.Error, "\n", 2)[0])
	}
	if len(c.pending) == 0 {
		c.first = time.Now()
	}
	return nil
}

// flush makes the sink durable and acks the results written since the last
// flush, if there are any.
func (c *coordinator) flush() error {
	if len(c.pending) == 0 {
		return nil
	}
	return c.sync()
}

// sync makes the sink durable and acks the pending results.
func (c *coordinator) sync() error {
	if err := c.cfg.Sink.Flush(); err != nil {
		return fmt.Errorf("coordinator: flush results: %w", err)
	}
	for _, m := range c.pending {
		_ = m.Ack() // a lost ack means a redelivery, dropped as already done
	}
	c.pending = c.pending[:0]
	for _, name := range c.pendingObjects {
		c.deleteJobs(name)
	}
	c.pendingObjects = c.pendingObjects[:0]
	return nil
}

// deleteJobs removes a jobs object that is no longer needed; a failure only
// leaves it to the bucket's TTL.
func (c *coordinator) deleteJobs(name string) {
	if name == "" {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := c.jobs.Delete(ctx, name); err != nil && !errors.Is(err, jetstream.ErrObjectNotFound) {
		c.cfg.Logf("coordinator: delete per-job records %s: %v (the bucket's TTL removes them)", name, err)
	}
}

func (c *coordinator) progress(final bool) {
	if c.prog == nil {
		return
	}
	// min: a run of a session can also write late results of cells of an
	// earlier, interrupted run.
	s := Snapshot{Total: c.sum.Total, Done: min(c.sum.Total, c.sum.Skipped+c.sum.OK+c.sum.Failed), Failed: c.sum.Failed,
		Skipped: c.sum.Skipped, Rejected: c.sum.Rejected, Elapsed: time.Since(c.started)}
	if n := c.sum.OK + c.sum.Failed; n > 0 && s.Elapsed > 0 {
		s.Rate = float64(n) / s.Elapsed.Seconds()
		s.ETA = time.Duration(float64(s.Total-s.Done) / s.Rate * float64(time.Second))
	}
	if final {
		c.prog.Finish(s)
	} else {
		c.prog.Update(s)
	}
}
