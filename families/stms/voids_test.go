package stms

import "testing"

// Item 3 of issue 21 (§3.1 Fig. 3, §5.2, §6): under IR-STMS with irs_fill
// voids, IRS-ruled jobs mapped to a resource are fitted into its inter-job
// voids.
//
// One safe resource of 100 flops/s, α = 2, timetable dispatch. J1, J2
// (10,000 flops, 100 s) and J3 (2,500 flops, 25 s) are submitted at 0 and
// mapped at once in that order, each to R0 alone (IRS-ruled under
// IR-STMS): slots J1 0–200, J2 200–400, J3 400–450. J1 ends at 100: a void
// until J2's planned start at 200.
//
//	irs_fill voids:   J2's α·PET = 200 does not fit the 100-s void; J3's 50
//	                  does: J3 runs 100–125, J2 at its slot 200–300.
//	irs_fill restart: J2 200–300, J3 at its slot 400–425.
//	STMS (no IRS):    as restart.
//
// Before the fix IR-STMS never fitted a job into a void: J3 ended at 425.
func TestIRSFillsVoids(t *testing.T) {
	res := []Resource{{Speed: 100, Bandwidth: 10}}
	attrs := []Job{{Size: 0.01, Deadline: 1e6}, {Size: 0.01, Deadline: 1e6}, {Size: 0.0025, Deadline: 1e6}}
	hook := func(p *planner) ([]int, [][]int) { return []int{0, 1, 2}, [][]int{{0}, {0}, {0}} }
	for _, tc := range []struct {
		name      string
		scheme    Scheme
		fill      IRSFill
		endJ3     float64
		voidFills int
	}{
		{"IR-STMS voids", IRSTMS, FillVoids, 125, 1},
		{"IR-STMS restart", IRSTMS, FillRestart, 425, 0},
		{"STMS", STMS, FillVoids, 425, 0},
	} {
		cfg := plainConfig(tc.scheme)
		cfg.Alpha, cfg.Batch, cfg.IRSFill = 2, 3, tc.fill
		s, jobs := testRunHook(t, cfg, res, attrs, []float64{0, 0, 0}, nil, hook)
		near(t, tc.name+": J1 end", jobs[0].End(), 100)
		near(t, tc.name+": J2 start", jobs[1].Start(), 200)
		near(t, tc.name+": J2 end", jobs[1].End(), 300)
		near(t, tc.name+": J3 end", jobs[2].End(), tc.endJ3)
		if s.cnt.VoidFills != tc.voidFills {
			t.Errorf("%s: %d void fills, want %d", tc.name, s.cnt.VoidFills, tc.voidFills)
		}
	}
}
