package ga

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
)

// Gene assigns job Job of the batch to resource Res (both indexes).
type Gene struct {
	Job, Res int
}

// Genome is a schedule: a string of genes (§4.1).
type Genome []Gene

// Objectives are what an Evaluator measures of one genome.
type Objectives struct {
	// Makespan ms, lower is better.
	Makespan float64
	// Util is the average utilisation au, higher is better.
	Util float64
	// Unfair is 1 − IJF (eq. 9–10), lower is better.
	Unfair float64
	// Penalty counts violated constraints (e.g. seed 002's Condition 1);
	// finite and ≥ 0.
	Penalty float64
}

func (o Objectives) finite() bool {
	for _, v := range [...]float64{o.Makespan, o.Util, o.Unfair, o.Penalty} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return o.Penalty >= 0
}

// Evaluator measures a genome. It must be deterministic and must not keep
// or modify the genome.
type Evaluator interface {
	Evaluate(g Genome) Objectives
}

// EvaluatorFunc adapts a function to Evaluator.
type EvaluatorFunc func(Genome) Objectives

// Evaluate calls f.
func (f EvaluatorFunc) Evaluate(g Genome) Objectives { return f(g) }

// Weights are the coefficients of the fitness (eq. 8 and 10).
type Weights struct {
	// Delta and Omega weigh normalised makespan and utilisation; δ + ω = 1.
	Delta, Omega float64
	// Kappa (≤ 0) multiplies 1 − IJF.
	Kappa float64
	// Rho (≥ 0) multiplies the penalty of an infeasible genome.
	Rho float64
}

// Config configures Run. Table 2 of seed 002: population 30, 100
// generations, cut-and-splice probability 0.18, mutation 0.25.
type Config struct {
	Jobs, Resources int
	Population      int
	Generations     int
	PCut, PMut      float64
	// MaxGenesPerJob bounds the genes a random genome gives one job (≥ 1).
	MaxGenesPerJob int
	// MaxLen caps a child's length (0: 2·Jobs·MaxGenesPerJob).
	MaxLen int
	Weights
}

// Default returns Table 2's settings for a batch of jobs on resources, with
// δ = ω = 0.5, κ = −0.5, ρ = 1 and up to 3 genes per job.
func Default(jobs, resources int) Config {
	return Config{Jobs: jobs, Resources: resources, Population: 30, Generations: 100,
		PCut: 0.18, PMut: 0.25, MaxGenesPerJob: 3,
		Weights: Weights{Delta: 0.5, Omega: 0.5, Kappa: -0.5, Rho: 1}}
}

// Validate reports every bad field with what is accepted.
func (c Config) Validate() error {
	var errs []error
	bad := func(f string, v any, want string) {
		errs = append(errs, fmt.Errorf("ga: %s = %v; accepted: %s", f, v, want))
	}
	if c.Jobs < 1 {
		bad("Jobs", c.Jobs, "≥ 1")
	}
	if c.Resources < 1 {
		bad("Resources", c.Resources, "≥ 1")
	}
	if c.Population < 2 {
		bad("Population", c.Population, "≥ 2")
	}
	if c.Generations < 0 {
		bad("Generations", c.Generations, "≥ 0")
	}
	if !(c.PCut >= 0 && c.PCut <= 1) {
		bad("PCut", c.PCut, "in [0, 1]")
	}
	if !(c.PMut >= 0 && c.PMut <= 1) {
		bad("PMut", c.PMut, "in [0, 1]")
	}
	if c.MaxGenesPerJob < 1 {
		bad("MaxGenesPerJob", c.MaxGenesPerJob, "≥ 1")
	}
	if c.MaxLen < 0 {
		bad("MaxLen", c.MaxLen, "0 (automatic) or ≥ 1")
	}
	if !(c.Delta >= 0 && c.Omega >= 0 && math.Abs(c.Delta+c.Omega-1) < 1e-9) {
		bad("Delta+Omega", fmt.Sprintf("%g+%g", c.Delta, c.Omega), "δ, ω ≥ 0 with δ + ω = 1")
	}
	if !(c.Kappa <= 0) || math.IsInf(c.Kappa, 0) {
		bad("Kappa", c.Kappa, "finite and ≤ 0")
	}
	if !(c.Rho >= 0) || math.IsInf(c.Rho, 0) {
		bad("Rho", c.Rho, "finite and ≥ 0")
	}
	return errors.Join(errs...)
}

func (c Config) maxLen() int {
	if c.MaxLen > 0 {
		return c.MaxLen
	}
	return 2 * c.Jobs * c.MaxGenesPerJob
}

// Random returns a genome giving every job 1 to maxPerJob genes on random
// resources, in random order.
func Random(jobs, resources, maxPerJob int, rng *rand.Rand) Genome {
	g := make(Genome, 0, jobs*(maxPerJob+1)/2+1)
	for j := 0; j < jobs; j++ {
		n := 1 + rng.IntN(maxPerJob)
		for k := 0; k < n; k++ {
			g = append(g, Gene{Job: j, Res: rng.IntN(resources)})
		}
	}
	rng.Shuffle(len(g), func(a, b int) { g[a], g[b] = g[b], g[a] })
	return g
}

// CutAndSplice cuts a at a random point and b at another and returns
// a[:i]+b[k:] and b[:k]+a[i:] (fresh slices).
func CutAndSplice(a, b Genome, rng *rand.Rand) (Genome, Genome) {
	i, k := rng.IntN(len(a)+1), rng.IntN(len(b)+1)
	c1 := make(Genome, 0, i+len(b)-k)
	c1 = append(append(c1, a[:i]...), b[k:]...)
	c2 := make(Genome, 0, k+len(a)-i)
	c2 = append(append(c2, b[:k]...), a[i:]...)
	return c1, c2
}

