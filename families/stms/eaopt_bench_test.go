package stms

// The mGA on github.com/MaxHalford/eaopt v0.4.2, the library the product's
// design names, for comparison with package ga's own loop (BenchmarkMGABatch):
// the same evaluator, operators, eq. 7 fitness over the whole population,
// shifted roulette and elitism, through eaopt's public Model interface. It
// works and is deterministic given its *math/rand.Rand (adapted from a
// math/rand/v2 PCG); ga/doc.go gives the measured reason it is not used.

import (
	"math"
	mrand "math/rand"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/MaxHalford/eaopt"
	"github.com/schedfarm/schedfarm/ga"
	"github.com/schedfarm/schedfarm/workload/seed002"
)

// pcgSource adapts a math/rand/v2 PCG to math/rand's Source64.
type pcgSource struct{ p *rand.PCG }

func (s pcgSource) Int63() int64   { return int64(s.p.Uint64() >> 1) }
func (s pcgSource) Uint64() uint64 { return s.p.Uint64() }
func (s pcgSource) Seed(int64)     {}

type egenome struct {
	g   ga.Genome
	obj ga.Objectives
	ev  ga.Evaluator
	nr  int
	pm  float64
}

func (e *egenome) Evaluate() (float64, error) {
	e.obj = e.ev.Evaluate(e.g)
	return e.obj.Makespan, nil
}
func (e *egenome) Mutate(rng *mrand.Rand) {
	if len(e.g) == 0 {
		return
	}
	if rng.Float64() < e.pm {
		a, b := rng.Intn(len(e.g)), rng.Intn(len(e.g))
		e.g[a], e.g[b] = e.g[b], e.g[a]
	}
	if rng.Float64() < e.pm {
		e.g[rng.Intn(len(e.g))].Res = rng.Intn(e.nr)
	}
}
func (e *egenome) Crossover(o eaopt.Genome, rng *mrand.Rand) {
	f := o.(*egenome)
	i, k := rng.Intn(len(e.g)+1), rng.Intn(len(f.g)+1)
	c1 := append(append(ga.Genome{}, e.g[:i]...), f.g[k:]...)
	c2 := append(append(ga.Genome{}, f.g[:k]...), e.g[i:]...)
	e.g, f.g = c1, c2
}
func (e *egenome) Clone() eaopt.Genome {
	c := *e
	c.g = slices.Clone(e.g)
	return &c
}

// mgaModel is the mGA generation on eaopt: eq. 7 fitness over the whole
// population, shifted roulette, elitism, cut-and-splice, mutation.
type mgaModel struct {
	w    ga.Weights
	pcut float64
	maxL int
}

func (m mgaModel) Apply(pop *eaopt.Population) error {
	ind := pop.Individuals
	objs := make([]ga.Objectives, len(ind))
	for i := range ind {
		objs[i] = ind[i].Genome.(*egenome).obj
	}
	f := ga.Fitness(objs, m.w)
	best, lo, hi := 0, f[0], f[0]
	for i, v := range f {
		if v > f[best] {
			best = i
		}
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	eps := 0.01 * (hi - lo)
	if eps == 0 {
		eps = 1
	}
	wts := make([]float64, len(f))
	total := 0.0
	for i, v := range f {
		wts[i] = v - lo + eps
		total += wts[i]
	}
	pick := func() eaopt.Individual {
		x := pop.RNG.Float64() * total
		for i, w := range wts {
			if x < w {
				return ind[i]
			}
			x -= w
		}
		return ind[len(ind)-1]
	}
	next := make(eaopt.Individuals, 0, len(ind))
	next = append(next, ind[best].Clone(pop.RNG))
	for len(next) < len(ind) {
		a, b := pick().Clone(pop.RNG), pick().Clone(pop.RNG)
		if pop.RNG.Float64() < m.pcut {
			a.Genome.Crossover(b.Genome, pop.RNG)
			a.Evaluated, b.Evaluated = false, false
		}
		for _, c := range []eaopt.Individual{a, b} {
			if len(next) == len(ind) {
				break
			}
			e := c.Genome.(*egenome)
			if len(e.g) > m.maxL {
				e.g = e.g[:m.maxL]
			}
			c.Mutate(pop.RNG)
			next = append(next, c)
		}
	}
	pop.Individuals = next
	return nil
}

func (m mgaModel) Validate() error { return nil }

// BenchmarkMGABatchEaopt times BenchmarkMGABatch's batches through eaopt.
func BenchmarkMGABatchEaopt(b *testing.B) {
	res, attrs, jobs := benchWorld(b, 1, 1500, 50, seed002.ClassNone, 0.6)
	s, snaps := batchesOf(b, res, attrs, jobs)
	cfg := s.cfg
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sn := snaps[i%len(snaps)]
		s.plan.load(sn.jobs, sn.now)
		ev, seedG := s.plan.evaluator(sn.free)
		gc := cfg.GA
		gcfg := eaopt.GAConfig{NPops: 1, PopSize: uint(gc.Population), NGenerations: uint(gc.Generations), HofSize: 1,
			Model: mgaModel{w: gc.Weights, pcut: gc.PCut, maxL: 2 * len(sn.jobs) * cfg.MaxChain},
			RNG:   mrand.New(pcgSource{rand.NewPCG(uint64(i), 5)})}
		g, err := gcfg.NewGA()
		if err != nil {
			b.Fatal(err)
		}
		first := true
		rngG := rand.New(rand.NewPCG(uint64(i), 6))
		err = g.Minimize(func(r *mrand.Rand) eaopt.Genome {
			if first {
				first = false
				return &egenome{g: slices.Clone(seedG), ev: ev, nr: len(res), pm: gc.PMut}
			}
			return &egenome{g: ga.Random(len(sn.jobs), len(res), cfg.MaxChain, rngG), ev: ev, nr: len(res), pm: gc.PMut}
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}
