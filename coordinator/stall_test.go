package coordinator_test

import (
	"context"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/schedfarm/schedfarm/broker"
	"github.com/schedfarm/schedfarm/coordinator"
	"github.com/schedfarm/schedfarm/worker"
)

// Cells lost from the work queue (here: purged while no worker ran, as a
// broker that lost part of its store would lose them) do not keep a run
// waiting for ever: once no result has come for StallCheck and none of the
// experiment's cells is queued, held or answered, they are published again
// and the run ends with every cell once.
func TestLostCellsArePublishedAgain(t *testing.T) {
	const exp, n = "stall", 6
	f := startFarm(t)
	cells := makeCells(exp, n)
	sink := newMemSink()
	done := startRun(context.Background(), f.js, coordinator.Config{Experiment: exp, Cells: cells, Sink: sink,
		StallCheck: 300 * time.Millisecond})
	waitFor(t, 30*time.Second, "the cells to be published", func() bool {
		st, err := f.js.Stream(context.Background(), broker.CellsStream)
		if err != nil {
			return false
		}
		info, err := st.Info(context.Background())
		return err == nil && info.State.Msgs == n
	})
	st, err := f.js.Stream(context.Background(), broker.CellsStream)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Purge(context.Background(), jetstream.WithPurgeSubject(broker.CellFilter(exp))); err != nil {
		t.Fatal(err)
	}
	f.startWorker(t, worker.Config{ID: "w", Slots: 2, Runner: worker.RunnerFunc(okRunner)})
	select {
	case r := <-done:
		if r.err != nil {
			t.Fatal(r.err)
		}
		if r.sum.Requeued != n {
			t.Errorf("requeued %d cells; want %d", r.sum.Requeued, n)
		}
	case <-time.After(time.Minute):
		t.Fatal("the run still waits for its lost cells after a minute")
	}
	sink.checkExactlyOnce(t, cells)
}
