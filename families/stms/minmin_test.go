package stms

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// minMinPlain is Min-Min as the plain scan: at every step every unmapped
// job on every resource, the first least completion in job-then-resource
// order committed (the form minMin had before it kept each job's earliest).
func minMinPlain(p *planner, free []float64) (order []int, chains [][]int) {
	f := slices.Clone(free)
	n := len(p.jobs)
	chains = make([][]int, n)
	done := make([]bool, n)
	for range n {
		bj, br, bt := -1, -1, math.Inf(1)
		for j := range n {
			if done[j] {
				continue
			}
			for r, pet := range p.single[j*p.nr : (j+1)*p.nr] {
				if t := atLeast(f[r], p.now) + pet; t < bt {
					bj, br, bt = j, r, t
				}
			}
		}
		done[bj] = true
		chains[bj] = []int{br}
		order = append(order, bj)
		f[br] = bt
	}
	return order, chains
}

// TestMinMinIsThePlainScan compares minMin, which looks again only at the
// jobs whose earliest completion was on the resource just committed, with
// the plain scan on random batches: small integer estimates and free
// times (many ties, some free times before now), zero estimates, and
// continuous ones. It fails if a job whose earliest was elsewhere is not
// kept, if a tie goes to a later job or a higher resource, or if a
// committed resource's jobs are not looked at again.
func TestMinMinIsThePlainScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 25))
	for trial := range 2000 {
		n, nr := 1+rng.IntN(40), 1+rng.IntN(12)
		p := &planner{jobs: make([]*jstate, n), nr: nr, now: float64(rng.IntN(5)), single: make([]float64, n*nr)}
		free := make([]float64, nr)
		for r := range free {
			free[r] = float64(rng.IntN(8))
		}
		for i := range p.single {
			switch trial % 3 {
			case 0:
				p.single[i] = float64(rng.IntN(4))
			case 1:
				p.single[i] = float64(rng.IntN(3)) * 0.5
			default:
				p.single[i] = rng.Float64() * 10
			}
		}
		wantOrder, wantChains := minMinPlain(p, free)
		gotOrder, gotChains := p.minMin(free)
		if !slices.Equal(gotOrder, wantOrder) {
			t.Fatalf("trial %d (%d jobs, %d resources): order %v, plain scan %v", trial, n, nr, gotOrder, wantOrder)
		}
		for j := range wantChains {
			if !slices.Equal(gotChains[j], wantChains[j]) {
				t.Fatalf("trial %d: job %d on %v, plain scan %v", trial, j, gotChains[j], wantChains[j])
			}
		}
	}
}
