package experiments

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/families"
	"github.com/schedfarm/schedfarm/param"
	"github.com/schedfarm/schedfarm/runner"
)

// testCatalog is a small in-test catalog: five classic schedulers (only
// "depth" takes a parameter, k >= 1) and one generator model.
type testCatalog struct{}

func (testCatalog) SchedulerNames() []string {
	return []string{"fcfs", "easy", "cons", "sjbf", "depth"}
}

func (testCatalog) CheckScheduler(name string, params map[string]any) error {
	for k, v := range params {
		if name != "depth" || k != "k" {
			return fmt.Errorf("unknown parameter %q; accepted: %s", k, map[bool]string{true: "k", false: "(none)"}[name == "depth"])
		}
		n, ok := v.(int64)
		if !ok || n < 1 {
			return fmt.Errorf("k must be an integer >= 1, got %v", v)
		}
	}
	return nil
}

func (testCatalog) ModelNames() []string { return []string{"lublin99"} }

func (testCatalog) WorkloadFields() []param.Spec { return nil }

func (testCatalog) CheckModel(name string, params map[string]any) error {
	for k, v := range params {
		switch k {
		case "serial_prob":
			f, ok := v.(float64)
			if !ok || f < 0 || f > 1 {
				return fmt.Errorf("serial_prob must be in [0, 1], got %v", v)
			}
		case "procs":
		default:
			return fmt.Errorf("unknown parameter %q; accepted: procs, serial_prob", k)
		}
	}
	return nil
}

func (testCatalog) ModelOutput(name string) string {
	if name == "lublin99" {
		return OutputSWF
	}
	return ""
}

func (testCatalog) MetricNames(string) []string { return nil }

const goodSpec = `
name: demo
platform:
  procs: 64
workload:
  trace: testdata/tiny.swf
  estimates: user
  load: 0.7
schedulers:
  - fcfs
  - easy
  - {name: depth, params: {k: 2}}
axes:
  - param: workload.load
    values: [0.5, 0.7, 0.9]
  - param: platform.procs
    range: {from: 32, to: 64, step: 32}
replications: 3
seed: 7
output: demo.parquet
`

func parse(t *testing.T, text string) (*Spec, error) {
	t.Helper()
	return Parse([]byte(text), "spec.yaml", testCatalog{})
}

func mustParse(t *testing.T, text string) *Spec {
	t.Helper()
	s, err := parse(t, text)
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	return s
}

func TestParseGood(t *testing.T) {
	s := mustParse(t, goodSpec)
	if s.Name != "demo" || s.Replications != 3 || s.Seed != 7 || len(s.Schedulers) != 3 {
		t.Fatalf("spec = %+v", s)
	}
	if got := s.Axes[1].Values; len(got) != 2 || got[0] != int64(32) || got[1] != int64(64) {
		t.Fatalf("procs range = %#v", got)
	}
	cells := s.Cells()
	if want := 3 * 2 * 3 * 3; len(cells) != want {
		t.Fatalf("%d cells, want %d", len(cells), want)
	}
	ids := map[string]bool{}
	for i, c := range cells {
		if c.Index != i {
			t.Fatalf("cell %d has index %d", i, c.Index)
		}
		if ids[c.ID] {
			t.Fatalf("duplicate id %s", c.ID)
		}
		ids[c.ID] = true
		if len(c.ID) != 16 {
			t.Fatalf("id %q", c.ID)
		}
		if !sort.SliceIsSorted(c.Params, func(i, j int) bool { return c.Params[i].Name < c.Params[j].Name }) {
			t.Fatalf("params not sorted: %v", c.Params)
		}
	}
	c := cells[0]
	want := []runner.Param{
		{Name: "platform.procs", Value: int64(32)}, {Name: "workload.estimates", Value: "user"}, {Name: "workload.load", Value: 0.5},
		{Name: "workload.overrun", Value: "kill"}, {Name: "workload.trace", Value: "testdata/tiny.swf"},
	}
	if fmt.Sprint(c.Params) != fmt.Sprint(want) {
		t.Fatalf("cell 0 params = %v, want %v", c.Params, want)
	}
	if c.Scheduler != "fcfs" || c.Replication != 0 || !filepath.IsAbs(c.Dir) {
		t.Fatalf("cell 0 = %+v", c)
	}
	if v, _ := cells[2].Lookup("scheduler.k"); v != int64(2) {
		t.Fatalf("depth cell lacks scheduler.k: %v", cells[2].Params)
	}
}

