package startheap

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

var sink [][]byte

// TestGrowPostponesTheFirstCollection allocates well past the 4 MB at which
// a default heap first collects and checks that no collection ran, then
// forces one and checks that GOGC's percentage and the absent memory limit
// are back.
func TestGrowPostponesTheFirstCollection(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	runtime.GC() // whatever the test binary did before starts collected
	restored = make(chan struct{}, 1)
	defer func() { restored = nil }()
	if !Grow(256 << 20) {
		t.Fatal("Grow did nothing with GOGC and GOMEMLIMIT unset")
	}
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	for range 64 { // 64 MB live: 16 times the default first goal
		sink = append(sink, make([]byte, 1<<20))
	}
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	if after.NumGC != before.NumGC {
		t.Fatalf("%d collections ran while the heap grew to 64 MB under a 256 MB start", after.NumGC-before.NumGC)
	}
	sink = nil
	runtime.GC()
	select {
	case <-restored:
	case <-time.After(time.Minute):
		// Progress, not timing: the finalizer goroutine runs once the
		// collection queued it; a minute only bounds a broken runtime.
		t.Fatal("the settings were not restored after the first collection")
	}
	if p := debug.SetGCPercent(100); p != 100 {
		t.Errorf("GC percent after the first collection: %d, want 100", p)
	}
	if l := debug.SetMemoryLimit(-1); l != math.MaxInt64 {
		t.Errorf("memory limit after the first collection: %d, want none (%d)", l, int64(math.MaxInt64))
	}
}

// TestGrowLeavesTheUsersSettings: with GOGC set, Grow changes nothing.
func TestGrowLeavesTheUsersSettings(t *testing.T) {
	t.Setenv("GOGC", "100")
	if Grow(256 << 20) {
		t.Fatal("Grow changed the collector although GOGC is set")
	}
	if p := debug.SetGCPercent(100); p != 100 {
		t.Errorf("GC percent: %d, want 100", p)
	}
}
