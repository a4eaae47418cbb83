package main

import (
	"context"
	"fmt"
	"os"

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

// farmRunCell runs one cell's simulation and turns an error into a failed
// result.
func farmRunCell(ctx context.Context, c runner.Cell) runner.CellResult {
	res, err := simulator().RunCell(ctx, c)
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