// TestSameCellsWhateverOrder: reordering axes, keys and zip members changes
// neither IDs nor seeds (it may change the order of cells).
func TestSameCellsWhateverOrder(t *testing.T) {
	a := mustParse(t, goodSpec)
	b := mustParse(t, `
seed: 7
output: demo.parquet
replications: 3
axes:
  - range: {step: 32, to: 64, from: 32}
    param: platform.procs
  - values: [0.9, 0.5, 0.7]
    param: workload.load
schedulers:
  - {params: {k: 2}, name: depth}
  - easy
  - fcfs
workload:
  load: 0.7
  estimates: user
  trace: testdata/tiny.swf
platform: {procs: 64}
name: demo
`)
	key := func(cells []runner.Cell) map[string]string {
		m := map[string]string{}
		for _, c := range cells {
			m[c.ID] = fmt.Sprintf("%s %d %d %v", c.Scheduler, c.Replication, c.Seed, c.Params)
		}
		return m
	}
	ka, kb := key(a.Cells()), key(b.Cells())
	if len(ka) != len(kb) {
		t.Fatalf("%d vs %d cells", len(ka), len(kb))
	}
	for id, v := range ka {
		if kb[id] != v {
			t.Fatalf("cell %s: %q vs %q", id, v, kb[id])
		}
	}
}

func TestSeeds(t *testing.T) {
	cells := mustParse(t, goodSpec).Cells()
	type key struct {
		params string
		rep    int
	}
	seedOf := map[key]uint64{}
	seeds := map[uint64]bool{}
	for _, c := range cells {
		var ps []runner.Param
		for _, p := range c.Params {
			if !strings.HasPrefix(p.Name, "scheduler.") {
				ps = append(ps, p)
			}
		}
		k := key{fmt.Sprint(ps), c.Replication}
		if s, ok := seedOf[k]; ok && s != c.Seed {
			t.Fatalf("schedulers at the same point and replication got different seeds")
		}
		seedOf[k] = c.Seed
		seeds[c.Seed] = true
	}
	if len(seeds) != len(seedOf) {
		t.Fatalf("%d distinct seeds for %d (point, replication) pairs", len(seeds), len(seedOf))
	}
	// Replications differ; the same inputs give the same seed.
	p := []runner.Param{{Name: "workload.load", Value: 0.5}}
	if CellSeed("x", 1, p, 0) == CellSeed("x", 1, p, 1) {
		t.Fatal("replications 0 and 1 share a seed")
	}
	if CellSeed("x", 1, p, 0) != CellSeed("x", 1, []runner.Param{{Name: "workload.load", Value: 0.5}}, 0) {
		t.Fatal("seed not deterministic")
	}
	if CellSeed("x", 1, p, 0) == CellSeed("y", 1, p, 0) || CellSeed("x", 1, p, 0) == CellSeed("x", 2, p, 0) {
		t.Fatal("experiment name or base seed does not enter the seed")
	}
	// Integral floats and integers hash alike.
	if CellID("x", 1, "easy", []runner.Param{{Name: "a", Value: int64(1)}}, 0) != CellID("x", 1, "easy", []runner.Param{{Name: "a", Value: 1.0}}, 0) {
		t.Fatal("1 and 1.0 give different IDs")
	}
	// Pinned values: changing the derivation must be deliberate.
	if got := CellID("x", 1, "easy", p, 0); got != pinnedID {
		t.Errorf("CellID = %s, pinned %s", got, pinnedID)
	}
	if got := CellSeed("x", 1, p, 0); got != pinnedSeed {
		t.Errorf("CellSeed = %d, pinned %d", got, uint64(pinnedSeed))
	}
}

const (
	pinnedID   = "ff0f86190a4d60c6"
	pinnedSeed = 4104253303211107004
)

func TestZipAndScopedAxis(t *testing.T) {
	s := mustParse(t, `
name: z
workload: {trace: testdata/tiny.swf}
schedulers: [fcfs, depth]
axes:
  - {param: workload.load, values: [0.5, 0.6, 0.7]}
  - {param: platform.procs, values: [16, 32, 64]}
  - {param: scheduler.depth.k, range: {from: 1, to: 4, step: 1}}
zip: [[workload.load, platform.procs]]
replications: 2
`)
	cells := s.Cells()
	// fcfs: 3 zipped points; depth: 3 points × 4 k.  × 2 replications.
	if want := (3 + 3*4) * 2; len(cells) != want {
		t.Fatalf("%d cells, want %d", len(cells), want)
	}
	for _, c := range cells {
		load, _ := c.Lookup("workload.load")
		procs, _ := c.Lookup("platform.procs")
		if fmt.Sprint(load, procs) != map[float64]string{0.5: "0.5 16", 0.6: "0.6 32", 0.7: "0.7 64"}[load.(float64)] {
			t.Fatalf("zip broken: %v", c.Params)
		}
		_, hasK := c.Lookup("scheduler.k")
		if hasK != (c.Scheduler == "depth") {
			t.Fatalf("scheduler.k on %s: %v", c.Scheduler, hasK)
		}
	}
}

