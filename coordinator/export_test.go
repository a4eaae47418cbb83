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
// take (reapTimeout) for the coordinators run from now on; the returned
// func restores it.
func SetReapTimeout(d time.Duration) (undo func()) {
	old := reapTimeout
	reapTimeout = d
	return func() { reapTimeout = old }
}
