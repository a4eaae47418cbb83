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

// Item 9 — the baselines do not look at deadlines: §4.2 "FIFO does not
// take account of the details of the VMs and the job"; only CPLMT's Fig. 3
// has Check() ("whether there are more jobs can be finished before their
// deadlines"). Deadline-unaware (the default of FIFO, Fair, ASJS, CMMS):
// every idle VM that holds a task is offered, a started job runs to its
// end even past its deadline, a waiting job expires at its deadline.
//
// VMs v0 (speed 1), v1 (speed 2). At 0: J1 (4 instructions, deadline 1:
// best 4/2 = 2 > 1, infeasible), J2 (2 instructions, deadline 3), J3 (2
// instructions, deadline 0.5: best 1 > 0.5, infeasible); at 0.25 J4 (1
// instruction, deadline 1, i.e. by 1.25).
//
// FIFO unaware: J1 first fit v0 → [0, 4], ends after 1: unfinished. J2 →
// v1 → [0, 1]. J3 finds no idle VM, expires at its deadline 0.5. J4 at
// 0.25 finds none; at 1 v1 frees → [1, 1.5], after 1.25: unfinished.
// 1 finished, UFJ 3.
//
// FIFO deadline_aware: J1 and J3 dropped on arrival (infeasible); J2 first
// fit in time: v0 takes 2, ends 2 ≤ 3 → [0, 2]; J4 at 0.25: v1 → [0.25,
// 0.75]. 2 finished, UFJ 2.
//
// CPLMT: J1, J3 dropped on arrival; J2: maxminet 1 (v1), v0 (2) is above
// it → v1 [0, 1]; J4 at 0.25: v0 takes 1, ends 1.25 = its deadline →
// [0.25, 1.25]. 2 finished.
func TestBaselinesIgnoreDeadlines(t *testing.T) {
	w := &Workload{VMs: []VM{vmS(1), vmS(2)}, Jobs: []Job{job(1, 0, 1, 4), job(2, 0, 3, 2), job(3, 0, 0.5, 2), job(4, 0.25, 1, 1)}}
	r := runT(t, w, FIFO, nil)
	expect(t, r, []want{
		{sim.Finished, 0, 4, [][]int{{0}}},
		{sim.Finished, 0, 1, [][]int{{1}}},
		{sim.Rejected, 0.5, 0.5, nil},
		{sim.Finished, 1, 1.5, [][]int{{1}}},
	})
	if m := r.Metrics(); m.Finished != 1 || m.Unfinished != 3 || m.SIN != 2 || m.Infeasible != 2 {
		t.Errorf("FIFO unaware: %+v; want 1 finished (SIN 2), 3 unfinished, 2 of them infeasible", m)
	}
	r = runT(t, w, FIFO, map[string]any{"deadline_aware": 1})
	expect(t, r, []want{
		{sim.Rejected, 0, 0, nil},
		{sim.Finished, 0, 2, [][]int{{0}}},
		{sim.Rejected, 0, 0, nil},
		{sim.Finished, 0.25, 0.75, [][]int{{1}}},
	})
	if m := r.Metrics(); m.Finished != 2 || m.Unfinished != 2 {
		t.Errorf("FIFO aware: %+v; want 2 finished, 2 unfinished", m)
	}
	expect(t, runT(t, w, CPLMT, nil), []want{
		{sim.Rejected, 0, 0, nil},
		{sim.Finished, 0, 1, [][]int{{1}}},
		{sim.Rejected, 0, 0, nil},
		{sim.Finished, 0.25, 1.25, [][]int{{0}}},
	})
}