func TestFloatRange(t *testing.T) {
	s := mustParse(t, `
name: r
workload: {trace: testdata/tiny.swf}
schedulers: [fcfs]
axes: [{param: workload.load, range: {from: 0.5, to: 0.95, step: 0.05}}]
`)
	got := fmt.Sprint(s.Axes[0].Values)
	if want := "[0.5 0.55 0.6 0.65 0.7 0.75 0.8 0.85 0.9 0.95]"; got != want {
		t.Fatalf("range = %s, want %s", got, want)
	}
}

func TestParamJSONRoundTrip(t *testing.T) {
	c := mustParse(t, goodSpec).Cells()[2]
	data, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	var back runner.Cell
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprintf("%#v", back) != fmt.Sprintf("%#v", c) {
		t.Fatalf("round trip:\n%#v\n%#v", back, c)
	}
	if CellID(back.Experiment, 7, back.Scheduler, back.Params, back.Replication) != c.ID {
		t.Fatal("ID changed after a JSON round trip")
	}
}

// TestSpecErrors checks each malformed spec reports the exact problem, with
// path and line, and that all problems are reported at once.
func TestSpecErrors(t *testing.T) {
	cases := []struct {
		name, spec string
		want       []string
	}{
		{"unknown scheduler", `
name: e
workload: {trace: testdata/tiny.swf}
schedulers: [fcfs, easy, eazy]
`, []string{`line 4: schedulers[2]: unknown scheduler "eazy"; known: cons, depth, easy, fcfs, sjbf`}},
		{"negative load", `
name: e
workload: {trace: testdata/tiny.swf}
schedulers: [fcfs]
axes:
  - param: workload.load
    values: [0.5, 0.7, 0.9,
             -0.5]
`, []string{`line 8: axes[0].values[3]: load must be > 0, got -0.5; accepted: a number > 0 (target offered load)`}},
		{"bad axis path", `
name: e
workload: {trace: testdata/tiny.swf}
schedulers: [fcfs]
axes:
  - {param: workload.lod, values: [1]}
`, []string{`line 6: axes[0].param: unknown parameter path "workload.lod"; accepted: platform.procs, workload.load,`}},
		{"unknown field", `
name: e
workload:
  trace: testdata/tiny.swf
  laod: 0.5
schedulers: [fcfs]
`, []string{`line 5: workload.laod: unknown field; accepted: est_bins, estimates, generator, jobs, lenient, load, max_estimate, overrun, trace, user_estimates, warmup`}},
		{"unknown top-level field", `
name: e
workload: {trace: testdata/tiny.swf}
schedulers: [fcfs]
replication: 3
`, []string{`line 5: replication: unknown field; accepted: axes, jobs_output, metrics, more_replications, name, output, platform, replications, schedulers, seed, workload, zip`}},
		{"zip length mismatch", `
name: e
workload: {trace: testdata/tiny.swf}
schedulers: [fcfs]
axes:
  - {param: workload.load, values: [0.5, 0.7]}
  - {param: platform.procs, values: [8, 16, 32]}
zip:
  - [workload.load, platform.procs]
`, []string{`line 9: zip[0][1]: "platform.procs" has 3 values but "workload.load" has 2; accepted: zipped axes of equal length`}},
		{"zip of a non-axis", `
name: e
workload: {trace: testdata/tiny.swf}
schedulers: [fcfs]
axes:
  - {param: workload.load, values: [0.5, 0.7]}
zip: [[workload.load, scheduler.k]]
`, []string{`zip[0][1]: "scheduler.k" is not an axis; accepted: workload.load`}},
		{"bad scheduler param", `
name: e
workload: {trace: testdata/tiny.swf}
schedulers:
  - fcfs
  - {name: depth, params: {k: 0}}
`, []string{`line 6: schedulers[1].params: scheduler "depth": k must be an integer >= 1, got 0`}},
		{"scheduler axis a scheduler rejects", `
name: e
workload: {trace: testdata/tiny.swf}
schedulers: [fcfs, depth]
axes: [{param: scheduler.k, values: [1, 2]}]
`, []string{`line 5: axes[0].param: scheduler "fcfs" rejects every value: unknown parameter "k"; accepted: (none); to sweep it for one scheduler only, use scheduler.<name>.k`}},
		{"scoped axis of absent scheduler", `
name: e
workload: {trace: testdata/tiny.swf}
schedulers: [fcfs]
axes: [{param: scheduler.depth.k, values: [1, 2]}]
`, []string{`axes[0].param: scheduler "depth" of "scheduler.depth.k" is not in schedulers; accepted: fcfs`}},
		{"scheduler mapping with unknown key", `
name: e
workload: {trace: testdata/tiny.swf}
schedulers:
  - {name: depth, parms: {k: 2}}
`, []string{`line 5: schedulers[0].parms: unknown field; accepted: name, params`}},
		{"missing trace file", `
name: e
workload: {trace: nothere.swf}
schedulers: [fcfs]
`, []string{`line 3: workload.trace: trace "nothere.swf" not found`}},
		{"trace and generator", `
name: e
workload: {trace: testdata/tiny.swf, generator: {model: lublin99}, jobs: 10}
schedulers: [fcfs]
`, []string{`workload: both trace and generator given; accepted: exactly one of trace, generator`}},
		{"unknown model", `
name: e
workload: {generator: {model: lublin98}}
schedulers: [fcfs]
`, []string{`workload.generator.model: unknown model "lublin98"; known: lublin99`}},
		{"bad generator param axis", `
name: e
workload: {generator: {model: lublin99}, jobs: 100}
schedulers: [fcfs]
axes: [{param: workload.generator.serial_prob, values: [0.1, 1.5]}]
`, []string{`axes[0].values[1]: model "lublin99": serial_prob must be in [0, 1], got 1.5`}},
		{"bad estimates, overrun, replications, name, empty values, range step", `
name: "my experiment"
workload: {trace: testdata/tiny.swf, estimates: guess, overrun: stop}
schedulers: [fcfs]
axes:
  - {param: workload.load, values: []}
  - {param: platform.procs, range: {from: 64, to: 8, step: 8}}
replications: 0
`, []string{
			`name: invalid name "my experiment"`,
			`workload.estimates: unknown estimates "guess"; accepted: user, exact, pyss`,
			`workload.overrun: unknown overrun "stop"; accepted: extend, kill`,
			`axes[0].values: empty; accepted: a non-empty list`,
			`axes[1].range.step: step 8 does not lead from 64 to 8`,
			`replications: must be >= 1, got 0`}},
		{"non-integer procs and duplicate value", `
name: e
workload: {trace: testdata/tiny.swf}
schedulers: [fcfs, fcfs]
axes: [{param: platform.procs, values: [8, 8.5, 16, 16]}]
`, []string{
			`schedulers[1]: duplicate of schedulers[0] (same name and params)`,
			`axes[0].values[1]: procs must be an integer, got 8.5; accepted: an integer > 0 (processors)`,
			`axes[0].values[3]: duplicate value 16 (same as value 2)`}},
		{"type error", `
name: e
workload: {trace: testdata/tiny.swf}
schedulers: [fcfs]
replications: many
`, []string{"line 5: replications: `many` is a string; accepted: an integer"}},
		{"yaml syntax", "name: [\n", []string{`invalid YAML`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parse(t, tc.spec)
			if err == nil {
				t.Fatal("no error")
			}
			var se *SpecError
			if !errors.As(err, &se) {
				t.Fatalf("error %T %v is not a *SpecError", err, err)
			}
			msg := err.Error()
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error\n%s\ndoes not contain\n%s", msg, w)
				}
			}
			if len(se.Errors) != len(tc.want) {
				t.Errorf("%d errors, want %d:\n%s", len(se.Errors), len(tc.want), msg)
			}
		})
	}
}

