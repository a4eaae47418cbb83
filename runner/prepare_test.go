package runner

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/schedfarm/schedfarm/families"
	"github.com/schedfarm/schedfarm/workload"
)

// runTiered simulates 2,000 FWload jobs on 64 processors under scheduler.
func runTiered(t *testing.T, scheduler string, cfg Config) *Result {
	t.Helper()
	src, _, err := families.Builtin().Models().New("fwload", map[string]any{"jobs": int64(2000), "procs": int64(64)}, rand.New(rand.NewPCG(5, 6)))
	if err != nil {
		t.Fatal(err)
	}
	cfg.Source, cfg.Scheduler, cfg.Seed, cfg.Estimates = src, scheduler, 11, EstimatesExact
	res, err := New(families.Builtin()).Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// The runner gives a tiered scheduler a two-tier platform and seed 000's
// CPU usages (§3.1): 100% for a single process, uniform in [40%, 100%] for
// the processes of larger jobs (mean 0.7), told exactly; the same usages
// under every tiered scheduler of a cell. A dedicated-machine scheduler
// gets neither.
func TestTieredRunsGetSeed000Usages(t *testing.T) {
	k, m := runTiered(t, "keasy", Config{}), runTiered(t, "measy", Config{})
	if !k.Platform.Tiered() || k.Platform.Tiers != 2 {
		t.Fatalf("keasy ran on %+v, want two tiers", k.Platform)
	}
	sum, n := 0.0, 0
	for i, j := range k.Jobs {
		for p := 0; p < j.Procs(); p++ {
			u := j.CPU(p)
			switch {
			case j.Procs() == 1 && u != 1:
				t.Fatalf("job %d: single process at %g, want 1", j.ID, u)
			case j.Procs() > 1 && (u < 0.4 || u > 1):
				t.Fatalf("job %d: usage %g outside [0.4, 1]", j.ID, u)
			}
			if j.CPUEstimate[p] != u {
				t.Fatalf("job %d: estimate %g of usage %g, want exact", j.ID, j.CPUEstimate[p], u)
			}
			if m.Jobs[i].CPU(p) != u {
				t.Fatalf("job %d: usage %g under keasy, %g under measy", j.ID, u, m.Jobs[i].CPU(p))
			}
			if j.Procs() > 1 {
				sum += u
				n++
			}
		}
	}
	// Uniform [0.4, 1]: sd 0.173; over n ≥ 10,000 processes the mean is
	// within 0.01 of 0.7 far beyond 5 standard errors.
	if n < 10000 || math.Abs(sum/float64(n)-0.7) > 0.01 {
		t.Errorf("mean usage %g over %d processes, want 0.7 ± 0.01", sum/float64(n), n)
	}
	e := runTiered(t, "easy", Config{})
	if e.Platform.Tiered() || e.Jobs[0].CPUEstimate != nil {
		t.Errorf("easy: platform %+v, first job's estimate %v; want dedicated, none", e.Platform, e.Jobs[0].CPUEstimate)
	}
}

func TestTieredUsageOptions(t *testing.T) {
	none := runTiered(t, "keasy", Config{FamilyFields: map[string]any{"workload.cpu_estimate": "none"}})
	full := runTiered(t, "keasy", Config{FamilyFields: map[string]any{"workload.cpu_usage": 1.0}})
	for i, j := range none.Jobs {
		if j.CPUEstimate != nil {
			t.Fatalf("job %d: estimate %v without information", j.ID, j.CPUEstimate)
		}
		for p := 0; p < full.Jobs[i].Procs(); p++ {
			if full.Jobs[i].CPU(p) != 1 {
				t.Fatalf("job %d: usage %g at mean 1", j.ID, full.Jobs[i].CPU(p))
			}
		}
	}
	// With every process at 100% nothing can share a processor: a
	// background process only runs where the foreground is idle.
	if s := full.Summary; s.Finished != 2000 {
		t.Errorf("finished %d of 2000", s.Finished)
	}
	// Every run checks the fields, whatever its scheduler (the sim
	// command's --cpu-* flags set the same fields).
	for _, bad := range []Config{
		{FamilyFields: map[string]any{"workload.cpu_usage": 1.5}}, {FamilyFields: map[string]any{"workload.cpu_estimate": "guess"}},
		{FamilyFields: map[string]any{"workload.cpu_error": 0.2}}, {FamilyFields: map[string]any{"workload.cpu_estimate": "noisy", "workload.cpu_error": 2.0}},
		{FamilyFields: map[string]any{"workload.cpu_usage": int64(1)}}, {FamilyFields: map[string]any{"workload.cpu_speed": 1.0}},
	} {
		for _, s := range []string{"keasy", "easy"} {
			bad.Source, bad.Scheduler = workload.NewSliceSource(nil), s
			if _, err := bad.withDefaults(families.Builtin()); err == nil {
				t.Errorf("%s: %+v accepted", s, bad)
			}
		}
	}
}

// A K-tier run (seed 003's CMBF) draws the same CPU usages as the two-tier
// schedulers of the same cell (consolidation.Tier), at every K > 1; at
// K = 1 the nodes are dedicated and the jobs have none.
func TestKTierRunsShareTheUsages(t *testing.T) {
	k2 := runTiered(t, "keasy", Config{})
	for _, k := range []int64{1, 3} {
		c := runTiered(t, "cmbf", Config{SchedulerParams: map[string]any{"k": k}})
		if got := c.Platform.Tiers; (k == 1) != !c.Platform.Tiered() || k > 1 && got != int(k) {
			t.Fatalf("cmbf k=%d ran on %d tiers", k, got)
		}
		for i, j := range c.Jobs {
			if k == 1 {
				if j.CPUEstimate != nil {
					t.Fatalf("k=1: job %d has CPU estimates", j.ID)
				}
				continue
			}
			for p := 0; p < j.Procs(); p++ {
				if j.CPU(p) != k2.Jobs[i].CPU(p) {
					t.Fatalf("k=%d: job %d process %d: usage %g, keasy's %g", k, j.ID, p, j.CPU(p), k2.Jobs[i].CPU(p))
				}
			}
		}
	}
}
