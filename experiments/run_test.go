package experiments

import (
	"context"
	"testing"
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
`), "rc.yaml", BuiltinCatalog())
	if err != nil {
		t.Fatal(err)
	}
	cells := s.Cells()
	if len(cells) != 4 {
		t.Fatalf("%d cells", len(cells))
	}
	run := func(c Cell) CellResult {
		r, err := RunCell(context.Background(), c)
		if err != nil {
			t.Fatal(err)
		}
		if r.Status != StatusOK {
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
	c := Cell{ID: "x", Scheduler: "easy", Params: []Param{{Name: "workload.trace", Value: "testdata/tiny.swf"}, {Name: "bogus.param", Value: int64(1)}}}
	r, err := RunCell(context.Background(), c)
	if err != nil || r.Status != StatusFailed || r.Error != "unknown parameters bogus.param" {
		t.Fatalf("bad param: %+v %v", r, err)
	}
	c.Params = []Param{{Name: "workload.trace", Value: "nothere.swf"}}
	c.Dir = "testdata"
	if r, err := RunCell(context.Background(), c); err != nil || r.Status != StatusFailed || r.Error == "" {
		t.Fatalf("missing trace: %+v %v", r, err)
	}
	c.Params = []Param{{Name: "workload.trace", Value: "tiny.swf"}}
	r, err = RunCell(context.Background(), c)
	if err != nil || r.Status != StatusOK {
		t.Fatalf("tiny trace: %+v %v", r, err)
	}
	if v := metric(r, "jobs"); v != 1 {
		t.Fatalf("jobs = %v", v)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := RunCell(ctx, c); err == nil {
		t.Fatal("cancelled context: no error")
	}
}

func metric(r CellResult, name string) float64 {
	for _, m := range r.Metrics {
		if m.Name == name {
			return m.Value
		}
	}
	return -1
}

// TestShippedSpecs: the example specs validate against the real registries
// and expand to the documented number of cells.
func TestShippedSpecs(t *testing.T) {
	for file, n := range map[string]int{"quickstart.yaml": 100, "load-sweep.yaml": 150} {
		s, err := Load(file, BuiltinCatalog())
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if got := len(s.Cells()); got != n {
			t.Errorf("%s: %d cells, want %d", file, got, n)
		}
	}
}
