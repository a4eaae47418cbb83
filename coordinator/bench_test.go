package coordinator_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/schedfarm/schedfarm/broker"
	"github.com/schedfarm/schedfarm/coordinator"
	"github.com/schedfarm/schedfarm/experiments"
	"github.com/schedfarm/schedfarm/families"
	"github.com/schedfarm/schedfarm/internal/cputime"
	"github.com/schedfarm/schedfarm/internal/heapfloor/heapfloortest"
	"github.com/schedfarm/schedfarm/runner"
	"github.com/schedfarm/schedfarm/worker"
)

// sweep runs cells through a coordinator and workers with the given slots
// on f and returns the wall time.
func sweep(b *testing.B, f *farm, exp string, cells []runner.Cell, slots int, run worker.RunnerFunc) time.Duration {
	return sweepGated(b, f, exp, cells, slots, run, nil, 0)
}

// sweepGated is sweep with the worker's gate: nil for cells no spec makes
// (renamed by ownIDs), which the worker only decodes and, for cells with a
// trace in a temporary directory, resolves under / as the data root.
func sweepGated(b *testing.B, f *farm, exp string, cells []runner.Cell, slots int, run worker.RunnerFunc, gate worker.Gate, parcel int) time.Duration {
	b.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	wcfg := worker.Config{ID: exp, Slots: slots, Runner: run, Gate: gate}
	if gate == nil {
		wcfg.Gate = worker.DecodeOnly{}
	}
	root := ""
	if gate == nil && len(cells) > 0 && cells[0].Dir != "" {
		dr, err := worker.OpenDataRoot("/")
		if err != nil {
			b.Fatal(err)
		}
		defer dr.Close()
		root = "/"
		wcfg.Gate = gateFunc(func(subject string, data []byte) (runner.Cell, error) {
			c, err := worker.DecodeCell(subject, data, 0)
			if err != nil {
				return c, err
			}
			return dr.Resolve(c)
		})
	}
	go func() { done <- worker.Run(ctx, f.js, wcfg) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			b.Error(err)
		}
	}()
	start := time.Now()
	sum, err := coordinator.Run(context.Background(), f.js, coordinator.Config{Experiment: exp, Cells: cells, Sink: newMemSink(), DataRoot: root,
		Dispatch: benchDispatch(b), Parcel: parcel})
	wall := time.Since(start)
	if err != nil {
		b.Fatal(err)
	}
	if sum.OK != len(cells) {
		b.Fatalf("%d of %d cells ok", sum.OK, len(cells))
	}
	return wall
}

// benchDispatch is the dispatch order of the benchmarks' sweeps:
// SCHEDFARM_BENCH_DISPATCH (longest-first or grid) to compare the two,
// longest-first (the default) when unset.
func benchDispatch(b *testing.B) coordinator.Dispatch {
	v := os.Getenv("SCHEDFARM_BENCH_DISPATCH")
	if v == "" {
		return coordinator.DispatchLongestFirst
	}
	d, err := coordinator.ParseDispatch(v)
	if err != nil {
		b.Fatalf("SCHEDFARM_BENCH_DISPATCH: %v", err)
	}
	return d
}

// gateFunc adapts a function to worker.Gate.
type gateFunc func(subject string, data []byte) (runner.Cell, error)

func (f gateFunc) Admit(subject string, data []byte) (runner.Cell, error) {
	return f(subject, data)
}

// ownIDs makes the cell ids unique to their experiment, as real cell ids
// are (they hash the experiment name). The benchmarks run several
// experiments on one broker; with shared ids every cell after the first
// experiment would be a Nats-Msg-Id duplicate and take the coordinator's
// duplicate-resolution path (two stream look-ups and a second publish).
func ownIDs(cells []runner.Cell) []runner.Cell {
	for i := range cells {
		cells[i].ID = cells[i].Experiment + "-" + cells[i].ID
	}
	return cells
}

