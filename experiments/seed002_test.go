package experiments

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/families"
	"github.com/schedfarm/schedfarm/runner"
	"github.com/schedfarm/schedfarm/workload/seed002"
)

// The seed-002 Fig. 8 spec validates, expands to 2 dispatch readings × 2
// operating points × 3 classes × (4 schemes + IR-STMS under irs_fill
// restart) × 5 replications, and its cells run through RunCell:
// the four schemes of one grid point see the same workload, a cell reruns
// identically, and the metrics are the STMS family's.
func TestSeed002Fig08Spec(t *testing.T) {
	s, err := Load("seed002-fig08.yaml", NewCatalog(families.Builtin()))
	if err != nil {
		t.Fatal(err)
	}
	cells := s.Cells()
	if len(cells) != 300 {
		t.Fatalf("%d cells, want 300", len(cells))
	}
	// Small cells for the test: the spec's own size runs in the farm.
	shrink := func(c runner.Cell) runner.Cell {
		c.KeepJobs = true
		var ps []runner.Param
		for _, p := range c.Params {
			if p.Name == "workload.generator.jobs" {
				p.Value = int64(150)
			}
			ps = append(ps, p)
		}
		c.Params = append(ps, runner.Param{Name: "scheduler.generations", Value: int64(10)})
		return c
	}
	run := func(c runner.Cell) runner.CellResult {
		r, err := runCell(context.Background(), shrink(c))
		if err != nil {
			t.Fatal(err)
		}
		if r.Status != runner.StatusOK {
			t.Fatalf("cell %s (%s): %s", c.ID, c.Scheduler, r.Error)
		}
		return r
	}
	var first runner.CellResult
	seen := map[string]bool{}
	for _, c := range cells[:4] {
		seen[c.Scheduler] = true
		r := run(c)
		if len(r.Jobs) != 150 {
			t.Fatalf("%s: %d job records", c.Scheduler, len(r.Jobs))
		}
		get := map[string]float64{}
		for _, m := range r.Metrics {
			get[m.Name] = m.Value
		}
		if get["finished"] != 150 || get["makespan"] <= 0 || get["utilization"] <= 0 || get["ijf"] <= 0 {
			t.Errorf("%s: metrics %v", c.Scheduler, r.Metrics)
		}
		if first.Jobs == nil {
			first = r
			again := run(c)
			for i := range r.Metrics {
				if r.Metrics[i] != again.Metrics[i] {
					t.Fatalf("rerun differs: %v vs %v", r.Metrics[i], again.Metrics[i])
				}
			}
			continue
		}
		for i := range r.Jobs {
			if r.Jobs[i].Submit != first.Jobs[i].Submit {
				t.Fatalf("%s saw another workload than %s", c.Scheduler, cells[0].Scheduler)
			}
		}
	}
	if len(seen) != 4 {
		t.Errorf("first grid point has schedulers %v", seen)
	}
}

// Item 6 of issue 21 (Table 2, Table 3, §5.2): at Table 2's rate (1.67
// jobs/min, load 0) the offered load of Figs. 8–10 grows with the class's
// mean job size; the operating-point reading (load 0.4) holds it fixed in
// every class. Mean sizes (Table 3: short 0.1–0.15, long 0.85–1 Mflops):
// 8:2 0.8·0.125 + 0.2·0.925 = 0.285, 5:5 0.525, 2:8 0.2·0.125 + 0.8·0.925
// = 0.765 Mflops. On 30 resources of mean speed 300 flops/s (9,000 flops/s
// in all) the rate 1.67/60 jobs/s offers 0.0278·285,000/9,000 = 0.88,
// 1.62 and 2.37; with load 0.4 every class offers 0.4, at rates in the
// ratio 0.285 : 0.525 : 0.765. Checked on the drawn resources of every
// Fig. 8 cell (their Σ speed, not 9,000).
func TestSeed002OperatingPoints(t *testing.T) {
	s, err := Load("seed002-fig08.yaml", NewCatalog(families.Builtin()))
	if err != nil {
		t.Fatal(err)
	}
	mean := map[string]float64{"8:2": 0.285, "5:5": 0.525, "2:8": 0.765}
	seen := map[string]bool{}
	for _, c := range s.Cells() {
		p := seed002.Default()
		p.Jobs, p.Regime = 10, seed002.Calibrated
		var load float64
		for _, q := range c.Params {
			switch q.Name {
			case "workload.generator.resources":
				p.Resources = int(q.Value.(int64))
			case "workload.generator.class":
				p.Class = q.Value.(string)
			case "workload.generator.load":
				load = q.Value.(float64)
			}
		}
		p.Load = load
		g, err := seed002.New(p, rand.New(rand.NewPCG(c.Seed, 1)))
		if err != nil {
			t.Fatal(err)
		}
		speed := 0.0
		for _, r := range g.Resources() {
			speed += r.Availability
		}
		offered := g.Rate() * mean[p.Class] * 1e6 / speed
		want := 1.67 / 60 * mean[p.Class] * 1e6 / speed // Table 2's rate
		if load > 0 {
			want = load
		}
		if math.Abs(offered-want) > 1e-9 {
			t.Errorf("class %s, load %g: offered load %g, want %g", p.Class, load, offered, want)
		}
		seen[fmt.Sprintf("%s@%g", p.Class, load)] = true
	}
	for _, class := range []string{"8:2", "5:5", "2:8"} {
		if !seen[class+"@0.4"] || !seen[class+"@0"] {
			t.Errorf("class %s: operating points %v; want Table 2's rate (load 0) and the fixed offered load 0.4", class, seen)
		}
	}
}

