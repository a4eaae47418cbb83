package ga

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
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
	// Flow is the mean expected completion time of the batch's jobs, lower
	// is better (weighted by Phi; not part of the paper's eq. 10).
	Flow float64
	// Penalty counts violated constraints (e.g. seed 002's Condition 1);
	// finite and ≥ 0.
	Penalty float64
}

func (o Objectives) finite() bool {
	for _, v := range [...]float64{o.Makespan, o.Util, o.Unfair, o.Flow, o.Penalty} {
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
	// Phi (≥ 0) weighs the normalised mean completion time (0: eq. 10).
	Phi float64
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
	// Observe, when set, is called with each generation's objectives
	// (generation 0 is the initial population) before selection; it must
	// not keep the slice.
	Observe func(gen int, objs []Objectives)
	// Reevaluate makes Run evaluate every child, also one whose genome
	// equals a parent's (Run otherwise reuses the parent's objectives).
	// The results are the same either way; tests compare the two.
	Reevaluate bool

	// trace, when set (tests), sees each generation's population and
	// objectives where Observe sees the objectives.
	trace func(gen int, pop []Genome, objs []Objectives)
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
	return randomInto(make(Genome, 0, jobs*(maxPerJob+1)/2+1), jobs, resources, maxPerJob, rng)
}

// randomInto is Random appending to g, which must be empty.
func randomInto(g Genome, jobs, resources, maxPerJob int, rng *rand.Rand) Genome {
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
	return cutAndSpliceInto(nil, nil, a, b, rng)
}

// cutAndSpliceInto is CutAndSplice appending the children to c1 and c2
// (which must not share memory with a or b).
func cutAndSpliceInto(c1, c2, a, b Genome, rng *rand.Rand) (Genome, Genome) {
	i, k := rng.IntN(len(a)+1), rng.IntN(len(b)+1)
	c1 = append(append(c1, a[:i]...), b[k:]...)
	c2 = append(append(c2, b[:k]...), a[i:]...)
	return c1, c2
}

// cutAndSpliceMax is cutAndSpliceInto with each child cut to its first
// max genes as it is built (the same draws and genes as cutting after),
// so that buffers of capacity max never grow.
func cutAndSpliceMax(c1, c2, a, b Genome, max int, rng *rand.Rand) (Genome, Genome) {
	i, k := rng.IntN(len(a)+1), rng.IntN(len(b)+1)
	return spliceMax(c1, a[:i], b[k:], max), spliceMax(c2, b[:k], a[i:], max)
}

// spliceMax appends x then y to the empty c, stopping at max genes.
func spliceMax(c, x, y Genome, max int) Genome {
	c = append(c, x[:min(len(x), max)]...)
	return append(c, y[:min(len(y), max-len(c))]...)
}

// slabs recycles the gene memory of Run's two populations between runs
// (each mGA batch is a Run): *[]Gene.
var slabs sync.Pool

// populations returns a population and a spare one of n genomes each, all
// empty and each in its own width-gene stretch of one slab (three-index
// slices: a genome that outgrows its stretch moves out instead of writing
// over its neighbour's). Each slice has one more genome past its length,
// for the second child of a last pair that has no place in the next
// population. put returns the slab.
func populations(n, width int) (pop, spare []Genome, put func()) {
	size := (2*n + 2) * width
	sp, _ := slabs.Get().(*[]Gene)
	if sp == nil || cap(*sp) < size {
		s := make([]Gene, size)
		sp = &s
	}
	slab := (*sp)[:size]
	stretch := func(i int) Genome { return slab[i*width : i*width : (i+1)*width] }
	pop, spare = make([]Genome, n+1), make([]Genome, n+1)
	for i := range pop {
		pop[i], spare[i] = stretch(i), stretch(n+1+i)
	}
	return pop[:0], spare[:n], func() { slabs.Put(sp) }
}

// take returns buffer i of bufs emptied: one of its length, or the one
// past it that populations provides (nil past that).
func take(bufs []Genome, i int) Genome {
	if i < cap(bufs) {
		return bufs[:i+1][i][:0]
	}
	return nil
}

// Mutate swaps two random genes of g with probability p, and with
// probability p gives one random gene a random resource in [0, resources).
func Mutate(g Genome, resources int, p float64, rng *rand.Rand) { mutate(g, resources, p, rng) }

// mutate is Mutate, reporting whether either operator was applied (the
// genome may still be the same: a swap of equal genes, a resource drawn
// again); false means g is untouched.
func mutate(g Genome, resources int, p float64, rng *rand.Rand) (applied bool) {
	if len(g) == 0 {
		return false
	}
	if rng.Float64() < p {
		a, b := rng.IntN(len(g)), rng.IntN(len(g))
		g[a], g[b] = g[b], g[a]
		applied = true
	}
	if rng.Float64() < p {
		g[rng.IntN(len(g))].Res = rng.IntN(resources)
		applied = true
	}
	return applied
}

// Chains decodes g for a batch of jobs: chains[j] lists job j's distinct
// resources in order of appearance, at most maxChain of them (nil for a
// missing job), and order lists the jobs that appear, in order of their
// first gene. Genes naming a job outside [0, jobs) are ignored. It
// allocates; a Decoder does the same on reused buffers.
func Chains(g Genome, jobs, maxChain int) (order []int, chains [][]int) {
	d := NewDecoder(jobs, maxChain)
	o, ch := d.Decode(g)
	order = append([]int(nil), o...)
	chains = make([][]int, jobs)
	for j, c := range ch {
		if len(c) > 0 {
			chains[j] = append([]int(nil), c...)
		}
	}
	return order, chains
}

// Decoder decodes genomes of one batch (Chains) into buffers it reuses, and
// completes a genome that misses jobs from a template: the genes of the
// template follow the genome's, as in Goldberg's competitive template, so a
// missing job gets the template's chain and comes after the jobs the genome
// names. The slices Decode returns stay valid until the next call.
type Decoder struct {
	jobs, maxChain int
	order          []int
	chains         [][]int
	store          []int    // job j's chain is store[j*maxChain:][:lens[j]]
	lens           []int32  // while decoding
	seen           []uint64 // while decoding: bit r set when job j's chain holds resource r < 64
	tmplOrder      []int
	tmplChains     [][]int
}

// NewDecoder returns a decoder for batches of jobs with chains of at most
// maxChain resources.
func NewDecoder(jobs, maxChain int) *Decoder {
	maxChain = max(maxChain, 1)
	d := &Decoder{jobs: jobs, maxChain: maxChain, order: make([]int, 0, jobs),
		chains: make([][]int, jobs), store: make([]int, jobs*maxChain), lens: make([]int32, jobs), seen: make([]uint64, jobs)}
	return d
}

// SetTemplate sets the mapping that completes genomes missing a job: order
// lists the template's jobs and chains[j] job j's resources (kept, not
// copied; nil: no template).
func (d *Decoder) SetTemplate(order []int, chains [][]int) {
	d.tmplOrder, d.tmplChains = order, chains
}

// Decode returns the order in which jobs first appear and each job's chain
// (nil for a job neither the genome nor the template names).
//
// The chains are built as lengths over one store and made slices at the
// end: a gene then writes one int and one count, not a slice header.
func (d *Decoder) Decode(g Genome) (order []int, chains [][]int) {
	clear(d.lens)
	clear(d.seen)
	d.order = d.order[:0]
	mc := d.maxChain
	add := func(j, r int) {
		k := int(d.lens[j])
		if k == 0 {
			d.order = append(d.order, j)
		}
		if k >= mc {
			return
		}
		at := j * mc
		if uint(r) < 64 {
			// Resources below 64 are looked up in the job's bit set
			// rather than its chain so far: the same answer.
			bit := uint64(1) << uint(r)
			if d.seen[j]&bit != 0 {
				return
			}
			d.seen[j] |= bit
		} else {
			for _, x := range d.store[at : at+k] {
				if x == r {
					return
				}
			}
		}
		d.store[at+k] = r
		d.lens[j]++
	}
	for _, gn := range g {
		if gn.Job >= 0 && gn.Job < d.jobs {
			add(gn.Job, gn.Res)
		}
	}
	for _, j := range d.tmplOrder {
		if d.lens[j] == 0 {
			for _, r := range d.tmplChains[j] {
				add(j, r)
			}
		}
	}
	// Job j's chain always starts at store[j*mc], so its slice changes
	// only with its length (nil for 0): most decodes leave it as the one
	// before made it, and it is not written again.
	for j, k := range d.lens {
		switch {
		case len(d.chains[j]) == int(k):
		case k == 0:
			d.chains[j] = nil
		default:
			d.chains[j] = d.store[j*mc : j*mc+int(k) : (j+1)*mc]
		}
	}
	return d.order, d.chains
}

// Fitness returns the fitness of each genome of a population from its
// objectives (eq. 7, 8, 10; see the package doc for the sign of āu).
func Fitness(objs []Objectives, w Weights) []float64 {
	return fitnessInto(make([]float64, len(objs)), objs, w)
}

// fitnessInto is Fitness written into f (len(f) = len(objs)), which it
// returns: Run computes it every generation into one buffer.
func fitnessInto(f []float64, objs []Objectives, w Weights) []float64 {
	if len(objs) == 0 {
		return f
	}
	msMin, msMax := objs[0].Makespan, objs[0].Makespan
	auMin, auMax := objs[0].Util, objs[0].Util
	flMin, flMax := objs[0].Flow, objs[0].Flow
	for _, o := range objs[1:] {
		msMin, msMax = min(msMin, o.Makespan), max(msMax, o.Makespan)
		auMin, auMax = min(auMin, o.Util), max(auMax, o.Util)
		flMin, flMax = min(flMin, o.Flow), max(flMax, o.Flow)
	}
	for i, o := range objs {
		ms, au, fl := 1.0, 1.0, 1.0
		if msMax > msMin {
			ms = (msMax - o.Makespan) / (msMax - msMin)
		}
		if auMax > auMin {
			au = (o.Util - auMin) / (auMax - auMin)
		}
		if flMax > flMin {
			fl = (flMax - o.Flow) / (flMax - flMin)
		}
		f[i] = w.Delta*ms + w.Omega*au + w.Phi*fl + w.Kappa*o.Unfair - w.Rho*o.Penalty
	}
	return f
}

// Result is the outcome of Run.
type Result struct {
	Best       Genome
	Objectives Objectives
	// Evaluations counts Evaluate calls (a child equal to a parent is not
	// evaluated again unless Config.Reevaluate).
	Evaluations int
}

// Run evolves a population for cfg.Generations generations (Algorithm 1)
// and returns the fittest genome of the last one. The initial population is
// seeds (copied; at most Population of them) completed with Random genomes.
// The populations live in gene memory recycled from run to run (each mGA
// batch is a run, and their genomes were most of a seed-002 cell's
// allocations); the returned genome is a copy, the caller's own.
func Run(cfg Config, ev Evaluator, seeds []Genome, rng *rand.Rand) (Result, error) {
	if err := cfg.Validate(); err != nil {
		return Result{}, err
	}
	if rng == nil || ev == nil {
		return Result{}, errors.New("ga: nil random source or evaluator")
	}
	n := cfg.Population
	maxLen := cfg.maxLen()
	// The stretches hold a genome of the automatic cap; a larger MaxLen
	// lets longer children move out rather than make every slab larger.
	pop, spare, put := populations(n, min(maxLen, 2*cfg.Jobs*cfg.MaxGenesPerJob))
	defer put()
	for _, s := range seeds {
		if len(pop) < n {
			pop = append(pop, append(take(pop, len(pop)), s...))
		}
	}
	for len(pop) < n {
		pop = append(pop, randomInto(take(pop, len(pop)), cfg.Jobs, cfg.Resources, cfg.MaxGenesPerJob, rng))
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
	weights, fit := make([]float64, n), make([]float64, n)
	nextObjs := make([]Objectives, 0, n)
	known := make([]bool, n) // known[i]: child i's objectives are its parent's
	for gen := 0; gen < cfg.Generations; gen++ {
		if cfg.Observe != nil {
			cfg.Observe(gen, objs)
		}
		if cfg.trace != nil {
			cfg.trace(gen, pop, objs)
		}
		f := fitnessInto(fit, objs, cfg.Weights)
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
		pick := func() int {
			x := rng.Float64() * total
			for i, w := range weights {
				if x < w {
					return i
				}
				x -= w
			}
			return n - 1
		}
		// Children are built in the buffers of the generation before the
		// current one (spare), so a run allocates only while genomes grow.
		next := spare[:0]
		nextObjs = append(nextObjs[:0], objs[best])
		next = append(next, append(take(spare, 0), pop[best]...)) // elitism: unchanged, not re-evaluated
		known[0] = true
		for len(next) < n {
			ia, ib := pick(), pick()
			a, b := pop[ia], pop[ib]
			c1, c2 := take(spare, len(next)), take(spare, len(next)+1)
			cut := rng.Float64() < cfg.PCut
			if cut {
				c1, c2 = cutAndSpliceMax(c1, c2, a, b, maxLen, rng)
			} else {
				c1, c2 = spliceMax(c1, a, nil, maxLen), spliceMax(c2, b, nil, maxLen)
			}
			for i, c := range []Genome{c1, c2} {
				if len(next) == n {
					break
				}
				if len(c) > maxLen {
					c = c[:maxLen]
				}
				applied := mutate(c, cfg.Resources, cfg.PMut, rng)
				// A child equal to a parent has the parent's objectives:
				// an Evaluator is a deterministic function of the genome
				// and Run draws no random numbers while evaluating, so
				// reusing them changes nothing but the work done. Without a
				// cut, an untouched child of its parent's length is that
				// parent's copy (a's for the first, b's for the second),
				// known without comparing gene by gene; equal genomes
				// have equal objectives, so which parent's are taken when
				// a and b are equal does not matter.
				o, ok := Objectives{}, false
				if !cfg.Reevaluate {
					own, ip := a, ia
					if i == 1 {
						own, ip = b, ib
					}
					switch {
					case !cut && !applied && len(c) == len(own):
						o, ok = objs[ip], true
					case slices.Equal(c, a):
						o, ok = objs[ia], true
					case slices.Equal(c, b):
						o, ok = objs[ib], true
					}
				}
				known[len(next)] = ok
				next = append(next, c)
				nextObjs = append(nextObjs, o)
			}
		}
		spare = pop
		objs, nextObjs = nextObjs, objs
		pop = next
		for i := 1; i < n; i++ {
			if !known[i] {
				eval(i)
			}
		}
	}
	if cfg.Observe != nil {
		cfg.Observe(cfg.Generations, objs)
	}
	if cfg.trace != nil {
		cfg.trace(cfg.Generations, pop, objs)
	}
	f := Fitness(objs, cfg.Weights)
	b := argmax(f)
	res.Best, res.Objectives = slices.Clone(pop[b]), objs[b]
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
