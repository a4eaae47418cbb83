package experiments

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/families"
	"github.com/schedfarm/schedfarm/families/twotier"
	"github.com/schedfarm/schedfarm/family"
	"github.com/schedfarm/schedfarm/runner"
)

func TestRunCellGeneratorDeterministic(t *testing.T) {
	s, err := Parse([]byte(`
name: rc
platform: {procs: 64}
workload:
  generator: {model: lublin99, jobs: 300, procs: 64}
  load: 0.7
schedulers: [fcfs, easy]
replications: 2
jobs_output: j.parquet
`), "rc.yaml", NewCatalog(families.Builtin()))
	if err != nil {
		t.Fatal(err)
	}
	cells := s.Cells()
	if len(cells) != 4 {
		t.Fatalf("%d cells", len(cells))
	}
	run := func(c runner.Cell) runner.CellResult {
		r, err := runCell(context.Background(), c)
		if err != nil {
			t.Fatal(err)
		}
		if r.Status != runner.StatusOK {
			t.Fatalf("cell %s: %s", c.ID, r.Error)
		}
		return r
	}
	a, b := run(cells[0]), run(cells[0])
	if len(a.Metrics) == 0 || len(a.Jobs) != 300 {
		t.Fatalf("metrics %d jobs %d", len(a.Metrics), len(a.Jobs))
	}
	for i := range a.Metrics {
		if a.Metrics[i] != b.Metrics[i] {
			t.Fatalf("rerun differs: %v vs %v", a.Metrics[i], b.Metrics[i])
		}
	}
	// Replication 1 sees another workload.
	c := run(cells[2])
	same := true
	for i := range a.Metrics {
		same = same && a.Metrics[i] == c.Metrics[i]
	}
	if same {
		t.Fatal("replications 0 and 1 gave identical metrics")
	}
	// fcfs and easy at the same point share the workload (common random
	// numbers): same job count and submit times.
	e := run(cells[1])
	if e.Jobs[299].Submit != a.Jobs[299].Submit {
		t.Fatal("schedulers at one point saw different workloads")
	}
}

