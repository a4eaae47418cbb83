package coordinator_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/schedfarm/schedfarm/broker"
	"github.com/schedfarm/schedfarm/coordinator"
	"github.com/schedfarm/schedfarm/runner"
	"github.com/schedfarm/schedfarm/worker"
)

// pointCells returns points × reps cells in grid order (replication
// outermost), the cell of point p, replication r named "p<p>r<r>".
func pointCells(exp string, points, reps int) []runner.Cell {
	var cells []runner.Cell
	for r := range reps {
		for p := range points {
			cells = append(cells, runner.Cell{Experiment: exp, ID: fmt.Sprintf("p%dr%d", p, r), Index: r*points + p,
				Scheduler: "fcfs", Replication: r, Seed: uint64(100*r + p),
				Params: []runner.Param{{Name: "workload.load", Value: 0.5 + 0.1*float64(p)}}})
		}
	}
	return cells
}

// With a window of one cell and one worker slot, the run's order is
// DispatchLongestFirst's alone, computed by hand: each point probed once in
// grid order, then the points by the wall time their probe reported (the
// runner reports 1, 4, 2 and 3 s for points 0–3 without taking them), the
// longest first.
func TestLongestFirstRunsTheLongestPointsFirst(t *testing.T) {
	f := startFarm(t)
	cost := []float64{1, 4, 2, 3}
	var mu sync.Mutex
	var order []string
	runCell := func(ctx context.Context, c runner.Cell) runner.CellResult {
		mu.Lock()
		order = append(order, c.ID)
		mu.Unlock()
		res := okRunner(ctx, c)
		res.WallSeconds = cost[c.Index%len(cost)]
		return res
	}
	f.startWorker(t, worker.Config{ID: "w", Slots: 1, Runner: worker.RunnerFunc(runCell)})
	cells := pointCells("lpt", 4, 3)
	sink := newMemSink()
	sum := runCoordinator(t, context.Background(), f, coordinator.Config{Experiment: "lpt", Cells: cells, Sink: sink, Ahead: 1})
	sink.checkExactlyOnce(t, cells)
	want := "p0r0 p1r0 p2r0 p3r0 p1r1 p1r2 p3r1 p3r2 p2r1 p2r2 p0r1 p0r2"
	if got := strings.Join(order, " "); got != want {
		t.Errorf("cells ran in the order\n  %s\nwant\n  %s", got, want)
	}
	if sum.Published != len(cells) {
		t.Errorf("summary %+v; want all %d published", sum, len(cells))
	}
}

// The grid dispatch publishes every cell at once, in grid order, whatever
// the window.
func TestGridDispatchPublishesEveryCellAtOnce(t *testing.T) {
	f := startFarm(t)
	cells := pointCells("grid", 4, 3)
	sink := newMemSink()
	done := startRun(context.Background(), f.js, coordinator.Config{Experiment: "grid", Cells: cells, Sink: sink,
		Dispatch: coordinator.DispatchGrid, Ahead: 1})
	waitFor(t, time.Minute, "every cell queued", func() bool { return queuedMsgs(f, broker.CellsStream) == uint64(len(cells)) })
	var mu sync.Mutex
	var order []string
	f.startWorker(t, worker.Config{ID: "w", Slots: 1, Runner: worker.RunnerFunc(func(ctx context.Context, c runner.Cell) runner.CellResult {
		mu.Lock()
		order = append(order, c.ID)
		mu.Unlock()
		return okRunner(ctx, c)
	})})
	if r := <-done; r.err != nil {
		t.Fatal(r.err)
	}
	sink.checkExactlyOnce(t, cells)
	var want []string
	for _, c := range cells {
		want = append(want, c.ID)
	}
	mu.Lock()
	defer mu.Unlock()
	if strings.Join(order, " ") != strings.Join(want, " ") {
		t.Errorf("cells ran in the order %v; want grid order %v", order, want)
	}
}

// A window smaller than the farm grows: with a window of one cell and a
// worker of three slots whose first three cells each wait until all three
// run at once, the run ends only if the coordinator widens the window for
// the workers it finds waiting while cells are held back.
func TestLongestFirstWindowGrowsForIdleWorkers(t *testing.T) {
	f := startFarm(t)
	const slots = 3
	var mu sync.Mutex
	started := 0
	together := make(chan struct{})
	runCell := func(ctx context.Context, c runner.Cell) runner.CellResult {
		mu.Lock()
		started++
		n := started
		if n == slots {
			close(together)
		}
		mu.Unlock()
		if n <= slots {
			select {
			case <-together:
			case <-ctx.Done():
			}
		}
		return okRunner(ctx, c)
	}
	f.startWorker(t, worker.Config{ID: "w", Slots: slots, Runner: worker.RunnerFunc(runCell)})
	cells := pointCells("widen", 3, 3)
	sink := newMemSink()
	runCoordinator(t, context.Background(), f, coordinator.Config{Experiment: "widen", Cells: cells, Sink: sink, Ahead: 1})
	sink.checkExactlyOnce(t, cells)
}

