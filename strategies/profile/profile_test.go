package profile

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
)

// naive is a per-second array model of a profile on integer times, the
// independent reference for the step function.
type naive struct{ free [][]int } // free[t][pool]

func newNaive(horizon int, free []int) *naive {
	n := &naive{free: make([][]int, horizon)}
	for t := range n.free {
		n.free[t] = append([]int(nil), free...)
	}
	return n
}

func (n *naive) add(from, to int, demand []int, sign int) {
	for t := from; t < to && t < len(n.free); t++ {
		for k, d := range demand {
			n.free[t][k] += sign * d
		}
	}
}

func (n *naive) fits(from, to int, demand []int) bool {
	for t := from; t < to; t++ {
		for k, d := range demand {
			if d > n.free[min(t, len(n.free)-1)][k] {
				return false
			}
		}
	}
	return true
}

func (n *naive) earliest(from, dur int, demand []int) int {
	for s := from; s < len(n.free); s++ {
		if n.fits(s, s+dur, demand) {
			return s
		}
	}
	return -1
}

// TestAgainstNaiveModel drives profiles of two pools (the general walks)
// and of one pool (the classic platform's own walks: earliestStart1,
// earliestMove1, Fits's one-column loop) with random reservations, moves
// and releases, and compares every answer with the per-second model.
func TestAgainstNaiveModel(t *testing.T) {
	const horizon = 1500
	for seed := uint64(1); seed <= 60; seed++ {
		rng := rand.New(rand.NewPCG(seed, 7))
		caps := []int{6 + rng.IntN(6), 1 + rng.IntN(3)}
		if seed > 30 {
			caps = caps[:1]
		}
		p := New(0, caps)
		ref := newNaive(horizon, caps)
		type res struct {
			from, to int
			d        []int
		}
		var held []res
		for step := 0; step < 200; step++ {
			d := []int{rng.IntN(caps[0] + 1)}
			if len(caps) > 1 {
				d = append(d, rng.IntN(caps[1]+1))
			}
			dur := 1 + rng.IntN(30)
			from := rng.IntN(150)
			got := p.EarliestStart(sim.Time(from), sim.Time(dur), d)
			want := ref.earliest(from, dur, d)
			if want < 0 || want+dur >= horizon {
				continue // beyond the reference model's horizon
			}
			if int(got) != want {
				t.Fatalf("seed %d step %d: earliest(%d, %d, %v) = %g, want %d", seed, step, from, dur, d, got, want)
			}
			if f := p.Fits(sim.Time(from), sim.Time(from+dur), d); f != ref.fits(from, from+dur, d) {
				t.Fatalf("seed %d step %d: fits(%d, %d, %v) = %v", seed, step, from, from+dur, d, f)
			}
			switch {
			case rng.IntN(3) > 0 || len(held) == 0:
				s := int(got)
				p.Reserve(sim.Time(s), sim.Time(s+dur), d)
				ref.add(s, s+dur, d, -1)
				held = append(held, res{s, s + dur, d})
			default:
				i := rng.IntN(len(held))
				r := held[i]
				// EarliestMove must agree with release + earliest, capped
				// at the current start.
				mv := p.EarliestMove(0, sim.Time(r.to-r.from), r.d, sim.Time(r.from))
				ref.add(r.from, r.to, r.d, +1)
				if w := min(ref.earliest(0, r.to-r.from, r.d), r.from); int(mv) != w {
					t.Fatalf("seed %d step %d: EarliestMove = %g, want %d", seed, step, mv, w)
				}
				p.Release(sim.Time(r.from), sim.Time(r.to), r.d)
				held = append(held[:i], held[i+1:]...)
			}
			for tt := 0; tt < 200; tt += 7 {
				for k := range caps {
					if p.FreeAt(sim.Time(tt), k) != ref.free[tt][k] {
						t.Fatalf("seed %d step %d: free(%d, pool %d) = %d, want %d", seed, step, tt, k, p.FreeAt(sim.Time(tt), k), ref.free[tt][k])
					}
				}
			}
		}
		// Releasing everything merges the profile back to one step.
		for _, r := range held {
			p.Release(sim.Time(r.from), sim.Time(r.to), r.d)
		}
		if p.Steps() != 1 {
			t.Fatalf("seed %d: %d steps after releasing everything, want 1", seed, p.Steps())
		}
	}
}

func TestAdvanceDropsPast(t *testing.T) {
	p := New(0, []int{4})
	p.Reserve(0, 10, []int{3})
	p.Reserve(5, 20, []int{1})
	p.Advance(12)
	if p.Origin() != 12 || p.FreeAt(12, 0) != 3 || p.FreeAt(25, 0) != 4 {
		t.Errorf("after advance: origin %g free %d / %d", p.Origin(), p.FreeAt(12, 0), p.FreeAt(25, 0))
	}
	if s := p.EarliestStart(0, 1, []int{4}); s != 20 {
		t.Errorf("earliest after advance = %g, want 20", s)
	}
	if s := p.EarliestStart(0, 1, []int{5}); !math.IsInf(s, 1) {
		t.Errorf("demand above capacity: %g, want +Inf", s)
	}
}
