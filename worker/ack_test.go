package worker_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/schedfarm/schedfarm/broker"
	"github.com/schedfarm/schedfarm/worker"
)

// TestWorkerAcksEveryCell runs a worker on cells published straight to the
// cells stream, with no coordinator (whose tidying would purge the
// stream), and checks that after their results are in, every cell message
// is acked — the workers consumer has none pending or awaiting an ack, and
// the work queue is empty — and that no cell was delivered twice: each was
// acked before the consumer's 30 s AckWait would have redelivered it. The
// worker sends its acks without awaiting the server's reply
// (worker.finishSettle), so the check waits for them to land.
//
// The wait is bounded by the test's two minutes only, not by a deadline
// under the AckWait (the test once gave the acks 20 s): what tells an ack
// that came too late is the delivery count (the consumer's last delivery
// sequence: n when every cell was delivered once), not the time the test
// waited, which on a loaded machine says nothing. A worker that never acks
// never empties the queue; one whose acks come after the AckWait has its
// cells delivered again.
func TestWorkerAcksEveryCell(t *testing.T) {
	const n = 20
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	js := queue(t, ctx, broker.Topology{})
	publishCells(t, ctx, js, "acks", n)
	defer startWorker(t, js, worker.Config{ID: "acker", Slots: 2, Gate: worker.DecodeOnly{}, Runner: instant})()
	results, err := js.Stream(ctx, broker.ResultsStream)
	if err != nil {
		t.Fatal(err)
	}
	cells, err := js.Stream(ctx, broker.CellsStream)
	if err != nil {
		t.Fatal(err)
	}
	cons, err := js.Consumer(ctx, broker.CellsStream, broker.WorkersConsumer)
	if err != nil {
		t.Fatal(err)
	}
	// Every result in: the worker has sent every ack after its result.
	waitFor(t, ctx, "the 20 results", func() (bool, string) {
		info, err := results.Info(ctx)
		if err != nil {
			return false, err.Error()
		}
		return info.State.Msgs == n, fmt.Sprintf("%d results", info.State.Msgs)
	})
	var delivered uint64
	waitFor(t, ctx, "every cell acked", func() (bool, string) {
		ci, err := cons.Info(ctx)
		if err != nil {
			return false, err.Error()
		}
		si, err := cells.Info(ctx)
		if err != nil {
			return false, err.Error()
		}
		delivered = ci.Delivered.Consumer
		state := fmt.Sprintf("%d pending, %d awaiting an ack, %d redelivered, %d deliveries, %d cells in the work queue",
			ci.NumPending, ci.NumAckPending, ci.NumRedelivered, delivered, si.State.Msgs)
		return ci.NumPending == 0 && ci.NumAckPending == 0 && si.State.Msgs == 0, state
	})
	if delivered != n {
		t.Errorf("%d deliveries of %d cells; want each delivered once (acked before the AckWait)", delivered, n)
	}
}
