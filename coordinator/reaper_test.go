package coordinator_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/schedfarm/schedfarm/broker"
	"github.com/schedfarm/schedfarm/coordinator"
	"github.com/schedfarm/schedfarm/worker"
)

// heldDeletes is the farm's own jobs object store whose deletions wait
// until release is closed (or their context ends) before they are made.
type heldDeletes struct {
	jetstream.ObjectStore
	release chan struct{}

	mu                    sync.Mutex
	started, made, gaveUp int
}

func (h *heldDeletes) Delete(ctx context.Context, name string) error {
	h.mu.Lock()
	h.started++
	h.mu.Unlock()
	select {
	case <-h.release:
	case <-ctx.Done():
		h.mu.Lock()
		h.gaveUp++
		h.mu.Unlock()
		return ctx.Err()
	}
	err := h.ObjectStore.Delete(ctx, name)
	h.mu.Lock()
	h.made++
	h.mu.Unlock()
	return err
}

func (h *heldDeletes) counts() (started, made, gaveUp int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.started, h.made, h.gaveUp
}

// TestHeldDeletionsDoNotHoldUpResults: deleting the per-job records
// object of a durable result is not the collect loop's business. With the
// broker's deletions held, every oversized result is still written and
// flushed (one flush per result) — none of the deletions has been made or
// given up by then; with the deletions made in the loop, the first one
// held the next result until its deadline. Once they are released, Run
// returns only after they are made: the bucket is empty when it returns.
//
// A deletion's own deadline (reapTimeout, a minute) is set past the wait
// for the results (3 minutes), so that a held deletion gives up only if
// the results wait for it: under the race detector on a loaded machine the
// three oversized results once took more than a minute to be written, the
// first deletion gave up meanwhile, and the test took that for the loop
// waiting. Deletions made in the loop now hold the next result until the
// wait for the results fails.
func TestHeldDeletionsDoNotHoldUpResults(t *testing.T) {
	defer coordinator.SetReapTimeout(10 * time.Minute)()
	f := startSmallPayloadFarm(t)
	h := &heldDeletes{release: make(chan struct{})}
	defer coordinator.SetJobsStoreWrapper(func(s jetstream.ObjectStore) jetstream.ObjectStore {
		h.ObjectStore = s
		return h
	})()
	released := false
	defer func() {
		if !released {
			close(h.release)
		}
	}()
	f.startWorker(t, worker.Config{ID: "w", Runner: oversizedRunner(oversizedRecords)})
	cells := makeCells("held", 3)
	sink := newMemSink()
	done := runInBackground(f, 5*time.Minute, coordinator.Config{Experiment: "held", Cells: cells, Sink: sink, FlushEvery: 1})
	waitFor(t, 3*time.Minute, "every result written", func() bool { return sink.count() == len(cells) })
	started, made, gaveUp := h.counts()
	if made != 0 || gaveUp != 0 {
		t.Fatalf("when the last result was written, %d deletions had been made and %d given up (of %d started) while every deletion was held: the results waited for them", made, gaveUp, started)
	}
	if started == 0 {
		t.Fatal("no deletion started by the time every result was written: the objects are not deleted once their results are durable")
	}
	close(h.release)
	released = true
	o := <-done
	if o.err != nil || o.sum.OK != len(cells) {
		t.Fatalf("run: %+v, %v; want %d ok", o.sum, o.err, len(cells))
	}
	sink.checkExactlyOnce(t, cells)
	if _, made, gaveUp := h.counts(); made != len(cells) || gaveUp != 0 {
		t.Errorf("%d deletions made, %d given up; want %d made", made, gaveUp, len(cells))
	}
	store, err := f.js.ObjectStore(context.Background(), broker.JobsBucket)
	if err != nil {
		t.Fatal(err)
	}
	objs, err := store.List(context.Background())
	if !errors.Is(err, jetstream.ErrNoObjectsFound) && (err != nil || len(objs) > 0) {
		t.Fatalf("the bucket holds %d objects when Run returned (%v); want none: Run waits for the queued deletions", len(objs), err)
	}
}