// Spec validation names a bad scheme parameter and a scheduler of another
// family.
func TestSeed002SpecErrors(t *testing.T) {
	_, err := Parse([]byte(`
name: bad
workload:
  generator: {model: seed002, jobs: 100, class: "9:1"}
schedulers: [{name: sp-stms, params: {c: -1}}, easy]
`), "bad.yaml", NewCatalog(families.Builtin()))
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{"class", "c", "easy"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error does not mention %q:\n%v", want, err)
		}
	}
}

// Out-of-range and contradictory seed-002 parameters are spec errors
// naming the field and what is accepted, before anything runs; a
// contradiction between two axes is reported at the grid point where they
// meet, and a zip that keeps every λ range ordered is accepted.
func TestSeed002ParameterErrors(t *testing.T) {
	_, err := Parse([]byte(`
name: bad
workload:
  generator: {model: seed002, jobs: 100, alpha: 0.5, lambda_min: -1, migration_cost: -3, pet_error: 2, sdv_min: 0.9, sdv_max: 0.1}
schedulers:
  - {name: stms, params: {delta: 0.7, omega: 0.7}}
  - {name: sp-stms, params: {kappa: 0.5}}
`), "bad.yaml", NewCatalog(families.Builtin()))
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{
		"workload.generator.alpha: model \"seed002\": parameter alpha = 0.5: out of range; accepted: float in [1, 100]",
		"workload.generator.lambda_min", "workload.generator.migration_cost", "workload.generator.pet_error",
		"delta + omega = 0.7 + 0.7", "parameter kappa = 0.5: out of range",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error does not mention %q:\n%v", want, err)
		}
	}
	_, err = Parse([]byte(`
name: bad
workload:
  generator: {model: seed002, jobs: 100, sdv_min: 0.9, sdv_max: 0.1}
schedulers: [stms]
`), "bad.yaml", NewCatalog(families.Builtin()))
	if err == nil || !strings.Contains(err.Error(), "line 4: workload.generator.sdv_max") || !strings.Contains(err.Error(), "sdv_min ≤ sdv_max") {
		t.Errorf("reversed range: %v", err)
	}
	_, err = Parse([]byte(`
name: bad
workload:
  generator: {model: seed002, jobs: 100}
schedulers: [stms]
axes:
  - param: workload.generator.lambda_max
    values: [0.001, 0.00015]
  - param: workload.generator.lambda_min
    values: [0.0001, 0.0002]
`), "bad.yaml", NewCatalog(families.Builtin()))
	if err == nil || !strings.Contains(err.Error(), "grid point workload.generator.lambda_max=0.00015, workload.generator.lambda_min=0.0002") {
		t.Errorf("axes that meet wrongly: %v", err)
	}
	if strings.Count(fmt.Sprint(err), "grid point") != 1 {
		t.Errorf("want exactly the one bad grid point:\n%v", err)
	}
	s, err := Parse([]byte(`
name: ok
workload:
  generator: {model: seed002, jobs: 100}
schedulers: [{name: sp-stms, params: {omega: 0.4}}]
zip: [[workload.generator.lambda_min, workload.generator.lambda_max]]
axes:
  - param: workload.generator.lambda_min
    values: [0.0001, 0.002]
  - param: workload.generator.lambda_max
    values: [0.001, 0.01]
  - param: scheduler.delta
    values: [0.6]
`), "ok.yaml", NewCatalog(families.Builtin()))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(s.Cells()); n != 2 {
		t.Errorf("%d cells, want 2", n)
	}
}
