package coordinator

import "github.com/nats-io/nats.go/jetstream"

// SetJobsStoreWrapper makes every coordinator opened from now on use
// wrap(store) for the per-job records object store; the returned func
// undoes it.
func SetJobsStoreWrapper(wrap func(jetstream.ObjectStore) jetstream.ObjectStore) (undo func()) {
	wrapJobsStore = wrap
	return func() { wrapJobsStore = nil }
}
