package coordinator

import (
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// SetJobsStoreWrapper makes every coordinator opened from now on use
// wrap(store) for the per-job records object store; the returned func
// undoes it.
func SetJobsStoreWrapper(wrap func(jetstream.ObjectStore) jetstream.ObjectStore) (undo func()) {
	wrapJobsStore = wrap
	return func() { wrapJobsStore = nil }
}

// SetReapTimeout sets how long one deletion of a per-job records object may
// take (reapTimeout) for the coordinators made from now on (each reads it
// once, when made); the returned func restores it.
func SetReapTimeout(d time.Duration) (undo func()) {
	old := reapTimeout
	reapTimeout = d
	return func() { reapTimeout = old }
}

// SetReapBounds sets both bounds of the deletions of per-job records
// objects (one deletion's, reapTimeout, and the end of a run's wait for
// those queued, reapWait) for the coordinators made from now on; the
// returned func restores them.
func SetReapBounds(one, end time.Duration) (undo func()) {
	undoOne := SetReapTimeout(one)
	old := reapWait
	reapWait = end
	return func() { reapWait = old; undoOne() }
}
