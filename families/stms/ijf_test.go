package stms

import "testing"

// Item 5 of issue 21 (§4.3.2 eq. 9, §3.2): IJF is per batch, and a job
// GBS backfills belongs to the batch mapped before it, not to a group of
// its own.
//
// One safe resource of 100 flops/s, α = 1, cycles at 100, 200, 300. J1
// (15,000 flops, submitted at 0, due at 200) is mapped at 100 (a Min-Min
// window: batch 1) and ends late at 250; J2 (4,000 flops, submitted at
// 205, due much later) is backfilled into the void 250–300 and ends on
// time at 290. JFR = 1/2.
//
//	now:    one batch {J1, J2}: JFRs (1/2) → σ = 0, IJF = 1
//	before: batches {J1}, {J2}: JFRs (1, 0) → σ = 0.5, IJF = 0.5
func TestIJFBackfillsJoinTheirBatch(t *testing.T) {
	res := []Resource{{Speed: 100, Bandwidth: 10}}
	attrs := []Job{{Size: 0.015, Deadline: 200}, {Size: 0.004, Deadline: 1e6}}
	s, jobs := testRun(t, plainConfig(GBSTMS), res, attrs, []float64{0, 205}, nil)
	if s.cnt.Backfilled != 1 || jobs[1].Start() != 250 {
		t.Fatalf("%d backfilled, J2 starts at %g; the scenario needs J2 backfilled at 250", s.cnt.Backfilled, jobs[1].Start())
	}
	get := map[string]float64{}
	for _, m := range s.Metrics(jobs, nil) {
		get[m.Name] = m.Value
	}
	near(t, "jfr", get["jfr"], 0.5)
	near(t, "ijf", get["ijf"], 1)
}
