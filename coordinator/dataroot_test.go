package coordinator_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/schedfarm/schedfarm/broker"
	"github.com/schedfarm/schedfarm/coordinator"
	"github.com/schedfarm/schedfarm/runner"
	"github.com/schedfarm/schedfarm/worker"
)

// A coordinator interrupted with its cells queued, and run again with
// another data root, publishes its cells in another form (another relative
// directory). Queued messages of the first form are replaced; results a
// running worker made of them are refused (counted as rejected) and their
// cells queued again. Either way the sweep ends with every cell written
// once, from the second form, and no cell waits forever.
func TestRerunWithAnotherDataRoot(t *testing.T) {
	for _, workerFirst := range []bool{false, true} {
		t.Run(fmt.Sprintf("worker-running-%v", workerFirst), func(t *testing.T) {
			rerunWithAnotherDataRoot(t, workerFirst)
		})
	}
}

func rerunWithAnotherDataRoot(t *testing.T, workerFirst bool) {
	f := startFarm(t)
	if err := broker.Ensure(context.Background(), f.js, broker.Topology{}); err != nil {
		t.Fatal(err)
	}
	cells := make([]runner.Cell, 6)
	for i := range cells {
		cells[i] = runner.Cell{Experiment: "reroot", ID: fmt.Sprintf("r%04d", i), Index: i, Scheduler: "fcfs",
			Dir: "/data/specs", Params: []runner.Param{{Name: "workload.trace", Value: "t.swf"}}, Seed: uint64(i)}
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = coordinator.Run(ctx, f.js, coordinator.Config{Experiment: "reroot", Cells: cells, Sink: newMemSink(), DataRoot: "/data/specs"})
	}()
	// queuedDirs returns the dirs of the queued cell messages.
	queuedDirs := func() []string {
		st, err := f.js.Stream(context.Background(), broker.CellsStream)
		if err != nil {
			t.Fatal(err)
		}
		var dirs []string
		for _, c := range cells {
			m, err := st.GetLastMsgForSubject(context.Background(), broker.CellSubject(c.Experiment, c.ID))
			if err != nil {
				continue
			}
			var got runner.Cell
			if err := json.Unmarshal(m.Data, &got); err != nil {
				t.Fatal(err)
			}
			dirs = append(dirs, got.Dir)
		}
		return dirs
	}
	waitFor := func(what string, ok func([]string) bool) {
		for deadline := time.Now().Add(time.Minute); !ok(queuedDirs()); time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("%s: queued dirs %q", what, queuedDirs())
			}
		}
	}
	all := func(dir string) func([]string) bool {
		return func(ds []string) bool {
			for _, d := range ds {
				if d != dir {
					return false
				}
			}
			return len(ds) == len(cells)
		}
	}
	waitFor("the first coordinator's cells", all("."))
	cancel()
	<-done

	var mu sync.Mutex
	var lastDir = map[string]string{}
	startWorker := func() {
		f.startWorker(t, worker.Config{ID: "w", Runner: worker.RunnerFunc(func(ctx context.Context, c runner.Cell) runner.CellResult {
			mu.Lock()
			lastDir[c.ID] = c.Dir
			mu.Unlock()
			return okRunner(ctx, c)
		})})
	}
	if workerFirst {
		startWorker()
	}
	sink := newMemSink()
	sumCh := make(chan coordinator.Summary, 1)
	go func() {
		sumCh <- runCoordinator(t, context.Background(), f, coordinator.Config{Experiment: "reroot", Cells: cells, Sink: sink, DataRoot: "/data"})
	}()
	if !workerFirst {
		waitFor("the second coordinator's cells", all("specs"))
		startWorker()
	}
	sum := <-sumCh
	sink.checkExactlyOnce(t, cells)
	mu.Lock()
	defer mu.Unlock()
	for _, c := range cells {
		if lastDir[c.ID] != "specs" {
			t.Errorf("cell %s last ran with dir %q; want the second coordinator's form %q", c.ID, lastDir[c.ID], "specs")
		}
	}
	if !workerFirst && sum.Rejected != 0 {
		t.Errorf("%d messages rejected: %+v; want none (the queued cells replaced before a worker came)", sum.Rejected, sum.Rejections)
	}
	t.Logf("rejected %d stale results", sum.Rejected)
}