func TestLoadResolvesTraceAgainstSpecDir(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "data"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "data", "t.swf"), []byte("1 0 -1 1 1 -1 -1 1 1 -1 1 1 1 1 1 -1 -1 -1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	spec := "name: d\nworkload: {trace: data/t.swf}\nschedulers: [fcfs]\n"
	path := filepath.Join(dir, "s.yaml")
	if err := os.WriteFile(path, []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Load(path, testCatalog{})
	if err != nil {
		t.Fatal(err)
	}
	c := s.Cells()[0]
	if c.Dir != dir || runner.ResolvePath(c.Dir, s.Workload.Trace) != filepath.Join(dir, "data", "t.swf") {
		t.Fatalf("dir %q trace %q", c.Dir, s.Workload.Trace)
	}
	if s.Output != "d.parquet" {
		t.Fatalf("default output %q", s.Output)
	}
}

func TestBuiltinCatalog(t *testing.T) {
	_, err := Parse([]byte(`
name: e
workload: {trace: testdata/tiny.swf}
schedulers: [fcfs, easy, eazy, {name: depth, params: {k: unlimited}}]
axes: [{param: scheduler.depth.k, values: [0, 1, 4, -3]}]
`), "b.yaml", NewCatalog(families.Builtin()))
	if err == nil {
		t.Fatal("no error")
	}
	for _, w := range []string{
		`line 4: schedulers[2]: unknown scheduler "eazy"; known: ` + strings.Join(families.Builtin().EngineSchedulers(), ", "),
		`line 5: axes[0].values[3]: scheduler "depth": depth: parameter k = -3: out of range`,
	} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error\n%v\nlacks\n%s", err, w)
		}
	}
}

