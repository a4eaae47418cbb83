package strategytest

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/strategies"
)

// Platforms are the machines the suite runs every scheduler on: a small
// classic machine, a single processor, and two typed pools.
func Platforms() map[string]sim.Platform {
	return map[string]sim.Platform{
		"procs16": sim.Processors(16),
		"procs1":  sim.Processors(1),
		"pools2":  {Pools: []sim.Pool{{Name: "cpu", Capacity: 8}, {Name: "gpu", Capacity: 3}}},
	}
}

// Suite runs the shared invariant checks on every scheduler of reg, with
// default parameters: random workloads on each platform of Platforms (ties,
// early ends, kills, jobs wider than the machine), a workload whose every
// job is rejected, and a determinism check (same input, identical
// schedule). A scheduler registered later is covered without a new test.
func Suite(t *testing.T, reg *strategies.Registry) {
	for _, name := range reg.Names() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			SuiteFor(t, reg, name)
		})
	}
}

// SuiteFor runs the suite for one registered scheduler. A scheduler that
// needs VM tiers (Entry.Tiers) runs on the single-pool platforms split into
// that many tiers (sim.TwoTier sharing), with random CPU usages.
func SuiteFor(t *testing.T, reg *strategies.Registry, name string) {
	entry, err := reg.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	adapt := func(p sim.Platform) sim.Platform {
		if entry.Tiers > 1 {
			p.Tiers, p.Sharing = entry.Tiers, sim.NewTwoTier(0x7ee5)
		}
		return p
	}
	build := func(p sim.Platform) sim.Scheduler {
		s, err := reg.New(name, p, nil)
		if err != nil {
			t.Fatalf("building %s: %v", name, err)
		}
		return s
	}
	for pi, p := range sortedPlatforms() {
		pname := []string{"procs16", "procs1", "pools2"}[pi]
		if entry.Tiers > 1 && len(p.Pools) > 1 {
			continue // tiers split the processors of a single pool
		}
		p = adapt(p)
		for seed := uint64(1); seed <= 6; seed++ {
			rng := rand.New(rand.NewPCG(seed, 0x5eed))
			specs := Random(rng, RandomOptions{
				Jobs: 300, Capacities: p.Capacities(), MaxGap: 3, MaxWork: 20,
				TooWide: 0.03, Underrun: 0.4, Overrun: 0.1, ZeroDemandOK: len(p.Pools) > 1,
				CPU: p.Tiered(),
			})
			rec, err := Record(p, build(p), specs)
			if err != nil {
				t.Fatalf("%s seed %d: %v", pname, seed, err)
			}
			check := CheckInvariants
			if entry.Preemptive {
				check = checkEnded // the recorder checked the VMs after every pass
			}
			for _, e := range check(rec) {
				t.Errorf("%s seed %d: %v", pname, seed, e)
			}
			again, err := Record(p, build(p), specs)
			if err != nil {
				t.Fatalf("%s seed %d (second run): %v", pname, seed, err)
			}
			if d := Diff(rec.Jobs, again.Jobs); d != "" {
				t.Errorf("%s seed %d: same input, different schedule: %s", pname, seed, d)
			}
		}
	}
	t.Run("all rejected", func(t *testing.T) {
		p := adapt(sim.Processors(4))
		specs := []JobSpec{
			{ID: 1, Submit: 0, Demand: []int{5}, Estimate: 10, Work: 10},
			{ID: 2, Submit: 0, Demand: []int{9}, Estimate: 1, Work: 1},
			{ID: 3, Submit: 7, Demand: []int{100}, Estimate: 3, Work: 3},
		}
		rec, err := Record(p, build(p), specs)
		if err != nil {
			t.Fatal(err)
		}
		for _, j := range rec.Jobs {
			if j.State() != sim.Rejected {
				t.Errorf("job %d: state %s, want rejected", j.ID, j.State())
			}
		}
	})
	t.Run("empty workload", func(t *testing.T) {
		p := adapt(sim.Processors(4))
		rec, err := Record(p, build(p), nil)
		if err != nil || len(rec.Jobs) != 0 {
			t.Fatalf("empty workload: %d jobs, err %v", len(rec.Jobs), err)
		}
	})
}

// sortedPlatforms returns Platforms in a fixed order (map order must not
// decide anything, even in a test).
func sortedPlatforms() []sim.Platform {
	m := Platforms()
	return []sim.Platform{m["procs16"], m["procs1"], m["pools2"]}
}

// Diff describes the first job whose schedule differs between two runs.
func Diff(a, b []*sim.Job) string {
	if len(a) != len(b) {
		return fmt.Sprintf("%d jobs vs %d", len(a), len(b))
	}
	for i := range a {
		x, y := a[i], b[i]
		if x.ID != y.ID || x.State() != y.State() || x.Start() != y.Start() || x.End() != y.End() {
			return fmt.Sprintf("job %d: %s %g–%g vs %s %g–%g", x.ID, x.State(), x.Start(), x.End(), y.State(), y.Start(), y.End())
		}
	}
	return ""
}
