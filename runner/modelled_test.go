package runner_test

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/families"
	"github.com/schedfarm/schedfarm/runner"
	"github.com/schedfarm/schedfarm/workload/tsafrir05"
)

// modelTrace writes 400 jobs without requested times (field 9 = −1) on 16
// processors, plus one job with an unknown runtime and one with unknown
// processors, which the run drops and which get no estimate.
func modelTrace(t *testing.T) string {
	var lines []string
	for i := 1; i <= 400; i++ {
		u := float64((i*7919)%1000) / 1000 // mostly short runtimes, up to 19920 s
		lines = append(lines, line(i, i*60, math.Round(u*u*u*u*20000), 1+i%8, 1+i%8, -1))
	}
	lines = append(lines, line(401, 400*60+1, -1, 2, 2, 77), line(402, 400*60+2, 50, -1, -1, 88))
	return writeTrace(t, "; MaxProcs: 16\n", lines...)
}

func reqTimes(res *runner.Result) []float64 {
	out := make([]float64, len(res.Records))
	for i := range res.Records {
		out[i] = res.Records[i].ReqTime
	}
	return out
}

func TestModelledEstimates(t *testing.T) {
	path := modelTrace(t)
	cfg := runner.Config{Trace: path, Scheduler: "easy", UserEstimates: runner.UserEstimatesTsafrir, Seed: 11}
	res, err := runner.New(families.Builtin()).Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	e := res.Estimates
	if e.Model != "tsafrir05" || e.Jobs != 400 || len(res.Jobs) != 400 || e.MaxEstimate != 21600 || e.Capped != 0 {
		t.Fatalf("estimates %+v for %d simulated jobs; want 400 jobs, Tmax 21600 (19920 s rounded up to hours), none capped", e, len(res.Jobs))
	}
	atMax := 0
	for i, r := range res.Records {
		if r.ReqTime < r.RunTime {
			t.Fatalf("job %d: estimate %g < runtime %g", r.ID, r.ReqTime, r.RunTime)
		}
		if r.ReqTime == 21600 {
			atMax++
		}
		if res.Jobs[i].Estimate != r.ReqTime {
			t.Fatalf("job %d simulated with estimate %g, record says %g", r.ID, res.Jobs[i].Estimate, r.ReqTime)
		}
	}
	// The Tmax bin of N = 400 is 21.7329% (spec §4.4) up to the
	// equalisation of §4.6.
	if atMax != e.AtMax || atMax < 85 || atMax > 89 {
		t.Errorf("%d jobs at Tmax (reported %d), want about 0.2173·400 = 87", atMax, e.AtMax)
	}
	if a := res.Adjust; a.NoEstimate != 0 || a.Limited != 0 || a.DroppedRuntime != 1 || a.DroppedProcs != 1 {
		t.Errorf("adjustments %+v", a)
	}

	// Deterministic per seed; another seed draws other estimates.
	again, err := runner.New(families.Builtin()).Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(reqTimes(res), reqTimes(again)) || res.Summary.Wait != again.Summary.Wait {
		t.Error("same seed, different estimates or metrics")
	}
	cfg.Seed = 12
	other, err := runner.New(families.Builtin()).Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if slices.Equal(reqTimes(res), reqTimes(other)) {
		t.Error("seeds 11 and 12 drew the same estimates")
	}

	// The cached trace is untouched: without the model the requested times
	// are the file's (−1: the runtime is used).
	plain, err := runner.New(families.Builtin()).Run(runner.Config{Trace: path, Scheduler: "easy"})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range plain.Records {
		if r.ReqTime != -1 {
			t.Fatalf("job %d: requested time %g after a modelled run, want the file's -1", r.ID, r.ReqTime)
		}
	}
	if plain.Adjust.NoEstimate != 400 || plain.Estimates != (runner.ModelledEstimates{}) {
		t.Errorf("plain run: %+v, %+v", plain.Adjust, plain.Estimates)
	}
	if plain.Summary.Wait == res.Summary.Wait {
		t.Error("modelled estimates did not change EASY's waits")
	}
}

// The estimates are drawn for the jobs the run keeps (MaxJobs), runtimes
// above an explicit Tmax are cut, and the target load counts the cut
// runtimes.
func TestModelledEstimatesSelectionCapAndLoad(t *testing.T) {
	path := modelTrace(t)
	res, err := runner.New(families.Builtin()).Run(runner.Config{Trace: path, Scheduler: "easy", UserEstimates: runner.UserEstimatesTsafrir,
		MaxEstimate: 14400, MaxJobs: 300, Load: 0.6, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	e := res.Estimates
	if e.Jobs != 300 || e.MaxEstimate != 14400 || e.Capped == 0 {
		t.Fatalf("estimates %+v; want 300 jobs, Tmax 14400, some runtimes capped", e)
	}
	capped := 0
	for _, r := range res.Records {
		if r.RunTime > 14400 || r.ReqTime < r.RunTime {
			t.Fatalf("job %d: runtime %g, estimate %g", r.ID, r.RunTime, r.ReqTime)
		}
		if r.RunTime == 14400 {
			capped++
		}
	}
	if capped < e.Capped {
		t.Errorf("%d runtimes at Tmax, %d reported capped", capped, e.Capped)
	}
	if d := res.OfferedLoad - 0.6; d > 1e-9 || d < -1e-9 {
		t.Errorf("offered load %.12f, want 0.6 (measured on the capped runtimes)", res.OfferedLoad)
	}
}

func TestModelledEstimatesErrors(t *testing.T) {
	path := modelTrace(t)
	for _, c := range []struct {
		cfg  runner.Config
		want string
	}{
		{runner.Config{MaxJobs: 226}, "user_estimates tsafrir05: 226 jobs to simulate (submit time, runtime and processors known); the model needs more than 226"},
		{runner.Config{Estimates: "exact"}, `user_estimates tsafrir05 with estimates "exact"`},
		{runner.Config{UserEstimates: "tsafrir06"}, `user_estimates: user estimate model "tsafrir06" unknown; accepted: tsafrir05 (or none)`},
		{runner.Config{UserEstimates: "none", MaxEstimate: 36000}, "max_estimate 36000, est_bins \"\" without user_estimates"},
		{runner.Config{MaxEstimate: 5000}, "max_estimate 5000; accepted: 0 (automatic) or an integer > 5700"},
		{runner.Config{MaxEstimate: 7200}, "with max_estimate 7200 s some runtimes cannot get an estimate at least as long"},
		{runner.Config{EstBins: []tsafrir05.UserPercent{{Time: 3600, Percent: 0.1}}}, "UserBins[0].Jobs = 0"},
	} {
		cfg := c.cfg
		cfg.Trace, cfg.Scheduler = path, "easy"
		if cfg.UserEstimates == "" {
			cfg.UserEstimates = runner.UserEstimatesTsafrir
		}
		_, err := runner.New(families.Builtin()).Run(cfg)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want %q", c.cfg, err, c.want)
		}
	}
}
