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
			if !v.alone[0].cur.made || !math.IsInf(v.alone[0].cur.at, 1) {
				t.Fatalf("tree %v far %v: V's start alone not remembered as none: %+v", tree, far, v.alone[0].cur)
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

// TestAloneStartKeptAcrossFarGiveBacks: give-backs that miss the windows
// of the starts a remembered answer proved keep it whole (it is not
// scanned again); one that reaches the windows of its last starts cuts it
// back to the first start whose window it reaches, keeping the starts
// before; one that reaches some in the middle only opens a hole there.
func TestAloneStartKeptAcrossFarGiveBacks(t *testing.T) {
	p := NewPlan(0, []int{1})
	// No start of a 5-long window in [10, 20] fits: the windows lie in
	// [10, 25).
	a := &aloneFit{made: true, gave: p.gave(), from: 10, limit: 20, at: math.Inf(1)}
	x := &Reservation{Start: 50, Dur: 5, LTS: 50, Demand: []int{1}}
	p.AddReservation(x)
	p.DeleteReservation(x) // gives back [50, 55): after [10, 25)
	if p.refresh(a, 5) || a.gave != p.gave() || !math.IsInf(a.at, 1) || a.from != 10 || a.limit != 20 {
		t.Fatalf("a give-back over [50, 55) changed an answer over [10, 25): %+v", a)
	}
	x.Start = 25
	p.AddReservation(x)
	p.DeleteReservation(x) // gives back [25, 30): no window of a start ≤ 20 reaches it
	if p.refresh(a, 5) || !math.IsInf(a.at, 1) {
		t.Fatalf("a give-back over [25, 30) changed an answer over [10, 25): %+v", a)
	}
	x.Start = 24
	p.AddReservation(x)
	p.DeleteReservation(x) // gives back [24, 29): reaches the windows of the starts after 19
	if !p.refresh(a, 5) || a.at > 19 || a.at < 19-1e-9 || a.from != 10 || a.gave != p.gave() {
		t.Fatalf("a give-back over [24, 29) left %+v; want the starts in [10, 19) kept, a.at 19", a)
	}
	x.Start = 3
	p.AddReservation(x)
	p.DeleteReservation(x) // gives back [3, 8): before every window
	if p.refresh(a, 5) || a.at > 19 || a.at < 19-1e-9 {
		t.Fatalf("a give-back over [3, 8) changed %+v", a)
	}
	x.Start = 1
	x.Dur = 10
	p.AddReservation(x)
	p.DeleteReservation(x) // gives back [1, 11): reaches the windows of the starts in [10, 11)
	if p.refresh(a, 5) || a.at > 19 || a.at < 19-1e-9 || a.holeLo != 10 || a.holeHi != 11 {
		t.Fatalf("a give-back over [1, 11) left %+v; want the starts in [11, 19) kept, a hole [10, 11)", a)
	}
	x.Start, x.Dur = 12, 20
	p.AddReservation(x)
	p.DeleteReservation(x) // gives back [12, 32): reaches the windows of the starts after 7, up to a.at
	if !p.refresh(a, 5) || a.at != 10 || a.hole() {
		t.Fatalf("a give-back over [12, 32) left %+v; want nothing kept (a.at = a.from = 10), no hole", a)
	}
}

// TestAloneStartAfterAGiveBackInside: a give-back that reaches the
// windows of some of the starts a remembered answer proved keeps those
// before the first it reaches and finds the new answer from there. One
// pool of 1 unit; X1 holds [0, 2.5), X2 [7, 20); V (5 long) is left out.
// From 0, every start up to 20 has a window that meets X1 or X2, so the
// answer is 20. X2 leaves (a give-back over [7, 20), which reaches the
// windows of the starts after 2): now V fits at 2.5, right after X1. The
// starts before 2 are kept (their windows end by 7), so the answer comes
// from a scan from 2, and is remembered: a query from 1 then gets 2.5
// without a scan.
func TestAloneStartAfterAGiveBackInside(t *testing.T) {
	p := NewPlan(0, []int{1})
	book := func(s, d float64) *Reservation {
		r := &Reservation{Start: s, Dur: d, LTS: s, Demand: []int{1}}
		p.AddReservation(r)
		return r
	}
	book(0, 2.5)
	x2 := book(7, 13)
	v := book(50, 5)
	v.LTS = 100
	own := []overlay{{v.Start, v.End(), v.Demand, +1}}
	m := &v.alone[0]
	a := &m.cur
	if got := p.aloneStart(m, v, 0, own); got != 20 {
		t.Fatalf("V alone from 0 with X2 booked: %g; want 20", got)
	}
	p.DeleteReservation(x2)
	if got := p.aloneStart(m, v, 0, own); got != 2.5 {
		t.Fatalf("V alone from 0 after X2 left: %g; want 2.5 (memory %+v)", got, *a)
	}
	if a.from != 0 || a.at != 2.5 {
		t.Fatalf("after X2 left, V's memory is %+v; want from 0, at 2.5", *a)
	}
	rememberedStarts = 0
	checkMovedStart = func(float64, float64) {}
	defer func() { checkMovedStart = nil }()
	if got := p.aloneStart(m, v, 1, own); got != 2.5 || rememberedStarts != 1 {
		t.Fatalf("V alone from 1: %g (%d from memory); want 2.5 from memory", got, rememberedStarts)
	}
}

// TestAloneStartKeepsTheQueryItReplaced: the instants asked about one
// victim go back and forth over its window, so a query after a remembered
// answer keeps the one it replaces, and each answers the instants it
// covers from memory. One pool of 1 unit; X1 holds [0, 2.5), X2 [10, 20);
// V (5 long) is left out. From 0 V fits at 2.5; from 6 only at 20 (every
// window before meets X2); then from 1 and from 7 both answers come from
// memory.
func TestAloneStartKeepsTheQueryItReplaced(t *testing.T) {
	p := NewPlan(0, []int{1})
	for _, x := range [][2]float64{{0, 2.5}, {10, 10}} {
		p.AddReservation(&Reservation{Start: x[0], Dur: x[1], LTS: x[0], Demand: []int{1}})
	}
	v := &Reservation{Start: 50, Dur: 5, LTS: 100, Demand: []int{1}}
	p.AddReservation(v)
	own := []overlay{{v.Start, v.End(), v.Demand, +1}}
	rememberedStarts = 0
	checkMovedStart = func(float64, float64) {}
	defer func() { checkMovedStart = nil }()
	for i, q := range []struct{ from, want float64 }{{0, 2.5}, {6, 20}, {1, 2.5}, {7, 20}, {2, 2.5}} {
		if got := p.aloneStart(&v.alone[0], v, q.from, own); got != q.want {
			t.Fatalf("query %d: V alone from %g = %g; want %g", i, q.from, got, q.want)
		}
	}
	if rememberedStarts != 3 {
		t.Fatalf("%d of the last three queries answered from memory; want all three", rememberedStarts)
	}
}

// TestRememberedFitForgottenAfterABooking: where movedStart's last step
// starts from an earliest start of the candidate alone that a query
// remembers as a fit, it answers without a scan only while the plan has
// booked nothing since (aloneFit.fit, Plan.took): a booking may take the
// units that start needed, a give-back cannot. One pool of 1 unit; X1
// holds [0, 10); V holds [10, 15) with LTS 30; the what-if pins r at
// [12, 14). V is asked where it can go from the conflict at 12: r blocks
// every start before 14, and alone from 14 V fits at 14, so 14 (the second
// time from memory). Then Y is booked over [14, 20): V alone from 14 now
// fits first at 20, and a fit remembered across the booking would still
// say 14. When Y leaves again (a give-back, which reaches the windows of
// the starts the query proved), the query is scanned again from 14 and
// finds 14: a scan's own answer, a fit the last step takes from memory.
func TestRememberedFitForgottenAfterABooking(t *testing.T) {
	for _, tree := range []bool{false, true} {
		p := NewPlan(0, []int{1})
		if !tree {
			p = newLinearPlan(0, []int{1})
		}
		p.AddReservation(&Reservation{Start: 0, Dur: 10, LTS: 0, Demand: []int{1}})
		v := &Reservation{Start: 10, Dur: 5, LTS: 30, Demand: []int{1}}
		p.AddReservation(v)
		ov := []overlay{{12, 14, []int{1}, -1}, {v.Start, v.End(), v.Demand, +1}}
		var differ int
		checkMovedStart = func(got, want float64) {
			if got != want {
				differ++
			}
		}
		fitsFromMemory = 0
		ask := func(step string, want float64, fromMemory int) {
			t.Helper()
			before := fitsFromMemory
			if got := p.movedStart(v, v.Start, 12, ov); got != want || differ > 0 {
				t.Fatalf("tree %v, %s: V moved to %g (the plain scan differed %d times); want %g", tree, step, got, differ, want)
			}
			if n := fitsFromMemory - before; n != fromMemory {
				t.Fatalf("tree %v, %s: %d answers from a remembered fit; want %d", tree, step, n, fromMemory)
			}
		}
		ask("first", 14, 1)
		ask("again", 14, 1)
		y := &Reservation{Start: 14, Dur: 6, LTS: 14, Demand: []int{1}}
		p.AddReservation(y)
		ask("after Y was booked over [14, 20)", 20, 0)
		ask("again after Y", 20, 1)
		p.DeleteReservation(y)
		ask("after Y left", 14, 1)
		checkMovedStart = nil
	}
}

// TestFirstReached: no window from the start returned reaches gs, as
// computed, and the start is within a few ulps of gs − dur.
func TestFirstReached(t *testing.T) {
	for _, c := range [][2]float64{{24, 5}, {0.3, 0.1}, {1e9 + 0.7, 3.3}, {5, 7}, {1.0 / 3, 2.0 / 3}} {
		gs, dur := c[0], c[1]
		f := firstReached(gs, dur)
		if f+dur > gs {
			t.Errorf("firstReached(%g, %g) = %g: its window reaches %g", gs, dur, f, gs)
		}
		if slack := gs - dur - f; slack > 4*ulp(math.Max(math.Abs(gs), dur)) {
			t.Errorf("firstReached(%g, %g) = %g: %g before gs − dur", gs, dur, f, slack)
		}
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
	rememberedStarts, fitsFromMemory, gapsAlone, zonesPassed = 0, 0, 0, 0
	defer func() { checkMovedStart = nil }()
	runOverloadedSeed004(t)
	if differ > 0 {
		t.Fatalf("movedStart differed from the plain scan %d times in %d", differ, checked)
	}
	if checked < 1000 || inf == 0 || inf == checked {
		t.Fatalf("%d answers checked, %d of them +Inf: the workloads do not exercise both outcomes", checked, inf)
	}
	if rememberedStarts < checked/10 {
		t.Fatalf("%d of %d answers bounded from memory: the cache is not exercised", rememberedStarts, checked)
	}
	if fitsFromMemory < checked/100 {
		t.Fatalf("%d of %d answers were remembered fits: earliestAloneFrom's memory is not exercised", fitsFromMemory, checked)
	}
	if gapsAlone < checked/100 || zonesPassed == 0 {
		t.Fatalf("%d answers checked, %d stretches between taking overlays answered as v alone, %d zones passed over: earliestInTakes is not exercised", checked, gapsAlone, zonesPassed)
	}
	t.Logf("%d answers checked, %d +Inf, %d bounded from memory, %d remembered fits, %d stretches answered alone, %d zones passed over", checked, inf, rememberedStarts, fitsFromMemory, gapsAlone, zonesPassed)
}

// ulp returns the gap between x ≥ 0 and the next float64.
func ulp(x float64) float64 { return math.Nextafter(x, math.Inf(1)) - x }

// TestAloneStartIsALowerBound drives aloneStart directly on random plans
// (half-second times, two pools) through every branch — a query before,
// inside and after what is remembered, a later and an earlier v.LTS,
// bookings (which only take units), deletions (give-backs, near and far),
// and a log that forgets — and checks each answer against the plain scan
// of v left out: never after the earliest start (it must stay a lower
// bound), never before t, and from memory or a shortened scan often
// enough to matter.
func TestAloneStartIsALowerBound(t *testing.T) {
	var queries, exact, remembered int
	for seed := uint64(1); seed <= 40; seed++ {
		g := newGridPlan(seed, 11, []int{4, 3}, []int{3, 3}, 160)
		p, rng, half := g.p, g.rng, g.half
		for range 30 {
			g.book()
		}
		v := &Reservation{Start: half(100), Dur: 1 + half(16), Demand: []int{1 + rng.IntN(2), 1 + rng.IntN(2)}}
		v.LTS = v.Start + half(120)
		p.AddReservation(v)
		own := []overlay{{v.Start, v.End(), v.Demand, +1}}
		for step := range 600 {
			switch k := rng.IntN(10); {
			case k == 0:
				g.book()
			case k == 1 && len(g.booked) > 0:
				g.unbook()
			case k == 2:
				v.LTS = v.Start + half(160)
			case k == 3 && step%97 == 0:
				// More give-backs far away than the log keeps.
				for i := range 2*gaveKeep + 1 {
					x := &Reservation{Start: 5000 + float64(i), Dur: 1, LTS: 5000, Demand: []int{1, 0}}
					p.AddReservation(x)
					p.DeleteReservation(x)
				}
			default:
				at := half(220)
				slot := rng.IntN(2)
				before := rememberedStarts
				checkMovedStart = func(float64, float64) {} // count remembered answers
				got := p.aloneStart(&v.alone[slot], v, at, own)
				checkMovedStart = nil
				want := p.tl.earliestWith(at, v.Dur, v.Demand, v.LTS, own)
				queries++
				if rememberedStarts > before {
					remembered++
				}
				if got == want || got > v.LTS && want > v.LTS {
					exact++
				}
				if got < at || got > want {
					t.Fatalf("seed %d step %d: aloneStart from %g (LTS %g) = %g; the earliest start is %g (memory %+v)",
						seed, step, at, v.LTS, got, want, v.alone[slot])
				}
			}
		}
	}
	if remembered < queries/5 || exact < queries*9/10 {
		t.Fatalf("%d queries, %d from memory, %d exact: the memory is not exercised, or its bounds are loose", queries, remembered, exact)
	}
	t.Logf("%d queries, %d from memory, %d exact", queries, remembered, exact)
}

// TestMovedStartWithRandomOverlays checks movedStart's shortcuts — the
// remembered starts alone, the scans limited to the starts before the
// overlays that give units back or take them — against the plain scan on
// random plans (half-second times, three pools) with random what-if
// overlays: units taken (the job being placed, victims' new places) and
// given back (victims' old places), in pools v needs or not, before, around
// and after t, between bookings and deletions that keep v's memory busy.
func TestMovedStartWithRandomOverlays(t *testing.T) {
	var checked, found int
	checkMovedStart = func(float64, float64) {} // count earliestInTakes's shortcuts
	defer func() { checkMovedStart = nil }()
	gapsAlone, zonesPassed = 0, 0
	for seed := uint64(1); seed <= 60; seed++ {
		g := newGridPlan(seed, 23, []int{4, 4, 2}, []int{3, 3, 2}, 200)
		p, rng, half := g.p, g.rng, g.half
		for range 40 {
			g.book()
		}
		v := &Reservation{Start: half(120), Dur: 1 + half(20), Demand: []int{1 + rng.IntN(2), rng.IntN(2), rng.IntN(2)}}
		v.LTS = v.Start + half(150)
		p.AddReservation(v)
		for step := range 400 {
			switch k := rng.IntN(8); {
			case k == 0:
				g.book()
			case k == 1 && len(g.booked) > 0:
				g.unbook()
			default:
				at := half(240)
				var ov []overlay
				for range rng.IntN(5) {
					s := at - 20 + half(120)
					o := overlay{s, s + 0.5 + half(30), g.demand(), +1}
					if rng.IntN(2) == 0 {
						o.sign = -1
					}
					ov = append(ov, o)
				}
				ov = append(ov, overlay{v.Start, v.End(), v.Demand, +1})
				got := p.movedStartBounded(v, v.Start, at, ov)
				want := p.tl.earliestWith(at, v.Dur, v.Demand, v.LTS, ov)
				checked++
				if !math.IsInf(want, 1) {
					found++
				}
				if got != want {
					t.Fatalf("seed %d step %d: movedStart from %g (LTS %g) with %v = %g; the plain scan gives %g",
						seed, step, at, v.LTS, ov, got, want)
				}
			}
		}
	}
	if found < checked/5 || found == checked {
		t.Fatalf("%d checked, %d found a start: both outcomes must be common", checked, found)
	}
	if gapsAlone < checked/50 || zonesPassed == 0 {
		t.Fatalf("%d checked, %d stretches between taking overlays answered as v alone, %d zones passed over: earliestInTakes is not exercised", checked, gapsAlone, zonesPassed)
	}
	t.Logf("%d checked, %d found a start, %d stretches answered alone, %d zones passed over", checked, found, gapsAlone, zonesPassed)
}

// gridPlan is a plan of random pinned bookings on a half-second grid, for
// the randomised tests of the remembered alone-starts: book adds one (start
// in [0, span/2), 0.5 to 15 s long, each pool's demand below maxDemand's),
// unbook deletes one at random (a give-back).
type gridPlan struct {
	p         *Plan
	rng       *rand.Rand
	maxDemand []int
	span      int
	booked    []*Reservation
}

func newGridPlan(seed, stream uint64, caps, maxDemand []int, span int) *gridPlan {
	return &gridPlan{p: NewPlan(0, caps), rng: rand.New(rand.NewPCG(seed, stream)), maxDemand: maxDemand, span: span}
}

// half returns a random multiple of 0.5 in [0, n/2).
func (g *gridPlan) half(n int) float64 { return float64(g.rng.IntN(n)) / 2 }

func (g *gridPlan) demand() []int {
	d := make([]int, len(g.maxDemand))
	for k, m := range g.maxDemand {
		d[k] = g.rng.IntN(m)
	}
	return d
}

func (g *gridPlan) book() {
	r := &Reservation{Start: g.half(g.span), Dur: 0.5 + g.half(30), Demand: g.demand()}
	r.LTS = r.Start
	g.p.AddReservation(r)
	g.booked = append(g.booked, r)
}

func (g *gridPlan) unbook() {
	i := g.rng.IntN(len(g.booked))
	g.p.DeleteReservation(g.booked[i])
	g.booked = append(g.booked[:i], g.booked[i+1:]...)
}

// TestNetGives checks netGives on hand-computed overlays (two pools): the
// stretches where the overlays give back, in sum, units of a pool the job
// needs. A victim's old place [2, 12) giving 1 unit of pool 0 lies mostly
// under the new reservation [0, 10), which takes 2: the sum there is −1,
// so only [10, 12) gives.
func TestNetGives(t *testing.T) {
	inf := math.Inf(1)
	r := overlay{0, 10, []int{2, 0}, -1}
	cases := []struct {
		name        string
		ov          []overlay
		demand      []int
		lo, hi      float64
		first, last float64
	}{
		{"old place under r", []overlay{r, {2, 12, []int{1, 0}, +1}}, []int{1, 0}, 0, 100, 10, 12},
		{"from inside the stretch", []overlay{r, {2, 12, []int{1, 0}, +1}}, []int{1, 0}, 11, 100, 11, 12},
		{"cut off by hi", []overlay{r, {2, 12, []int{1, 0}, +1}}, []int{1, 0}, 0, 11, 10, 11},
		{"a pool the job does not need", []overlay{r, {2, 12, []int{1, 0}, +1}}, []int{0, 1}, 0, 100, inf, -inf},
		{"gives more than r takes", []overlay{r, {2, 8, []int{3, 0}, +1}}, []int{1, 0}, 0, 100, 2, 8},
		{"as much as r takes", []overlay{r, {2, 8, []int{2, 0}, +1}}, []int{1, 0}, 0, 100, inf, -inf},
		{"nothing takes", []overlay{{5, 7, []int{0, 1}, +1}}, []int{1, 1}, 0, 100, 5, 7},
		{"two gives add up under r", []overlay{r, {1, 4, []int{2, 0}, +1}, {3, 6, []int{1, 1}, +1}}, []int{1, 0}, 0, 100, 3, 4},
		{"the victim's new place takes after r", []overlay{r, {2, 12, []int{1, 0}, +1}, {10, 11, []int{1, 0}, -1}}, []int{1, 0}, 0, 100, 11, 12},
		{"each give in its own pool", []overlay{{0, 10, []int{1, 1}, -1}, {2, 12, []int{1, 0}, +1}, {4, 6, []int{0, 2}, +1}}, []int{1, 1}, 0, 100, 4, 12},
		{"only takes", []overlay{r, {20, 30, []int{1, 1}, -1}}, []int{1, 1}, 0, 100, inf, -inf},
	}
	for _, c := range cases {
		var scratch []float64
		first, last := netGives(c.ov, c.demand, c.lo, c.hi, &scratch)
		if first != c.first || last != c.last {
			t.Errorf("%s: netGives = [%g, %g), want [%g, %g)", c.name, first, last, c.first, c.last)
		}
	}
}

// runOverloadedSeed004 runs 2TFB-SF under three readings and 2TPB on
// small overloaded seed-004 workloads (120 projects, interarrival 10 or
// 20), where most of the what-if's attempts fail and decide delays first:
// the runs the tests of its shortcuts check them on.
func runOverloadedSeed004(t *testing.T) {
	t.Helper()
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
}
