package stms

import (
	"math/rand/v2"
	"testing"

	"github.com/schedfarm/schedfarm/ga"
	"github.com/schedfarm/schedfarm/sim"
)

// Item 4 of issue 21 (§4.1, §4.3.1 eq. 7–8): eq. 7's ms is the makespan of
// the batch's schedule and au the resources' average utilisation over it.
//
// Three safe resources, α = 1, no tracing cost, planned at now = 0: R0
// (400 flops/s) has a backlog to 1,000; R1 (400 flops/s) and R2 (100
// flops/s) are free. One job of 40,000 flops: 100 s on R1, 400 s on R2.
//
//	on R1: ms = 100 (R0's backlog does not count: the batch leaves R0
//	       alone); au = (min(1000, 100) + 100 + 0) / (3 · 100) = 2/3
//	on R2: ms = 400; au = (min(1000, 400) + 0 + 400) / (3 · 400) = 2/3
//
// With capacity utilisation (weights 400, 400, 100 of 900):
//
//	on R1: (400·100 + 400·100) / (900 · 100) = 8/9
//	on R2: (400·400 + 100·400) / (900 · 400) = 5/9
//
// Eq. 8 over the population {R1, R2} with δ = ω = 0.5: ms̄ = 1 for R1 and 0
// for R2, āu equal (seconds), so R1 wins 1 to 0.5. Before the fix ms
// included R0's backlog (1,000 under both mappings, so ms̄ = 1 for both)
// and au the busy time from now over 3 × 1,000: R1 (1000 + 100)/3000 =
// 0.367, R2 (1000 + 400)/3000 = 0.467 — R2, the slow resource, won.
func TestMGAObjectivesOfTheBatch(t *testing.T) {
	res := []Resource{{Speed: 400, Bandwidth: 10}, {Speed: 400, Bandwidth: 10}, {Speed: 100, Bandwidth: 10}}
	for _, capacity := range []bool{false, true} {
		cfg := DefaultConfig(STMS)
		cfg.Alpha, cfg.TraceInterval, cfg.TraceOverhead, cfg.CapacityUtil = 1, 0, 0, capacity
		s, err := New(cfg, res, []Job{{Size: 0.04, Deadline: 1e9}}, rand.New(rand.NewPCG(1, 1)))
		if err != nil {
			t.Fatal(err)
		}
		s.jobs[0].sj = sim.NewJob(1, 0, []int{1}, 1, 1, 0)
		p := s.plan
		p.load([]*jstate{&s.jobs[0]}, 0)
		free := []float64{1000, 0, 0}
		out := make([]float64, 3)
		onR1 := p.plan([]int{0}, [][]int{{1}}, free, out, nil)
		onR2 := p.plan([]int{0}, [][]int{{2}}, free, out, nil)
		near(t, "ms on R1", onR1.Makespan, 100)
		near(t, "ms on R2", onR2.Makespan, 400)
		wantR1, wantR2 := 2.0/3, 2.0/3
		if capacity {
			wantR1, wantR2 = 8.0/9, 5.0/9
		}
		near(t, "au on R1", onR1.Util, wantR1)
		near(t, "au on R2", onR2.Util, wantR2)
		f := ga.Fitness([]ga.Objectives{onR1, onR2}, ga.Weights{Delta: 0.5, Omega: 0.5})
		if !(f[0] > f[1]) {
			t.Errorf("capacity %v: fitness on R1 %g, on R2 %g; the fast free resource must win", capacity, f[0], f[1])
		}
		if !capacity {
			near(t, "fitness on R1", f[0], 1)
			near(t, "fitness on R2", f[1], 0.5)
		}
	}
}
