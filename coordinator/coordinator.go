package coordinator

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/schedfarm/schedfarm/broker"
	"github.com/schedfarm/schedfarm/runner"
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
	// Dispatch is the order cells are published in (dispatch.go);
	// DispatchLongestFirst when zero.
	Dispatch Dispatch
	// Ahead is DispatchLongestFirst's window: how many cells may be
	// published without a result (DefaultAhead when zero). It grows by
	// the workers found waiting for cells while cells are held back. A
	// run with no more cells than the window publishes them all at once.
	Ahead int
	// Parcel is the most cells one message may carry (a parcel,
	// broker.SplitParcel; at most broker.MaxParcel); 0 or 1 sends every
	// cell in a message of its own. Under DispatchLongestFirst, the cells
	// of a point whose replications so far took on average at most
	// ParcelBudget / Parcel each travel in parcels, and their results come
	// back in parcels too: for cells that run in microseconds the broker's
	// exchanges cost more than the cell, and a parcel of sixteen costs
	// about what two single cells do. A worker of a
	// build without parcels refuses them, so set Parcel only where every
	// worker is of this build: schedfarm run (and reproduce, which runs
	// it) sets it for its embedded broker, which no other process can
	// reach.
	Parcel int
}

// DefaultParcel is the Config.Parcel that schedfarm run sets for its
// embedded broker: a parcel of sixteen instant cells costs the broker
// about what two single cells do (BenchmarkFarmPrimitives, cell-bundle-16),
// and sixteen is also the most a worker slot takes in one request.
const DefaultParcel = 16

// ParcelBudget bounds the expected run time of a parcel's cells together
// (Config.Parcel): the time the last of them waits in its worker's slot
// for the others, which worker.holdBudget bounds alike for cells taken
// together.
const ParcelBudget = 10 * time.Millisecond

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
	if c.Dispatch != DispatchLongestFirst && c.Dispatch != DispatchGrid {
		errs = append(errs, fmt.Errorf("dispatch %v: want DispatchLongestFirst or DispatchGrid", c.Dispatch))
	}
	if c.Ahead < 0 {
		errs = append(errs, fmt.Errorf("ahead %d: want 0 (DefaultAhead) or more cells", c.Ahead))
	}
	if c.Parcel < 0 || c.Parcel > broker.MaxParcel {
		errs = append(errs, fmt.Errorf("parcel %d: want 0 or 1 (a cell a message) up to %d cells a message", c.Parcel, broker.MaxParcel))
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

// coordinator is the state of a Session, grouped by concern: what it has
// learnt about the experiment's cells (cells, done, digests) lasts for the
// session; its broker handles (conn: streams, object store, consumers,
// session.go) too; the run under way has its summary and the cells still
// without a result (run.go), and the results written but not yet flushed
// and acked (unflushed, results.go).
type coordinator struct {
	cfg Config
	js  jetstream.JetStream

	// The experiment's cells, by ID; digests holds the SHA-256 of the cell
	// messages published: a result counts only for the very message
	// published (publish.go).
	cells   map[string]runner.Cell
	digests map[string][32]byte
	mu      sync.Mutex
	done    map[string]bool // cells with a durable result

	conn connection

	// session: runs of a Session (not the one run of Run), which purge the
	// experiment's leftover cell messages at the end of every run.
	session bool
	// clean: the last run ended without error and every cell the session
	// knows has its result, so Close may purge the experiment's leftovers.
	clean  bool
	closed bool

	// The run under way.
	sum     Summary
	left    map[string]bool // cells of this run still without a result
	prog    Progress
	started time.Time
	// disp is the longest-first publication's state (publish.go), nil
	// when the run publishes every cell at once.
	disp *dispatcher

	unflushed unflushed
	// reaper deletes the jobs objects of durable results (reaper.go).
	reaper reaper
}

// connection is the broker side of a session: the streams and the object
// store it looked up, and the consumers pulling into resCh and advCh.
type connection struct {
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
	// workers is the workers consumer, looked up when DispatchLongestFirst
	// first asks whether workers wait for cells (widenIfStarved).
	workers jetstream.Consumer
	quit    chan struct{}
}

// unflushed are the results written to the sink but not yet flushed, so
// not yet acked on the broker.
type unflushed struct {
	msgs []jetstream.Msg // written but not yet flushed and acked
	// results counts the results in msgs (a parcel of results is one
	// message).
	results int
	first   time.Time // when the oldest of them was written
	// objects are the jobs objects of these results, deleted once the
	// results are durable.
	objects []string
}

// Run publishes every cell not yet done (all at once or a window ahead of
// the results, as cfg.Dispatch says), collects results into cfg.Sink
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
	if cfg.Ahead <= 0 {
		cfg.Ahead = DefaultAhead
	}
	if cfg.Logf == nil {
		cfg.Logf = func(string, ...any) {}
	}
	cfg.Cells, cfg.Done, cfg.Progress = nil, nil, nil
	return &coordinator{cfg: cfg, js: js, cells: map[string]runner.Cell{},
		done: map[string]bool{}, digests: map[string][32]byte{}, reaper: reaper{logf: cfg.Logf, timeout: reapTimeout, bound: reapWait}}
}

// waitingIdle bounds how long readWaiting waits for the next of the
// results the consumer reported pending.
const waitingIdle = 2 * time.Second

// maxReopens bounds how often one run re-creates consumers that stopped.
const maxReopens = 3

// tidyAttempts and tidyBackoff bound how long tidy waits for a stream
// whose leader is being re-elected.
const (
	tidyAttempts = 3
	tidyBackoff  = time.Second
)

// resultAckWait bounds how long a result delivered to a coordinator that
// crashed before writing it waits before it is delivered again. Results are
// acked at the latest FlushInterval after they are written (plus the time a
// flush takes), well within it; an early redelivery is dropped as done.
const resultAckWait = 30 * time.Second

// republishWait bounds how long a cell whose publication was not acked is
// published again.
const republishWait = 2 * time.Minute

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
