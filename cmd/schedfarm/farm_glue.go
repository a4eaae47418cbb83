package main

import (
	"context"
	"fmt"
	"os"
	"sync/atomic"

	"github.com/schedfarm/schedfarm/experiments"
	"github.com/schedfarm/schedfarm/internal/buildinfo"
	"github.com/schedfarm/schedfarm/results"
	"github.com/schedfarm/schedfarm/runner"
	"github.com/schedfarm/schedfarm/worker"
)

// farmLoadSpec loads and validates a spec against everything schedfarm ships.
func farmLoadSpec(path string) (*experiments.Spec, error) {
	return experiments.Load(path, specCatalog())
}

// farmCellRunner is the runner of the worker subcommands: the real simulation,
// wrapped by the test-only fault hooks when built with the schedfarm_faults
// tag (and by nothing otherwise).
func farmCellRunner() worker.Runner {
	return farmWithFaults(worker.RunnerFunc(farmRunCell))
}

// cellGate bounds how many cells the in-process workers of this process
// simulate at once, whatever run they belong to (shareCellSlots).
type cellGate struct{ slots chan struct{} }

// sharedCellSlots is the gate of the reproduce command under way, if any.
var sharedCellSlots atomic.Pointer[cellGate]

// shareCellSlots makes the in-process cells of every run in this process,
// until the returned function is called, share n simulation slots: reproduce
// runs several specs side by side, each with its own worker and its own
// --workers slots, so that one spec's last, longest cells do not leave the
// cores idle; with the slots shared, n cells simulate at once rather than n
// per spec. More cells than cores cost CPU (each evicts the others' working
// sets from the caches: 3–9% more CPU time for 4 cells at once than for 2 on
// a 2-vCPU VM, docs/performance-log.md, "Twentieth session"), and change no
// result. A gate already installed (a reproduce running beside this one, in
// tests) is left alone.
func shareCellSlots(n int) (done func()) {
	g := &cellGate{slots: make(chan struct{}, n)}
	if n < 1 || !sharedCellSlots.CompareAndSwap(nil, g) {
		return func() {}
	}
	return func() { sharedCellSlots.CompareAndSwap(g, nil) }
}

// simulateCell is the simulation farmRunCell runs (tests replace it).
var simulateCell = func(ctx context.Context, c runner.Cell) (runner.CellResult, error) {
	return simulator().RunCell(ctx, c)
}

// farmRunCell runs one cell's simulation and turns an error into a failed
// result. While sharedCellSlots holds a gate, the simulation waits for one
// of its slots (the worker's heartbeats go on meanwhile, and the cell's wall
// time, measured by RunCell, leaves the wait out).
func farmRunCell(ctx context.Context, c runner.Cell) runner.CellResult {
	if g := sharedCellSlots.Load(); g != nil {
		select {
		case g.slots <- struct{}{}:
			defer func() { <-g.slots }()
		case <-ctx.Done():
			// Cancelled while waiting: RunCell reports the context's end.
		}
	}
	res, err := simulateCell(ctx, c)
	if err != nil {
		res.Status = runner.StatusFailed
		res.Error = err.Error()
	}
	return res
}

// farmOpenOutput opens (owns, or resumes) the spec's outputs for the
// command cmdName and returns the cells already done there (status ok;
// failed cells are run again). Outputs that hold another experiment's
// results, another process's output (*lockfile.BusyError), a damaged
// journal (*results.DamagedJournalError, unless --repair) or rows of
// another build (*results.OtherBuildError, unless --accept-builds) are
// refused; a torn journal line cut off is reported on stderr.
func farmOpenOutput(spec *experiments.Spec, cmdName string, sf sweepFlags) (*results.Writer, map[string]bool, error) {
	w, err := results.Open(results.Options{Path: spec.Output, JobsPath: spec.JobsOutput, Metrics: spec.Metrics, Glossary: glossary(),
		Experiment: spec.Name, Logf: func(f string, a ...any) { fmt.Fprintf(os.Stderr, f+"\n", a...) },
		Owner: "schedfarm " + cmdName + " of experiment " + spec.Name, Build: buildinfo.Commit(),
		AcceptBuilds: sf.acceptBuilds, Repair: sf.repair})
	if err != nil {
		return nil, nil, fmt.Errorf("open output %s: %w", spec.Output, err)
	}
	done := map[string]bool{}
	for id := range w.Done() {
		done[id] = true
	}
	return w, done, nil
}
