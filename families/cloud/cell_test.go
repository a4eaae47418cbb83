package cloud

import (
	"reflect"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/family"
	"github.com/schedfarm/schedfarm/sim"
)

func seed001Cell(scheduler string, params map[string]any) ModelCell {
	return ModelCell{Model: "seed001", Params: params, Scheduler: scheduler, Seed: 11}
}

// Both variants run under every scheduler of the family, with one metric
// per name in order, and the same cell gives the same numbers.
func TestSeed001Family(t *testing.T) {
	if got := ModelSchedulers("seed001"); !reflect.DeepEqual(got, []string{"cplmt", "fifo", "fair", "asjs", "cmms"}) {
		t.Fatalf("ModelSchedulers = %v", got)
	}
	names := ModelMetricNames("cloud")
	for _, variant := range []string{"simulation", "methodological"} {
		for _, s := range ModelSchedulers("seed001") {
			params := map[string]any{"variant": variant, "jobs": 400, "rate": 20}
			a, err := RunModel(seed001Cell(s, params))
			if err != nil {
				t.Fatalf("%s %s: %v", variant, s, err)
			}
			b, _ := RunModel(seed001Cell(s, params))
			if !reflect.DeepEqual(a.Metrics, b.Metrics) {
				t.Errorf("%s %s: two runs differ", variant, s)
			}
			got := map[string]float64{}
			for i, m := range a.Metrics {
				if m.Name != names[i] {
					t.Fatalf("metric %d is %q; ModelMetricNames says %q", i, m.Name, names[i])
				}
				got[m.Name] = m.Value
			}
			if len(a.Metrics) != len(names) || got["jobs"] != 400 || got["finished"]+got["ufj"] != 400 ||
				got["finished"] == 0 || got["infeasible"] > got["ufj"] || got["ave"] < got["awt"] || a.Jobs != nil {
				t.Errorf("%s %s: %v", variant, s, a.Metrics)
			}
		}
	}
}

// KeepJobs returns the simulated jobs; the deadline reading "relative"
// makes more jobs feasible than the literal one on the same draws.
func TestSeed001JobsAndDeadlines(t *testing.T) {
	c := seed001Cell("cplmt", map[string]any{"jobs": 300, "rate": 5})
	c.KeepJobs = true
	r, err := RunModel(c)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Jobs) != 300 || r.Gamma != 1 {
		t.Fatalf("%d jobs, gamma %g", len(r.Jobs), r.Gamma)
	}
	finished := 0
	for _, j := range r.Jobs {
		if j.State() == sim.Finished {
			finished++
		}
	}
	rel, err := RunModel(seed001Cell("cplmt", map[string]any{"jobs": 300, "rate": 5, "deadline": "relative"}))
	if err != nil {
		t.Fatal(err)
	}
	if r.Metrics[1].Value != float64(finished) || rel.Metrics[3].Value >= r.Metrics[3].Value {
		t.Errorf("units: %v finished (%d in the jobs), %v infeasible; relative: %v infeasible", r.Metrics[1].Value, finished, r.Metrics[3].Value, rel.Metrics[3].Value)
	}
}

// Bad scheduler names and parameters are reported with what is accepted.
func TestSeed001Checks(t *testing.T) {
	err := CheckModelScheduler("seed001", "easy", nil)
	if err == nil || !strings.Contains(err.Error(), "asjs, cmms, cplmt, fair, fifo") {
		t.Errorf("easy: %v", err)
	}
	err = CheckModelScheduler("seed001", "cplmt", map[string]any{"kappa": -1, "nu": 1})
	if err == nil || !strings.Contains(err.Error(), "kappa = -1") || !strings.Contains(err.Error(), `unknown parameter "nu"`) {
		t.Errorf("cplmt params: %v", err)
	}
	if _, err := RunModel(seed001Cell("fifo", map[string]any{"rate": -2, "variant": "x"})); err == nil ||
		!strings.Contains(err.Error(), "rate") || !strings.Contains(err.Error(), "variant") {
		t.Errorf("bad model params: %v", err)
	}
}

// The family's cells are tested through its family.PlatformRunner, as the
// runner calls it.
type ModelCell = family.Cell

func platformRunner() family.PlatformRunner { return Family().(family.PlatformRunner) }

func RunModel(c family.Cell) (*family.Result, error) { return platformRunner().Run(c) }

func ModelSchedulers(string) []string { return Names() }

func ModelMetricNames(string) []string { return platformRunner().MetricNames() }

func CheckModelScheduler(_, name string, params map[string]any) error {
	return registry().Check(name, params)
}
