package consolidation

import (
	"math/rand/v2"
	"testing"
)

// TestSizeCountsAgainstAList adds and removes random sizes (below 0, 0,
// and up to 1,000, so the tree grows several times with counts in it) and
// compares every atMost with a count over the plain list.
func TestSizeCountsAgainstAList(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 25))
	var s sizeCounts
	var list []int
	for step := range 3000 {
		if len(list) > 0 && rng.IntN(3) == 0 {
			i := rng.IntN(len(list))
			s.add(list[i], -1)
			list = append(list[:i], list[i+1:]...)
		} else {
			n := rng.IntN(12) - 2
			if rng.IntN(10) == 0 {
				n = rng.IntN(min(1000, 10+step))
			}
			s.add(n, 1)
			list = append(list, n)
		}
		for _, q := range []int{-3, -1, 0, 1, 2, 5, 63, 64, 200, 999, 5000} {
			want := 0
			for _, n := range list {
				if max(n, 0) <= q {
					want++
				}
			}
			if q < 0 {
				want = 0
			}
			if got := s.atMost(q); got != want {
				t.Fatalf("step %d: atMost(%d) = %d, the list has %d", step, q, got, want)
			}
		}
	}
	if len(s.tree) < 1000 {
		t.Fatalf("the tree has %d positions after sizes up to 1,000", len(s.tree))
	}
}

// TestSizeCountsByHand: sizes 3, 3, 1 and 70 (past the first 64 positions).
func TestSizeCountsByHand(t *testing.T) {
	var s sizeCounts
	if got := s.atMost(10); got != 0 {
		t.Fatalf("empty: atMost(10) = %d", got)
	}
	s.add(3, 1)
	s.add(3, 1)
	s.add(1, 1)
	s.add(70, 1)
	for q, want := range map[int]int{0: 0, 1: 1, 2: 1, 3: 3, 69: 3, 70: 4, 1 << 20: 4} {
		if got := s.atMost(q); got != want {
			t.Errorf("atMost(%d) = %d, want %d", q, got, want)
		}
	}
	s.add(3, -1)
	if got := s.atMost(3); got != 2 {
		t.Errorf("after removing a 3: atMost(3) = %d, want 2", got)
	}
}
