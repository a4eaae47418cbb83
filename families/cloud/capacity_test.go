package cloud

import (
	"math"
	"testing"
)

// Item 11 — can any reading serve Table 2's finished jobs? CPLMT finished
// 10,000 − 2,904 = 7,096 jobs, one node per task (Algorithm 3). By hand,
// for the methodological cloud (120 nodes of speed 24 or 48, mean 36; jobs
// at 40 a day; parallelism p uniform on 1…8; instruction number I uniform
// on [24, 240]; deadline d uniform on 1…6 days):
//
// Capacity: the last job arrives near 10,000 / 40 = 250 days and may end
// ≤ 6 days later (units): 120 · 36 · ~256 ≈ 1.1e6 instruction units (the
// count of 48-SP nodes is Binomial(120, ½): Σ speed 4,320 ± 131 (1σ); seed
// 1 draws 49 of them, Σ speed 4,056). Relative deadlines reach
// d × best time ≤ 6 · 5 days after the last arrival: horizon ≤ ~280.
//
// Feasible jobs (units; best time = the task's instructions / 48):
//
//	copied: I/48 ≤ d fails with probability (P(I>48) + P(I>96) + P(I>144)
//	        + P(I>192)) / 6 = (0.889 + 0.667 + 0.444 + 0.222) / 6 = 0.370
//	        → ≈ 6,300 feasible < 7,096: no scheduler can finish Table 2's
//	        count with one node per task.
//	split:  I/(48p) ≤ d fails for p ≤ 4 only: (0.370 + 0.148 + 0.074 +
//	        0.037) / 8 = 0.079 → ≈ 9,210 feasible.
//	relative deadlines: every job (d ≥ 1 × its best time).
//
// Work of the 7,096 cheapest jobs (all feasible, relative deadlines):
//
//	copied: W = p·I; its 70.96% quantile is 789, and 10,000 · E[W; W ≤ 789]
//	        = 2.53e6 ≈ 2.3 × capacity: impossible.
//	split:  W = I; quantile 24 + 0.7096 · 216 = 177.3, 10,000 · (177.3² −
//	        24²) / (2 · 216) = 7.14e5 ≈ 65% of capacity: possible. (Table
//	        2's SIN, 8.1211e5, is then exactly the finished work: 74%.)
//	independent: W = Σ of p draws: ≈ 3.0e6 (by simulation): impossible.
//
// Under units the cheapest feasible jobs cost a little more (split ≈
// 7.3e5, by simulation).
func TestTable2Capacity(t *testing.T) {
	rows, err := Table2Capacity(1)
	if err != nil {
		t.Fatal(err)
	}
	type hand struct {
		feasible float64 // share of the 10,000
		needMin  float64
		canServe bool
	}
	want := map[[2]string]hand{
		{"copied", "units"}:         {0.630, 0, false},
		{"copied", "relative"}:      {1, 2.53e6, false},
		{"split", "units"}:          {0.921, 7.3e5, true},
		{"split", "relative"}:       {1, 7.14e5, true},
		{"independent", "relative"}: {1, 3.0e6, false},
	}
	for _, r := range rows {
		t.Log(r)
		if r.Jobs != 10000 || r.Finished != 7096 {
			t.Errorf("%s/%s: %d jobs, %d finished; want 10000, 7096", r.Tasks, r.Deadline, r.Jobs, r.Finished)
		}
		if c := r.Capacity / (120 * 36 * r.Horizon); math.Abs(c-1) > 0.1 || r.Horizon < 245 || r.Horizon > 290 {
			t.Errorf("%s/%s: capacity %g over %g days; want ≈ 120 · 36 · horizon, horizon 250–290", r.Tasks, r.Deadline, r.Capacity, r.Horizon)
		}
		h, ok := want[[2]string{r.Tasks, r.Deadline}]
		if !ok {
			continue
		}
		if f := float64(r.Feasible) / 10000; math.Abs(f-h.feasible) > 0.015 {
			t.Errorf("%s/%s: %d feasible; want ≈ %.0f", r.Tasks, r.Deadline, r.Feasible, h.feasible*10000)
		}
		if h.needMin > 0 && math.Abs(r.NeedMin/h.needMin-1) > 0.03 {
			t.Errorf("%s/%s: need ≥ %.4g; want ≈ %.4g", r.Tasks, r.Deadline, r.NeedMin, h.needMin)
		}
		if r.CanServe != h.canServe {
			t.Errorf("%s/%s: can serve %v; want %v", r.Tasks, r.Deadline, r.CanServe, h.canServe)
		}
	}
	if len(rows) != 6 {
		t.Errorf("%d rows; want 3 tasks readings × 2 deadline readings", len(rows))
	}
}
