package ga

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"slices"
	"testing"
)

// cutAndSpliceMax gives the children cutAndSpliceInto gives, cut to max
// genes, from the same draws.
func TestCutAndSpliceMaxIsCutAfter(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	for trial := 0; trial < 2000; trial++ {
		a := Random(1+rng.IntN(8), 5, 3, rng)
		b := Random(1+rng.IntN(8), 5, 3, rng)
		max := 1 + rng.IntN(len(a)+len(b)+2)
		seed := rng.Uint64()
		w1, w2 := cutAndSpliceInto(nil, nil, a, b, rand.New(rand.NewPCG(seed, 1)))
		w1, w2 = w1[:min(len(w1), max)], w2[:min(len(w2), max)]
		g1, g2 := cutAndSpliceMax(make(Genome, 0, max), make(Genome, 0, max), a, b, max, rand.New(rand.NewPCG(seed, 1)))
		if !slices.Equal(g1, w1) || !slices.Equal(g2, w2) {
			t.Fatalf("trial %d (max %d): %v %v, cut after: %v %v", trial, max, g1, g2, w1, w2)
		}
		if cap(g1) != max || cap(g2) != max {
			t.Fatalf("trial %d: a child outgrew its buffer of %d genes (%d, %d)", trial, max, cap(g1), cap(g2))
		}
	}
}

// Run's results, pinned to those of the implementation before its
// populations lived in a recycled slab (commit d450b5f): children cut at a
// small MaxLen, a MaxLen above the stretches' width (children move out), a
// seed longer than MaxLen, both operators, several runs in turn (so that a
// slab is reused) and the random source's state after each. A result's
// best genome is its own: later runs leave it alone.
func TestRunPinnedAcrossSlabs(t *testing.T) {
	et, res := smallInstance(7)
	ev := makespanEval(et, res)
	long := Random(len(et), res, 3, rand.New(rand.NewPCG(8, 8)))
	long = append(long, long...)
	h := fnv.New64a()
	var first, firstCopy Genome
	for i, maxLen := range []int{0, 7, 25, 60, 0, 500} {
		cfg := Default(len(et), res)
		cfg.Generations, cfg.MaxLen = 15, maxLen
		seeds := []Genome{long}
		if i%2 == 0 {
			seeds = nil
		}
		rng := rand.New(rand.NewPCG(uint64(i), 2))
		r, err := Run(cfg, ev, seeds, rng)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(h, "%v %+v %d %d|", r.Best, r.Objectives, r.Evaluations, rng.Uint64())
		if i == 0 {
			first, firstCopy = r.Best, slices.Clone(r.Best)
		}
	}
	if !slices.Equal(first, firstCopy) {
		t.Errorf("the first run's best genome changed under the later runs: %v, was %v", first, firstCopy)
	}
	const want uint64 = 0x33b7f675c7ffcd8e
	if got := h.Sum64(); got != want {
		t.Errorf("digest %#x, want %#x", got, want)
	}
}
