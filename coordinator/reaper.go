package coordinator

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// reapTimeout bounds one object's deletion. A deletion is a purge of the
// object's chunks and a delete marker: quick on a healthy broker, but a
// large object on a slow or recovering one can take seconds, and a
// deletion that gives up only leaves the object to the bucket's TTL. A
// variable only for tests (SetReapTimeout, SetReapBounds), read once by
// each coordinator as it is made (newCoordinator), so that a test that
// restores it while a coordinator of its still deletes in the background
// races with nothing.
var reapTimeout = time.Minute

// reapWait bounds how long the end of a run (or of a session) waits for
// the deletions still queued; what is left then goes to the bucket's TTL.
// A variable only for tests on a loaded machine (SetReapBounds), read once
// by each coordinator as reapTimeout is.
var reapWait = 30 * time.Second

// reaper deletes the jobs objects of results that are durable, in the
// background: the collect loop hands them over and goes on with the next
// result instead of waiting for the broker (a slow deletion used to hold
// up result collection, a bounded while per object). Deletions run one at
// a time, in the order handed over. A failed one is logged and leaves the
// object to the bucket's TTL; nothing depends on it but space.
type reaper struct {
	logf func(format string, args ...any)
	// timeout and bound are reapTimeout and reapWait as they were when
	// the coordinator was made.
	timeout, bound time.Duration

	mu      sync.Mutex
	queue   []reapItem
	running bool          // a goroutine is draining the queue
	drained chan struct{} // closed when that goroutine stops
	ctx     context.Context
	cancel  context.CancelFunc
}

type reapItem struct {
	store jetstream.ObjectStore
	name  string
}

// add queues the deletion of the named objects of store.
func (r *reaper) add(store jetstream.ObjectStore, names ...string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, n := range names {
		if n != "" {
			r.queue = append(r.queue, reapItem{store, n})
		}
	}
	if r.running || len(r.queue) == 0 {
		return
	}
	if r.ctx == nil {
		r.ctx, r.cancel = context.WithCancel(context.Background())
	}
	r.running, r.drained = true, make(chan struct{})
	go r.drain(r.ctx, r.drained)
}

// drain deletes queued objects until the queue is empty or the reaper is
// stopped.
func (r *reaper) drain(stop context.Context, drained chan struct{}) {
	defer close(drained)
	for {
		r.mu.Lock()
		if len(r.queue) == 0 || stop.Err() != nil {
			left := len(r.queue)
			r.queue, r.running = nil, false
			r.mu.Unlock()
			if left > 0 {
				r.logf("coordinator: %d per-job records objects not deleted before the end (the bucket's TTL removes them)", left)
			}
			return
		}
		it := r.queue[0]
		r.queue = r.queue[1:]
		r.mu.Unlock()
		ctx, cancel := context.WithTimeout(stop, r.timeout)
		err := it.store.Delete(ctx, it.name)
		cancel()
		if err != nil && !errors.Is(err, jetstream.ErrObjectNotFound) {
			r.logf("coordinator: delete per-job records %s: %v (the bucket's TTL removes them)", it.name, err)
		}
	}
}

// wait waits until every deletion queued so far is done, at most until
// ctx is done or r.bound (reapWait) has passed; then the deletions left
// are given up (each one under way is cancelled) and it returns once the
// reaper's goroutine has stopped. The reaper can be used again afterwards.
func (r *reaper) wait(ctx context.Context) {
	r.mu.Lock()
	if !r.running {
		r.mu.Unlock()
		return
	}
	drained, cancel := r.drained, r.cancel
	r.mu.Unlock()
	bound := time.NewTimer(r.bound)
	defer bound.Stop()
	select {
	case <-drained:
		return
	case <-ctx.Done():
	case <-bound.C:
	}
	cancel()
	<-drained
	r.mu.Lock()
	r.ctx, r.cancel = nil, nil
	r.mu.Unlock()
}