// A farm as large as the window is not left waiting for the window's
// quarter refill: with a window of eight and eight slots, the first cell
// returns once all eight run, and the other seven hold until a ninth
// starts. One result leaves room for one cell, less than the quarter
// (two) the publisher waits for, so the run ends only if the coordinator
// widens the window for the slot it finds waiting.
func TestLongestFirstWindowGrowsWhileTheRefillWaits(t *testing.T) {
	f := startFarm(t)
	const slots = 8
	var mu sync.Mutex
	started := 0
	all, ninth := make(chan struct{}), make(chan struct{})
	runCell := func(ctx context.Context, c runner.Cell) runner.CellResult {
		mu.Lock()
		started++
		n := started
		switch n {
		case slots:
			close(all)
		case slots + 1:
			close(ninth)
		}
		mu.Unlock()
		wait := func(ch chan struct{}) {
			select {
			case <-ch:
			case <-ctx.Done():
			}
		}
		if n <= slots {
			wait(all)
		}
		if n > 1 && n <= slots {
			wait(ninth)
		}
		return okRunner(ctx, c)
	}
	f.startWorker(t, worker.Config{ID: "w", Slots: slots, Runner: worker.RunnerFunc(runCell)})
	cells := pointCells("refill", 2*slots, 1)
	sink := newMemSink()
	runCoordinator(t, context.Background(), f, coordinator.Config{Experiment: "refill", Cells: cells, Sink: sink, Ahead: slots})
	sink.checkExactlyOnce(t, cells)
}

// A coordinator stopped mid-sweep under DispatchLongestFirst leaves only
// its window in the work queue: the workers finish those while it is down,
// and the next run reads their results first and publishes the rest, every
// cell once.
func TestLongestFirstRestartResumes(t *testing.T) {
	const exp, n, ahead = "restart-lpt", 40, 6
	f := startFarm(t)
	gate := make(chan struct{})
	var once sync.Once
	runCell := func(ctx context.Context, c runner.Cell) runner.CellResult {
		if c.Index >= 10 {
			<-gate
		}
		return okRunner(ctx, c)
	}
	f.startWorker(t, worker.Config{ID: "w", Slots: 2, Runner: worker.RunnerFunc(runCell)})
	defer once.Do(func() { close(gate) })
	cells := pointCells(exp, n, 1)
	sink := newMemSink()
	js1, closeConn := f.ownConnection(t, "first coordinator")
	ctx, cancel := context.WithCancel(context.Background())
	first := startRun(ctx, js1, coordinator.Config{Experiment: exp, Cells: cells, Sink: sink, FlushEvery: 1, Ahead: ahead})
	waitFor(t, time.Minute, "10 results and the window refilled", func() bool {
		return sink.count() >= 10 && streamMsgs(t, f, broker.CellsStream) == ahead
	})
	cancel()
	if r := <-first; !errors.Is(r.err, context.Canceled) {
		t.Fatalf("interrupted coordinator returned %v; want context.Canceled", r.err)
	}
	closeConn()
	waitPullsDropped(t, f, exp)
	once.Do(func() { close(gate) })
	waitFor(t, time.Minute, "the window's cells to finish while the coordinator is down", func() bool {
		return streamMsgs(t, f, broker.ResultsStream) == ahead && streamMsgs(t, f, broker.CellsStream) == 0
	})
	sum := runCoordinator(t, context.Background(), f, coordinator.Config{Experiment: exp, Cells: cells, Sink: sink, Done: sink.done(), Ahead: ahead})
	sink.checkExactlyOnce(t, cells)
	if sum.Skipped != 10 || sum.Waiting != ahead || sum.Published != n-10-ahead {
		t.Errorf("rerun summary %+v; want 10 skipped, the window's %d results read first and the other %d cells published", sum, ahead, n-10-ahead)
	}
}

// Cells lost from the work queue under DispatchLongestFirst are published
// again as under DispatchGrid (TestLostCellsArePublishedAgain): only those
// the broker had acked, not the ones held back, which the window then
// publishes.
func TestLongestFirstLostCellsArePublishedAgain(t *testing.T) {
	const exp, n, ahead = "stall-lpt", 6, 3
	f := startFarm(t)
	cells := makeCells(exp, n)
	sink := newMemSink()
	done := startRun(context.Background(), f.js, coordinator.Config{Experiment: exp, Cells: cells, Sink: sink,
		StallCheck: 300 * time.Millisecond, Ahead: ahead})
	waitFor(t, 30*time.Second, "the window's cells to be published", func() bool { return queuedMsgs(f, broker.CellsStream) == ahead })
	st, err := f.js.Stream(context.Background(), broker.CellsStream)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Purge(context.Background(), jetstream.WithPurgeSubject(broker.CellFilter(exp))); err != nil {
		t.Fatal(err)
	}
	// No worker runs yet, so the window cannot grow for one: the lost
	// cells are found while the others are still held back.
	waitFor(t, 30*time.Second, "the lost cells to be published again", func() bool { return queuedMsgs(f, broker.CellsStream) == ahead })
	f.startWorker(t, worker.Config{ID: "w", Slots: 2, Runner: worker.RunnerFunc(okRunner)})
	select {
	case r := <-done:
		if r.err != nil {
			t.Fatal(r.err)
		}
		if r.sum.Requeued != ahead || r.sum.Published != n {
			t.Errorf("summary %+v; want the %d lost cells requeued and all %d published", r.sum, ahead, n)
		}
	case <-time.After(time.Minute):
		t.Fatal("the run still waits for its lost cells after a minute")
	}
	sink.checkExactlyOnce(t, cells)
}

// queuedMsgs is the number of messages in a stream, 0 while it does not
// exist yet.
func queuedMsgs(f *farm, name string) uint64 {
	st, err := f.js.Stream(context.Background(), name)
	if err != nil {
		return 0
	}
	info, err := st.Info(context.Background())
	if err != nil {
		return 0
	}
	return info.State.Msgs
}
