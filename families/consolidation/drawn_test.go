package consolidation

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/workload/cpuusage"
)

// usagesOf draws for jobs of the given process counts and returns every
// process's usage and estimate, in order.
func usagesOf(procs []int, p cpuusage.Params, seed uint64) (actual, est []float64) {
	jobs := make([]*sim.Job, len(procs))
	for i, n := range procs {
		jobs[i] = sim.NewJob(int64(i+1), 0, []int{n}, 10, 10, 0)
	}
	DrawCPU(jobs, p, seed)
	for _, j := range jobs {
		for i := range j.Procs() {
			actual = append(actual, j.CPU(i))
		}
		est = append(est, j.CPUEstimate...)
	}
	return actual, est
}

// TestDrawnUsagesKept draws for workloads that differ pairwise in one thing
// the draw depends on (seed, model, one job's process count, the order of
// two jobs), first with no cache (every draw fresh), then twice through a
// fresh one (a draw, then a hit), and wants the same usages every time, and
// different ones for the different workloads: a cache keyed on less would
// hand one workload another's draw.
func TestDrawnUsagesKept(t *testing.T) {
	saved := drawnUsages
	defer func() { drawnUsages = saved }()
	rng := rand.New(rand.NewPCG(5, 6))
	base := make([]int, 300)
	for i := range base {
		base[i] = 1 + rng.IntN(8)
	}
	base[10], base[11] = 1, 4 // a one-process job (100%, no draw) before a larger one
	oneMore := slices.Clone(base)
	oneMore[100]++
	swapped := slices.Clone(base)
	swapped[10], swapped[11] = swapped[11], swapped[10]
	noisy := cpuusage.Params{Low: 0.4, High: 1, Estimate: cpuusage.Noisy, Error: 0.2}
	cases := []struct {
		procs []int
		p     cpuusage.Params
		seed  uint64
	}{
		{base, cpuusage.Default(), 1},
		{base, cpuusage.Default(), 2},
		{base, noisy, 1},
		{oneMore, cpuusage.Default(), 1},
		{swapped, cpuusage.Default(), 1},
	}
	drawnUsages = nil
	var fresh [][2][]float64
	for _, c := range cases {
		a, e := usagesOf(c.procs, c.p, c.seed)
		fresh = append(fresh, [2][]float64{a, e})
	}
	for i := range fresh {
		for k := i + 1; k < len(fresh); k++ {
			if slices.Equal(fresh[i][0], fresh[k][0]) && slices.Equal(fresh[i][1], fresh[k][1]) {
				t.Fatalf("cases %d and %d draw the same usages: the test cannot tell them apart", i, k)
			}
		}
	}
	drawnUsages = newUsageCache(DrawnUsagesBytes)
	for pass := range 2 {
		for i, c := range cases {
			a, e := usagesOf(c.procs, c.p, c.seed)
			if !slices.Equal(a, fresh[i][0]) || !slices.Equal(e, fresh[i][1]) {
				t.Errorf("case %d, pass %d: usages differ from a fresh draw", i, pass)
			}
		}
	}
	if drawnUsages.Hits() != len(cases) {
		t.Errorf("%d draws answered from memory; want %d (the second pass)", drawnUsages.Hits(), len(cases))
	}
}
