package tune

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/schedfarm/schedfarm/families"
	"github.com/schedfarm/schedfarm/results"
	"github.com/schedfarm/schedfarm/runner"
)

func loadTest(t *testing.T) *Spec {
	t.Helper()
	s, err := Load("testdata/depth.yaml", families.Builtin())
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestLoadExample(t *testing.T) {
	s := loadTest(t)
	if len(s.Params) != 2 || s.Params[0].Kind != Int || s.Params[1].Kind != Choice || s.Algorithm.Budget != 11 {
		t.Fatalf("%+v", s)
	}
	r := &LocalRunner{Sim: runner.New(families.Builtin()), Workers: 2}
	res, err := Search(context.Background(), s, r, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d evals, %d distinct, %d cells run, best %s = %.1f ± %.1f", len(res.Evals), res.Distinct, r.Ran, Describe(s, res.Best), res.Best.Objective, res.Best.ObjectiveCI)
}

// gridEvals evaluates every genome of a space of Int and Choice
// parameters, as the search would (same cells, same seeds).
func gridEvals(t *testing.T, spec *Spec, r Runner) []*Eval {
	t.Helper()
	s := &search{spec: spec, run: r, ctx: context.Background(), base: spec.Base.Cells(), cache: map[string]*Eval{}}
	var gs []*genome
	var rec func(i int, x []float64)
	rec = func(i int, x []float64) {
		if i == len(spec.Params) {
			gs = append(gs, &genome{s: s, x: append([]float64(nil), x...)})
			return
		}
		p := spec.Params[i]
		n := len(p.Choices)
		if p.Kind == Int {
			n = int(p.Hi-p.Lo) + 1
		}
		for k := 0; k < n; k++ {
			rec(i+1, append(x, (float64(k)+0.5)/float64(n)))
		}
	}
	rec(0, nil)
	if err := s.evaluate(gs); err != nil {
		t.Fatal(err)
	}
	return s.evals
}

// paired returns the 95% CI of the paired difference e − o of the
// objective per replication (every genome has the same seeds).
func paired(e, o *Eval) results.Stat {
	d := make([]float64, len(e.Reps))
	for i := range d {
		d[i] = e.Reps[i] - o.Reps[i]
	}
	return results.MeanCI(d, 0.95)
}

// On a space small enough to grid exhaustively — depth k ∈ 1…17 × the
// estimates the scheduler sees (user, exact): 34 genomes, 4 replications
// each — on three workloads (base seeds 1, 2, 3), every algorithm with a
// budget of 11 distinct genomes (a third of the grid: 11 ≤ 34/3), over 10
// search seeds each, finds a genome not significantly worse than the
// grid's optimum (the 95% CI of the paired difference per replication
// covers 0; every genome meets the same workloads) for at least 8 of the 10
// seeds on every workload. Seen: 10 of 10 everywhere (16, 29 and 17 of the
// 34 genomes are within that CI on the three workloads). The optimum
// itself, of 30 searches: ga 13 (asserted ≥ 10), de 10, pso 12; 11 genomes
// drawn at random would include it with probability 11/34 = 0.32 (9.7 of
// 30 expected).
//
// Common random numbers make a genome's value the same in the grid and in
// the searches.
func TestFindsTheGridOptimum(t *testing.T) {
	exact := map[string]int{}
	for base := uint64(1); base <= 3; base++ {
		spec := loadTest(t)
		b := *spec.Base
		b.Seed = base
		spec.Base = &b
		r := &LocalRunner{Sim: runner.New(families.Builtin()), Workers: 2}
		grid := gridEvals(t, spec, r)
		if len(grid) != 34 {
			t.Fatalf("%d grid genomes, want 34", len(grid))
		}
		var best *Eval
		for _, e := range grid {
			if e.Feasible && (best == nil || e.Objective < best.Objective) {
				best = e
			}
		}
		if best == nil {
			t.Fatal("no feasible genome in the grid")
		}
		within := 0
		for _, e := range grid {
			if d := paired(e, best); d.Mean-d.HalfWidth <= 0 {
				within++
			}
		}
		t.Logf("workload %d: grid optimum %s = %.0f ± %.0f; %d of 34 genomes within its paired CI", base, Describe(spec, best), best.Objective, best.ObjectiveCI, within)
		for _, algo := range []string{GA, DE, PSO} {
			a := *spec
			a.Algorithm.Name = algo
			t.Run(fmt.Sprintf("%s/workload%d", algo, base), func(t *testing.T) { exact[algo] += findsOptimum(t, &a, r, best) })
		}
	}
	t.Logf("the optimum itself in 30 searches: ga %d, de %d, pso %d", exact[GA], exact[DE], exact[PSO])
	if exact[GA] < 10 {
		t.Errorf("ga found the optimum itself in %d of 30 searches, want ≥ 10", exact[GA])
	}
}

// findsOptimum runs 10 searches and returns how many found the optimum.
func findsOptimum(t *testing.T, spec *Spec, r Runner, best *Eval) int {
	exact, inCI := 0, 0
	for seed := uint64(1); seed <= 10; seed++ {
		res, err := Search(context.Background(), spec, r, Options{Seed: &seed})
		if err != nil {
			t.Fatal(err)
		}
		if res.Distinct > 11 {
			t.Errorf("seed %d: %d distinct genomes for a budget of 11", seed, res.Distinct)
		}
		if res.Best == nil {
			t.Fatalf("seed %d: no feasible genome", seed)
		}
		d := paired(res.Best, best)
		if key(res.Best.Values) == key(best.Values) {
			exact++
		}
		if d.Mean-d.HalfWidth <= 0 {
			inCI++
		}
		t.Logf("seed %d: %d distinct, best %s = %.0f (paired difference to the optimum %.0f ± %.0f)", seed, res.Distinct, Describe(spec, res.Best), res.Best.Objective, d.Mean, d.HalfWidth)
	}
	t.Logf("optimum found in %d of 10 seeds, a genome within its paired CI in %d", exact, inCI)
	if inCI < 8 {
		t.Errorf("a genome within the optimum's paired CI in %d of 10 seeds, want ≥ 8", inCI)
	}
	return exact
}

// The same spec and seed give the same search, with one or two local
// workers.
func TestDeterministic(t *testing.T) {
	spec := loadTest(t)
	var runs [2]*Result
	for i, w := range []int{1, 2} {
		res, err := Search(context.Background(), spec, &LocalRunner{Sim: runner.New(families.Builtin()), Workers: w}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		runs[i] = res
	}
	a, b := runs[0], runs[1]
	if len(a.Evals) != len(b.Evals) {
		t.Fatalf("%d vs %d evaluations", len(a.Evals), len(b.Evals))
	}
	for i := range a.Evals {
		if key(a.Evals[i].Values) != key(b.Evals[i].Values) || a.Evals[i].Objective != b.Evals[i].Objective {
			t.Fatalf("evaluation %d differs: %v %g vs %v %g", i, a.Evals[i].Values, a.Evals[i].Objective, b.Evals[i].Values, b.Evals[i].Objective)
		}
	}
	if a.Confirm.Objective != b.Confirm.Objective {
		t.Errorf("confirmation differs")
	}
}

// Identical genomes and genomes evaluated before are never simulated
// again: the cells run are exactly the distinct genomes' cells plus the
// confirmation's (the best and the base as written, with fresh seeds), and
// a second search over the same runner runs none.
func TestNoGenomeTwice(t *testing.T) {
	spec := loadTest(t)
	spec.Algorithm.Budget, spec.Algorithm.Generations = 0, 12 // a converging population repeats itself
	r := &LocalRunner{Sim: runner.New(families.Builtin()), Workers: 2}
	res, err := Search(context.Background(), spec, r, Options{})
	if err != nil {
		t.Fatal(err)
	}
	distinct := map[string]bool{}
	cached := 0
	for _, e := range res.Evals {
		k := key(e.Values)
		if e.Cached != distinct[k] {
			t.Errorf("generation %d genome %d (%s): cached %v, but evaluated before: %v", e.Generation, e.Index, Describe(spec, e), e.Cached, distinct[k])
		}
		if e.Cached {
			cached++
		}
		distinct[k] = true
	}
	perEval := len(spec.Base.Cells())                                            // grid points × replications
	confirm := 2 * spec.ConfirmReplications * (perEval / spec.Base.Replications) // best and base, per grid point
	if want := len(distinct)*perEval + confirm; r.Ran != want {
		t.Errorf("%d cells ran, want %d (%d distinct genomes × %d cells + %d confirmation cells)", r.Ran, want, len(distinct), perEval, confirm)
	}
	if cached == 0 {
		t.Errorf("no genome repeated in %d evaluations: the test proves nothing", len(res.Evals))
	}
	t.Logf("%d evaluations, %d of them repeats, %d distinct genomes, %d cells run", len(res.Evals), cached, len(distinct), r.Ran)
	before := r.Ran
	if _, err := Search(context.Background(), spec, r, Options{}); err != nil {
		t.Fatal(err)
	}
	if r.Ran != before {
		t.Errorf("the same search again ran %d cells, want 0", r.Ran-before)
	}
}

// Noisy objective, fresh seeds: the best genome's 95% CI (4 replications,
// the search's seeds) covers its confirmed mean (10 replications, fresh
// seeds) for at least 4 of 5 base seeds (different workloads each).
//
// Why this is expected: with the same variance σ² per replication, the
// difference of the two means has standard deviation σ·√(1/4 + 1/10) ≈
// 0.59σ while the CI's half-width is t(0.975, 3)·s/√4 ≈ 1.59·s, so the CI
// covers the confirmed mean about 97% of the time (less the winner's curse,
// which common random numbers keep small: every genome was judged on the
// same workloads, so the selection favours no lucky draw of its own).
func TestConfirmationWithinCI(t *testing.T) {
	covered := 0
	for seed := uint64(1); seed <= 5; seed++ {
		spec := loadTest(t)
		spec.ConfirmReplications = 10
		base := *spec.Base
		base.Seed = seed
		spec.Base = &base
		res, err := Search(context.Background(), spec, &LocalRunner{Sim: runner.New(families.Builtin()), Workers: 2}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		b, c := res.Best, res.Confirm
		ok := math.Abs(c.Objective-b.Objective) <= b.ObjectiveCI
		if ok {
			covered++
		}
		t.Logf("base seed %d: best %s = %.0f ± %.0f, confirmed %.0f ± %.0f; covered: %v; best − base %.0f ± %.0f", seed, Describe(spec, b), b.Objective, b.ObjectiveCI, c.Objective, c.ObjectiveCI, ok, res.Gain.Mean, res.Gain.HalfWidth)
	}
	if covered < 4 {
		t.Errorf("the best's CI covered its confirmed value for %d of 5 base seeds, want ≥ 4", covered)
	}
}
