package experiments

import (
	"context"
	"testing"

	"github.com/schedfarm/schedfarm/runner"
)

// TestRunCellSuspensions: a CMBF cell reports its suspensions
// (family.MetricReporter) after the runner's metrics; the scenario is
// families/ktier's hand-worked suspend path on 6 dedicated nodes (K = 1):
// J1 (4 nodes) runs 0–10, J2 (5 nodes) waits, J3 and J4 (1 node each) are
// backfilled at 2 and 3; at 10 J2 needs 5 of 4 idle nodes plus the 2 held
// by later backfilled jobs, so the latest, J4, is suspended — once, and
// nothing else is. EASY on the same trace has no such metric.
func TestRunCellSuspensions(t *testing.T) {
	c := runner.Cell{ID: "s", Scheduler: "cmbf", Dir: "testdata", Params: []runner.Param{
		{Name: "workload.trace", Value: "cmbf-suspend.swf"},
		{Name: "scheduler.k", Value: int64(1)},
	}}
	r, err := runCell(context.Background(), c)
	if err != nil || r.Status != runner.StatusOK {
		t.Fatalf("cmbf: %+v %v", r, err)
	}
	if v := metric(r, "suspensions"); v != 1 {
		t.Errorf("suspensions = %v, want 1 (J4 at 10)", v)
	}
	if last := r.Metrics[len(r.Metrics)-1].Name; last != "suspensions" {
		t.Errorf("last metric %q, want suspensions after the runner's", last)
	}
	// J1 0–10, J2 10–20, J3 2–22, J4 3–33 (suspended 10–20): makespan 33.
	if v := metric(r, "makespan"); v != 33 {
		t.Errorf("makespan = %v, want 33", v)
	}
	c.Scheduler, c.Params = "easy", c.Params[:1]
	r, err = runCell(context.Background(), c)
	if err != nil || r.Status != runner.StatusOK {
		t.Fatalf("easy: %+v %v", r, err)
	}
	for _, m := range r.Metrics {
		if m.Name == "suspensions" {
			t.Errorf("easy reports suspensions = %v; only CMBF has the metric", m.Value)
		}
	}
}
