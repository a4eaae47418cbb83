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
	src, _, err := families.Models().New("fwload", map[string]any{"jobs": int64(2000), "procs": int64(64)}, rand.New(rand.NewPCG(5, 6)))
	if err != nil {
		t.Fatal(err)
	}
	cfg.Source, cfg.Scheduler, cfg.Seed, cfg.Estimates = src, scheduler, 11, EstimatesExact
	res, err := Run(cfg)
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
	none := runTiered(t, "keasy", Config{CPUEstimate: "none"})
	full := runTiered(t, "keasy", Config{CPUMean: 1})
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
	for _, bad := range []Config{{CPUMean: 1.5}, {CPUEstimate: "guess"}, {CPUError: 0.2}, {CPUEstimate: "noisy", CPUError: 2}} {
		bad.Source, bad.Scheduler = workload.NewSliceSource(nil), "keasy"
		if _, err := bad.withDefaults(); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}