// Mutate swaps two random genes of g with probability p, and with
// probability p gives one random gene a random resource in [0, resources).
func Mutate(g Genome, resources int, p float64, rng *rand.Rand) {
	if len(g) == 0 {
		return
	}
	if rng.Float64() < p {
		a, b := rng.IntN(len(g)), rng.IntN(len(g))
		g[a], g[b] = g[b], g[a]
	}
	if rng.Float64() < p {
		g[rng.IntN(len(g))].Res = rng.IntN(resources)
	}
}

// Chains decodes g for a batch of jobs: chains[j] lists job j's distinct
// resources in order of appearance, at most maxChain of them (nil for a
// missing job), and order lists the jobs that appear, in order of their
// first gene. Genes naming a job outside [0, jobs) are ignored.
func Chains(g Genome, jobs, maxChain int) (order []int, chains [][]int) {
	chains = make([][]int, jobs)
	for _, gn := range g {
		if gn.Job < 0 || gn.Job >= jobs {
			continue
		}
		ch := chains[gn.Job]
		if ch == nil {
			order = append(order, gn.Job)
		}
		if len(ch) >= maxChain {
			continue
		}
		dup := false
		for _, r := range ch {
			dup = dup || r == gn.Res
		}
		if !dup {
			chains[gn.Job] = append(ch, gn.Res)
		}
	}
	return order, chains
}

// Fitness returns the fitness of each genome of a population from its
// objectives (eq. 7, 8, 10; see the package doc for the sign of āu).
func Fitness(objs []Objectives, w Weights) []float64 {
	f := make([]float64, len(objs))
	if len(objs) == 0 {
		return f
	}
	msMin, msMax := objs[0].Makespan, objs[0].Makespan
	auMin, auMax := objs[0].Util, objs[0].Util
	for _, o := range objs[1:] {
		msMin, msMax = math.Min(msMin, o.Makespan), math.Max(msMax, o.Makespan)
		auMin, auMax = math.Min(auMin, o.Util), math.Max(auMax, o.Util)
	}
	for i, o := range objs {
		ms, au := 1.0, 1.0
		if msMax > msMin {
			ms = (msMax - o.Makespan) / (msMax - msMin)
		}
		if auMax > auMin {
			au = (o.Util - auMin) / (auMax - auMin)
		}
		f[i] = w.Delta*ms + w.Omega*au + w.Kappa*o.Unfair - w.Rho*o.Penalty
	}
	return f
}

// Result is the outcome of Run.
type Result struct {
	Best       Genome
	Objectives Objectives
	// Evaluations counts Evaluate calls.
	Evaluations int
}

// Run evolves a population for cfg.Generations generations (Algorithm 1)
// and returns the fittest genome of the last one. The initial population is
// seeds (copied; at most Population of them) completed with Random genomes.
func Run(cfg Config, ev Evaluator, seeds []Genome, rng *rand.Rand) (Result, error) {
	if err := cfg.Validate(); err != nil {
		return Result{}, err
	}
	if rng == nil || ev == nil {
		return Result{}, errors.New("ga: nil random source or evaluator")
	}
	n := cfg.Population
	pop := make([]Genome, 0, n)
	for _, s := range seeds {
		if len(pop) < n {
			pop = append(pop, append(Genome(nil), s...))
		}
	}
	for len(pop) < n {
		pop = append(pop, Random(cfg.Jobs, cfg.Resources, cfg.MaxGenesPerJob, rng))
	}
	res := Result{}
	objs := make([]Objectives, n)
	eval := func(i int) {
		objs[i] = ev.Evaluate(pop[i])
		res.Evaluations++
		if !objs[i].finite() {
			panic(fmt.Sprintf("ga: genome %d has objectives %+v; an Evaluator must return finite values and a penalty ≥ 0", i, objs[i]))
		}
	}
	for i := range pop {
		eval(i)
	}
	weights := make([]float64, n)
	maxLen := cfg.maxLen()
	for gen := 0; gen < cfg.Generations; gen++ {
		f := Fitness(objs, cfg.Weights)
		best := argmax(f)
		lo, hi := f[0], f[0]
		for _, v := range f {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
		eps := 0.01 * (hi - lo)
		if eps == 0 {
			eps = 1
		}
		total := 0.0
		for i, v := range f {
			weights[i] = v - lo + eps
			total += weights[i]
		}
		pick := func() Genome {
			x := rng.Float64() * total
			for i, w := range weights {
				if x < w {
					return pop[i]
				}
				x -= w
			}
			return pop[n-1]
		}
		next := make([]Genome, 0, n)
		next = append(next, pop[best]) // elitism: unchanged, not re-evaluated
		nextObjs := []Objectives{objs[best]}
		for len(next) < n {
			a, b := pick(), pick()
			var c1, c2 Genome
			if rng.Float64() < cfg.PCut {
				c1, c2 = CutAndSplice(a, b, rng)
			} else {
				c1, c2 = append(Genome(nil), a...), append(Genome(nil), b...)
			}
			for _, c := range []Genome{c1, c2} {
				if len(next) == n {
					break
				}
				if len(c) > maxLen {
					c = c[:maxLen]
				}
				Mutate(c, cfg.Resources, cfg.PMut, rng)
				next = append(next, c)
				nextObjs = append(nextObjs, Objectives{})
			}
		}
		pop, objs = next, nextObjs
		for i := 1; i < n; i++ {
			eval(i)
		}
	}
	f := Fitness(objs, cfg.Weights)
	b := argmax(f)
	res.Best, res.Objectives = pop[b], objs[b]
	return res, nil
}

// argmax returns the first index of the largest value.
func argmax(f []float64) int {
	b := 0
	for i, v := range f {
		if v > f[b] {
			b = i
		}
	}
	return b
}
