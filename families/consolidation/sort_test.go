package consolidation

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortVMs checks sortVMs against slices.SortFunc on random lists of
// every length up to 300, with many equal keys (the processor decides).
func TestSortVMs(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var buf []vm
	for n := range 300 {
		for _, keys := range []int{2, 1000} {
			l := make([]vm, n)
			for i, p := range rng.Perm(n) {
				l[i] = vm{key: uint64(rng.IntN(keys)), proc: p}
			}
			want := slices.Clone(l)
			slices.SortFunc(want, func(a, b vm) int {
				if a.before(b) {
					return -1
				}
				if b.before(a) {
					return 1
				}
				return 0
			})
			sortVMs(l, &buf)
			if !slices.Equal(l, want) {
				t.Fatalf("n=%d keys<%d: %v, want %v", n, keys, l, want)
			}
		}
	}
}
