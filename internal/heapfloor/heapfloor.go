package heapfloor

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// Farm is the floor the farm's processes keep (cmd/schedfarm's main for
// run, tune, reproduce, coordinator and worker): a small live heap is
// collected when the heap reaches it, at most about 64 MB more memory than
// GOGC=100 would hold; a heap whose own goal is larger (a seed-000 cell's
// hundreds of megabytes) is collected as before. The farm's benchmarks
// keep it too where they measure the farm as it runs.
const Farm = 64 << 20

// Keep makes the collector's heap goal at least floor bytes from the next
// collection on, until [Stop] or for the rest of the process, and reports
// whether it did: it does nothing when GOGC or GOMEMLIMIT is set in the
// environment (the user's settings win), when collection is off, or when
// it is already keeping a floor.
//
// After every collection (a finalizer on an object nothing refers to, set
// again each time) it reads the live heap and the other roots the
// collection scanned from runtime/metrics and sets GOGC's percentage to
// Percent's: the starting one, p0, or a larger one whose goal reaches the
// floor. A goal set this way is never below what p0 would set, so the
// collector only runs less often, and never far above the floor.
func Keep(floor int64) bool {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" || floor <= 0 {
		return false
	}
	gogc := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(gogc)
	mu.Lock()
	defer mu.Unlock()
	if gogc[0].Value.Kind() != metrics.KindUint64 || keeping != nil {
		return false
	}
	p0 := int(gogc[0].Value.Uint64())
	if p0 <= 0 {
		return false // collection off (or GOGC=0): nothing to raise
	}
	k := &keeper{floor: floor, base: p0, current: p0, sample: []metrics.Sample{
		{Name: "/gc/heap/live:bytes"}, {Name: "/gc/scan/stack:bytes"}, {Name: "/gc/scan/globals:bytes"}}}
	keeping = k
	k.arm()
	return true
}

// Stop ends the floor Keep started, if any: GOGC's percentage is set back
// to the one Keep found, and the keeper's pending finalizer, when the next
// collection runs it, does nothing and arms no other. A later Keep starts
// a new floor. Benchmarks use it to measure with and without the floor in
// one process.
func Stop() {
	mu.Lock()
	defer mu.Unlock()
	if keeping == nil {
		return
	}
	if keeping.current != keeping.base {
		debug.SetGCPercent(keeping.base)
	}
	keeping = nil
}

var (
	// mu guards keeping, and a keeper's fields while it is kept.
	mu sync.Mutex
	// keeping is the keeper Keep started, until Stop.
	keeping *keeper
)

// keeper holds the floor and the percentages; after Keep, only its
// finalizer (run on the runtime's finalizer goroutine) and Stop touch it,
// under mu.
type keeper struct {
	floor         int64
	base, current int
	sample        []metrics.Sample
}

// sentinel is large enough not to share a tiny-allocator block with other
// objects, whose finalizer would then wait for them (runtime.SetFinalizer).
type sentinel struct {
	k *keeper
	_ [32]byte
}

// arm sets a finalizer on a fresh unreachable object: the next collection
// queues it, and it sets the percentage and arms again.
func (k *keeper) arm() {
	s := &sentinel{k: k}
	runtime.SetFinalizer(s, func(s *sentinel) {
		mu.Lock()
		defer mu.Unlock()
		if keeping != s.k {
			return // stopped: arm no other
		}
		s.k.adjust()
		s.k.arm()
		if observed != nil {
			select {
			case observed <- s.k.current:
			default:
			}
		}
	})
}

// adjust sets the percentage for the live heap the last collection left.
func (k *keeper) adjust() {
	metrics.Read(k.sample)
	var v [3]int64
	for i, s := range k.sample {
		if s.Value.Kind() != metrics.KindUint64 {
			return // not in this runtime: leave the percentage as it is
		}
		v[i] = int64(s.Value.Uint64())
	}
	p := Percent(v[0], v[1]+v[2], k.floor, k.base)
	if p != k.current {
		debug.SetGCPercent(p)
		k.current = p
	}
}

// heapMinimum is the Go runtime's minimum heap goal at GOGC=100 (4 MB,
// runtime's defaultHeapMinimum), which it scales with the percentage: at a
// percentage p the goal is never below heapMinimum·p/100.
const heapMinimum = 4 << 20

// Percent returns the GOGC percentage, at least base, whose heap goal
// reaches floor for a heap the last collection left with live bytes
// marked and roots bytes of other roots (goroutine stacks and globals),
// by the runtime's rule (gcControllerState.commit): the goal is
// live + (live + roots)·p/100, and never below heapMinimum·p/100. So base
// when base's goal reaches floor already; else the smallest p whose first
// term reaches it, but no more than the p at which the minimum alone does
// (floor·100/heapMinimum: 1,600 for 64 MB), which bounds the goal however
// small the live heap.
func Percent(live, roots, floor int64, base int) int {
	live, roots = max(live, 0), max(roots, 0)
	b := int64(base)
	if live+(live+roots)*b/100 >= floor || heapMinimum*b/100 >= floor {
		return base
	}
	den := max(live+roots, 1)
	p := ((floor-live)*100 + den - 1) / den
	byMinimum := (floor*100 + heapMinimum - 1) / heapMinimum
	return max(base, int(min(p, byMinimum)))
}

// observed, when set (tests), hears the percentage after each collection
// (dropped when the channel is full).
var observed chan int
