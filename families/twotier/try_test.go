package twotier

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// tryFixture builds a plan of random reservations (integer times, so many
// ties; latest starting times at or after the starts) and a new
// reservation r pinned at a random time, the same for every call with the
// same seed.
func tryFixture(seed uint64, tree bool) (*Plan, *Reservation, []*Reservation, []*Project) {
	rng := rand.New(rand.NewPCG(seed, 11))
	caps := []int{4 + rng.IntN(4), 2 + rng.IntN(3), 6}[:1+rng.IntN(3)]
	p := newLinearPlan(0, caps)
	if tree {
		p = NewPlan(0, caps)
	}
	demand := func() []int { return randomDemand(rng, caps) }
	var projects []*Project
	var rs []*Reservation
	for range 4 + rng.IntN(30) {
		if len(projects) == 0 || rng.IntN(3) == 0 {
			projects = append(projects, &Project{ID: int64(len(projects) + 1)})
		}
		pr := projects[len(projects)-1]
		d := float64(1 + rng.IntN(12))
		q := demand()
		r := &Reservation{Project: pr, Dur: d, Demand: q}
		r.Start = p.EarliestStartingTime(float64(rng.IntN(20)), d, q)
		r.LTS = r.Start + float64(rng.IntN(3)*rng.IntN(15))
		p.AddReservation(r)
		pr.Departure = max(pr.Departure, r.End())
		rs = append(rs, r)
	}
	r := &Reservation{Project: &Project{ID: 99}, Dur: float64(1 + rng.IntN(10)), Demand: demand()}
	r.Start = float64(rng.IntN(25))
	if rng.IntN(3) == 0 {
		r.Start += 0.5
	}
	r.LTS = r.Start
	return p, r, rs, projects
}

// randomDemand draws a demand of up to half of each pool's capacity and
// one more (zero included: pools a job does not use).
func randomDemand(rng *rand.Rand, caps []int) []int {
	q := make([]int, len(caps))
	for k := range q {
		q[k] = rng.IntN(caps[k]/2 + 2)
	}
	return q
}

// TestTryReservationMatchesShift checks that TryReservation leaves the
// plan exactly as AddReservation followed by ShiftReservations does, with
// the same result, on both timelines and for several preemption limits.
func TestTryReservationMatchesShift(t *testing.T) {
	fails, multi := 0, 0
	for seed := uint64(1); seed <= 2000; seed++ {
		for _, tree := range []bool{false, true} {
			for _, pl := range []int{Unlimited, 0, 1} {
				pa, ra, rsa, pra := tryFixture(seed, tree)
				pb, rb, rsb, prb := tryFixture(seed, tree)
				starts := make([]float64, len(rsb))
				for i, x := range rsb {
					starts[i] = x.Start
				}
				okA := pa.TryReservation(ra, pl)
				pb.AddReservation(rb)
				okB := pb.ShiftReservations(rb, pl)
				if okA != okB || ra.active != rb.active || ra.Start != rb.Start {
					t.Fatalf("seed %d tree %v pl %d: try %v (active %v, start %g), shift %v (active %v, start %g)", seed, tree, pl, okA, ra.active, ra.Start, okB, rb.active, rb.Start)
				}
				if !okA {
					fails++
				}
				moved := 0
				for i, x := range rsb {
					if x.Start != starts[i] {
						moved++
					}
				}
				if moved > 1 {
					multi++
				}
				for i := range rsa {
					if rsa[i].Start != rsb[i].Start || rsa[i].active != rsb[i].active {
						t.Fatalf("seed %d tree %v pl %d: reservation %d at %g vs %g", seed, tree, pl, i, rsa[i].Start, rsb[i].Start)
					}
				}
				for i := range pra {
					if pra[i].Departure != prb[i].Departure {
						t.Fatalf("seed %d tree %v pl %d: project %d departs %g vs %g", seed, tree, pl, i, pra[i].Departure, prb[i].Departure)
					}
				}
				if pa.tl.breakpoints() != pb.tl.breakpoints() {
					t.Fatalf("seed %d tree %v pl %d: %d breakpoints vs %d", seed, tree, pl, pa.tl.breakpoints(), pb.tl.breakpoints())
				}
				a, b := make([]int, len(ra.Demand)), make([]int, len(ra.Demand))
				for x := 0.0; x < 60; x += 0.5 {
					pa.Avail(x, a)
					pb.Avail(x, b)
					if !slices.Equal(a, b) {
						t.Fatalf("seed %d tree %v pl %d: availability at %g: %v vs %v", seed, tree, pl, x, a, b)
					}
				}
				if pa.Len() != pb.Len() {
					t.Fatalf("seed %d tree %v pl %d: %d reservations vs %d", seed, tree, pl, pa.Len(), pb.Len())
				}
			}
		}
	}
	if fails == 0 || multi == 0 {
		t.Fatalf("%d attempts failed, %d delayed several reservations: the fixture does not exercise both", fails, multi)
	}
	t.Logf("%d attempts failed, %d delayed several reservations", fails, multi)
}

// TestKeptCandidatesAreFresh runs 2TFB-SF and 2TPB on overloaded seed-004
// workloads with every candidate list that tryReservation kept from the
// round before (keepCandidates: a later round at the same conflict
// instant) checked against the one candidates computes afresh: the same
// reservations at the same starts in the same order.
func TestKeptCandidatesAreFresh(t *testing.T) {
	var kept, differ int
	candidatesDropped = 0
	checkCandidates = func(k, fresh []candidate) {
		kept++
		if !slices.Equal(k, fresh) {
			differ++
		}
	}
	defer func() { checkCandidates = nil }()
	runOverloadedSeed004(t)
	if differ > 0 {
		t.Fatalf("%d of %d kept candidate lists differ from the fresh ones", differ, kept)
	}
	if kept < 100 || candidatesDropped == 0 {
		t.Fatalf("%d candidate lists kept, %d candidates dropped for their pools: the workloads do not exercise keepCandidates", kept, candidatesDropped)
	}
	t.Logf("%d candidate lists kept, each equal to the fresh one; %d candidates dropped for their pools", kept, candidatesDropped)
}
