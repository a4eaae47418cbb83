package heapfloortest

import (
	"runtime"
	"testing"

	"github.com/schedfarm/schedfarm/internal/heapfloor"
)

// KeepFarmFloor keeps heapfloor.Farm for the rest of the (sub-)benchmark
// and collects once, so that the floor's first adjustment comes before
// the timed part. It skips when GOGC or GOMEMLIMIT is set: the farm's
// processes would obey those and keep no floor.
func KeepFarmFloor(tb testing.TB) {
	tb.Helper()
	if !heapfloor.Keep(heapfloor.Farm) {
		tb.Skip("GOGC or GOMEMLIMIT is set: the farm's processes would keep no heap floor")
	}
	tb.Cleanup(heapfloor.Stop)
	runtime.GC()
}
