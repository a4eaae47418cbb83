package worker_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/schedfarm/schedfarm/broker"
	"github.com/schedfarm/schedfarm/worker"
)

// TestNoCellLeavesTheQueueWithoutItsResult takes the results stream away
// from a running worker: a slot sends its results without waiting for each
// ack (worker.send) and acks a cell only once the stream has taken its
// result (worker.finishSettle), so while no result can be published every
// cell must stay in the work queue, nak'ed for a retry after the result's
// publication failed without waiting and then five times waiting. Once the
// stream is back, every cell's result comes in and the queue empties:
// nothing is lost. The faults follow progress (the worker's own log
// lines), never a timer.
func TestNoCellLeavesTheQueueWithoutItsResult(t *testing.T) {
	const n = 3
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	js := queue(t, ctx, broker.Topology{})
	var mu sync.Mutex
	var naks int
	logf := func(format string, args ...any) {
		line := fmt.Sprintf(format, args...)
		if strings.Contains(line, "publish result") && strings.Contains(line, "nak'ed for a retry") {
			mu.Lock()
			naks++
			mu.Unlock()
		}
	}
	defer startWorker(t, js, worker.Config{ID: "unpublished", Slots: 2, Gate: worker.DecodeOnly{}, Runner: instant, Logf: logf})()
	cells, err := js.Stream(ctx, broker.CellsStream)
	if err != nil {
		t.Fatal(err)
	}
	queueEmpty := func() (bool, string) {
		info, err := cells.Info(ctx)
		if err != nil {
			return false, err.Error()
		}
		return info.State.Msgs == 0, fmt.Sprintf("%d cells in the work queue", info.State.Msgs)
	}
	// A first cell through, its result in and the cell acked: the worker
	// is set up (its streams checked), and the queue holds only the cells
	// published next.
	publishCellsFrom(t, ctx, js, "unpublished", 0, 1)
	resultsIn(t, ctx, js, 1)
	waitFor(t, ctx, "the first cell acked", queueEmpty)
	if err := js.DeleteStream(ctx, broker.ResultsStream); err != nil {
		t.Fatal(err)
	}
	publishCellsFrom(t, ctx, js, "unpublished", 1, n)
	waitFor(t, ctx, "a cell nak'ed because its result could not be published", func() (bool, string) {
		mu.Lock()
		defer mu.Unlock()
		return naks > 0, fmt.Sprintf("%d naks", naks)
	})
	info, err := cells.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if info.State.Msgs != n {
		t.Fatalf("%d cells in the work queue while no result could be published; want all %d (a cell was acked without its result)", info.State.Msgs, n)
	}
	if err := broker.Ensure(ctx, js, broker.Topology{}); err != nil {
		t.Fatal(err)
	}
	resultsIn(t, ctx, js, n)
	waitFor(t, ctx, "the work queue empty", queueEmpty)
}
