package experiments

import (
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/families"
	"github.com/schedfarm/schedfarm/family"
	"github.com/schedfarm/schedfarm/runner"
	"github.com/schedfarm/schedfarm/workload"
	"github.com/schedfarm/schedfarm/workload/swf"
	"github.com/schedfarm/schedfarm/workload/swf/swftest"
)

// lublinTrace writes a 1000-job Lublin workload without estimates (field 9
// = −1) to dir/lub.swf: a stand-in for a real trace.
func lublinTrace(t *testing.T, dir string) {
	t.Helper()
	src, info, err := families.Builtin().Models().New("lublin99", map[string]any{"jobs": 1000, "procs": 64}, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	var h swf.Header
	for _, e := range info.Header() {
		h.Add(e.Keyword, e.Value)
	}
	w, err := swf.Create(filepath.Join(dir, "lub.swf"), h)
	if err != nil {
		t.Fatal(err)
	}
	for {
		j, err := src.Next()
		if err != nil {
			break
		}
		if err := w.Write(&j); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

func parseIn(t *testing.T, dir, text string) (*Spec, error) {
	t.Helper()
	return Parse([]byte(text), filepath.Join(dir, "spec.yaml"), NewCatalog(families.Builtin()))
}

// runRecords runs a cell through Config and runner.Run and returns its
// records (with the requested times the run used) and metrics.
func runRecords(t *testing.T, c runner.Cell) ([]workload.Job, []family.Metric) {
	t.Helper()
	cfg, err := testRunner.ConfigOf(c)
	if err != nil {
		t.Fatal(err)
	}
	res, err := runner.New(families.Builtin()).Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return res.Records, res.Metrics()
}

func reqTimes(recs []workload.Job) []float64 {
	out := make([]float64, len(recs))
	for i := range recs {
		out[i] = recs[i].ReqTime
	}
	return out
}

const traceEstSpec = `
name: te
platform: {procs: 64}
workload:
  trace: lub.swf
  user_estimates: tsafrir05
  max_estimate: 36000
  est_bins: "3600=20"
schedulers: [easy]
replications: 2
`

func TestTraceUserEstimates(t *testing.T) {
	dir := t.TempDir()
	lublinTrace(t, dir)
	s, err := parseIn(t, dir, traceEstSpec)
	if err != nil {
		t.Fatal(err)
	}
	if w := s.Workload; w.str(pUserEstimates) != "tsafrir05" || w.integer(pMaxEstimate) != 36000 || w.str(pEstBins) != "3600=20" {
		t.Fatalf("workload %+v", w)
	}
	cells := s.Cells()
	if len(cells) != 2 {
		t.Fatalf("%d cells", len(cells))
	}
	for _, name := range []string{"workload.user_estimates", "workload.max_estimate", "workload.est_bins"} {
		if _, ok := cells[0].Lookup(name); !ok {
			t.Errorf("cell lacks %s: %v", name, cells[0].Params)
		}
	}
	a, ma := runRecords(t, cells[0])
	a2, ma2 := runRecords(t, cells[0])
	b, _ := runRecords(t, cells[1])
	if !slices.Equal(reqTimes(a), reqTimes(a2)) || !slices.Equal(ma, ma2) {
		t.Error("the same cell twice: different estimates or metrics")
	}
	if slices.Equal(reqTimes(a), reqTimes(b)) {
		t.Error("replications 0 and 1 drew the same estimates")
	}
	n3600, nMax := 0, 0
	for _, r := range a {
		if r.ReqTime < r.RunTime || r.RunTime > 36000 {
			t.Fatalf("job %d: runtime %g, estimate %g", r.ID, r.RunTime, r.ReqTime)
		}
		switch r.ReqTime {
		case 3600:
			n3600++
		case 36000:
			nMax++
		}
	}
	// est_bins 3600=20: exactly int(1000·20/100) jobs; Tmax's share is then
	// scaled with the other head bins (spec §4.4), about 0.217·69/89.
	if n3600 != 200 || nMax < 150 || nMax > 190 {
		t.Errorf("%d jobs at 3600 s (want 200), %d at Tmax", n3600, nMax)
	}

	// The same spec without user_estimates runs the trace's field 9 (−1:
	// the runtimes): other metrics.
	plain, err := parseIn(t, dir, `
name: te
platform: {procs: 64}
workload: {trace: lub.swf}
schedulers: [easy]
`)
	if err != nil {
		t.Fatal(err)
	}
	pr, err := runCell(context.Background(), plain.Cells()[0])
	if err != nil || pr.Status != runner.StatusOK {
		t.Fatalf("plain cell: %+v %v", pr, err)
	}
	mr, err := runCell(context.Background(), cells[0])
	if err != nil || mr.Status != runner.StatusOK {
		t.Fatalf("modelled cell: %+v %v", mr, err)
	}
	if metric(pr, "wait_mean") == metric(mr, "wait_mean") {
		t.Errorf("wait_mean %g with and without modelled estimates", metric(pr, "wait_mean"))
	}
	if metric(pr, "jobs") != metric(mr, "jobs") {
		t.Errorf("jobs %g vs %g", metric(pr, "jobs"), metric(mr, "jobs"))
	}
}

// An axis over the estimate settings; a cell with user_estimates none
// ignores max_estimate.
func TestTraceUserEstimatesAxes(t *testing.T) {
	dir := t.TempDir()
	lublinTrace(t, dir)
	s, err := parseIn(t, dir, `
name: te
platform: {procs: 64}
workload: {trace: lub.swf, max_estimate: 64800}
schedulers: [easy]
axes:
  - param: workload.user_estimates
    values: [none, tsafrir05]
`)
	if err != nil {
		t.Fatal(err)
	}
	cells := s.Cells()
	if len(cells) != 2 {
		t.Fatalf("%d cells", len(cells))
	}
	none, _ := runRecords(t, cells[0])
	model, _ := runRecords(t, cells[1])
	if none[0].ReqTime != -1 || model[0].ReqTime <= 0 {
		t.Errorf("field 9 of job 1: %g (none), %g (tsafrir05)", none[0].ReqTime, model[0].ReqTime)
	}
	atMax := 0
	for _, r := range model {
		if r.ReqTime == 64800 {
			atMax++
		}
	}
	if atMax != 218 { // spec §4.8 vector A: N = 1000, Tmax = 64800
		t.Errorf("%d jobs at Tmax 64800, want 218", atMax)
	}
}

func TestTraceUserEstimatesErrors(t *testing.T) {
	dir := t.TempDir()
	lublinTrace(t, dir)
	for _, c := range []struct {
		name, spec string
		want       []string
	}{
		{"generator", `
name: e
workload:
  generator: {model: lublin99, jobs: 1000}
  user_estimates: tsafrir05
  max_estimate: 36000
schedulers: [easy]
axes: [{param: workload.est_bins, values: ["3600=10"]}]
`, []string{
			`line 5: workload.user_estimates: applies to trace workloads only; a generator draws its own estimates; accepted: workload.generator.estimates: tsafrir05, with workload.generator.max_estimate and workload.generator.est_bins`,
			`line 6: workload.max_estimate: applies to trace workloads only`,
			`line 8: axes[0].param: "workload.est_bins" needs a trace workload; this spec uses a generator`,
		}},
		{"values", `
name: e
workload:
  trace: lub.swf
  user_estimates: tsafrir06
  max_estimate: 5000
  est_bins: "3600=30,3600=abc"
schedulers: [easy]
`, []string{
			`line 5: workload.user_estimates: unknown user_estimates "tsafrir06"; accepted: none, tsafrir05`,
			`line 6: workload.max_estimate: max_estimate 5000 out of range; accepted: 0 (automatic: the longest runtime rounded up to whole hours, at least 7200 s, grown until feasible) or an integer in [5701, 1000000000]`,
			`line 7: workload.est_bins: est_bins = "3600=30,3600=abc": bin 2 "3600=abc": percent "abc": want a number in (0, 100]; accepted: "" or sec=percent`,
		}},
		{"combinations", `
name: e
workload:
  trace: lub.swf
  estimates: exact
  user_estimates: tsafrir05
  max_estimate: 36000
  est_bins: "40000=10"
schedulers: [easy]
`, []string{
			`line 5: workload.estimates: estimates exact with user_estimates tsafrir05: the modelled estimates are requested times, which only estimates user reads; accepted: user`,
			`line 8: workload.est_bins: est_bins bin 40000=10: time 40000 s exceeds max_estimate = 36000 s; want times ≤ max_estimate`,
		}},
		{"without model", `
name: e
workload:
  trace: lub.swf
  est_bins: "3600=10"
schedulers: [easy]
axes: [{param: workload.max_estimate, values: [36000]}]
`, []string{
			`line 5: workload.est_bins: est_bins needs workload.user_estimates: tsafrir05 (user_estimates is none in every cell); accepted: user_estimates: tsafrir05, or no est_bins`,
			`line 7: axes[0].param: max_estimate needs workload.user_estimates: tsafrir05`,
		}},
		{"axis values", `
name: e
workload:
  trace: lub.swf
  user_estimates: tsafrir05
  est_bins: "14400=10"
schedulers: [easy]
axes:
  - param: workload.max_estimate
    values: [36000, 7200]
  - param: workload.estimates
    values: [user, pyss]
`, []string{
			`line 10: axes[0].values[1]: max_estimate 7200 does not fit workload.est_bins "14400=10": est_bins bin 14400=10: time 14400 s exceeds max_estimate = 7200 s`,
			`line 12: axes[1].values[1]: estimates pyss with user_estimates tsafrir05`,
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := parseIn(t, dir, c.spec)
			var se *SpecError
			if !errors.As(err, &se) {
				t.Fatalf("want a *SpecError, got %v", err)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error\n%v\nlacks\n%s", err, w)
				}
			}
			if len(se.Errors) != len(c.want) {
				t.Errorf("%d errors, want %d:\n%v", len(se.Errors), len(c.want), err)
			}
		})
	}
}

// On KTH-SP2 (28,489 jobs) the Tmax bin holds 21.73% of the jobs whatever
// the seed (spec §4.8: 0.2173 ± 0.002). The bin's count is round(21.7329% ·
// N) moved by the equalisation of §4.6, which shares a rounding difference
// of at most about K/2 ≈ 80 jobs (K = 167) among all bins: a few jobs, well
// inside ±0.002·N ≈ ±57.
func TestTraceUserEstimatesKTH(t *testing.T) {
	path := swftest.Path(t, swftest.KTH)
	dir := t.TempDir()
	if err := os.Symlink(path, filepath.Join(dir, "kth.swf.gz")); err != nil {
		t.Fatal(err)
	}
	s, err := parseIn(t, dir, `
name: kth
workload: {trace: kth.swf.gz, user_estimates: tsafrir05}
schedulers: [easy]
replications: 2
`)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range s.Cells() {
		cfg, err := testRunner.ConfigOf(c)
		if err != nil {
			t.Fatal(err)
		}
		res, err := runner.New(families.Builtin()).Run(cfg)
		if err != nil {
			t.Fatal(err)
		}
		e := res.Estimates
		frac := float64(e.AtMax) / float64(e.Jobs)
		t.Logf("replication %d: %d jobs, Tmax %d s, %d at Tmax (%.4f)", c.Replication, e.Jobs, e.MaxEstimate, e.AtMax, frac)
		if e.Jobs != 28489 || e.MaxEstimate != 226800 || frac < 0.2153 || frac > 0.2193 {
			t.Errorf("replication %d: %+v, fraction at Tmax %.4f; want 28489 jobs, Tmax 226800 s (the longest runtime 226709 s rounded up to hours), 0.2173 ± 0.002", c.Replication, e, frac)
		}
	}
}