// trustedCells writes a spec named name with n = 50 × n/50 cells (FCFS on a
// generated workload, fifty loads, n/50 replications) in dir and returns its
// cells, as a coordinator publishes them: a worker's Trust gate admits them.
func trustedCells(b *testing.B, dir, name string, n int) []runner.Cell {
	b.Helper()
	loads := make([]string, 50)
	for i := range loads {
		loads[i] = fmt.Sprintf("%.3f", 0.5+float64(i)/100)
	}
	spec := fmt.Sprintf(`name: %s
platform: {procs: 64}
workload:
  generator: {model: lublin99, jobs: 100, procs: 64}
schedulers: [fcfs]
axes:
  - param: workload.load
    values: [%s]
replications: %d
`, name, strings.Join(loads, ", "), n/50)
	return specCells(b, filepath.Join(dir, name+".yaml"), spec)
}

// specCells writes spec to path and returns the cells it expands to.
func specCells(tb testing.TB, path, spec string) []runner.Cell {
	tb.Helper()
	if err := os.WriteFile(path, []byte(spec), 0o644); err != nil {
		tb.Fatal(err)
	}
	s, err := experiments.Load(path, experiments.NewCatalog(families.Builtin()))
	if err != nil {
		tb.Fatal(err)
	}
	return s.Cells()
}

// startFarmStore starts a farm whose cells and results streams are in
// memory (inMemory: run's and tune's embedded broker,
// broker.Topology.InMemory) or on the file store, made before the sweeps,
// which keep the storage they find.
func startFarmStore(b *testing.B, inMemory bool) *farm {
	b.Helper()
	f := startFarm(b)
	if err := broker.Ensure(context.Background(), f.js, broker.Topology{InMemory: inMemory}); err != nil {
		b.Fatal(err)
	}
	return f
}

// BenchmarkFarmOverheadPerCellTrusted is BenchmarkFarmOverheadPerCell's
// 5,000-cell sweep on 2 slots with the cells of a real spec (a new name each
// sweep) and the worker's default gate, Trust: every cell is decoded, its
// files resolved (a generated workload has none) and re-validated against
// the spec through the re-check's cache (50 points, so 50 full checks a
// sweep), as in a farm. The difference from the untrusted sweep is the
// re-check's share of a cell. The cells and results streams are on the
// file store (store=file) or in memory (store=memory: run's and tune's
// embedded broker, broker.Topology.InMemory); heap=floor keeps the farm
// processes' heap floor as well (heapfloortest.KeepFarmFloor), which is
// how tune runs them; parcel=16 also sends the cells of points found
// instant sixteen to a message (coordinator.Config.Parcel), which is how
// run runs them.
func BenchmarkFarmOverheadPerCellTrusted(b *testing.B) {
	for _, v := range []struct {
		name            string
		inMemory, floor bool
		parcel          int
	}{{"store=file", false, false, 0}, {"store=memory", true, false, 0}, {"store=memory,heap=floor", true, true, 0},
		{"store=memory,heap=floor,parcel=16", true, true, coordinator.DefaultParcel}} {
		b.Run(v.name, func(b *testing.B) {
			if v.floor {
				heapfloortest.KeepFarmFloor(b)
			}
			dir := b.TempDir()
			root, err := worker.OpenDataRoot(dir)
			if err != nil {
				b.Fatal(err)
			}
			defer root.Close()
			f := startFarmStore(b, v.inMemory)
			n, cellsRun := 0, 0
			var total, cpu time.Duration
			for b.Loop() {
				n++
				b.StopTimer()
				cells := trustedCells(b, dir, fmt.Sprintf("overhead-trusted-%d", n), 5000)
				gate := worker.NewTrust(root, experiments.NewCatalog(families.Builtin()), 0)
				b.StartTimer()
				c0 := cputime.Process()
				total += sweepGated(b, f, cells[0].Experiment, cells, 2, okRunner, gate, v.parcel)
				cpu += cputime.Process() - c0
				cellsRun += len(cells)
			}
			b.ReportMetric(float64(total.Microseconds())/1000/float64(cellsRun), "ms/cell")
			b.ReportMetric(float64(cpu.Microseconds())/1000/float64(cellsRun), "cpu-ms/cell")
		})
	}
}

