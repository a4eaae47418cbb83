package ga

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// positionEval depends on every gene and its position (a one-gene change
// changes Flow), and on the decoded chains (Makespan, Util, Penalty of
// makespanEval).
func positionEval(et [][]float64, res int) Evaluator {
	ms := makespanEval(et, res)
	return EvaluatorFunc(func(g Genome) Objectives {
		o := ms.Evaluate(g)
		for i, gn := range g {
			o.Flow += float64(i+1) * float64(gn.Job*1000+gn.Res+1)
		}
		o.Flow /= 1e6
		return o
	})
}

// A child's objectives are reused from a parent only when their genomes
// are equal, so Run with the reuse and Run evaluating every child
// (Reevaluate) give the same populations and objectives at every
// generation, the same result and leave the random source in the same
// state; the reuse skips evaluations.
func TestReuseIsReevaluation(t *testing.T) {
	saved := 0
	for seed := uint64(1); seed <= 60; seed++ {
		rng := rand.New(rand.NewPCG(seed, 17))
		jobs, res := 2+rng.IntN(30), 1+rng.IntN(8)
		et := make([][]float64, jobs)
		for j := range et {
			et[j] = make([]float64, res)
			for r := range et[j] {
				et[j][r] = 1 + 9*rng.Float64()
			}
		}
		cfg := Default(jobs, res)
		cfg.Population = 2 + rng.IntN(30)
		cfg.Generations = 1 + rng.IntN(60)
		cfg.MaxGenesPerJob = 1 + rng.IntN(3)
		cfg.PCut = [...]float64{0, 0.18, 0.5, 1}[rng.IntN(4)]
		cfg.PMut = [...]float64{0, 0.25, 0.5, 1}[rng.IntN(4)]
		if rng.IntN(3) == 0 {
			cfg.MaxLen = 1 + rng.IntN(jobs)
		}
		ev := positionEval(et, res)
		type gen struct {
			pop  []Genome
			objs []Objectives
		}
		run := func(reevaluate bool) (Result, []gen, uint64) {
			c := cfg
			c.Reevaluate = reevaluate
			var hist []gen
			c.trace = func(_ int, pop []Genome, objs []Objectives) {
				g := gen{objs: slices.Clone(objs)}
				for _, x := range pop {
					g.pop = append(g.pop, slices.Clone(x))
				}
				hist = append(hist, g)
			}
			src := rand.New(rand.NewPCG(seed, 5))
			r, err := Run(c, ev, nil, src)
			if err != nil {
				t.Fatal(err)
			}
			r.Best = slices.Clone(r.Best)
			return r, hist, src.Uint64()
		}
		all, hAll, nAll := run(true)
		some, hSome, nSome := run(false)
		for g := range hAll {
			if !reflect.DeepEqual(hAll[g], hSome[g]) {
				t.Fatalf("seed %d (%+v): generation %d differs with the reuse", seed, cfg, g)
			}
		}
		if len(hAll) != cfg.Generations+1 || len(hSome) != len(hAll) {
			t.Fatalf("seed %d: %d and %d generations traced", seed, len(hAll), len(hSome))
		}
		if !slices.Equal(all.Best, some.Best) || all.Objectives != some.Objectives || nAll != nSome {
			t.Fatalf("seed %d: results or random state differ: %+v %+v", seed, all, some)
		}
		if want := cfg.Population + cfg.Generations*(cfg.Population-1); all.Evaluations != want {
			t.Fatalf("seed %d: Reevaluate made %d evaluations, want %d", seed, all.Evaluations, want)
		}
		if some.Evaluations > all.Evaluations {
			t.Fatalf("seed %d: %d evaluations with the reuse, %d without", seed, some.Evaluations, all.Evaluations)
		}
		saved += all.Evaluations - some.Evaluations
	}
	if saved == 0 {
		t.Error("the reuse never skipped an evaluation")
	}
}
