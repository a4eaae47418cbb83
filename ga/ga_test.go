package ga

import (
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

func valid(t *testing.T, g Genome, jobs, res int) {
	t.Helper()
	for _, gn := range g {
		if gn.Job < 0 || gn.Job >= jobs || gn.Res < 0 || gn.Res >= res {
			t.Fatalf("invalid gene %+v (jobs %d, resources %d)", gn, jobs, res)
		}
	}
}

// Random genomes cover every job with 1..max genes; cut-and-splice keeps
// the total length and every gene of the parents; mutation keeps the length
// and gene validity.
func TestOperatorsKeepGenesValid(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for it := 0; it < 500; it++ {
		a := Random(7, 4, 3, rng)
		b := Random(7, 4, 3, rng)
		valid(t, a, 7, 4)
		_, ch := Chains(a, 7, 10)
		for j, c := range ch {
			if len(c) == 0 || len(c) > 3 {
				t.Fatalf("job %d chain %v", j, c)
			}
		}
		c1, c2 := CutAndSplice(a, b, rng)
		if len(c1)+len(c2) != len(a)+len(b) {
			t.Fatalf("lengths %d+%d from %d+%d", len(c1), len(c2), len(a), len(b))
		}
		count := map[Gene]int{}
		for _, g := range append(append(Genome{}, a...), b...) {
			count[g]++
		}
		for _, g := range append(append(Genome{}, c1...), c2...) {
			count[g]--
		}
		for g, n := range count {
			if n != 0 {
				t.Fatalf("gene %+v count off by %d", g, n)
			}
		}
		n := len(c1)
		Mutate(c1, 4, 1, rng)
		if len(c1) != n {
			t.Fatal("mutation changed the length")
		}
		valid(t, c1, 7, 4)
		valid(t, c2, 7, 4)
	}
}

// The paper's example σ = {(1,3);(4,2);(3,3);(1,2);(4,4);(5,2);(1,5)}
// (jobs and resources numbered from 1 there, from 0 here): job 1 runs on
// 3, then 2, then 5; jobs 3 and 5 have one resource; job 2 is missing.
func TestChainsPaperExample(t *testing.T) {
	g := Genome{{0, 2}, {3, 1}, {2, 2}, {0, 1}, {3, 3}, {4, 1}, {0, 4}}
	order, ch := Chains(g, 5, 3)
	if !reflect.DeepEqual(order, []int{0, 3, 2, 4}) {
		t.Errorf("order %v", order)
	}
	want := [][]int{{2, 1, 4}, nil, {2}, {1, 3}, {1}}
	if !reflect.DeepEqual(ch, want) {
		t.Errorf("chains %v, want %v", ch, want)
	}
	_, ch = Chains(g, 5, 2)
	if !reflect.DeepEqual(ch[0], []int{2, 1}) {
		t.Errorf("maxChain 2: %v", ch[0])
	}
}

// A Decoder reused: the paper's example, then a genome naming only job 3
// (once, on resource 0), then the example again with a template that names
// job 1 on resources 4 and 0. Each call's chains are its own: no job keeps
// a chain, or resources, from an earlier call.
func TestDecoderReused(t *testing.T) {
	d := NewDecoder(5, 3)
	g := Genome{{0, 2}, {3, 1}, {2, 2}, {0, 1}, {3, 3}, {4, 1}, {0, 4}}
	for i, c := range []struct {
		g      Genome
		tmpl   bool
		order  []int
		chains [][]int
	}{
		{g, false, []int{0, 3, 2, 4}, [][]int{{2, 1, 4}, nil, {2}, {1, 3}, {1}}},
		{Genome{{3, 0}}, false, []int{3}, [][]int{nil, nil, nil, {0}, nil}},
		{g, true, []int{0, 3, 2, 4, 1}, [][]int{{2, 1, 4}, {4, 0}, {2}, {1, 3}, {1}}},
		{Genome{{3, 0}}, false, []int{3}, [][]int{nil, nil, nil, {0}, nil}},
	} {
		if c.tmpl {
			d.SetTemplate([]int{1}, [][]int{nil, {4, 0}, nil, nil, nil})
		} else {
			d.SetTemplate(nil, nil)
		}
		order, chains := d.Decode(c.g)
		if !reflect.DeepEqual(order, c.order) || !reflect.DeepEqual(chains, c.chains) {
			t.Errorf("call %d: order %v chains %v; want %v %v", i, order, chains, c.order, c.chains)
		}
	}
}

// Eq. 7, 8, 10 by hand for three genomes: ms 10, 20, 15; au 0.5, 0.9, 0.7;
// unfairness 0, 0.2, 0.1; penalty 0, 0, 1; δ = 0.6, ω = 0.4, κ = −0.5, ρ = 2.
//
//	ms̄ = 1, 0, 0.5;  āu = 0, 1, 0.5
//	f1 = 0.6·1 + 0.4·0 − 0.5·0 − 0       = 0.6
//	f2 = 0     + 0.4   − 0.5·0.2         = 0.3
//	f3 = 0.3   + 0.2   − 0.05 − 2        = −1.55
//
// With mean completion times 30, 10, 20 and φ = 2, fl̄ = 0, 1, 0.5 adds 0,
// 2 and 1.
func TestFitnessByHand(t *testing.T) {
	objs := []Objectives{
		{Makespan: 10, Util: 0.5, Flow: 30},
		{Makespan: 20, Util: 0.9, Unfair: 0.2, Flow: 10},
		{Makespan: 15, Util: 0.7, Unfair: 0.1, Flow: 20, Penalty: 1},
	}
	w := Weights{Delta: 0.6, Omega: 0.4, Kappa: -0.5, Rho: 2}
	for _, tc := range []struct {
		phi  float64
		want []float64
	}{{0, []float64{0.6, 0.3, -1.55}}, {2, []float64{0.6, 2.3, -0.55}}} {
		w.Phi = tc.phi
		f := Fitness(objs, w)
		for i := range f {
			if math.Abs(f[i]-tc.want[i]) > 1e-12 {
				t.Errorf("φ %g: f[%d] = %g, want %g", tc.phi, i, f[i], tc.want[i])
			}
		}
	}
	// All equal: the normalised terms are 1.
	f := Fitness([]Objectives{{Makespan: 5, Util: 0.5}, {Makespan: 5, Util: 0.5}}, Weights{Delta: 0.5, Omega: 0.5})
	if f[0] != 1 || f[1] != 1 {
		t.Errorf("equal population: %v", f)
	}
}

// makespanEval is a small unrelated-machines problem: job j takes et[j][r]
// on resource r (primary of its chain); missing jobs cost a penalty.
func makespanEval(et [][]float64, res int) Evaluator {
	return EvaluatorFunc(func(g Genome) Objectives {
		_, ch := Chains(g, len(et), 1)
		load := make([]float64, res)
		pen := 0.0
		for j, c := range ch {
			if len(c) == 0 {
				pen++
				continue
			}
			load[c[0]] += et[j][c[0]]
		}
		ms, sum := 0.0, 0.0
		for _, l := range load {
			ms = math.Max(ms, l)
			sum += l
		}
		au := 0.0
		if ms > 0 {
			au = sum / (ms * float64(res))
		}
		return Objectives{Makespan: ms, Util: au, Penalty: pen}
	})
}

func smallInstance(seed uint64) ([][]float64, int) {
	rng := rand.New(rand.NewPCG(seed, 9))
	const jobs, res = 20, 4
	et := make([][]float64, jobs)
	for j := range et {
		et[j] = make([]float64, res)
		for r := range et[j] {
			et[j][r] = 1 + 9*rng.Float64()
		}
	}
	return et, res
}

// Same seed, same result; the GA's best beats the best of 30 random
// schedules (its own initial population) on a small instance.
func TestRunDeterministicAndImproves(t *testing.T) {
	et, res := smallInstance(3)
	ev := makespanEval(et, res)
	cfg := Default(len(et), res)
	cfg.Rho = 10
	run := func() Result {
		r, err := Run(cfg, ev, nil, rand.New(rand.NewPCG(5, 6)))
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	a, b := run(), run()
	if !reflect.DeepEqual(a, b) {
		t.Fatal("same seed, different results")
	}
	rng := rand.New(rand.NewPCG(5, 6))
	bestRandom := math.Inf(1)
	for i := 0; i < 30; i++ {
		o := ev.Evaluate(Random(len(et), res, cfg.MaxGenesPerJob, rng))
		bestRandom = math.Min(bestRandom, o.Makespan)
	}
	if a.Objectives.Penalty != 0 || a.Objectives.Makespan >= bestRandom {
		t.Errorf("GA best %+v, best random makespan %g", a.Objectives, bestRandom)
	}
	t.Logf("GA makespan %.2f vs best of 30 random %.2f (%d evaluations)", a.Objectives.Makespan, bestRandom, a.Evaluations)
}

// A seed genome is kept by elitism unless beaten.
func TestSeedKept(t *testing.T) {
	et, res := smallInstance(4)
	ev := makespanEval(et, res)
	// Greedy seed: each job on its fastest resource, balancing by load.
	load := make([]float64, res)
	var seed Genome
	for j := range et {
		b := 0
		for r := range load {
			if load[r]+et[j][r] < load[b]+et[j][b] {
				b = r
			}
		}
		load[b] += et[j][b]
		seed = append(seed, Gene{j, b})
	}
	so := ev.Evaluate(seed)
	cfg := Default(len(et), res)
	cfg.Generations = 20
	r, err := Run(cfg, ev, []Genome{seed}, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	if r.Objectives.Makespan > so.Makespan*1.0000001 && r.Objectives.Util <= so.Util {
		t.Errorf("seed %+v lost to %+v", so, r.Objectives)
	}
}

func TestConfigValidateNamesEveryField(t *testing.T) {
	c := Config{Population: 1, PCut: 2, PMut: -1, Weights: Weights{Delta: 0.7, Omega: 0.7, Kappa: 1, Rho: -1}}
	err := c.Validate()
	for _, f := range []string{"Jobs", "Resources", "Population", "PCut", "PMut", "MaxGenesPerJob", "Delta+Omega", "Kappa", "Rho"} {
		if err == nil || !strings.Contains(err.Error(), f) {
			t.Errorf("error %v does not name %s", err, f)
		}
	}
	if err := Default(5, 3).Validate(); err != nil {
		t.Error(err)
	}
}

func TestNonFiniteObjectivePanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("no panic")
		}
	}()
	ev := EvaluatorFunc(func(Genome) Objectives { return Objectives{Makespan: math.NaN()} })
	Run(Default(3, 2), ev, nil, rand.New(rand.NewPCG(1, 1)))
}
