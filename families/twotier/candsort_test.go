package twotier

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortCandidatesIsSortFunc compares sortCandidates with slices.SortFunc
// by candidateCmp on random lists of 0 to 20 candidates whose LTS and
// starts repeat and include ±Inf and NaN (two NaNs end candidateCmp's
// comparison as equal, so even the order of such ties must match).
func TestSortCandidatesIsSortFunc(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 27))
	vals := []float64{0, 1, 2, 2.5, math.Inf(1), math.Inf(-1), math.NaN()}
	for round := range 20000 {
		n := rng.IntN(21)
		rs := make([]*Reservation, n)
		got := make([]candidate, n)
		for i := range rs {
			rs[i] = &Reservation{LTS: vals[rng.IntN(len(vals))], seq: uint64(rng.IntN(2 * n))}
			got[i] = candidate{rs[i], vals[rng.IntN(len(vals))]}
		}
		want := slices.Clone(got)
		slices.SortFunc(want, candidateCmp)
		sortCandidates(got)
		for i := range got {
			if got[i].r != want[i].r || math.Float64bits(got[i].s) != math.Float64bits(want[i].s) {
				t.Fatalf("round %d, %d candidates: position %d differs: sortCandidates %+v, slices.SortFunc %+v", round, n, i, *got[i].r, *want[i].r)
			}
		}
	}
}
