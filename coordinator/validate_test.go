package coordinator

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/family"
	"github.com/schedfarm/schedfarm/runner"
)

// wireCell sends a cell's directory relative to the data root and refuses
// files the workers could not reach.
func TestWireCell(t *testing.T) {
	root := "/data"
	trace := func(dir, p string) runner.Cell {
		return runner.Cell{ID: "x", Dir: dir, Params: []runner.Param{{Name: "workload.trace", Value: p}}}
	}
	for _, tc := range []struct {
		cell    runner.Cell
		wantDir string
		wantErr string
	}{
		{trace("/data/experiments", "traces/kth.swf"), "experiments", ""},
		{trace("/data", "kth.swf"), ".", ""},
		{trace("/data/a/b", "../../kth.swf"), filepath.ToSlash("a/b"), ""},
		{trace("/data/a", "../../etc/passwd"), "", "outside the data root"},
		{trace("/elsewhere", "kth.swf"), "", "outside the data root"},
		{trace("/data", "/data/kth.swf"), "", "an absolute path"},
		{runner.Cell{ID: "g", Dir: "/elsewhere"}, "", ""},
	} {
		got, err := wireCell(root, tc.cell)
		switch {
		case tc.wantErr == "" && err != nil:
			t.Errorf("%+v: %v", tc.cell, err)
		case tc.wantErr == "" && got.Dir != tc.wantDir:
			t.Errorf("%+v: dir %q; want %q", tc.cell, got.Dir, tc.wantDir)
		case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
			t.Errorf("%+v: error %v; want one saying %q", tc.cell, err, tc.wantErr)
		}
	}
}

// CheckResult names each problem of a result.
func TestCheckResult(t *testing.T) {
	digest := strings.Repeat("ab", 32)
	ok := runner.CellResult{CellID: "c1", Status: "ok", CellDigest: digest,
		Metrics: []family.Metric{{Name: "wait_mean", Value: 1}}}
	if err := CheckResult(ok, "e", "schedfarm.results.e.c1"); err != nil {
		t.Fatalf("a good result: %v", err)
	}
	for _, tc := range []struct {
		edit func(*runner.CellResult)
		want string
	}{
		{func(r *runner.CellResult) { r.CellID = "c2" }, "arrived on subject"},
		{func(r *runner.CellResult) { r.Status = "done" }, `status "done"`},
		{func(r *runner.CellResult) { r.Status = "failed" }, "failed without an error"},
		{func(r *runner.CellResult) { r.WallSeconds = -1 }, "wall_seconds -1"},
		{func(r *runner.CellResult) { r.Metrics = append(r.Metrics, r.Metrics[0]) }, "repeats"},
		{func(r *runner.CellResult) { r.Metrics[0].Name = "Wait" }, `name "Wait"`},
		{func(r *runner.CellResult) { r.CellDigest = "" }, "cell_digest"},
		{func(r *runner.CellResult) { r.JobsObject = "e.other.3" }, "jobs_object"},
		{func(r *runner.CellResult) { r.Jobs = []runner.JobRecord{{State: strings.Repeat("s", 100)}} }, "jobs[0].state"},
	} {
		r := ok
		r.Metrics = append([]family.Metric(nil), ok.Metrics...)
		tc.edit(&r)
		if err := CheckResult(r, "e", "schedfarm.results.e.c1"); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("error %v; want one saying %q", err, tc.want)
		}
	}
	r := ok
	r.JobsObject = "e.c1.17"
	if err := CheckResult(r, "e", ""); err != nil {
		t.Errorf("jobs object of the cell: %v", err)
	}
}
