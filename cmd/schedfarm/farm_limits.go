package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"github.com/schedfarm/schedfarm/worker"
	"github.com/schedfarm/schedfarm/workload/swf"
)

// DefaultMaxCells is the default of --max-cells: a spec whose grid has more
// cells is refused unless --yes is given. (A spec is refused outright above
// experiments.MaxCells.)
const DefaultMaxCells = 100_000

// gridFlags are --max-cells and --yes of `run` and `coordinator`.
type gridFlags struct {
	maxCells int
	yes      bool
	envErr   error
}

func (g *gridFlags) register(fs *flag.FlagSet) {
	g.maxCells = DefaultMaxCells
	if v := os.Getenv("SCHEDFARM_MAX_CELLS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			g.envErr = fmt.Errorf("SCHEDFARM_MAX_CELLS %q: want a positive number of cells", v)
		}
		g.maxCells = n
	}
	fs.IntVar(&g.maxCells, "max-cells", g.maxCells, "refuse a spec whose grid has more cells than this unless --yes is given (env SCHEDFARM_MAX_CELLS)")
	fs.BoolVar(&g.yes, "yes", false, "run a spec whose grid has more cells than --max-cells")
}

// check refuses a spec of more than --max-cells cells without --yes,
// naming the count; cells is the spec's expansion.
func (g *gridFlags) check(specPath string, cells int) error {
	switch {
	case g.envErr != nil:
		return g.envErr
	case g.maxCells < 1:
		return fmt.Errorf("--max-cells %d: want a positive number of cells", g.maxCells)
	case cells > g.maxCells && !g.yes:
		return fmt.Errorf("%s: the grid has %d cells, more than --max-cells %d: run again with --yes to go ahead, or raise --max-cells (env SCHEDFARM_MAX_CELLS)",
			specPath, cells, g.maxCells)
	}
	return nil
}

// cellLimitFlags are the worker-side limits of `worker` and `run`: the SWF
// reader's limits and the per-cell budgets.
type cellLimitFlags struct {
	traceBytes, traceJobs string
	cellTimeout           time.Duration
	cellMemory            string
	budget                worker.Budget // set by apply
}

func (l *cellLimitFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&l.traceBytes, "max-trace-bytes", farmEnvOr("SCHEDFARM_MAX_TRACE_BYTES", fmt.Sprint(swf.DefaultMaxBytes)),
		"stop reading a trace after this much SWF text, decompressed (e.g. 4GiB; -1 for no limit): a gzip bomb or endless file fails its cell (env SCHEDFARM_MAX_TRACE_BYTES)")
	fs.StringVar(&l.traceJobs, "max-trace-jobs", farmEnvOr("SCHEDFARM_MAX_TRACE_JOBS", fmt.Sprint(swf.DefaultMaxJobs)),
		"stop reading a trace after this many jobs (-1 for no limit) (env SCHEDFARM_MAX_TRACE_JOBS)")
	cellTimeout := time.Duration(0)
	if v := os.Getenv("SCHEDFARM_CELL_TIMEOUT"); v != "" {
		cellTimeout, _ = time.ParseDuration(v) // checked by apply through the flag's value
	}
	fs.DurationVar(&l.cellTimeout, "cell-timeout", cellTimeout,
		"wall-time budget of one cell (0: none); a cell over it is killed and recorded failed. Any budget runs each cell in a child process (env SCHEDFARM_CELL_TIMEOUT)")
	fs.StringVar(&l.cellMemory, "cell-memory", os.Getenv("SCHEDFARM_CELL_MEMORY"),
		"memory budget of one cell, its process's resident set (e.g. 2GiB; empty: none), sampled every 10ms; a cell over it is killed and recorded failed (env SCHEDFARM_CELL_MEMORY)")
}

// args returns the flags to hand to a child process.
func (l *cellLimitFlags) args() []string {
	return []string{"--max-trace-bytes", l.traceBytes, "--max-trace-jobs", l.traceJobs}
}

// apply sets this process's SWF reader limits and the budget from the
// flags; a command that registered them calls it once, after parsing.
func (l *cellLimitFlags) apply() error {
	var errs []error
	limit := func(flag, v string) int64 {
		if v == "-1" {
			return -1
		}
		n, err := worker.ParseBytes(v)
		if err != nil || n == 0 {
			errs = append(errs, fmt.Errorf("--%s %q: want a positive number (suffixes KiB, MiB, GiB, KB, MB, GB) or -1 for no limit", flag, v))
		}
		return n
	}
	swf.SetDefaultLimits(swf.Limits{MaxBytes: limit("max-trace-bytes", l.traceBytes), MaxJobs: limit("max-trace-jobs", l.traceJobs)})
	l.budget = worker.Budget{Wall: l.cellTimeout}
	if l.cellTimeout < 0 {
		errs = append(errs, fmt.Errorf("--cell-timeout %v: want a positive duration, or 0 for none", l.cellTimeout))
	}
	if l.cellMemory != "" {
		n, err := worker.ParseBytes(l.cellMemory)
		if err != nil || n < 16<<20 {
			errs = append(errs, fmt.Errorf("--cell-memory %q: want a size of at least 16MiB (e.g. 2GiB), or empty for none", l.cellMemory))
		}
		l.budget.Memory = n
	}
	return errors.Join(errs...)
}

// runner returns the cell runner of the applied flags: the simulation in
// this process without a budget (or when the flags were not registered),
// else a child process per cell (`schedfarm worker --run-cell` with the
// same trace limits).
func (l *cellLimitFlags) runner() (worker.Runner, error) {
	if l.budget.IsZero() {
		return farmCellRunner(), nil
	}
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("a cell budget runs cells in child processes of this program, whose path is unknown: %w", err)
	}
	p := &worker.ProcessRunner{Command: append([]string{exe, "worker", "--run-cell"}, l.args()...), Budget: l.budget}
	return p, p.Check()
}

// farmServeCell is `schedfarm worker --run-cell`: run one cell read from
// stdin and write its result to stdout (the child of a budgeted worker).
func farmServeCell(stdin io.Reader, stdout, stderr io.Writer) int {
	if err := worker.ServeOne(context.Background(), farmCellRunner(), stdin, stdout); err != nil {
		fmt.Fprintf(stderr, "schedfarm worker --run-cell: %v\n", err)
		return 1
	}
	return 0
}