// Tsafrir user bins (est_bins) in a generator spec: a good spec validates and
// its cells carry the parameter to the generator; bad bins are reported at
// workload.generator.est_bins (or at the axis value) with what is accepted.
func TestGeneratorEstBins(t *testing.T) {
	s, err := Parse([]byte(`
name: e
workload:
  generator:
    model: lublin99
    jobs: 1000
    estimates: tsafrir05
    max_estimate: 36000
    est_bins: 3600=30,14400=10
schedulers: [easy]
axes: [{param: workload.generator.est_bins, values: ["3600=30,14400=10", "7200=25"]}]
`), "b.yaml", NewCatalog(families.Builtin()))
	if err != nil {
		t.Fatal(err)
	}
	c := s.Cells()[0]
	if v, _ := c.Lookup("workload.generator.est_bins"); v != "3600=30,14400=10" {
		t.Fatalf("cell params %v", c.Params)
	}
	cfg, err := testRunner.ConfigOf(c)
	if err != nil {
		t.Fatal(err)
	}
	n := map[float64]int{}
	for {
		j, err := cfg.Source.Next()
		if err != nil {
			break
		}
		n[j.ReqTime]++
	}
	if n[3600] != 300 || n[14400] != 100 {
		t.Errorf("3600 s × %d jobs (want 300), 14400 s × %d (want 100)", n[3600], n[14400])
	}

	_, err = Parse([]byte(`
name: e
workload:
  generator:
    model: lublin99
    jobs: 1000
    estimates: tsafrir05
    est_bins: "3600=30,3600=abc"
schedulers: [easy]
axes:
  - param: workload.generator.est_bins
    values: ["7200=5", "7200=0.01", "9000=30,9000=30"]
`), "b.yaml", NewCatalog(families.Builtin()))
	var se *SpecError
	if !errors.As(err, &se) {
		t.Fatalf("want a *SpecError, got %v", err)
	}
	for _, w := range []string{
		`line 8: workload.generator.est_bins: model "lublin99": parameter est_bins = "3600=30,3600=abc": bin 2 "3600=abc": percent "abc": want a number in (0, 100]; accepted: "" or sec=percent[,sec=percent…]`,
		`line 12: axes[0].values[1]: model "lublin99": parameter est_bins bin 7200=0.01 gives int(jobs·percent/100) = 0 jobs of jobs = 1000; want percent ≥ 0.1`,
		`line 12: axes[0].values[2]: model "lublin99": parameter est_bins = "9000=30,9000=30": bin 2 "9000=30": time 9000 s repeats bin 1; want distinct times`,
	} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error\n%v\nlacks\n%s", err, w)
		}
	}
	if len(se.Errors) != 3 {
		t.Errorf("%d errors, want 3:\n%v", len(se.Errors), err)
	}

	// Well-formed bins that do not fit the other parameters: checked as a
	// combination, still reported at est_bins.
	_, err = Parse([]byte(`
name: e
workload:
  generator: {model: lublin99, jobs: 1000, max_estimate: 36000, est_bins: "40000=10,3600=0.01"}
schedulers: [easy]
`), "b.yaml", NewCatalog(families.Builtin()))
	for _, w := range []string{
		`line 4: workload.generator.est_bins: model "lublin99": parameter est_bins = "40000=10,3600=0.01" needs estimates tsafrir05 (estimates is none)`,
		`line 4: workload.generator.est_bins: model "lublin99": parameter est_bins bin 40000=10: time 40000 s exceeds max_estimate = 36000 s; want times ≤ max_estimate`,
		`line 4: workload.generator.est_bins: model "lublin99": parameter est_bins bin 3600=0.01 gives int(jobs·percent/100) = 0 jobs of jobs = 1000; want percent ≥ 0.1`,
	} {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("error\n%v\nlacks\n%s", err, w)
		}
	}
}
