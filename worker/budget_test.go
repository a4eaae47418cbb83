package worker_test

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/schedfarm/schedfarm/broker/brokertest"
	"github.com/schedfarm/schedfarm/coordinator"
	"github.com/schedfarm/schedfarm/experiments"
	"github.com/schedfarm/schedfarm/families"
	"github.com/schedfarm/schedfarm/family"
	"github.com/schedfarm/schedfarm/runner"
	"github.com/schedfarm/schedfarm/worker"
)

// The child process does with each cell what behaviour says by the cell's
// index: "ok" returns a result, "sleep" never ends, "hog" allocates and
// touches memory without end, "crash" exits 3 after a line on stderr.
const childEnv = "SCHEDFARM_BUDGET_TEST_CHILD"

// TestBudgetChild is not a test: it is the child process of the tests
// below, the test binary run again with this test selected.
func TestBudgetChild(t *testing.T) {
	if os.Getenv(childEnv) != "1" {
		t.Skip("the child process of the budget tests")
	}
	run := worker.RunnerFunc(func(ctx context.Context, c runner.Cell) runner.CellResult {
		switch behaviour[c.Index] {
		case "sleep":
			select {}
		case "hog":
			var keep [][]byte
			for {
				b := make([]byte, 8<<20)
				for i := range b {
					b[i] = byte(i)
				}
				//lint:ignore SA4010 the point: memory kept until the budget kills the process
				keep = append(keep, b)
			}
		case "crash":
			os.Stderr.WriteString("child: simulated crash\n")
			os.Exit(3)
		}
		return runner.CellResult{Status: runner.StatusOK, Metrics: []family.Metric{{Name: "index", Value: float64(c.Index)}}}
	})
	if err := worker.ServeOne(context.Background(), run, os.Stdin, os.Stdout); err != nil {
		os.Stderr.WriteString(err.Error())
		os.Exit(2)
	}
	os.Exit(0) // before the test framework writes to stdout
}

func childRunner(b worker.Budget) *worker.ProcessRunner {
	return &worker.ProcessRunner{Command: []string{os.Args[0], "-test.run=^TestBudgetChild$"},
		Env: append(os.Environ(), childEnv+"=1"), Budget: b}
}

// budgetSpec expands to six valid cells (a worker checks every cell it
// gets); the tests give each a behaviour by its index.
const budgetSpec = `name: budget
platform:
  procs: 16
workload:
  generator: {model: lublin99, jobs: 50, procs: 16}
schedulers: [fcfs]
axes:
  - param: workload.load
    values: [0.5, 0.6, 0.7, 0.8, 0.9, 0.95]
seed: 1
output: budget.parquet
`

// behaviour is what the child does with a cell, by its index.
var behaviour = []string{"ok", "sleep", "ok", "hog", "ok", "crash"}

func budgetCells(t *testing.T) []runner.Cell {
	t.Helper()
	spec, err := experiments.Parse([]byte(budgetSpec), "budget.yaml", experiments.NewCatalog(families.Builtin()))
	if err != nil {
		t.Fatal(err)
	}
	cells := spec.Cells()
	if len(cells) != len(behaviour) {
		t.Fatalf("%d cells; want %d", len(cells), len(behaviour))
	}
	return cells
}

