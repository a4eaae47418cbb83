package twotier

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
)

// TestTreeMatchesLinear drives the tree and the linear timeline through the
// same random reserve/unreserve/advance sequence and compares every query.
func TestTreeMatchesLinear(t *testing.T) {
	for seed := uint64(1); seed <= 28; seed++ {
		rng := rand.New(rand.NewPCG(seed, 4))
		caps := []int{3 + rng.IntN(6), 1 + rng.IntN(4), 5}[:1+rng.IntN(3)]
		if seed > 20 {
			// Table 6's five resource types, for which the scans' vector
			// steps are written out (vec.go, treeTimeline.piece).
			caps = []int{3 + rng.IntN(6), 1 + rng.IntN(4), 5, 2 + rng.IntN(5), 4}
		}
		tr, li := newTreeTimeline(0, caps), newLinearTimeline(0, caps)
		type iv struct {
			s, e float64
			q    []int
		}
		var live []iv
		now := 0.0
		for step := 0; step < 600; step++ {
			switch r := rng.IntN(10); {
			case r < 5:
				s := now + float64(rng.IntN(30))
				e := s + float64(1+rng.IntN(10))
				q := make([]int, len(caps))
				for k := range q {
					q[k] = rng.IntN(caps[k] + 1)
				}
				tr.reserve(s, e, q)
				li.reserve(s, e, q)
				live = append(live, iv{s, e, q})
			case r < 8 && len(live) > 0:
				i := rng.IntN(len(live))
				x := live[i]
				tr.unreserve(x.s, x.e, x.q)
				li.unreserve(x.s, x.e, x.q)
				live = slices.Delete(live, i, i+1)
			case r == 8:
				now += float64(rng.IntN(3))
				tr.advance(now)
				li.advance(now)
				k := 0
				for _, x := range live {
					if x.e > now {
						live[k] = x
						k++
					}
				}
				live = live[:k]
			}
			if tr.breakpoints() != li.breakpoints() {
				t.Fatalf("seed %d step %d: %d breakpoints vs %d", seed, step, tr.breakpoints(), li.breakpoints())
			}
			if err := checkPrefixes(tr, tr.root); err != "" {
				t.Fatalf("seed %d step %d: %s", seed, step, err)
			}
			a, b := make([]int, len(caps)), make([]int, len(caps))
			for _, at := range li.keys {
				tr.availAt(at, a)
				li.availAt(at, b)
				if !slices.Equal(a, b) {
					t.Fatalf("seed %d step %d: avail at %g: %v vs %v", seed, step, at, a, b)
				}
			}
			q := make([]int, len(caps))
			for k := range q {
				q[k] = rng.IntN(caps[k] + 1)
			}
			from := now + float64(rng.IntN(20))
			d := float64(1 + rng.IntN(12))
			lim := math.Inf(1)
			if rng.IntN(2) == 0 {
				lim = from + float64(rng.IntN(20))
			}
			if x, y := tr.earliest(from, d, q, lim), li.earliest(from, d, q, lim); x != y {
				t.Fatalf("seed %d step %d: earliest(%g, %g, %v) = %g vs %g", seed, step, from, d, q, x, y)
			}
			// Durations from far below to far above the breakpoint spacing,
			// so that earliest both opens and skips mixed subtrees.
			for _, d2 := range []float64{0.5, 3, 17, 60} {
				from2 := now + rng.Float64()*40
				if x, y := tr.earliest(from2, d2, q, math.Inf(1)), li.earliest(from2, d2, q, math.Inf(1)); x != y {
					t.Fatalf("seed %d step %d: earliest(%g, %g, %v) = %g vs %g", seed, step, from2, d2, q, x, y)
				}
				lim2 := from2 + rng.Float64()*30
				if x, y := tr.earliest(from2, d2, q, lim2), li.earliest(from2, d2, q, lim2); x != y {
					t.Fatalf("seed %d step %d: earliest(%g, %g, %v, %g) = %g vs %g", seed, step, from2, d2, q, lim2, x, y)
				}
			}
			// What-if queries: leave out a booked interval, book a new one
			// whose end is usually not a breakpoint.
			var ov []overlay
			for _, i := range rng.Perm(len(live))[:min(len(live), rng.IntN(3))] {
				x := live[i]
				ov = append(ov, overlay{x.s, x.e, x.q, +1})
			}
			for range rng.IntN(4) {
				s := now + float64(rng.IntN(30)) - 2
				if rng.IntN(2) == 0 {
					s += rng.Float64()
				}
				e := s + rng.Float64()*15
				if rng.IntN(2) == 0 {
					e = math.Ceil(e)
				}
				nq := make([]int, len(caps))
				for k := range nq {
					nq[k] = rng.IntN(caps[k] + 1)
				}
				ov = append(ov, overlay{s, e, nq, -1})
			}
			rng.Shuffle(len(ov), func(i, j int) { ov[i], ov[j] = ov[j], ov[i] })
			for _, d2 := range []float64{0.5, 3, 17} {
				from2 := now + rng.Float64()*30
				lim2 := math.Inf(1)
				if rng.IntN(2) == 0 {
					lim2 = from2 + rng.Float64()*20
				}
				if x, y := tr.earliestWith(from2, d2, q, lim2, ov), li.earliestWith(from2, d2, q, lim2, ov); x != y {
					t.Fatalf("seed %d step %d: earliestWith(%g, %g, %v, %g, %+v) = %g vs %g", seed, step, from2, d2, q, lim2, ov, x, y)
				}
			}
			if tr.breakpoints() != li.breakpoints() {
				t.Fatalf("seed %d step %d: earliestWith changed the linear timeline", seed, step)
			}
			w1, okw1 := tr.firstConflict(from, from+d, q, ov)
			w2, okw2 := li.firstConflict(from, from+d, q, ov)
			if w1 != w2 || okw1 != okw2 {
				t.Fatalf("seed %d step %d: firstConflict(q) %g %v vs %g %v", seed, step, w1, okw1, w2, okw2)
			}
			f1 := tr.fitsBetween(from, from+d*3, q, nil)
			f2 := li.fitsBetween(from, from+d*3, q, nil)
			if !slices.Equal(f1, f2) {
				t.Fatalf("seed %d step %d: fitsBetween %v vs %v", seed, step, f1, f2)
			}
			x1, ok1 := tr.nextFit(from, from+d*3, q)
			x2, ok2 := li.nextFit(from, from+d*3, q)
			if x1 != x2 || ok1 != ok2 {
				t.Fatalf("seed %d step %d: nextFit %g %v vs %g %v", seed, step, x1, ok1, x2, ok2)
			}
			if tr.fitsAt(from, q) != li.fitsAt(from, q) {
				t.Fatalf("seed %d step %d: fitsAt differs", seed, step)
			}
			c1, ok1 := tr.firstConflict(from, from+d, nil, nil)
			c2, ok2 := li.firstConflict(from, from+d, nil, nil)
			if c1 != c2 || ok1 != ok2 {
				t.Fatalf("seed %d step %d: firstConflict %g %v vs %g %v", seed, step, c1, ok1, c2, ok2)
			}
		}
	}
}

