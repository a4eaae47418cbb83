package stms

import (
	"math"
	"testing"
)

// Item 2 of issue 21 (§3.3 after eq. 6, Fig. 5): a suspended job's
// preemption priority rises while it waits and the running job's falls at
// the same rate, so the two can alternate when PP(J_m) is close to PP(J_p).
//
// R0: 100 flops/s, fails B (SDV 0.6 > RAL 0.5, hazard 0.001/s); R1: 200
// flops/s, safe. c = 1, a PF comparison every 300 s, α = 1, cycles every
// 100 s, no tracing cost or transfer time. A (600,000 flops, submitted at
// 0) is mapped at 100 to R1 (3,000 s; 6,000 s on R0) and runs 100–3100.
// B (400,000 flops, at 101) is mapped at 200 to R0 (R1 is busy to 3100),
// fails at 2100 with 210,000 flops left and moves to R1 at once, where
// t_r(B) = 1,050 s and t_r(A) = 1,000 s. Eq. 5 with each job's t_w the
// other's t_r:
//
//	2100  PP(B) = 2050/1050 = 1.952381, PP(A) = 2050/1000 = 2.05;
//	      PF = 0.952 ≤ c: B waits (its PP rises by 1/1050 per s, A's falls)
//	2400  +0.285714: PP(B) = 2.238095, PP(A) = 1.764286, PF = 1.269 > c:
//	      B preempts; A (700 s left) waits, rate 1/700
//	2700  +0.428571: PP(A) = 2.192857, PP(B) = 1.809524, PF = 0.825 ≤ c:
//	      A resumes; B (750 s left) waits, rate 1/750
//	3000  +0.4: PP(B) = 2.209524, PP(A) = 1.792857, PF = 1.232: B runs;
//	      A (400 s left), rate 1/400
//	3300  +0.75: PP(A) = 2.542857, PP(B) = 1.459524, PF = 0.574: A runs;
//	      B (450 s left), rate 1/450
//	3600  +0.666667: PP(B) = 2.126190, PP(A) = 1.876190, PF = 1.133: B
//	      runs; A (100 s left), rate 1/100
//	3900  +3: PP(A) = 4.876190, PP(B) = max(1, −0.87) = 1, PF = 0.205: A
//	      runs and ends at 4000; B (150 s left) then ends at 4150.
//
// Six preemptions, three of each job. Before the fix PP(B) stayed flat
// while it waited (t_w counted as the time waited plus A's shrinking
// remaining time), so B never preempted: A ended at 3100, B at 4150.
func TestSPSAlternationFig5(t *testing.T) {
	res := []Resource{{Speed: 100, Bandwidth: 10, Lambda: 0.01, RAL: 0.5}, {Speed: 200, Bandwidth: 30}}
	attrs := []Job{
		{Size: 0.6, SDV: 0, Deadline: 1e6},   // A
		{Size: 0.4, SDV: 0.6, Deadline: 1e6}, // B
	}
	fail := func(id int64, r int) float64 {
		if id == 2 && r == 0 {
			return 1900
		}
		return math.Inf(1)
	}
	cfg := plainConfig(SPSTMS)
	cfg.C, cfg.Slot, cfg.TransferFactor = 1, 300, 0
	s, jobs := testRun(t, cfg, res, attrs, []float64{0, 101}, fail)
	if s.jobs[0].chain[0] != 1 || s.jobs[1].chain[0] != 0 {
		t.Fatalf("Min-Min mapped A to %v, B to %v; the scenario needs R1, R0", s.jobs[0].chain, s.jobs[1].chain)
	}
	near(t, "A end", jobs[0].End(), 4000)
	near(t, "B end", jobs[1].End(), 4150)
	if s.cnt.Preemptions != 6 || s.jobs[0].preempted != 3 || s.jobs[1].preempted != 3 {
		t.Errorf("%d preemptions (A %d, B %d), want 6 (3 each)", s.cnt.Preemptions, s.jobs[0].preempted, s.jobs[1].preempted)
	}
	// R1 served A's 3,000 s and B's 1,050 s; R0 B's first 1,900 s.
	near(t, "R1 busy", s.rs[1].busy, 4050)
	near(t, "R0 busy", s.rs[0].busy, 1900)
}