// The unaware rules on the hard-constraint workload of
// TestInfeasibleAndHardConstraints (v0: speed 4, bandwidth 1; v1: speed 1,
// bandwidth 5). J1 (20 G) fits no VM: it waits and expires at its deadline
// 10. J2 (at 1, 2 instructions, deadline 0.4) is started though no VM ends
// it in time: FIFO and CMMS put it on v0 → [1, 1.5]; ASJS on its best
// score, v1 (0.5·5/5 + 0.5·1/4 = 0.625 > v0's 0.5·1/5 + 0.5·4/4 = 0.6) →
// [1, 3], so J3 (at 2, bandwidth 5: v1 only) waits → [3, 4]; Fair shares
// both idle VMs (share 2, one task) → 2/(4+1) = 0.4 → [1, 1.4], just in
// time. J3 elsewhere → v1 [2, 3].
func TestBaselinesIgnoreDeadlinesHardConstraints(t *testing.T) {
	big, tight, bw := job(1, 0, 10, 1), job(2, 1, 0.4, 2), job(3, 2, 10, 1)
	big.Tasks[0].Memory = 20
	bw.Tasks[0].Bandwidth = 5
	vms := []VM{{Memory: 10, Speed: 4, Bandwidth: 1, Disk: -1}, {Memory: 10, Speed: 1, Bandwidth: 5, Disk: -1}}
	for _, c := range []struct {
		name     string
		j2, j3   want
		finished int
	}{
		{FIFO, want{sim.Finished, 1, 1.5, [][]int{{0}}}, want{sim.Finished, 2, 3, [][]int{{1}}}, 1},
		{CMMS, want{sim.Finished, 1, 1.5, [][]int{{0}}}, want{sim.Finished, 2, 3, [][]int{{1}}}, 1},
		{ASJS, want{sim.Finished, 1, 3, [][]int{{1}}}, want{sim.Finished, 3, 4, [][]int{{1}}}, 1},
		{Fair, want{sim.Finished, 1, 1.4, [][]int{{0, 1}}}, want{sim.Finished, 2, 3, [][]int{{1}}}, 2},
	} {
		w := &Workload{VMs: vms, Jobs: []Job{big, tight, bw}}
		r := runT(t, w, c.name, nil)
		expect(t, r, []want{{sim.Rejected, 10, 10, nil}, c.j2, c.j3})
		if m := r.Metrics(); m.Finished != c.finished {
			t.Errorf("%s: %+v; want %d finished", c.name, m, c.finished)
		}
	}
}

// Item 10 — ASJS waits for the best resource: §4.2 "ASJS always tries to
// find the best resource, so it always longs the waiting time and it also
// brings the wasting of the resource, so that it leads to the increasing
// of AWT, AVE and UFJ".
//
// v0: speed 4, bandwidth 20; v1: speed 1, bandwidth 1; v2: speed 2,
// bandwidth 2 (largest speed 4, bandwidth 20; bw_weight 0.5). Scores idle:
// v0 0.5·20/20 + 0.5·4/4 = 1, v1 0.5·1/20 + 0.5·1/4 = 0.15, v2 0.5·2/20 +
// 0.5·2/4 = 0.3; v0 busy: its bandwidth part alone, 0.5. J1 at 0 (4
// instructions) → v0 [0, 1]. J2 at 0.1 (2 instructions): busy v0 (0.5)
// outscores idle v2 (0.3) and v1 (0.15): J2 waits, v1 and v2 idle, until
// v0 frees at 1 → [1, 1.5], AWT (0 + 0.9)/2 = 0.45, AVE (1 + 1.4)/2 = 1.2.
//
// wait_best = 0 (before issue 21): J2 on the best idle VM, v2 → [0.1,
// 1.1]: AWT 0, AVE (1 + 1)/2 = 1.
func TestASJSWaitsForTheBestResource(t *testing.T) {
	w := &Workload{
		VMs:  []VM{{Memory: 10, Speed: 4, Bandwidth: 20, Disk: -1}, {Memory: 10, Speed: 1, Bandwidth: 1, Disk: -1}, {Memory: 10, Speed: 2, Bandwidth: 2, Disk: -1}},
		Jobs: []Job{job(1, 0, 10, 4), job(2, 0.1, 10, 2)},
	}
	r := runT(t, w, ASJS, nil)
	expect(t, r, []want{
		{sim.Finished, 0, 1, [][]int{{0}}},
		{sim.Finished, 1, 1.5, [][]int{{0}}},
	})
	if m := r.Metrics(); !close(m.AWT, 0.45) || !close(m.AVE, 1.2) {
		t.Errorf("ASJS: AWT %g, AVE %g; want 0.45, 1.2", m.AWT, m.AVE)
	}
	r = runT(t, w, ASJS, map[string]any{"wait_best": 0})
	expect(t, r, []want{
		{sim.Finished, 0, 1, [][]int{{0}}},
		{sim.Finished, 0.1, 1.1, [][]int{{2}}},
	})
	if m := r.Metrics(); m.AWT != 0 || !close(m.AVE, 1) {
		t.Errorf("ASJS wait_best 0: AWT %g, AVE %g; want 0, 1", m.AWT, m.AVE)
	}
}
