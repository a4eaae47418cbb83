package tune

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/families"
)

const badBase = `name: bad
base:
  platform: {procs: 64}
  workload:
    generator: {model: lublin99, jobs: 100, procs: 64}
  schedulers: [depth]
`

// Each kind of bad input is a clear error naming its line and field and
// what is accepted.
func TestBadInput(t *testing.T) {
	for _, c := range []struct {
		name, spec string
		want       []string
	}{
		{"empty int range", badBase + `search:
  - {param: scheduler.k, int: [3, 3]}
objective: {metric: wait_mean, goal: minimize}
algorithm: {population: 4, generations: 2}
`, []string{"line 8: search[0].int: [3 3]; accepted: [lo, hi] with lo < hi"}},
		{"empty float range", badBase + `search:
  - {param: workload.load, float: [0.9, 0.5]}
objective: {metric: wait_mean, goal: minimize}
algorithm: {population: 4, generations: 2}
`, []string{"line 8: search[0].float: [0.9 0.5]; accepted: [lo, hi] with lo < hi"}},
		{"categorical with one value", badBase + `search:
  - {param: scheduler, choices: [easy]}
objective: {metric: wait_mean, goal: minimize}
algorithm: {population: 4, generations: 2}
`, []string{"line 8: search[0].choices: 1 value(s); accepted: at least two"}},
		{"unknown metric", badBase + `search:
  - {param: scheduler.k, int: [0, 8]}
objective: {metric: wait_avg, goal: minimize}
constraints: ["utilisation >= 0.8"]
algorithm: {population: 4, generations: 2}
`, []string{`line 9: objective, second or constraints.metrics[0]: unknown metric "wait_avg"`, `unknown metric "utilisation"`}},
		{"parameter the scheduler does not take", `name: bad
base:
  platform: {procs: 64}
  workload:
    generator: {model: lublin99, jobs: 100, procs: 64}
  schedulers: [easy]
search:
  - {param: scheduler.k, int: [0, 8]}
objective: {metric: wait_mean, goal: minimize}
algorithm: {population: 4, generations: 2}
`, []string{"line 8: search[0] (scheduler.k)", `unknown parameter "k"`}},
		{"parameter one of the schedulers searched does not take", badBase + `search:
  - {param: scheduler, choices: [depth, easy]}
  - {param: scheduler.k, int: [0, 8]}
objective: {metric: wait_mean, goal: minimize}
algorithm: {population: 4, generations: 2}
`, []string{"line 8: search (the parameters together, at their bounds)", "use scheduler.<name>.k", `unknown parameter "k"`}},
		{"budget 0", badBase + `search:
  - {param: scheduler.k, int: [0, 8]}
objective: {metric: wait_mean, goal: minimize}
algorithm: {population: 4, generations: 0, budget: 0}
`, []string{"line 10: algorithm: generations 0, budget 0; accepted: generations ≥ 1 or a budget ≥ 1"}},
		{"budget below the population", badBase + `search:
  - {param: scheduler.k, int: [0, 8]}
objective: {metric: wait_mean, goal: minimize}
algorithm: {population: 8, budget: 5}
`, []string{"line 10: algorithm.budget: 5; accepted: at least the population (8)"}},
		{"unknown algorithm and a parameter of another", badBase + `search:
  - {param: scheduler.k, int: [0, 8]}
objective: {metric: wait_mean, goal: maximise}
algorithm: {name: cmaes, population: 1, generations: 2}
`, []string{`line 10: algorithm.name: "cmaes"; accepted: ga, de (differential evolution) or pso (particle swarm)`, "line 10: algorithm.population: 1; accepted: an integer ≥ 2"}},
		{"problems of the base and of the tune at once", `name: bad
base:
  platform: {procs: 64}
  workload:
    generator: {model: lublin99, jobs: -5, procs: 64}
  schedulers: [depth]
search:
  - {param: scheduler.k, int: [3, 3]}
objective: {metric: wait_mean, goal: minimize}
algorithm: {population: 4, generations: 2}
`, []string{"line 5: base.workload.generator.jobs", "line 8: search[0].int: [3 3]"}},
		{"every problem at once", `name: "bad name"
base:
  platform: {procs: 64}
  workload:
    generator: {model: lublin99, jobs: 100, procs: 64}
  schedulers: [depth]
  output: x.parquet
search:
  - {param: scheduler.k, int: [0, 8], choices: [1, 2]}
  - {float: [0, 1]}
objective: {metric: wait_mean, goal: up}
constraints: ["wait_mean ~ 3"]
algorithm: {name: de, population: 4, generations: 2, sigma: 0.3}
confirm: {replications: 1}
colour: blue
`, []string{
			`line 1: name: "bad name"; accepted`,
			"line 7: base.output: not allowed",
			"line 9: search[0]: scheduler.k: give exactly one of",
			"line 10: search[1].param: required",
			`line 11: objective.goal: "up"; accepted: minimize or maximize`,
			`line 12: constraints[0]: "wait_mean ~ 3"; accepted`,
			"line 13: algorithm.sigma: applies to algorithm ga only, not de",
			"line 14: confirm.replications: 1; accepted: ≥ 2",
			"colour: unknown field",
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse([]byte(c.spec), "bad.yaml", families.Builtin())
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error lacks %q:\n%v", w, err)
				}
			}
		})
	}
}

