package consolidation

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortVMs checks sortVMs, and mergeSortVMs, against slices.SortFunc
// on random lists of every length up to 300 with seven kinds of keys: many
// equal small keys (the processor decides; sortVMs's buckets then hold
// many entries each), the keys the lists sort (orderKey of usages in
// [0.4, 1], and the estimates' negations as byEstimate makes them), keys
// that agree above their lowest bits but differ in them (sortVMs's buckets
// split on the high bits of the key only), and orderKey's special values
// (NaN, infinities, signed zeros).
func TestSortVMs(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var buf sortBuf
	var merge []vm
	kinds := []struct {
		name string
		key  func() uint64
	}{
		{"small keys < 2", func() uint64 { return uint64(rng.IntN(2)) }},
		{"small keys < 1000", func() uint64 { return uint64(rng.IntN(1000)) }},
		{"usages", func() uint64 { return orderKey(0.4 + 0.6*rng.Float64()) }},
		{"negated estimates", func() uint64 { return ^orderKey(0.4 + 0.6*rng.Float64()) }},
		{"low bits only", func() uint64 { return orderKey(0.7)&^511 | uint64(rng.IntN(512)) }},
		{"two high values, low bits", func() uint64 {
			return orderKey([]float64{0.5, 0.9}[rng.IntN(2)])&^1023 | uint64(rng.IntN(1024))
		}},
		{"specials", func() uint64 {
			return orderKey([]float64{math.NaN(), math.Inf(-1), -1, 0, math.Copysign(0, -1), 1e-300, 1, math.Inf(1)}[rng.IntN(8)])
		}},
	}
	for n := range 300 {
		for _, k := range kinds {
			l := make([]vm, n)
			for i, p := range rng.Perm(n) {
				l[i] = vm{key: k.key(), proc: p}
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
			m := slices.Clone(l)
			sortVMs(l, &buf)
			if !slices.Equal(l, want) {
				t.Fatalf("sortVMs, n=%d, %s: %v, want %v", n, k.name, l, want)
			}
			mergeSortVMs(m, &merge)
			if !slices.Equal(m, want) {
				t.Fatalf("mergeSortVMs, n=%d, %s: %v, want %v", n, k.name, m, want)
			}
		}
	}
}
