package models

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/workload/tsafrir05"
)

func TestAutoMaxEstimate(t *testing.T) {
	for _, c := range []struct {
		longest float64
		bins    []tsafrir05.UserPercent
		want    int
	}{
		{0, nil, 7200},
		{3600, nil, 7200},
		{7200, nil, 7200},
		{7200.5, nil, 10800},
		{226709, nil, 226800}, // KTH-SP2's longest runtime
		{100, []tsafrir05.UserPercent{{Time: 9000, Percent: 5}}, 10800},
	} {
		if got := AutoMaxEstimate(c.longest, c.bins); got != c.want {
			t.Errorf("AutoMaxEstimate(%g, %v) = %d, want %d", c.longest, c.bins, got, c.want)
		}
	}
}

// With an explicit Tmax the estimates are exactly the histogram that
// tsafrir05 builds on a fresh PCG(seed): spec §4.8 vector A has 218 of 1000
// jobs at Tmax = 64800 s.
func TestAssignEstimatesIsTheHistogram(t *testing.T) {
	src := rand.New(rand.NewPCG(1, 2))
	rts := make([]float64, 1000)
	for i := range rts {
		rts[i] = float64(src.IntN(300)) // below every estimate
	}
	rts[0] = 70000 // capped to Tmax
	e, err := AssignEstimates(rts, EstimateOptions{MaxEstimate: 64800}, [2]uint64{4, 5})
	if err != nil {
		t.Fatal(err)
	}
	if e.MaxEstimate != 64800 || e.Capped != 1 || rts[0] != 64800 {
		t.Fatalf("Tmax %d, capped %d, runtime 0 now %g", e.MaxEstimate, e.Capped, rts[0])
	}
	hist, err := tsafrir05.Default(1000, 64800).Histogram(rand.New(rand.NewPCG(4, 5)))
	if err != nil {
		t.Fatal(err)
	}
	want := map[float64]int{}
	for _, b := range hist {
		want[float64(b.Time)] += b.Jobs
	}
	got := map[float64]int{}
	for i, v := range e.Values {
		got[v]++
		if v < rts[i] {
			t.Fatalf("job %d: estimate %g < runtime %g", i, v, rts[i])
		}
	}
	for v, n := range want {
		if got[v] != n {
			t.Errorf("estimate %g: %d jobs, histogram %d", v, got[v], n)
		}
	}
	if got[64800] != 218 {
		t.Errorf("%d jobs at Tmax, want 218 (spec §4.8 vector A)", got[64800])
	}
}

func TestAssignEstimatesErrors(t *testing.T) {
	_, err := AssignEstimates(make([]float64, 226), EstimateOptions{}, [2]uint64{1, 1})
	if err == nil || !strings.Contains(err.Error(), "226 jobs with a runtime; the model needs more than 226") {
		t.Errorf("226 jobs: %v", err)
	}
	// Four jobs in five run 30000 s; at Tmax = 36000 s at most about 71%
	// of the estimates are that long (the Tmax bin, five head bins from
	// 30000 to 34800 s and the tail), whatever the seed.
	long := make([]float64, 600)
	for i := range long {
		long[i] = 30000
		if i%5 == 0 {
			long[i] = 100
		}
	}
	for seed := range uint64(5) {
		_, err = AssignEstimates(slices.Clone(long), EstimateOptions{MaxEstimate: 36000}, [2]uint64{seed, seed})
		if err == nil || !strings.Contains(err.Error(), "with max_estimate 36000 s some runtimes cannot get an estimate at least as long") {
			t.Errorf("infeasible Tmax, seed %d: %v", seed, err)
		}
	}
	// A third of the jobs run 30000 s: the automatic Tmax grows until
	// feasible.
	for i := range long {
		long[i] = 100
		if i%3 == 0 {
			long[i] = 30000
		}
	}
	e, err := AssignEstimates(long, EstimateOptions{}, [2]uint64{1, 1})
	if err != nil {
		t.Fatal(err)
	}
	if e.MaxEstimate <= 36000 || e.Capped != 0 {
		t.Errorf("automatic Tmax %d, capped %d", e.MaxEstimate, e.Capped)
	}
	for i, v := range e.Values {
		if v < long[i] {
			t.Fatalf("job %d: estimate %g below the runtime %g", i, v, long[i])
		}
	}
}

func TestCheckEstimateBins(t *testing.T) {
	if ps := CheckEstimateBins("3600=30,14400=10", 36000, 1000); ps != nil {
		t.Errorf("good bins: %v", ps)
	}
	for _, c := range []struct {
		s          string
		tmax, jobs int
		want       string
	}{
		{"3600=abc", 0, 0, `= "3600=abc": bin 1 "3600=abc": percent "abc": want a number in (0, 100]`},
		{"40000=10", 36000, 0, "bin 40000=10: time 40000 s exceeds max_estimate = 36000 s"},
		{"3600=0.01", 0, 1000, "bin 3600=0.01 gives int(jobs·percent/100) = 0 jobs of jobs = 1000; want percent ≥ 0.1"},
	} {
		ps := CheckEstimateBins(c.s, c.tmax, c.jobs)
		if len(ps) != 1 || ps[0] != c.want && !strings.Contains(ps[0], c.want) {
			t.Errorf("CheckEstimateBins(%q, %d, %d) = %q, want %q", c.s, c.tmax, c.jobs, ps, c.want)
		}
	}
}
