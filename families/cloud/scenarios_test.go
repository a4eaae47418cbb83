package cloud

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
)

// Hand-computed schedules. Every expectation below is derived in the
// comments from the paper's rules as this package reads them (doc.go), not
// from running the code.

// vmS is a VM of the given speed with room for every demand of task.
func vmS(speed float64) VM { return VM{Memory: 10, Speed: speed, Bandwidth: 10, Disk: -1} }

// job returns a job with one task per instruction count, each needing 1 G
// and bandwidth 1.
func job(id int64, submit, deadline float64, instr ...float64) Job {
	j := Job{ID: id, Submit: submit, Deadline: deadline}
	for _, in := range instr {
		j.Tasks = append(j.Tasks, Task{Memory: 1, Bandwidth: 1, Instructions: in})
	}
	return j
}

// want is one job's expected outcome: state, start, end and, per task,
// its VMs.
type want struct {
	state      sim.State
	start, end float64
	vms        [][]int
}

func runT(t *testing.T, w *Workload, name string, params map[string]any) *Result {
	t.Helper()
	r, err := Run(w, name, params)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if errs := checkResult(r); len(errs) > 0 {
		t.Fatalf("%s: invariants: %v", name, errs)
	}
	return r
}

func expect(t *testing.T, r *Result, wants []want) {
	t.Helper()
	for i, wt := range wants {
		if wt.state == sim.Submitted {
			continue // not checked
		}
		j, p := r.Jobs[i], r.Placements[i]
		if j.State() != wt.state || !close(j.Start(), wt.start) || !close(j.End(), wt.end) || !slices.EqualFunc(p.VMs, wt.vms, slices.Equal) {
			t.Errorf("%s job %d: %s [%g, %g] on %v; want %s [%g, %g] on %v",
				r.Scheduler, j.ID, j.State(), j.Start(), j.End(), p.VMs, wt.state, wt.start, wt.end, wt.vms)
		}
	}
}

