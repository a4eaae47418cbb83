package twotier

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestVecOps checks add, addSigned and setVec against the plain loops for every
// number of pools from 0 to 8: five (Table 6's N) takes the written-out
// path, the others the loop and copy.
func TestVecOps(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 5))
	for n := 0; n <= 8; n++ {
		for range 50 {
			p, v := make([]int, n), make([]int, n+rng.IntN(3)) // v may be longer
			for k := range p {
				p[k] = rng.IntN(81) - 40
			}
			for k := range v {
				v[k] = rng.IntN(81) - 40
			}
			want := slices.Clone(p)
			for k := range want {
				want[k] += v[k]
			}
			got := slices.Clone(p)
			add(got, v)
			if !slices.Equal(got, want) {
				t.Fatalf("n=%d: add(%v, %v) = %v, want %v", n, p, v, got, want)
			}
			for _, sign := range []int{+1, -1} {
				want := slices.Clone(p)
				for k := range want {
					want[k] += sign * v[k]
				}
				got := slices.Clone(p)
				addSigned(got, v, sign)
				if !slices.Equal(got, want) {
					t.Fatalf("n=%d: addSigned(%v, %v, %d) = %v, want %v", n, p, v, sign, got, want)
				}
			}
			dst := make([]int, n)
			setVec(dst, v[:n])
			if !slices.Equal(dst, v[:n]) {
				t.Fatalf("n=%d: setVec(_, %v) = %v", n, v[:n], dst)
			}
		}
	}
}
