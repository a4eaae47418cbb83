package twotier

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
)

// benchPlan builds a plan of b waiting reservations over 5 resource types,
// each booked at its earliest starting time from 0 (durations exponential,
// mean 500; demands exponential, mean 2), and returns it with its last
// breakpoint. With scale 1 the capacities are fixed, so the plan's horizon
// grows with b ("deep"); with scale b/100 they grow with b and the horizon
// stays about the same ("wide": the same backlog on a larger platform).
func benchPlan(impl string, b int, scale float64) (*Plan, []int, float64) {
	caps := []int{30, 25, 40, 20, 35}
	for k := range caps {
		caps[k] = max(1, int(float64(caps[k])*scale))
	}
	p := NewPlan(0, caps)
	if impl == "linear" {
		p = newLinearPlan(0, caps)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	horizon := 0.0
	for range b {
		q := benchDemand(rng, caps)
		d := 1 + rng.ExpFloat64()*500
		r := &Reservation{Dur: d, Demand: q}
		r.Start = p.EarliestStartingTime(0, d, q)
		r.LTS = r.Start
		p.AddReservation(r)
		horizon = max(horizon, r.End())
	}
	return p, caps, horizon
}

func benchDemand(rng *rand.Rand, caps []int) []int {
	q := make([]int, len(caps))
	for k := range q {
		q[k] = min(caps[k], int(rng.ExpFloat64()*2))
	}
	return q
}

// BenchmarkTimeline compares the tree plan with the naive linear one on
// the queries and updates a scheduler repeats, on plans of B waiting
// reservations (see benchPlan for the deep and wide shapes). Every query is
// for a job of duration 300 with a random demand, from time 0:
//
//   - est: EarliestStartingTime. In the deep plans the answer lies on
//     average at 78% of the horizon (in the wide ones at 30–60%), so both
//     implementations scan most of the plan: the worst case for a
//     scheduler, whose answers mostly lie near the plan's tail too.
//   - add+del: AddReservation then DeleteReservation at a random time of
//     the horizon.
//   - conflict: add, then the first over-committed instant of the
//     reservation's interval (ShiftReservations' first step), then delete.
//   - fbt: FeasibleBackfillingTimes (every fitting breakpoint before the
//     earliest starting time, then that time).
//   - cycle: est, then add and delete at the answer (the benchmark's
//     original single figure).
func BenchmarkTimeline(b *testing.B) {
	type shape struct {
		name  string
		sizes []int
		scale func(n int) float64
	}
	for _, sh := range []shape{
		{"deep", []int{100, 1000, 10000}, func(int) float64 { return 1 }},
		{"wide", []int{100, 1000, 10000, 100000}, func(n int) float64 { return float64(n) / 100 }},
	} {
		for _, n := range sh.sizes {
			for _, impl := range []string{"tree", "linear"} {
				if impl == "linear" && n > 10000 {
					continue // minutes to build
				}
				b.Run(fmt.Sprintf("%s/B=%d/%s", sh.name, n, impl), func(b *testing.B) {
					p, caps, horizon := benchPlan(impl, n, sh.scale(n))
					rng := rand.New(rand.NewPCG(5, 6))
					qs := make([][]int, 256)
					at := make([]float64, len(qs))
					for i := range qs {
						qs[i] = benchDemand(rng, caps)
						at[i] = rng.Float64() * horizon
					}
					var bts []float64
					b.Run("est", func(b *testing.B) {
						for i := 0; b.Loop(); i++ {
							p.EarliestStartingTime(0, 300, qs[i%len(qs)])
						}
					})
					b.Run("add+del", func(b *testing.B) {
						for i := 0; b.Loop(); i++ {
							r := &Reservation{Dur: 300, Demand: qs[i%len(qs)], Start: at[i%len(at)]}
							p.AddReservation(r)
							p.DeleteReservation(r)
						}
					})
					b.Run("conflict", func(b *testing.B) {
						for i := 0; b.Loop(); i++ {
							r := &Reservation{Dur: 300, Demand: qs[i%len(qs)], Start: at[i%len(at)]}
							p.AddReservation(r)
							p.tl.firstConflict(r.Start, r.End(), nil, nil)
							p.DeleteReservation(r)
						}
					})
					b.Run("fbt", func(b *testing.B) {
						for i := 0; b.Loop(); i++ {
							bts = p.FeasibleBackfillingTimes(0, 300, qs[i%len(qs)], bts)
						}
					})
					b.Run("cycle", func(b *testing.B) {
						for i := 0; b.Loop(); i++ {
							q := qs[i%len(qs)]
							r := &Reservation{Dur: 300, Demand: q}
							r.Start = p.EarliestStartingTime(0, 300, q)
							p.AddReservation(r)
							p.DeleteReservation(r)
						}
					})
				})
			}
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
