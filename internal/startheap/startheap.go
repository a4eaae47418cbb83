package startheap

import (
	"os"
	"runtime"
	"runtime/debug"
)

// Grow lets the heap grow to size bytes before the first collection and
// restores the collector's settings (GOGC's percentage, no memory limit) once
// that collection has run. It does nothing, and reports false, when GOGC or
// GOMEMLIMIT is set in the environment (the user's settings win) or when
// collection is off already (an earlier Grow still waiting).
//
// The restoration is a finalizer on an object nothing refers to, which the
// first collection queues; until it runs the collector is paced by the
// memory limit alone.
func Grow(size int64) bool {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return false
	}
	percent := debug.SetGCPercent(-1)
	if percent < 0 {
		// Collection is off already: whoever turned it off paces it.
		debug.SetGCPercent(percent)
		return false
	}
	limit := debug.SetMemoryLimit(size)
	s := &sentinel{}
	runtime.SetFinalizer(s, func(*sentinel) {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
		if restored != nil {
			restored <- struct{}{}
		}
	})
	return true
}

// sentinel is large enough not to share a tiny-allocator block with other
// objects, whose finalizer would then wait for them (runtime.SetFinalizer).
type sentinel struct{ _ [32]byte }

// restored, when set (tests), hears of each restoration.
var restored chan struct{}