func TestRunCellFailuresAndCancel(t *testing.T) {
	c := runner.Cell{ID: "x", Scheduler: "easy", Params: []runner.Param{{Name: "workload.trace", Value: "testdata/tiny.swf"}, {Name: "bogus.param", Value: int64(1)}}}
	r, err := runCell(context.Background(), c)
	if err != nil || r.Status != runner.StatusFailed || r.Error != "unknown parameters bogus.param" {
		t.Fatalf("bad param: %+v %v", r, err)
	}
	c.Params = []runner.Param{{Name: "workload.trace", Value: "nothere.swf"}}
	c.Dir = "testdata"
	if r, err := runCell(context.Background(), c); err != nil || r.Status != runner.StatusFailed || r.Error == "" {
		t.Fatalf("missing trace: %+v %v", r, err)
	}
	c.Params = []runner.Param{{Name: "workload.trace", Value: "tiny.swf"}}
	r, err = runCell(context.Background(), c)
	if err != nil || r.Status != runner.StatusOK {
		t.Fatalf("tiny trace: %+v %v", r, err)
	}
	if v := metric(r, "jobs"); v != 1 {
		t.Fatalf("jobs = %v", v)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := runCell(ctx, c); err == nil {
		t.Fatal("cancelled context: no error")
	}
}

func metric(r runner.CellResult, name string) float64 {
	for _, m := range r.Metrics {
		if m.Name == name {
			return m.Value
		}
	}
	return -1
}

// TestShippedSpecs: every experiment spec shipped in this directory
// validates against the real registries and expands to the number of cells
// its header comment states ("… = N cells"). The tune specs (tune-*.yaml)
// are tune's: tune's TestShippedSpecs checks them.
func TestShippedSpecs(t *testing.T) {
	shipped, _ := filepath.Glob("*.yaml")
	if len(shipped) == 0 {
		t.Fatal("no shipped specs found")
	}
	stated := regexp.MustCompile(`(?m)^#.*= ([0-9,]+) cells`)
	for _, file := range shipped {
		if strings.HasPrefix(file, "tune-") {
			continue
		}
		text, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		m := stated.FindSubmatch(text)
		if m == nil {
			t.Errorf("%s: its header comment does not state the cell count (\"… = N cells\")", file)
			continue
		}
		n, _ := strconv.Atoi(strings.ReplaceAll(string(m[1]), ",", ""))
		s, err := Load(file, NewCatalog(families.Builtin()))
		if err != nil {
			t.Errorf("%s: %v", file, err)
			continue
		}
		if got := len(s.Cells()); got != n {
			t.Errorf("%s: %d cells, its header says %d", file, got, n)
		}
	}
}

// A seed004 (project) workload runs through the same cells: the interarrival
// axis with common_random_numbers keeps the seed, so every point has the
// same capacities and jobs with rescaled arrivals; replications differ; the
// project metrics come out with the job metrics.
func TestProjectWorkloadCells(t *testing.T) {
	s, err := Parse([]byte(`
name: proj
workload:
  generator: {model: seed004, projects: 40, high_priority: 0.5}
schedulers: [2tsb, {name: 2tfb-sf, params: {sf: 0.5}}]
axes:
  - param: workload.generator.interarrival
    values: [20, 80]
    common_random_numbers: true
replications: 2
metrics: [pta, jta, pta_high, wait_mean]
jobs_output: j.parquet
`), "proj.yaml", NewCatalog(families.Builtin()))
	if err != nil {
		t.Fatal(err)
	}
	if s.Workload.Output != string(twotier.Output) {
		t.Fatalf("output %q", s.Workload.Output)
	}
	cells := s.Cells()
	if len(cells) != 8 {
		t.Fatalf("%d cells", len(cells))
	}
	// Order: replication, interarrival, scheduler.
	if cells[0].Seed != cells[2].Seed || cells[0].Seed != cells[1].Seed || cells[0].Seed == cells[4].Seed {
		t.Fatalf("seeds %x %x %x %x: want equal across the axis and schedulers, different across replications",
			cells[0].Seed, cells[1].Seed, cells[2].Seed, cells[4].Seed)
	}
	pr, ok := families.Builtin().PlatformOf("seed004")
	if !ok {
		t.Fatal("no platform runs seed004")
	}
	run := func(c runner.Cell) *family.Result {
		t.Helper()
		fc := family.Cell{Model: "seed004", Scheduler: c.Scheduler, Seed: c.Seed, KeepJobs: true,
			Params: c.ParamsWithPrefix("workload.generator."), SchedulerParams: c.ParamsWithPrefix("scheduler.")}
		delete(fc.Params, "model")
		out, err := pr.Run(fc)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	fast, slow := run(cells[0]), run(cells[2])
	if len(fast.Jobs) != len(slow.Jobs) {
		t.Fatalf("%d / %d jobs", len(fast.Jobs), len(slow.Jobs))
	}
	for i, j := range fast.Jobs {
		k := slow.Jobs[i]
		if r := k.Submit / j.Submit; r < 4-1e-9 || r > 4+1e-9 || !reflect.DeepEqual(j.Demand, k.Demand) || j.Estimate != k.Estimate || j.Project != k.Project {
			t.Fatalf("job %d: submit ratio %g, demand %v vs %v", j.ID, r, j.Demand, k.Demand)
		}
		if len(j.Demand) != 5 {
			t.Fatalf("job %d: demand %v, want one entry per resource type (5)", j.ID, j.Demand)
		}
	}
	for _, c := range cells[:4] {
		r, err := runCell(context.Background(), c)
		if err != nil || r.Status != runner.StatusOK {
			t.Fatalf("cell %s: %v %s", c.ID, err, r.Error)
		}
		pta, jta, high := metric(r, "pta"), metric(r, "jta"), metric(r, "pta_high")
		// Every project's mean job turn-around is at most its turn-around.
		if !(pta > 0 && jta > 0 && jta <= pta && high > 0) || len(r.Jobs) != len(fast.Jobs) {
			t.Fatalf("%s at %v: pta %g jta %g pta_high %g, %d job records", c.Scheduler, c.Params, pta, jta, high, len(r.Jobs))
		}
	}
	// ConfigOf refuses a project cell; a project cell with parameters that
	// do not apply fails.
	if _, err := testRunner.ConfigOf(cells[0]); err == nil || !strings.Contains(err.Error(), "its own platform") {
		t.Errorf("ConfigOf on a project cell: %v", err)
	}
	bad := cells[0]
	bad.Params = append(append([]runner.Param(nil), bad.Params...), runner.Param{Name: "workload.load", Value: 0.5})
	if r, _ := runCell(context.Background(), bad); r.Status != runner.StatusFailed || !strings.Contains(r.Error, "workload.load") {
		t.Errorf("workload.load on a project cell: %s %s", r.Status, r.Error)
	}
}

// The SWF-only fields, a platform section and axes over them are errors for
// a project workload, each naming the field; project metrics are accepted
// for project workloads only.
func TestProjectWorkloadValidation(t *testing.T) {
	_, err := Parse([]byte(`
name: proj
platform: {procs: 8}
workload:
  generator: {model: seed004, projects: 10}
  estimates: exact
  load: 0.5
  warmup: 3
schedulers: [2tsb]
axes:
  - param: workload.jobs
    values: [5, 6]
  - param: platform.procs
    values: [4, 8]
metrics: [pta, offered_load]
`), "p.yaml", NewCatalog(families.Builtin()))
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{
		"line 3: platform.procs: model \"seed004\" generates its own platform",
		"workload.estimates: applies to SWF workloads only",
		"workload.load: applies to SWF workloads only",
		"workload.warmup: applies to SWF workloads only",
		"axes[0].param: \"workload.jobs\" does not apply",
		"axes[1].param: \"platform.procs\" does not apply",
		"metrics[1]: unknown metric \"offered_load\"",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error does not contain %q:\n%v", want, err)
		}
	}
	if strings.Contains(err.Error(), "metrics[0]") {
		t.Errorf("pta rejected for a project workload:\n%v", err)
	}
	_, err = Parse([]byte(`
name: swf
platform: {procs: 8}
workload: {generator: {model: lublin99, jobs: 50, procs: 8}}
schedulers: [easy]
metrics: [pta]
`), "s.yaml", NewCatalog(families.Builtin()))
	if err == nil || !strings.Contains(err.Error(), "metrics[0]: unknown metric \"pta\"") {
		t.Errorf("pta on an SWF workload: %v", err)
	}
}
