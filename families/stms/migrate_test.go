package stms

import (
	"math"
	"testing"
)

// Item 1 of issue 21 (§2.2 Fig. 1 "delayed job execution", §3.3): outside
// SP-STMS a migrant waits at its backup for the slot the plan reserved for
// it there, behind the jobs reserved before it; only SPS lets it overtake.
//
// Two resources of 100 flops/s; R0 fails jobs of SDV 1 at hazard ln 2 /
// 200 s (P = 0.5 over a 200-s run), R1 never. α = 2, timetable dispatch,
// no tracing cost, no transfer time. J1 (20,000 flops), J2 and J3 (10,000
// flops each) are submitted at 0 and mapped at once (a batch of 3) in the
// order J3, J2, J1 with chains J3 [R1], J2 [R1], J1 [R0, R1]:
//
//	J3 on R1: start 0, α·PET = 2·100 = 200          → R1 planned to 200
//	J2 on R1: start 200, slot 200                    → R1 planned to 400
//	J1 on R0: start 0; stage 1 load (1−P)·200 + P·100 = 150 → R0 to 300;
//	          stage 2 on R1 (half the size, 100 s) load P·100 = 50,
//	          reserved at 400                        → R1 planned to 500
//
// J3 runs 0–100; R1 is then idle (a void) until J2's start at 200. J1
// fails on R0 at 150 with 5,000 flops (50 s on R1) left and reaches R1 at
// once, in that void.
//
//	STMS: J1 joins R1's queue behind J2 and is due at its slot, 400:
//	      J2 200–300, J1 400–450.
//	STMS, J1's chain [R0] only (beyond its chain, no slot): J1 joins the end
//	      of R1's queue, due on arrival: J2 200–300, J1 300–350.
//	SP-STMS: J1 overtakes on the idle R1: J1 150–200, J2 200–300.
//
// Before the fix J1 started at 150 on R1 in every scheme (it went to the
// head of the queue, due at once).
func TestMigrantWaitsForItsSlot(t *testing.T) {
	res := []Resource{
		{Speed: 100, Bandwidth: 10, Lambda: math.Ln2 / 200, RAL: 0},
		{Speed: 100, Bandwidth: 10},
	}
	attrs := []Job{{Size: 0.02, SDV: 1, Deadline: 1e6}, {Size: 0.01, Deadline: 1e6}, {Size: 0.01, Deadline: 1e6}}
	fail := func(id int64, r int) float64 {
		if id == 1 && r == 0 {
			return 150
		}
		return math.Inf(1)
	}
	for _, tc := range []struct {
		name         string
		scheme       Scheme
		chainJ1      []int
		endJ1, endJ2 float64
		slot         float64
	}{
		{"STMS at its slot", STMS, []int{0, 1}, 450, 300, 400},
		{"STMS beyond its chain", STMS, []int{0}, 350, 300, math.NaN()},
		{"SP-STMS overtakes", SPSTMS, []int{0, 1}, 200, 300, 400},
	} {
		cfg := plainConfig(tc.scheme)
		cfg.Alpha, cfg.Batch, cfg.TransferFactor = 2, 3, 0
		hook := func(p *planner) ([]int, [][]int) {
			return []int{2, 1, 0}, [][]int{tc.chainJ1, {1}, {1}}
		}
		s, jobs := testRunHook(t, cfg, res, attrs, []float64{0, 0, 0}, fail, hook)
		near(t, tc.name+": J1 end", jobs[0].End(), tc.endJ1)
		near(t, tc.name+": J2 start", jobs[1].Start(), 200)
		near(t, tc.name+": J2 end", jobs[1].End(), tc.endJ2)
		near(t, tc.name+": J3 end", jobs[2].End(), 100)
		if !math.IsNaN(tc.slot) {
			near(t, tc.name+": J1's slot on R1", s.jobs[0].slots[1], tc.slot)
		}
		if s.cnt.Migrations != 1 || s.jobs[0].res != 1 {
			t.Errorf("%s: %d migrations, J1 ended on R%d", tc.name, s.cnt.Migrations, s.jobs[0].res)
		}
	}
}