// checkPrefixes compares every internal node's prefix sums (before), as the
// walks would read them, with the sums of its children's changes added up
// afresh: a prefix left stale by a change (bnode.changed) differs.
func checkPrefixes(tr *treeTimeline, x *bnode) string {
	if x.leaf {
		return ""
	}
	want := make([]int, tr.n)
	for i := 0; i <= x.m; i++ {
		if got := tr.before(x, i); !slices.Equal(got, want) {
			return fmt.Sprintf("prefix before child %d of %d: %v, the children's sums give %v", i, x.m, got, want)
		}
		if i < x.m {
			add(want, x.csum[i*tr.n:(i+1)*tr.n])
			if err := checkPrefixes(tr, x.kids[i]); err != "" {
				return err
			}
		}
	}
	return ""
}

// TestTreeSchedulesMatchLinear runs every member of the family on the same
// random project workloads with both timelines: the schedules must agree.
func TestTreeSchedulesMatchLinear(t *testing.T) {
	p := sim.Platform{Pools: []sim.Pool{{Name: "a", Capacity: 6}, {Name: "b", Capacity: 4}, {Name: "c", Capacity: 9}}}
	for _, cfg := range []Config{TSB(), TFB(), TFBSF(0.5, Unlimited), TFBSF(1, 1), TPB(0.5, Unlimited), TPB(1, 2)} {
		for seed := uint64(1); seed <= 5; seed++ {
			run := func(plan *Plan) []*sim.Job {
				jobs := randomProjects(rand.New(rand.NewPCG(seed, 9)), p, 150, 6)
				out, _, err := sim.Run(p, newWith(plan, cfg), sim.NewSliceStream(jobs), nil)
				if err != nil {
					t.Fatal(err)
				}
				return out
			}
			a, b := run(NewPlan(0, p.Capacities())), run(newLinearPlan(0, p.Capacities()))
			for i := range a {
				if a[i].Start() != b[i].Start() || a[i].End() != b[i].End() {
					t.Fatalf("%v seed %d job %d: tree %g–%g, linear %g–%g", cfg, seed, a[i].ID, a[i].Start(), a[i].End(), b[i].Start(), b[i].End())
				}
			}
		}
	}
}
