package consolidation

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/strategies"
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

// TestEstimateOrderByHand: three jobs of 3, 1 and 4 processes. Each job's
// processes come in descending order of estimate, equal estimates in
// process order, indices within the job.
func TestEstimateOrderByHand(t *testing.T) {
	procs := []int{3, 1, 4}
	est := []float64{0.5, 0.9, 0.5, 1, 0.4, 0.4, 1, 0.7}
	want := []int32{1, 0, 2, 0, 2, 3, 0, 1}
	if got := estimateOrder(procs, est); !slices.Equal(got, want) {
		t.Errorf("estimateOrder = %v, want %v", got, want)
	}
}

// TestEstimateOrderIsPairsSort: on random jobs of up to 200 processes
// whose estimates repeat (ties), a job's order from estimateOrder pairs
// processes with processors exactly as pair's own sort does, and is the
// stable sort of the processes by descending estimate.
func TestEstimateOrderIsPairsSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	procs := make([]int, 400)
	var est []float64
	for i := range procs {
		procs[i] = 2 + rng.IntN(199)
		for range procs[i] {
			est = append(est, float64(1+rng.IntN(12))/12)
		}
	}
	ord := estimateOrder(procs, est)
	with, without := &Scheduler{}, &Scheduler{}
	at := 0
	for i, n := range procs {
		e := est[at : at+n : at+n]
		want := make([]int32, n)
		for k := range want {
			want[k] = int32(k)
		}
		slices.SortStableFunc(want, func(a, b int32) int { return -cmp.Compare(e[a], e[b]) })
		if got := ord[at : at+n]; !slices.Equal(got, want) {
			t.Fatalf("job %d: order %v, want %v", i, got, want)
		}
		targets := rng.Perm(n + 5)[:n]
		j := sim.NewJob(int64(i+1), 0, []int{n}, 10, 10, 0)
		j.SetCPU(nil, e)
		sorted := slices.Clone(without.pair(j, targets))
		u := sim.NewCPUUsage(nil, ord[at:at+n:at+n])
		j.SetCPUUsage(&u, e)
		if got := with.pair(j, targets); !slices.Equal(got, sorted) {
			t.Fatalf("job %d: pair with the kept order %v, sorting %v", i, got, sorted)
		}
		at += n
	}
}

// TestPrepareGivesTheOrder: KEASY's preparation gives every job told its
// usage the order of its processes (sim.Job.CPUOrder) and a job not told
// none; the K-tier families' Tier, whose CMBF does not dispatch by it,
// gives none.
func TestPrepareGivesTheOrder(t *testing.T) {
	jobsOf := func() []*sim.Job {
		var jobs []*sim.Job
		for i, n := range []int{1, 5, 32, 3} {
			jobs = append(jobs, sim.NewJob(int64(i+1), 0, []int{n}, 10, 10, 0))
		}
		return jobs
	}
	for _, c := range []struct {
		name   string
		fields map[string]any
		order  bool
		ktier  bool
	}{
		{"exact", nil, true, false},
		{"none", map[string]any{FieldCPUEstimate: cpuusage.None}, false, false},
		{"ktier", nil, false, true},
	} {
		jobs := jobsOf()
		r := &strategies.RunSetup{Fields: c.fields, Seed: 9, Platform: &sim.Platform{}, Jobs: jobs}
		var err error
		if c.ktier {
			err = Tier(r, 3, func(seed uint64) sim.Sharing { return sim.NewTwoTier(seed) })
		} else {
			err = prepareTwoTiers(r)
		}
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for _, j := range jobs {
			if got := j.CPUOrder() != nil; got != c.order {
				t.Fatalf("%s: job %d (%d processes) has an order: %v, want %v", c.name, j.ID, j.Procs(), got, c.order)
			}
			o := j.CPUOrder()
			if o == nil {
				continue
			}
			for k := 1; k < len(o); k++ {
				a, b := o[k-1], o[k]
				if ea, eb := j.CPUEstimate[a], j.CPUEstimate[b]; ea < eb || ea == eb && a > b {
					t.Fatalf("%s: job %d: order %v of estimates %v", c.name, j.ID, o, j.CPUEstimate)
				}
			}
		}
	}
}

// TestExactEstimatesShareTheDraw: with exact estimates (seed 000's rule,
// §3.1: the usage is told to the scheduler) the estimates are the actual
// usages' own array, counted once by the cache; the usages and estimates
// are those cpuusage.Params.Draw gives job after job from the same stream
// (so sharing changed no draw). Noisy estimates keep an array of their own.
func TestExactEstimatesShareTheDraw(t *testing.T) {
	procs := []int{1, 4, 3, 8, 1, 2}
	total := 0
	for _, n := range procs {
		total += n
	}
	noisy := cpuusage.Params{Low: 0.4, High: 1, Estimate: cpuusage.Noisy, Error: 0.2}
	for _, p := range []cpuusage.Params{cpuusage.Default(), noisy} {
		u := draw(procs, p, 7)
		shared := unsafe.SliceData(u.est) == unsafe.SliceData(u.actual)
		if shared != (p.Estimate == cpuusage.Exact) {
			t.Errorf("%s estimates: sharing the actual array is %v", p.Estimate, shared)
		}
		rng := rand.New(rand.NewPCG(7, CPUStream))
		var actual, est []float64
		for _, n := range procs {
			d := p.Draw(n, rng)
			actual, est = append(actual, d.Actual...), append(est, d.Estimated...)
		}
		if !slices.Equal(u.actual, actual) || !slices.Equal(u.est, est) {
			t.Errorf("%s estimates: the draw is\n%v / %v,\nParams.Draw job after job gives\n%v / %v", p.Estimate, u.actual, u.est, actual, est)
		}
		want := int64(total)*8 + int64(len(procs))*int64(unsafe.Sizeof(sim.CPUUsage{}))
		if !shared {
			want += int64(total) * 8
		}
		c := newUsageCache(1 << 20)
		c.Get(usageKey{seed: 7, p: p}, func() (usages, error) { return u, nil })
		if _, got := c.Held(); got != want {
			t.Errorf("%s estimates: the cache counts %d bytes, want %d", p.Estimate, got, want)
		}
	}
}