// Budgets against cells that clearly exceed them: a cell that never ends
// against 1 s, one that allocates without end against 200 MiB.
func TestProcessRunnerBudgets(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	// Only the cell that never ends meets the short wall-time budget; the
	// others get one no loaded machine reaches, so that each proves its
	// own point (a process start under -race on a busy machine can take a
	// second).
	p := childRunner(worker.Budget{Wall: time.Minute, Memory: 200 << 20})
	if err := p.Check(); err != nil {
		t.Skip(err)
	}
	short := childRunner(worker.Budget{Wall: time.Second, Memory: 200 << 20})
	want := map[string]struct{ status, err string }{
		"ok":    {runner.StatusOK, ""},
		"sleep": {runner.StatusFailed, "exceeded its wall-time budget of 1s (worker --cell-timeout)"},
		"hog":   {runner.StatusFailed, "exceeded its memory budget of 200 MiB (worker --cell-memory)"},
		"crash": {runner.StatusFailed, "(exit status 3); the end of its stderr:\nchild: simulated crash"},
	}
	for i, c := range budgetCells(t) {
		if i == 2 || i == 4 {
			continue // ok once is enough
		}
		b := behaviour[i]
		run := p
		if b == "sleep" {
			run = short
		}
		res := run.Run(context.Background(), c)
		if w := want[b]; res.Status != w.status || !strings.Contains(res.Error, w.err) {
			t.Errorf("%s: status %s, error %q; want %s with %q", b, res.Status, res.Error, w.status, w.err)
		}
		if b == "ok" && (len(res.Metrics) != 1 || res.Metrics[0].Value != 0 || res.CellID != c.ID) {
			t.Errorf("ok cell: result %+v", res)
		}
	}
	for _, s := range []string{"1.5GiB", "512MiB", "2GB", "1024", "10 KiB"} {
		if _, err := worker.ParseBytes(s); err != nil {
			t.Errorf("ParseBytes(%q): %v", s, err)
		}
	}
	if n, _ := worker.ParseBytes("1.5GiB"); n != 3<<29 {
		t.Errorf("1.5GiB = %d", n)
	}
	if _, err := worker.ParseBytes("lots"); err == nil {
		t.Error("ParseBytes(lots) succeeded")
	}
}

// sink records results in memory.
type sink struct {
	mu  sync.Mutex
	res map[string]runner.CellResult
}

func (s *sink) Write(c runner.Cell, r runner.CellResult) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.res[c.ID] = r
	return nil
}

func (s *sink) Flush() error { return nil }

// A worker with one slot meets a cell over its wall-time budget, one over
// its memory budget and one whose process crashes among ordinary cells:
// they become failed cells naming the reason, and the same worker runs
// every other cell.
func TestWorkerGoesOnAfterBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	// One budget for every cell (one worker, one runner): long enough that
	// the ordinary cells' processes finish within it on a loaded machine
	// under -race; the cell that never ends waits it out.
	p := childRunner(worker.Budget{Wall: 10 * time.Second, Memory: 200 << 20})
	if err := p.Check(); err != nil {
		t.Skip(err)
	}
	_, js := brokertest.Start(t)
	cells := budgetCells(t)
	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan error, 1)
	go func() {
		stopped <- worker.Run(ctx, js, worker.Config{ID: "solo", Slots: 1, Runner: p, Catalog: experiments.NewCatalog(families.Builtin())})
	}()
	defer func() {
		cancel()
		if err := <-stopped; err != nil {
			t.Error(err)
		}
	}()
	out := &sink{res: map[string]runner.CellResult{}}
	runCtx, stop := context.WithTimeout(context.Background(), 2*time.Minute)
	defer stop()
	sum, err := coordinator.Run(runCtx, js, coordinator.Config{Experiment: "budget", Cells: cells, Sink: out})
	if err != nil {
		t.Fatal(err)
	}
	if sum.OK != 3 || sum.Failed != 3 {
		t.Errorf("summary %d ok, %d failed; want 3 and 3", sum.OK, sum.Failed)
	}
	for i, b := range behaviour {
		r := out.res[cells[i].ID]
		want := map[string]string{"sleep": "wall-time budget", "hog": "memory budget", "crash": "exit status 3"}[b]
		switch {
		case want == "" && r.Status != runner.StatusOK:
			t.Errorf("cell %d (%s): %s %q; want ok", i, b, r.Status, r.Error)
		case want != "" && (r.Status != runner.StatusFailed || !strings.Contains(r.Error, want)):
			t.Errorf("cell %d (%s): %s %q; want failed naming the %s", i, b, r.Status, r.Error, want)
		}
		if r.Worker != "solo/0" {
			t.Errorf("cell %d ran on %q; want the one slot solo/0", i, r.Worker)
		}
	}
}