// The scheduler may be a categorical parameter, with a parameter of one of
// its schedulers scoped to it (scheduler.<name>.<param>): the other
// schedulers' cells do not get it.
func TestSchedulerCategorical(t *testing.T) {
	s, err := Parse([]byte(badBase+`search:
  - {param: scheduler, choices: [depth, easy]}
  - {param: scheduler.depth.k, int: [0, 8]}
objective: {metric: wait_mean, goal: minimize}
algorithm: {population: 4, generations: 2}
`), "ok.yaml", families.Builtin())
	if err != nil {
		t.Fatal(err)
	}
	sr := &search{spec: s, base: s.Base.Cells()}
	for _, v := range [][]any{{"depth", int64(3)}, {"easy", int64(3)}} {
		for _, c := range sr.cells(v, "", 0) {
			k, has := any(nil), false
			for _, p := range c.Params {
				if p.Name == "scheduler.k" {
					k, has = p.Value, true
				}
			}
			if c.Scheduler != v[0] || has != (v[0] == "depth") || has && k != int64(3) {
				t.Errorf("genome %v: cell of %s with scheduler.k %v (set: %v)", v, c.Scheduler, k, has)
			}
		}
	}
}

// The objective aggregates over the grid points per replication (here the
// worst of two loads), then averages over replications; the second
// objective and the metrics' means average over the points.
func TestObjectivePoints(t *testing.T) {
	s, err := Parse([]byte(badBase+`  axes: [{param: workload.load, values: [0.7, 0.9]}]
  replications: 3
search:
  - {param: scheduler.k, int: [0, 8]}
objective: {metric: wait_mean, goal: minimize, points: max}
second: {metric: wait_mean, goal: minimize}
algorithm: {population: 4, generations: 1}
`), "ok.yaml", families.Builtin())
	if err != nil {
		t.Fatal(err)
	}
	sr := &search{spec: s, run: &stubRunner{}, ctx: context.Background(), base: s.Base.Cells(), cache: map[string]*Eval{}}
	g := &genome{s: sr, x: []float64{0.5}}
	if err := sr.evaluate([]*genome{g}); err != nil {
		t.Fatal(err)
	}
	e := sr.evals[0]
	// Independently: the fake results of the genome's cells, by replication.
	worst := map[int]float64{}
	sum := map[int]float64{}
	for _, c := range sr.cells(e.Values, "", 0) {
		w := fakeResult(c).Metrics[0].Value
		worst[c.Replication] = max(worst[c.Replication], w)
		sum[c.Replication] += w / 2
	}
	var wantObj, wantSecond float64
	for r := range 3 {
		wantObj += worst[r] / 3
		wantSecond += sum[r] / 3
	}
	if math.Abs(e.Objective-wantObj) > 1e-9 || math.Abs(e.Second-wantSecond) > 1e-9 || math.Abs(e.Metrics["wait_mean"].Mean-wantSecond) > 1e-9 {
		t.Errorf("objective %g (want %g), second %g and mean %g (want %g)", e.Objective, wantObj, e.Second, e.Metrics["wait_mean"].Mean, wantSecond)
	}
	if _, err := Parse([]byte(badBase+`search:
  - {param: scheduler.k, int: [0, 8]}
objective: {metric: wait_mean, goal: minimize, points: median}
algorithm: {population: 4, generations: 1}
`), "bad.yaml", families.Builtin()); err == nil || !strings.Contains(err.Error(), `line 9: objective.points: "median"; accepted: mean, max or min`) {
		t.Errorf("points: median: %v", err)
	}
}
