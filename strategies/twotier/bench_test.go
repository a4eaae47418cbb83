package twotier

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
)

// BenchmarkTimeline compares the treap plan with the naive linear one on
// the operations a scheduler repeats: earliestStartingTime for a new job,
// then adding and deleting its reservation, on plans holding B waiting
// reservations over 5 resource types.
func BenchmarkTimeline(b *testing.B) {
	caps := []int{30, 25, 40, 20, 35}
	for _, n := range []int{100, 1000, 10000} {
		for _, impl := range []string{"tree", "linear"} {
			b.Run(fmt.Sprintf("B=%d/%s", n, impl), func(b *testing.B) {
				var p *Plan
				if impl == "tree" {
					p = NewPlan(0, caps)
				} else {
					p = newLinearPlan(0, caps)
				}
				rng := rand.New(rand.NewPCG(1, 2))
				demand := func() []int {
					q := make([]int, len(caps))
					for k := range q {
						q[k] = min(caps[k], int(rng.ExpFloat64()*2))
					}
					return q
				}
				for range n {
					q := demand()
					d := 1 + rng.ExpFloat64()*500
					r := &Reservation{Dur: d, Demand: q}
					r.Start = p.EarliestStartingTime(0, d, q)
					r.LTS = r.Start
					p.AddReservation(r)
				}
				qs := make([][]int, 256)
				for i := range qs {
					qs[i] = demand()
				}
				b.ResetTimer()
				for i := 0; b.Loop(); i++ {
					q := qs[i%len(qs)]
					r := &Reservation{Dur: 300, Demand: q}
					r.Start = p.EarliestStartingTime(0, 300, q)
					p.AddReservation(r)
					p.DeleteReservation(r)
				}
			})
		}
	}
}

// BenchmarkSchedulerPlan runs 2TSB and 2TFB-SF over the same random project
// workload (600 projects, overloaded 3-pool platform) on each plan
// implementation.
func BenchmarkSchedulerPlan(b *testing.B) {
	p := sim.Platform{Pools: []sim.Pool{{Name: "a", Capacity: 6}, {Name: "b", Capacity: 4}, {Name: "c", Capacity: 9}}}
	for _, cfg := range []Config{TSB(), TFBSF(0.5, Unlimited)} {
		for _, impl := range []string{"tree", "linear"} {
			b.Run(fmt.Sprintf("%s/%s", cfg.Policy, impl), func(b *testing.B) {
				for b.Loop() {
					jobs := randomProjects(rand.New(rand.NewPCG(3, 9)), p, 600, 3)
					plan := NewPlan(0, p.Capacities())
					if impl == "linear" {
						plan = newLinearPlan(0, p.Capacities())
					}
					if _, _, err := sim.Run(p, newWith(plan, cfg), sim.NewSliceStream(jobs), nil); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