// BenchmarkFarmOverheadPerCell measures what the farm adds per cell (publish,
// fetch, heartbeat timer, result publish with ack, cell ack, result write,
// flush and ack) with a simulation that does nothing, on an embedded server
// with 2 worker slots, in sweeps of 500 and of 5,000 cells: each
// sweep is an experiment of its own (its consumers made and removed), so
// the smaller sweep also carries that fixed cost per cell; and in sweeps
// of 5,000 cells with 1 slot, where every take finds the cell it gets at
// the head of the work queue (see broker's workersConsumer); the cells and
// results streams on the file store, and (store=memory) in memory, as run
// and tune make them on their embedded broker (broker.Topology.InMemory),
// and (heap=floor) with the farm processes' heap floor as well
// (heapfloortest.KeepFarmFloor), as run and tune run them.
// ms/cell is wall time; cpu-ms/cell the CPU time of the whole process
// (broker, coordinator and worker all run in it) over the sweeps, from
// getrusage.
func BenchmarkFarmOverheadPerCell(b *testing.B) {
	for _, sc := range []struct {
		size, slots     int
		inMemory, floor bool
	}{{500, 2, false, false}, {5000, 2, false, false}, {5000, 1, false, false}, {500, 2, true, false}, {5000, 2, true, false}, {5000, 2, true, true}} {
		size, slots := sc.size, sc.slots
		name := fmt.Sprintf("cells=%d", size)
		if slots != 2 {
			name += fmt.Sprintf(",slots=%d", slots)
		}
		if sc.inMemory {
			name += ",store=memory"
		}
		if sc.floor {
			name += ",heap=floor"
		}
		b.Run(name, func(b *testing.B) {
			if sc.floor {
				heapfloortest.KeepFarmFloor(b)
			}
			f := startFarmStore(b, sc.inMemory)
			n, cellsRun := 0, 0
			var total, cpu time.Duration
			for b.Loop() {
				n++
				cells := ownIDs(makeCells(fmt.Sprintf("overhead-%d-%d-%d", size, slots, n), size))
				c0 := cputime.Process()
				total += sweep(b, f, cells[0].Experiment, cells, slots, okRunner)
				cpu += cputime.Process() - c0
				cellsRun += len(cells)
			}
			b.ReportMetric(float64(total.Microseconds())/1000/float64(cellsRun), "ms/cell")
			b.ReportMetric(float64(cpu.Microseconds())/1000/float64(cellsRun), "cpu-ms/cell")
		})
	}
}