func close(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

// Three VMs of speed 1, 2, 4; at t = 0 a 1-task job J1 (2 instructions), a
// 3-task job J2 (2 each) and a 1-task job J3 (2), deadlines 10 (no drop).
// Times: 2 instructions take 2 on v0, 1 on v1, 0.5 on v2.
func queueWorkload() *Workload {
	return &Workload{
		VMs:  []VM{vmS(1), vmS(2), vmS(4)},
		Jobs: []Job{job(1, 0, 10, 2), job(2, 0, 10, 2, 2, 2), job(3, 0, 10, 2)},
	}
}

// FIFO: J1 first fit v0 → [0, 2]. J2 needs 3 VMs, 2 are free: passed over;
// J3 first fit v1 → [0, 1]. t = 1: J2 still has 2 free VMs. t = 2: J2 on
// v0, v1, v2 (first fit), longest task 2 on v0 → [2, 4].
//
// blocking: J2 blocks at t = 0 and J3 waits behind it although v1 is free.
// t = 2: J2 → [2, 4] on v0, v1, v2; J3 at t = 4 on v0 → [4, 6].
func TestFIFO(t *testing.T) {
	expect(t, runT(t, queueWorkload(), FIFO, nil), []want{
		{sim.Finished, 0, 2, [][]int{{0}}},
		{sim.Finished, 2, 4, [][]int{{0}, {1}, {2}}},
		{sim.Finished, 0, 1, [][]int{{1}}},
	})
	expect(t, runT(t, queueWorkload(), FIFO, map[string]any{"blocking": 1}), []want{
		{sim.Finished, 0, 2, [][]int{{0}}},
		{sim.Finished, 2, 4, [][]int{{0}, {1}, {2}}},
		{sim.Finished, 4, 6, [][]int{{0}}},
	})
}

// ASJS (bandwidths equal, so the score is the speed): J1 on v2 → [0, 0.5];
// J2 cannot start (2 free); J3 on the best free VM v1 → [0, 1]. t = 0.5: J2
// has v0, v2 only. t = 1: J2's tasks take v2, v1, v0 in score order,
// longest 2 on v0 → [1, 3].
//
// blocking: J2 blocks at t = 0 and J3 behind it. t = 0.5: J2 → [0.5, 2.5]
// on v2, v1, v0; J3 finds no free VM until t = 2.5: v2 → [2.5, 3].
func TestASJS(t *testing.T) {
	expect(t, runT(t, queueWorkload(), ASJS, nil), []want{
		{sim.Finished, 0, 0.5, [][]int{{2}}},
		{sim.Finished, 1, 3, [][]int{{2}, {1}, {0}}},
		{sim.Finished, 0, 1, [][]int{{1}}},
	})
	expect(t, runT(t, queueWorkload(), ASJS, map[string]any{"blocking": 1}), []want{
		{sim.Finished, 0, 0.5, [][]int{{2}}},
		{sim.Finished, 0.5, 2.5, [][]int{{2}, {1}, {0}}},
		{sim.Finished, 2.5, 3, [][]int{{2}}},
	})
}

// CMMS: t = 0 completion times on the fastest free VMs: J1 0.5 (v2), J2 2
// (v2, v1, v0), J3 0.5 → J1 (tie with J3, earlier) on v2 [0, 0.5]; then J2
// cannot (2 free), J3 on v1 (1) → [0, 1]. t = 0.5: J2 has v0, v2 only.
// t = 1: J2 on v2, v1, v0 (fastest first, in task order) → [1, 3].
func TestCMMSMinMin(t *testing.T) {
	expect(t, runT(t, queueWorkload(), CMMS, nil), []want{
		{sim.Finished, 0, 0.5, [][]int{{2}}},
		{sim.Finished, 1, 3, [][]int{{2}, {1}, {0}}},
		{sim.Finished, 0, 1, [][]int{{1}}},
	})
}

// Fair (max_share 3): t = 0, 3 idle, 3 jobs. J1: share 3/3 = 1 → one VM,
// first fit v0 → [0, 2]. J2: share 2/2 = 1, needs 3 VMs, 2 free → passed
// over. J3: share 2/1 = 2 → its task gets v1 and v2, 2 instructions over
// speed 2+4 → 1/3 → [0, 1/3], holding 2 VMs. t = 1/3: J2 gets share 2,
// still 3 needed. t = 2: J2: share 3/1 = 3, 3/3 = 1 VM per task → v0, v1,
// v2, longest 2 → [2, 4].
func TestFairSharesIdleVMs(t *testing.T) {
	r := runT(t, queueWorkload(), Fair, nil)
	expect(t, r, []want{
		{sim.Finished, 0, 2, [][]int{{0}}},
		{sim.Finished, 2, 4, [][]int{{0}, {1}, {2}}},
		{sim.Finished, 0, 1.0 / 3, [][]int{{1, 2}}},
	})
	if d := r.Jobs[2].Demand[0]; d != 2 {
		t.Errorf("J3 holds %d VMs in the engine; want 2", d)
	}
	// With max_share 1 nobody shares: J3 takes v1 alone → [0, 1].
	r = runT(t, queueWorkload(), Fair, map[string]any{"max_share": 1})
	expect(t, r, []want{2: {sim.Finished, 0, 1, [][]int{{1}}}})
}

// CPLMT on the same jobs: every VM satisfies every task in memory,
// bandwidth and time (deadline 10), so jov* = 0, tovload = 0, num = 3 and
// num/p ≤ 15: all ujobs of OtherL, mt = maxminet. t = 0: maxminet (free
// VMs, per task) J1 0.5, J2 0.5, J3 0.5 → J1 (earliest); Algorithm 3: the
// VM at most 0.5 and nearest to it is v2 → [0, 0.5]. Then J2 and J3 have
// maxminet 1 (v1) → J2 first: task 0 → v1 (1 = maxminet), task 1 → v0
// (2, above), task 2 → none: J2 cannot start; J3 → v1 → [0, 1]. t = 0.5:
// J2 has v0, v2 only. t = 1: maxminet 0.5; task 0 → v2 (0.5), task 1 →
// v1 (1, nearest above), task 2 → v0 (2) → [1, 3].
func TestCPLMTQueue(t *testing.T) {
	expect(t, runT(t, queueWorkload(), CPLMT, nil), []want{
		{sim.Finished, 0, 0.5, [][]int{{2}}},
		{sim.Finished, 1, 3, [][]int{{2}, {1}, {0}}},
		{sim.Finished, 0, 1, [][]int{{1}}},
	})
}

// Saving fast VMs (§3.2 Algorithm 3, §4.2 "CMMS always scheduling the fast
// resource"). VMs of speed 1, 2, 4. J1 at 0: tasks of 8 and 2
// instructions, deadline 10. J2 at 0.1: one task of 3, deadline 2 (by
// 2.1): it needs v1 (1.5, ends 1.6) or v2 (0.75).
//
// CPLMT: J1's maxminet = max(8/4, 2/4) = 2. Task 0: only v2 takes ≤ 2 → v2.
// Task 1: v0 takes 2 (= maxminet, nearest), v1 takes 1 → v0. J1 [0, 2].
// J2 at 0.1 on v1 → [0.1, 1.6]: both finish.
//
// CMMS: J1's tasks on their fastest free VMs: v2 (2) and v1 (1) → [0, 2].
// J2 at 0.1 has only v0 (3, ends 3.1 > 2.1); its latest start is 2.1 −
// 0.75 = 1.35, when nothing has freed: dropped at 1.35.
//
// FIFO: first fit: task 0 on v0 (8 ≤ 10), task 1 on v1 → [0, 8]; J2 on v2
// → [0.1, 0.85].
func TestCPLMTSavesFastVMs(t *testing.T) {
	w := &Workload{VMs: []VM{vmS(1), vmS(2), vmS(4)}, Jobs: []Job{job(1, 0, 10, 8, 2), job(2, 0.1, 2, 3)}}
	expect(t, runT(t, w, CPLMT, nil), []want{
		{sim.Finished, 0, 2, [][]int{{2}, {0}}},
		{sim.Finished, 0.1, 1.6, [][]int{{1}}},
	})
	aware := map[string]any{"deadline_aware": 1}
	r := runT(t, w, CMMS, aware)
	expect(t, r, []want{
		{sim.Finished, 0, 2, [][]int{{2}, {1}}},
		{sim.Rejected, 1.35, 1.35, nil},
	})
	if !strings.Contains(r.Jobs[1].Reason(), "deadline") {
		t.Errorf("drop reason %q", r.Jobs[1].Reason())
	}
	// SIN counts J1's instruction number once: with no Job.Instructions,
	// its largest task's, 8 (issue 21 item 8).
	m := r.Metrics()
	if m.Finished != 1 || m.Unfinished != 1 || m.Infeasible != 0 || m.SIN != 8 || !close(m.AVE, 2) {
		t.Errorf("CMMS metrics %+v; want 1 finished (SIN 8, AVE 2), 1 unfinished, 0 infeasible", m)
	}
	expect(t, runT(t, w, FIFO, nil), []want{
		{sim.Finished, 0, 8, [][]int{{0}, {1}}},
		{sim.Finished, 0.1, 0.85, [][]int{{2}}},
	})
	// CMMS deadline-unaware (§4.2, the default): J2 starts at 0.1 on the
	// one free VM, v0, and ends at 3.1, after its deadline 2.1: it ran
	// but is unfinished.
	r = runT(t, w, CMMS, nil)
	expect(t, r, []want{
		{sim.Finished, 0, 2, [][]int{{2}, {1}}},
		{sim.Finished, 0.1, 3.1, [][]int{{0}}},
	})
	if m := r.Metrics(); m.Finished != 1 || m.Unfinished != 1 {
		t.Errorf("CMMS unaware: %+v; want 1 finished, 1 unfinished (late)", m)
	}
}

// Class order (formulas 7, 14–15, Fig. 3). Five VMs of speed 1; v0 has 8 G,
// v1–v4 have 2 G. At t = 0: A (1 task, 1 instruction, 1 G) then B (1 task,
// 1 instruction, 4 G: only v0 holds it), deadlines 10.
//
// FIFO: A first fit on v0 → [0, 1]; B waits for v0 → [1, 2].
//
// CPLMT defaults: A: jovMEM 0, num 5, 5/1 ≤ 15 → ujob, OtherL, tovload 0,
// mt = 1/(1+0) = 1. B: jovMEM 4 (v1–v4), 4 > 0.8·5 is false → ujob, OtherL,
// tovload 4, mt = 1/5: B first (Algorithm 2) on v0 → [0, 1]; A's
// candidates all take 1 = maxminet → lowest, v1 → [0, 1].
//
// κ = 2 makes A an unjob (5/1 > 2) and B a ujob (1/1): B first by class;
// ω = 0.5 puts B in ulMEM (4 > 2.5): B first by class again. Same schedule.
func TestCPLMTClassOrder(t *testing.T) {
	mem := func(m float64) VM { return VM{Memory: m, Speed: 1, Bandwidth: 10, Disk: -1} }
	a, b := job(1, 0, 10, 1), job(2, 0, 10, 1)
	b.Tasks[0].Memory = 4
	w := &Workload{VMs: []VM{mem(8), mem(2), mem(2), mem(2), mem(2)}, Jobs: []Job{a, b}}
	expect(t, runT(t, w, FIFO, nil), []want{
		{sim.Finished, 0, 1, [][]int{{0}}},
		{sim.Finished, 1, 2, [][]int{{0}}},
	})
	for _, ps := range []map[string]any{nil, {"kappa": 2}, {"omega": 0.5}, {"kappa": 2, "omega": 0.5}} {
		expect(t, runT(t, w, CPLMT, ps), []want{
			{sim.Finished, 0, 1, [][]int{{1}}},
			{sim.Finished, 0, 1, [][]int{{0}}},
		})
	}
	// The classes themselves.
	built, err := registry().NewOn(CPLMT, Platform(w), w, map[string]any{"kappa": 2, "omega": 0.5})
	if err != nil {
		t.Fatal(err)
	}
	s := built.(*scheduler)
	p := s.pol.(*cplmt)
	for i := range s.info {
		s.info[i].sj = sim.NewJob(int64(i+1), 0, []int{1}, 1, 1, 0)
		s.prepare(&s.info[i])
		p.arrive(s, &s.info[i])
	}
	ca, cb := p.classify(s, &s.info[0]), p.classify(s, &s.info[1])
	if ca.UJob || ca.Urgent != 0 || ca.Rank != 7 || ca.Num != 5 || ca.Tovload != 0 {
		t.Errorf("A: %+v; want an OtherL unjob (rank 7), num 5, tovload 0", ca)
	}
	if !cb.UJob || cb.Urgent != 1 || cb.Rank != 2 || cb.Num != 1 || cb.JovMEM != 4 || cb.Tovload != 4 {
		t.Errorf("B: %+v; want a OneOL ujob (rank 2), num 1, jovMEM 4, tovload 4", cb)
	}
}

// Time makes a job urgent (§2, Algorithm 1 with the time left). VMs of
// speed 1 and 4; a 1-task job of 2 instructions, deadline 1.5 at t = 0:
// v0 takes 2 > 1.5, so jovCPU = 1, num = 1. At t = 1 (time left 0.5) v1
// takes 0.5 ≤ 0.5, still num 1; at t = 1.1 none satisfies (num 0, jovCPU
// 2 > 0.8·2 → ulCPU).
func TestCPLMTProcessingUrgency(t *testing.T) {
	w := &Workload{VMs: []VM{vmS(1), vmS(4)}, Jobs: []Job{job(1, 0, 1.5, 2)}}
	built, err := registry().NewOn(CPLMT, Platform(w), w, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := built.(*scheduler)
	p := s.pol.(*cplmt)
	s.info[0].sj = sim.NewJob(1, 0, []int{1}, 2, 2, 0)
	s.prepare(&s.info[0])
	p.arrive(s, &s.info[0])
	for _, c := range []struct {
		now           float64
		jov, num, urg int
	}{{0, 1, 1, 0}, {1, 1, 1, 0}, {1.1, 2, 0, 1}} {
		s.now = c.now
		got := p.classify(s, &s.info[0])
		if got.JovCPU != c.jov || got.Num != c.num || got.Urgent != c.urg {
			t.Errorf("t=%g: %+v; want jovCPU %d, num %d, urgent %d", c.now, got, c.jov, c.num, c.urg)
		}
	}
	if lst := s.info[0].lst; !close(lst, 1) {
		t.Errorf("latest start %g; want 1.5 − 0.5 = 1", lst)
	}
}

// ASJS weights: v0 speed 4, bandwidth 1; v1 speed 1, bandwidth 20. With
// bw_weight 0.5 the scores are v0 0.5·1/20 + 0.5·4/4 = 0.525 and v1
// 0.5·20/20 + 0.5·1/4 = 0.625 → v1 (1 instruction: [0, 1]); with bw_weight
// 0 speed alone counts → v0 ([0, 0.25]).
func TestASJSScore(t *testing.T) {
	w := &Workload{
		VMs:  []VM{{Memory: 10, Speed: 4, Bandwidth: 1, Disk: -1}, {Memory: 10, Speed: 1, Bandwidth: 20, Disk: -1}},
		Jobs: []Job{job(1, 0, 10, 1)},
	}
	expect(t, runT(t, w, ASJS, nil), []want{{sim.Finished, 0, 1, [][]int{{1}}}})
	expect(t, runT(t, w, ASJS, map[string]any{"bw_weight": 0}), []want{{sim.Finished, 0, 0.25, [][]int{{0}}}})
}

// Hard constraints and infeasible jobs, deadline-aware (CPLMT; the
// baselines with deadline_aware = 1): a task needing 20 G fits no VM (10 G
// each): dropped on arrival, counted infeasible; a job whose best time (2
// instructions at speed 4 = 0.5) exceeds its deadline 0.4 too. A task
// needing bandwidth 5 only fits v1. (Deadline-unaware baselines:
// TestBaselinesIgnoreDeadlines.)
func TestInfeasibleAndHardConstraints(t *testing.T) {
	big, tight, bw := job(1, 0, 10, 1), job(2, 1, 0.4, 2), job(3, 2, 10, 1)
	big.Tasks[0].Memory = 20
	bw.Tasks[0].Bandwidth = 5
	vms := []VM{{Memory: 10, Speed: 4, Bandwidth: 1, Disk: -1}, {Memory: 10, Speed: 1, Bandwidth: 5, Disk: -1}}
	for _, name := range Names() {
		w := &Workload{VMs: vms, Jobs: []Job{big, tight, bw}}
		var aware map[string]any
		if name != CPLMT {
			aware = map[string]any{"deadline_aware": 1}
		}
		r := runT(t, w, name, aware)
		expect(t, r, []want{
			{sim.Rejected, 0, 0, nil},
			{sim.Rejected, 1, 1, nil},
			{sim.Finished, 2, 3, [][]int{{1}}},
		})
		if m := r.Metrics(); m.Infeasible != 2 || m.Unfinished != 2 || m.Finished != 1 || m.FinishedRatio != 1.0/3 {
			t.Errorf("%s: %+v", name, m)
		}
	}
}

// The methodological cloud's transfer time: 48 instructions at speed 24
// plus an 8.64 G input at 1 G/s (8.64 s = 0.0001 day).
func TestTransferTime(t *testing.T) {
	w := &Workload{TransferScale: 1.0 / 86400}
	j := Job{InputSize: 8.64, Tasks: []Task{{Instructions: 48}}}
	v := VM{Memory: -1, Speed: 24, Bandwidth: 1, Disk: -1}
	if got := w.ExecTime(&j, &j.Tasks[0], &v); !close(got, 2.0001) {
		t.Errorf("ExecTime %g; want 2.0001", got)
	}
}

// Scheduler parameters: every bad one is named with what is accepted.
func TestCheck(t *testing.T) {
	if err := registry().Check(CPLMT, map[string]any{"kappa": 10, "alpha": 2.5, "epsilon": "0.5"}); err != nil {
		t.Errorf("good params: %v", err)
	}
	err := registry().Check(CPLMT, map[string]any{"kappa": -1, "omega": 2, "zeta": 1})
	for _, s := range []string{"kappa = -1", "[0, 1000000000]", "omega = 2", "[0, 1]", `unknown parameter "zeta"`, "alpha, beta"} {
		if err == nil || !strings.Contains(err.Error(), s) {
			t.Errorf("error %v; want it to contain %q", err, s)
		}
	}
	if err := registry().Check(Fair, map[string]any{"max_share": 1.5}); err == nil || !strings.Contains(err.Error(), "int in [1, 1000]") {
		t.Errorf("max_share 1.5: %v", err)
	}
	if err := registry().Check(CMMS, map[string]any{"k": 1}); err == nil || !strings.Contains(err.Error(), "accepted: deadline_aware") {
		t.Errorf("cmms k: %v", err)
	}
	if err := registry().Check(CPLMT, map[string]any{"deadline_aware": 0}); err == nil || !strings.Contains(err.Error(), `unknown parameter "deadline_aware"`) {
		t.Errorf("cplmt deadline_aware (always aware, Fig. 3 Check()): %v", err)
	}
	if err := registry().Check("easy", nil); err == nil || !strings.Contains(err.Error(), "asjs, cmms, cplmt, fair, fifo") {
		t.Errorf("easy: %v", err)
	}
}
