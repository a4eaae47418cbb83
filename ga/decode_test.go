package ga

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// Decoder.Decode agrees with a plain decoding (first appearance orders the
// jobs; a job's chain is its distinct resources in order, at most maxChain;
// the template completes the jobs the genome misses) on random genomes with
// repeated genes, genes outside the batch and random templates, decoded in
// turn by one Decoder.
func TestDecoderMatchesPlain(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	for trial := 0; trial < 300; trial++ {
		jobs, maxChain, res := 1+rng.IntN(6), rng.IntN(4), 1+rng.IntN(4)
		// Resources from base on: small ones, ones on both sides of 64
		// (Decode looks those below 64 up in a bit set, the rest in the
		// chain) and out-of-range negative ones.
		base := []int{0, 0, 62, 126, -2}[rng.IntN(5)]
		d := NewDecoder(jobs, maxChain)
		var tmplOrder []int
		var tmplChains [][]int
		if rng.IntN(2) == 0 {
			tmplOrder = rng.Perm(jobs)
			tmplChains = make([][]int, jobs)
			for j := range tmplChains {
				for k := rng.IntN(4); k > 0; k-- {
					tmplChains[j] = append(tmplChains[j], base+rng.IntN(res))
				}
			}
			d.SetTemplate(tmplOrder, tmplChains)
		}
		for round := 0; round < 4; round++ {
			g := make(Genome, rng.IntN(12))
			for i := range g {
				g[i] = Gene{Job: rng.IntN(jobs+2) - 1, Res: base + rng.IntN(res)}
			}
			wantOrder, wantChains := decodePlain(g, jobs, maxChain, tmplOrder, tmplChains)
			order, chains := d.Decode(g)
			if !slices.Equal(order, wantOrder) || len(chains) != jobs {
				t.Fatalf("trial %d: %v: order %v, plain %v", trial, g, order, wantOrder)
			}
			for j := range chains {
				if !slices.Equal(chains[j], wantChains[j]) || (chains[j] == nil) != (wantChains[j] == nil) {
					t.Fatalf("trial %d: %v (max %d, template %v %v): job %d's chain %v, plain %v", trial, g, maxChain, tmplOrder, tmplChains, j, chains[j], wantChains[j])
				}
			}
		}
	}
}

func decodePlain(g Genome, jobs, maxChain int, tmplOrder []int, tmplChains [][]int) ([]int, [][]int) {
	maxChain = max(maxChain, 1)
	var order []int
	chains := make([][]int, jobs)
	seen := make([]bool, jobs)
	add := func(j, r int) {
		if !seen[j] {
			seen[j] = true
			order = append(order, j)
		}
		if len(chains[j]) < maxChain && !slices.Contains(chains[j], r) {
			chains[j] = append(chains[j], r)
		}
	}
	for _, gn := range g {
		if gn.Job >= 0 && gn.Job < jobs {
			add(gn.Job, gn.Res)
		}
	}
	for _, j := range tmplOrder {
		if !seen[j] {
			for _, r := range tmplChains[j] {
				add(j, r)
			}
		}
	}
	return order, chains
}
