package cloud

import (
	"testing"

	"github.com/schedfarm/schedfarm/sim"
)

// Tests of issue 21 (seed 001 read line by line against the paper): each
// shows the paper's behaviour on a case small enough to compute by hand.

// Item 8 — SIN, "the total number of instructions of finished jobs"
// (§4.1), counts a job's instruction number once, not once per task:
// Table 2's SIN per finished job is 8.1211e5 / (10,000 − 2,904) = 114.4
// for CPLMT (CMMS 108.6, FIFO 115.6, ASJS 109.2, Fair 116.0), one draw of
// [24, 240] per job; one per task would be about 4.5 times that.
//
// Two VMs of speed 1. J1 at 0: two tasks of 3 instructions (the same
// requirement, §3.1, copied), deadline 10 → [0, 3] on v0, v1: SIN 3 (not
// 3 + 3 = 6). J2 at 5: a split job, instruction number 4 over two tasks of
// 2 → [5, 7]: SIN + 4 = 7 in all.
func TestSINCountsEachFinishedJobOnce(t *testing.T) {
	j2 := job(2, 5, 10, 2, 2)
	j2.Instructions = 4
	w := &Workload{VMs: []VM{vmS(1), vmS(1)}, Jobs: []Job{job(1, 0, 10, 3, 3), j2}}
	for _, name := range Names() {
		r := runT(t, w, name, nil)
		expect(t, r, []want{
			{sim.Finished, 0, 3, [][]int{{0}, {1}}},
			{sim.Finished, 5, 7, [][]int{{0}, {1}}},
		})
		if m := r.Metrics(); m.SIN != 7 {
			t.Errorf("%s: SIN %g; want 3 + 4 = 7", name, m.SIN)
		}
	}
}
