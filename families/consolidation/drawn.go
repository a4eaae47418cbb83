package consolidation

import (
	"encoding/binary"
	"unsafe"

	"github.com/schedfarm/schedfarm/internal/memo"
	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/workload/cpuusage"
)

// DrawnUsagesBytes bounds the memory of the CPU-usage draws a process keeps
// between runs (8 bytes per process, and as much again for noisy estimates:
// a 200,000-job FWload workload of 4.7 million processes takes 38 MB with
// exact estimates, which share the usages' array, 75 MB with noisy ones).
const DrawnUsagesBytes = 256 << 20

// drawnUsages holds the CPU usages this process's runs have drawn. A draw
// is found again by its seed, model and the jobs' process counts in order,
// compared in full — everything it depends on — and its arrays, which the
// jobs of every run that uses them share, are never written after the
// draw (the sharing model and the schedulers only read them).
var drawnUsages = newUsageCache(DrawnUsagesBytes)

// drawnOrders holds, per draw of drawnUsages with estimates, every job's
// usage with the order of its processes by estimate (estimateOrder), for
// the schedulers that dispatch by it.
var drawnOrders = memo.New[usageKey](DrawnUsagesBytes/2, func(o ordered) int64 {
	return int64(len(o.perJob))*int64(unsafe.Sizeof(sim.CPUUsage{})) + int64(len(o.order))*4
})

// ordered is one draw's usages with orders: every job's sim.CPUUsage, and
// the orders they hold, job after job in one array (what its memory is).
type ordered struct {
	perJob []sim.CPUUsage
	order  []int32
}

type usageKey struct {
	seed  uint64
	p     cpuusage.Params
	procs string // the jobs' process counts, 4 bytes each (procsKey)
}

// usages is one draw: every process's usage, and what the scheduler is
// told of it (nil when nothing is), and each job's sim.CPUUsage over the
// usages (without an order), which the jobs of the runs share.
type usages struct {
	actual, est []float64
	perJob      []sim.CPUUsage
}

func newUsageCache(limit int64) *memo.Cache[usageKey, usages] {
	return memo.New[usageKey](limit, func(u usages) int64 {
		n := len(u.actual)
		if unsafe.SliceData(u.est) != unsafe.SliceData(u.actual) {
			n += len(u.est) // exact estimates share the actual array
		}
		return int64(n)*8 + int64(len(u.perJob))*int64(unsafe.Sizeof(sim.CPUUsage{}))
	})
}

// procsKey encodes process counts for a usageKey.
func procsKey(procs []int) string {
	b := make([]byte, 0, 4*len(procs))
	for _, n := range procs {
		b = binary.LittleEndian.AppendUint32(b, uint32(n))
	}
	return string(b)
}
