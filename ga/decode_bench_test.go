package ga

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkDecode decodes random genomes of a Table 2 batch (50 jobs, 50
// resources, chains of up to 3), one Decoder reused as the mGA reuses it.
//
//	go test -run XXX -bench Decode ./ga
func BenchmarkDecode(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	gs := make([]Genome, 64)
	for i := range gs {
		gs[i] = Random(50, 50, 3, rng)
	}
	d := NewDecoder(50, 3)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		d.Decode(gs[i%len(gs)])
	}
}
