package twotier

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/schedfarm/schedfarm/workload/seed004"
)

// TestAloneStartForgetsWhatAGiveBackChanged is the case the remembered
// earliest start of a candidate alone (Plan.movedStart) must not get
// wrong. One pool of 1 unit; X1 holds [0, 8) and X2 [13, 100), both
// pinned; V holds [8, 13) with LTS 20. A job r pinned at 10 for 3 collides
// with V at 10, and V, left out, fits nowhere in [10, 20]: X2 blocks
// [13, 100). So the attempt fails and V's "no start up to 20" is
// remembered. Then X2 leaves (a give-back over [13, 100)): now V fits at
// 13, after r, so the same attempt succeeds with V at 13. An answer kept
// across the give-back would fail it again — also when that give-back has
// since left the log (Plan.gaveBack keeps the latest gaveKeep or more).
func TestAloneStartForgetsWhatAGiveBackChanged(t *testing.T) {
	for _, tree := range []bool{false, true} {
		// far: after X2 leaves, more give-backs far from V's interval than
		// the log keeps, so that X2's is only known as forgotten.
		for _, far := range []bool{false, true} {
			p := NewPlan(0, []int{1})
			if !tree {
				p = newLinearPlan(0, []int{1})
			}
			book := func(s, d, lts float64) *Reservation {
				r := &Reservation{Start: s, Dur: d, LTS: lts, Demand: []int{1}}
				p.AddReservation(r)
				return r
			}
			book(0, 8, 0)
			x2 := book(13, 87, 13)
			v := book(8, 5, 20)
			r := &Reservation{Start: 10, Dur: 3, LTS: 10, Demand: []int{1}}
			if p.TryReservation(r, Unlimited) {
				t.Fatalf("tree %v far %v: r at 10 placed with X2 in the way (V at %g)", tree, far, v.Start)
			}
			if !v.alone[0].made || !math.IsInf(v.alone[0].at, 1) {
				t.Fatalf("tree %v far %v: V's start alone not remembered as none: %+v", tree, far, v.alone[0])
			}
			p.DeleteReservation(x2)
			if far {
				for i := range 3 * gaveKeep {
					x := book(1000+float64(i), 1, 2000)
					p.DeleteReservation(x)
				}
			}
			if !p.TryReservation(r, Unlimited) {
				t.Fatalf("tree %v far %v: r at 10 not placed after X2 left", tree, far)
			}
			if v.Start != 13 || r.Start != 10 {
				t.Fatalf("tree %v far %v: V at %g, r at %g; want 13 and 10", tree, far, v.Start, r.Start)
			}
		}
	}
}

// TestAloneStartKeptAcrossFarGiveBacks: give-backs that miss the interval
// a remembered answer depends on keep it (it is not scanned again), and
// one that overlaps it drops it.
func TestAloneStartKeptAcrossFarGiveBacks(t *testing.T) {
	p := NewPlan(0, []int{1})
	a := &aloneFit{made: true, gave: p.gave(), from: 10, limit: 20, at: math.Inf(1)}
	x := &Reservation{Start: 50, Dur: 5, LTS: 50, Demand: []int{1}}
	p.AddReservation(x)
	p.DeleteReservation(x) // gives back [50, 55): after [10, 25)
	if !p.stillHolds(a, 25) || a.gave != p.gave() {
		t.Fatalf("a give-back over [50, 55) dropped an answer over [10, 25): %+v", a)
	}
	x.Start = 24
	p.AddReservation(x)
	p.DeleteReservation(x) // gives back [24, 29)
	if p.stillHolds(a, 25) {
		t.Fatal("a give-back over [24, 29) kept an answer over [10, 25)")
	}
}

// TestMovedStartIsThePlainScan runs 2TFB-SF and 2TPB on overloaded
// seed-004 workloads under several readings with every answer of
// movedStart checked against the plain scan (earliestWith from the
// conflict instant with all the what-if's overlays), and checks that
// answers from memory bounded a good share of them.
func TestMovedStartIsThePlainScan(t *testing.T) {
	var checked, differ, inf int
	checkMovedStart = func(got, want float64) {
		checked++
		if got != want {
			differ++
		}
		if math.IsInf(want, 1) {
			inf++
		}
	}
	rememberedStarts = 0
	defer func() { checkMovedStart = nil }()
	for _, c := range []struct {
		sched string
		ia    float64
		par   map[string]any
	}{
		{"2tfb-sf", 10, map[string]any{"sf": 0.5, "pl": "unlimited"}},
		{"2tfb-sf", 20, map[string]any{"sf": 2.0, "pl": "unlimited", "own_lts": "provisional"}},
		{"2tfb-sf", 10, map[string]any{"sf": 1.0, "pl": 1, "victim": "first"}},
		{"2tpb", 10, map[string]any{"sf": 1.0, "pl": 2}},
	} {
		p := seed004.Default()
		p.Projects, p.MeanInterarrival = 120, c.ia
		plat, js, err := Seed004Workload(p, 0.2, rand.New(rand.NewPCG(3, 7)))
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := RunProjects(plat, js, c.sched, c.par); err != nil {
			t.Fatal(err)
		}
	}
	if differ > 0 {
		t.Fatalf("movedStart differed from the plain scan %d times in %d", differ, checked)
	}
	if checked < 1000 || inf == 0 || inf == checked {
		t.Fatalf("%d answers checked, %d of them +Inf: the workloads do not exercise both outcomes", checked, inf)
	}
	if rememberedStarts < checked/10 {
		t.Fatalf("%d of %d answers bounded from memory: the cache is not exercised", rememberedStarts, checked)
	}
	t.Logf("%d answers checked, %d +Inf, %d bounded from memory", checked, inf, rememberedStarts)
}