// BenchmarkFarmSpeedup2Over1 runs the same CPU-bound real cells (EASY and CONS
// on a generated 4000-job trace) on 1 and on 2 worker slots and reports the
// speedup, the speedup of the same cells on 1 and 2 goroutines without the
// farm (raw-speedup), and the most any 2-way run of these cells in this
// order can reach (order-bound: the cells differ in cost — a CONS cell at
// load 0.95 costs five average cells — so the last big cell leaves one
// worker idle; ten replications of the grid keep that tail small).
func BenchmarkFarmSpeedup2Over1(b *testing.B) {
	cells := speedupCells(b)
	run := func(ctx context.Context, c runner.Cell) runner.CellResult {
		res, err := runner.New(families.Builtin()).RunCell(ctx, c)
		if err != nil {
			b.Fatalf("cell %s: %v", c.ID, err)
		}
		return res
	}
	// The same cells without the farm, on 1 and 2 goroutines: the speedup
	// the machine itself offers at this moment (other load shrinks it).
	// The one-goroutine pass also times every cell, to compute what the
	// cell mix allows: handing the cells in this order to whichever of two
	// workers is free first finishes no sooner than the greedy makespan, so
	// no 2-worker run can beat Σ cell / makespan ("order-bound"), however
	// well the cells themselves scale.
	var cellSum, makespan time.Duration
	raw := func(par int) time.Duration {
		start := time.Now()
		ch := make(chan runner.Cell)
		var wg sync.WaitGroup
		var free [2]time.Duration // greedy schedule of the timed cells
		for range par {
			wg.Go(func() {
				for c := range ch {
					t0 := time.Now()
					run(context.Background(), c)
					if par == 1 {
						d := time.Since(t0)
						cellSum += d
						w := 0
						if free[1] < free[0] {
							w = 1
						}
						free[w] += d
					}
				}
			})
		}
		for _, c := range cells {
			ch <- c
		}
		close(ch)
		wg.Wait()
		if par == 1 {
			makespan += max(free[0], free[1])
		}
		return time.Since(start)
	}
	f := startFarm(b)
	n := 0
	var t1, t2, r1, r2 time.Duration
	for b.Loop() {
		r1 += raw(1)
		r2 += raw(2)
		for _, slots := range []int{1, 2} {
			n++
			exp := fmt.Sprintf("speedup-%d", n)
			cs := make([]runner.Cell, len(cells))
			for i, c := range cells {
				c.Experiment = exp
				cs[i] = c
			}
			cs = ownIDs(cs)
			wall := sweep(b, f, exp, cs, slots, run)
			if slots == 1 {
				t1 += wall
			} else {
				t2 += wall
			}
		}
	}
	b.ReportMetric(float64(t1.Milliseconds())/float64(n/2)/float64(len(cells)), "ms/cell-1w")
	b.ReportMetric(float64(t2.Milliseconds())/float64(n/2)/float64(len(cells)), "ms/cell-2w")
	b.ReportMetric(float64(t1)/float64(t2), "speedup")
	b.ReportMetric(float64(r1)/float64(r2), "raw-speedup")
	b.ReportMetric(float64(cellSum)/float64(makespan), "order-bound")
}

// BenchmarkCellScaling runs the cells of BenchmarkFarmSpeedup2Over1 without
// the farm: the whole list three times on one goroutine, then on each of two
// goroutines at once, and reports 2·t1/t2 (balanced-speedup). Both
// goroutines do the same work, so no worker waits for the last long cell:
// this is how well the cells themselves scale on two cores.
func BenchmarkCellScaling(b *testing.B) {
	cells := speedupCells(b)
	pass := func(par int) time.Duration {
		start := time.Now()
		var wg sync.WaitGroup
		for range par {
			wg.Go(func() {
				for range 3 {
					for _, c := range cells {
						if res, err := runner.New(families.Builtin()).RunCell(context.Background(), c); err != nil || res.Status != runner.StatusOK {
							b.Errorf("cell %s: %v %s", c.ID, err, res.Error)
						}
					}
				}
			})
		}
		wg.Wait()
		return time.Since(start)
	}
	var t1, t2 time.Duration
	for b.Loop() {
		t1 += pass(1)
		t2 += pass(2)
	}
	runs := float64(b.N * 3 * len(cells))
	b.ReportMetric(float64(t1.Microseconds())/1000/runs, "ms/cell-1")
	b.ReportMetric(2*float64(t1)/float64(t2), "balanced-speedup")
}

// speedupCells writes a generated 4000-job trace and a 100-cell EASY/CONS
// spec over it and returns the cells.
func speedupCells(tb testing.TB) []runner.Cell {
	tb.Helper()
	dir := tb.TempDir()
	var tr strings.Builder
	tr.WriteString("; Version: 2.2\n; MaxProcs: 64\n")
	for i := 1; i <= 4000; i++ {
		run, procs := 100+(i*7919)%5000, 1+(i*31)%32
		fmt.Fprintf(&tr, "%d %d -1 %d %d -1 -1 %d %d -1 1 1 1 1 1 -1 -1 -1\n", i, i*60, run, procs, procs, run*3)
	}
	if err := os.WriteFile(filepath.Join(dir, "trace.swf"), []byte(tr.String()), 0o644); err != nil {
		tb.Fatal(err)
	}
	spec := `name: speedup
platform: {procs: 64}
workload: {trace: trace.swf}
schedulers: [easy, cons]
axes:
  - param: workload.load
    values: [0.6, 0.7, 0.8, 0.9, 0.95]
replications: 10
`
	return specCells(tb, filepath.Join(dir, "spec.yaml"), spec)
}
