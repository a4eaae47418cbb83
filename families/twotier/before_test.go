package twotier

import (
	"math"
	"math/rand/v2"
	"testing"
)

// earliestBeforePlain is earliestBefore without its point test: the scan
// alone (what earliestBefore answered before the test was added).
func earliestBeforePlain(p *Plan, v *Reservation, from, before float64, ov []overlay) float64 {
	return p.tl.earliestWith(from, v.Dur, v.Demand, min(v.LTS, math.Nextafter(before, math.Inf(-1))), ov)
}

// TestEarliestBeforeShortRange checks earliestBefore's point test by hand
// on one pool of 4 units, where v needs 2 for 5 time units and the starts
// asked for are [2, before). With before = 5 each window [s, s+5) holds
// the latest start, last (the float below 5).
func TestEarliestBeforeShortRange(t *testing.T) {
	cases := []struct {
		name       string
		busy       [2]float64 // [s, e) where booked units are taken
		units      int        // how many of the 4
		before     float64
		ov         []overlay
		want       float64
		whyWrongIf string
	}{
		// 3 units taken over [4, 9): last is short, so is every window:
		// +Inf, from the point test.
		{"short at last", [2]float64{4, 9}, 3, 5, nil, math.Inf(1), ""},
		// 2 units taken over [4, 9): 2 left, v fits everywhere.
		{"exactly enough at last", [2]float64{4, 9}, 2, 5, nil, 2, "a pool with exactly the demand counted as short"},
		// 3 units taken over [6, 9): last is not short, the scan finds
		// none ([s, s+5) reaches 6 for every s > 1): +Inf.
		{"short later in the common stretch", [2]float64{6, 9}, 3, 5, nil, math.Inf(1), ""},
		// 3 units taken over [2, 3): the window of 3 fits.
		{"short at from only", [2]float64{2, 3}, 3, 5, nil, 3, "the instant tested were from"},
		// The starts span more than the duration: last (below 20) is
		// short, but the windows of the starts before 10 miss [15, 25).
		{"long range", [2]float64{15, 25}, 3, 20, nil, 2, "the point test were made for ranges of the duration or more"},
		// Short at last on the plan, but an overlay gives the 3 units back
		// there (the booking left out, as a what-if victim's old place):
		// the window of 2 fits.
		{"given back by an overlay", [2]float64{4, 9}, 3, 5, []overlay{{4, 9, []int{3}, +1}}, 2, "the overlays were left out"},
		// Not short at last on the plan, but an overlay takes 3 units over
		// [4.5, 6): no window fits.
		{"taken by an overlay", [2]float64{20, 21}, 3, 5, []overlay{{4.5, 6, []int{3}, -1}}, math.Inf(1), ""},
	}
	for _, c := range cases {
		p := NewPlan(0, []int{4})
		p.AddReservation(&Reservation{Start: c.busy[0], LTS: c.busy[0], Dur: c.busy[1] - c.busy[0], Demand: []int{c.units}})
		v := &Reservation{Start: 40, LTS: 100, Dur: 5, Demand: []int{2}}
		if got := p.earliestBefore(v, 2, c.before, c.ov); got != c.want {
			t.Errorf("%s: earliestBefore = %g, want %g (wrong if %s)", c.name, got, c.want, c.whyWrongIf)
		}
		if plain := earliestBeforePlain(p, v, 2, c.before, c.ov); plain != c.want {
			t.Errorf("%s: the plain scan says %g, want %g: the case is wrong", c.name, plain, c.want)
		}
	}
}

// TestEarliestBeforeIsThePlainScan compares earliestBefore with the plain
// scan on random plans (integer times, so ties), random overlays taking
// and giving units, and ranges of starts shorter and longer than the
// duration, and checks that the point test both answered (the range short
// and last short) and let the scan answer, finite and not.
func TestEarliestBeforeIsThePlainScan(t *testing.T) {
	var pointInf, shortRangeScanned, shortRangeFound, longRange int
	for seed := uint64(1); seed <= 400; seed++ {
		rng := rand.New(rand.NewPCG(seed, 17))
		caps := []int{3 + rng.IntN(5), 2 + rng.IntN(4)}[:1+rng.IntN(2)]
		p := NewPlan(0, caps)
		demand := func() []int { return randomDemand(rng, caps) }
		var rs []*Reservation
		for range 5 + rng.IntN(25) {
			d := float64(1 + rng.IntN(10))
			q := demand()
			r := &Reservation{Dur: d, Demand: q}
			r.Start = p.EarliestStartingTime(float64(rng.IntN(30)), d, q)
			r.LTS = r.Start + float64(rng.IntN(20))
			p.AddReservation(r)
			rs = append(rs, r)
		}
		for range 30 {
			v := rs[rng.IntN(len(rs))]
			ov := []overlay{{v.Start, v.End(), v.Demand, +1}} // v left out
			if rng.IntN(2) == 0 {
				x := rs[rng.IntN(len(rs))]
				if x != v {
					ov = append([]overlay{{x.Start, x.End(), x.Demand, +1}}, ov...)
				}
			}
			for range rng.IntN(3) {
				s := float64(rng.IntN(40)) + 0.5*float64(rng.IntN(2))
				ov = append([]overlay{{s, s + float64(1+rng.IntN(8)), demand(), -1}}, ov...)
			}
			from := float64(rng.IntN(40)) + 0.25*float64(rng.IntN(4))
			before := from + rng.Float64()*2*v.Dur
			got, want := p.earliestBefore(v, from, before, ov), earliestBeforePlain(p, v, from, before, ov)
			if got != want {
				t.Fatalf("seed %d: earliestBefore(%+v, %g, %g, %+v) = %g, the plain scan %g", seed, v, from, before, ov, got, want)
			}
			last := min(v.LTS, math.Nextafter(before, math.Inf(-1)))
			switch {
			case !(from <= last && last < from+v.Dur):
				longRange++
			case p.shortWith(last, v.Demand, ov):
				pointInf++
			case math.IsInf(want, 1):
				shortRangeScanned++
			default:
				shortRangeFound++
			}
		}
	}
	t.Logf("point test answered %d, short ranges scanned %d (found %d), long ranges %d", pointInf, shortRangeScanned+shortRangeFound, shortRangeFound, longRange)
	if pointInf < 100 || shortRangeScanned < 100 || shortRangeFound < 100 || longRange < 100 {
		t.Errorf("too few cases of a kind: point %d, short scanned without a fit %d, short with a fit %d, long %d", pointInf, shortRangeScanned, shortRangeFound, longRange)
	}
}
