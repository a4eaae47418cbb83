package tune

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/schedfarm/schedfarm/broker"
	"github.com/schedfarm/schedfarm/coordinator"
	"github.com/schedfarm/schedfarm/results"
	"github.com/schedfarm/schedfarm/runner"
)

// FarmRunner runs cells on the farm: each call publishes the cells it has
// no result for and waits for them, writing every result to the per-cell
// output. All calls share one coordinator.Session, opened by the first call
// with cells to publish and closed by Close, so a generation pays none of
// a coordinator run's fixed cost (stream and object-store look-ups, the
// experiment's two durable consumers, the purge of a finished experiment)
// again. Results already in that output's journal (a tune that was
// interrupted) are known from the start and never run again.
type FarmRunner struct {
	js    jetstream.JetStream
	exp   string
	w     *results.Writer
	topo  broker.Topology
	logf  func(string, ...any)
	known map[string]runner.CellResult
	sess  *coordinator.Session
	// Published counts the cells published so far.
	Published int
	// DataRoot is the directory the workers mirror (coordinator.Config),
	// read when the first call opens the session.
	DataRoot string
	// Progress, when set, receives the progress of each call's cells (a
	// generation's): every snapshot and the last one with done true.
	Progress func(s coordinator.Snapshot, done bool)
}

// FarmOptions are how NewFarmRunnerWith opens the output: the build of
// this process and whether rows of another build are accepted, and whether
// a damaged journal is repaired (results.Options).
type FarmOptions struct {
	Build        string
	AcceptBuilds bool
	Repair       bool
}

// NewFarmRunner opens (or resumes) the spec's per-cell output and returns
// a runner over js. Close closes the output.
func NewFarmRunner(js jetstream.JetStream, spec *Spec, topo broker.Topology, logf func(string, ...any)) (*FarmRunner, error) {
	return NewFarmRunnerWith(js, spec, topo, logf, FarmOptions{})
}

// NewFarmRunnerWith is NewFarmRunner with the output opened as o says.
func NewFarmRunnerWith(js jetstream.JetStream, spec *Spec, topo broker.Topology, logf func(string, ...any), o FarmOptions) (*FarmRunner, error) {
	w, err := results.Open(results.Options{Path: spec.Output, Experiment: spec.Name, Logf: logf, Owner: "schedfarm tune of experiment " + spec.Name,
		Build: o.Build, AcceptBuilds: o.AcceptBuilds, Repair: o.Repair})
	if err != nil {
		return nil, fmt.Errorf("tune: open %s: %w", spec.Output, err)
	}
	prev, err := results.ReadJournal(spec.Output)
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("tune: read %s: %w", results.JournalPath(spec.Output), err)
	}
	f := &FarmRunner{js: js, exp: spec.Name, w: w, topo: topo, logf: logf, known: map[string]runner.CellResult{}}
	for _, r := range prev {
		if r.Result.Status == runner.StatusOK {
			f.known[r.Cell.ID] = r.Result
		}
	}
	return f, nil
}

// Known returns how many cell results the runner started with.
func (f *FarmRunner) Known() int { return len(f.known) }

// Run implements Runner. The cells with a result already are passed to the
// coordinator as done, so that a redelivered result of one (a tune killed
// after writing it, before acking it) is dropped as a duplicate.
func (f *FarmRunner) Run(ctx context.Context, cells []runner.Cell) (map[string]runner.CellResult, error) {
	var all []runner.Cell
	done := map[string]bool{}
	seen := map[string]bool{}
	todo := 0
	for _, c := range cells {
		if seen[c.ID] {
			continue
		}
		seen[c.ID] = true
		all = append(all, c)
		if _, ok := f.known[c.ID]; ok {
			done[c.ID] = true
		} else {
			todo++
		}
	}
	if todo == 0 {
		return f.known, nil
	}
	if f.sess == nil {
		s, err := coordinator.NewSession(f.js, coordinator.Config{
			Experiment: f.exp, Sink: teeSink{f}, Topology: f.topo, Logf: f.logf, DataRoot: f.DataRoot,
		})
		if err != nil {
			return nil, err
		}
		f.sess = s
	}
	f.Published += todo
	var prog coordinator.Progress
	if f.Progress != nil {
		prog = progressFunc(f.Progress)
	}
	if _, err := f.sess.Run(ctx, coordinator.Batch{Cells: all, Done: done, Progress: prog}); err != nil {
		return nil, err
	}
	return f.known, nil
}

// Close ends the coordinator session (the experiment's leftovers purged
// when every cell has its result) and closes the per-cell output (its
// Parquet file written).
func (f *FarmRunner) Close() error {
	if f.sess != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		f.sess.Close(ctx)
		cancel()
		f.sess = nil
	}
	return f.w.Close()
}

// progressFunc adapts a function to coordinator.Progress.
type progressFunc func(coordinator.Snapshot, bool)

func (p progressFunc) Update(s coordinator.Snapshot) { p(s, false) }
func (p progressFunc) Finish(s coordinator.Snapshot) { p(s, true) }

// teeSink writes results to the output and keeps them.
type teeSink struct{ f *FarmRunner }

func (t teeSink) Write(c runner.Cell, r runner.CellResult) error {
	if err := t.f.w.Write(c, r); err != nil {
		return err
	}
	t.f.known[c.ID] = r
	return nil
}

func (t teeSink) Flush() error { return t.f.w.Flush() }

// LocalRunner runs cells in this process, Workers at a time (tests and
// benchmarks; `schedfarm tune` runs on the farm).
type LocalRunner struct {
	// Sim simulates the cells (runner.New of a family catalog).
	Sim     *runner.Runner
	Workers int
	mu      sync.Mutex
	known   map[string]runner.CellResult
	// Ran counts the cells simulated.
	Ran int
}

// Run implements Runner.
func (l *LocalRunner) Run(ctx context.Context, cells []runner.Cell) (map[string]runner.CellResult, error) {
	l.mu.Lock()
	if l.known == nil {
		l.known = map[string]runner.CellResult{}
	}
	var todo []runner.Cell
	for _, c := range cells {
		if _, ok := l.known[c.ID]; !ok {
			l.known[c.ID] = runner.CellResult{} // claimed
			todo = append(todo, c)
		}
	}
	l.mu.Unlock()
	n := max(l.Workers, 1)
	ch := make(chan runner.Cell)
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range ch {
				r, err := l.Sim.RunCell(ctx, c)
				if err != nil {
					r.CellID, r.Status, r.Error = c.ID, runner.StatusFailed, err.Error()
				}
				l.mu.Lock()
				l.known[c.ID] = r
				l.Ran++
				l.mu.Unlock()
			}
		}()
	}
	for _, c := range todo {
		ch <- c
	}
	close(ch)
	wg.Wait()
	return l.known, ctx.Err()
}
