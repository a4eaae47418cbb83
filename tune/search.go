package tune

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	mrand "math/rand"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/MaxHalford/eaopt"

	"github.com/schedfarm/schedfarm/experiments"
	"github.com/schedfarm/schedfarm/results"
	"github.com/schedfarm/schedfarm/runner"
)

// Runner runs cells and returns the results of every cell it knows (those
// asked for included). A cell it ran before is not run again.
type Runner interface {
	Run(ctx context.Context, cells []runner.Cell) (map[string]runner.CellResult, error)
}

// Eval is one evaluation of a genome.
type Eval struct {
	// Generation (0 is the initial population; −1 the confirmation) and
	// Index (its place in the generation).
	Generation, Index int
	// Values holds one value per search parameter.
	Values []any
	// Cached is true when the same genome was evaluated before: no cell
	// ran for it.
	Cached bool
	// Objective and ObjectiveCI are the objective's mean over the grid
	// points and replications and the 95% half-width over replications;
	// Second and SecondCI the same for the second objective (NaN: none).
	Objective, ObjectiveCI float64
	Second, SecondCI       float64
	// Constraints holds each constraint's mean; Feasible whether all hold
	// and no cell failed.
	Constraints []float64
	Feasible    bool
	// Cells and Failed count the evaluation's cells and its failed ones.
	Cells, Failed int
	// Metrics holds every metric's mean and CI.
	Metrics map[string]results.Stat
	// Fitness is what the algorithm minimises: the objective (negated when
	// maximised) plus a finite penalty for infeasibility.
	Fitness float64
	// Reps holds the objective per replication (the mean over the grid
	// points), in replication order.
	Reps []float64
	// Replications is the number of replications the evaluation ran: the
	// base's, or under a race those it got before the race ended or
	// eliminated it.
	Replications int
	// EliminatedGeneration and EliminatedRound say in which generation's
	// race and which round of it (1: the first, after race.min
	// replications) a race eliminated the genome; EliminatedRound is 0
	// when it was never eliminated. EliminatedBy names the test (RaceTest)
	// and EliminatedP is its one-sided p-value before Holm's correction.
	EliminatedGeneration, EliminatedRound int
	EliminatedBy                          string
	EliminatedP                           float64
	// EquivalentGeneration and EquivalentRound say in which generation's
	// race and round the genome was last stopped as equivalent to the
	// round's best within the race's indifference zone
	// (Race.Indifference); EquivalentRound is 0 when its last race did
	// not stop it so. EquivalentP is the TOST p-value before Holm's
	// correction. A stopped genome is not eliminated: a later race (bred
	// again) runs it on from the replications it has; it is never the
	// search's best (search.best).
	EquivalentGeneration, EquivalentRound int
	EquivalentP                           float64
	key                                   string
	// raceIDs holds a raced evaluation's cell IDs by grid point and
	// replication; raceCells its cells, in the order they were asked for.
	raceIDs   [][]string
	raceCells []runner.Cell
}

// Result is a finished search.
type Result struct {
	Evals []*Eval
	// Best is the feasible evaluation of lowest fitness (nil: none).
	Best *Eval
	// Front is the Pareto front of the two objectives among the distinct
	// feasible evaluations (nil without a second objective).
	Front []*Eval
	// Confirm is the best genome again with fresh seeds (nil: none asked);
	// Baseline the base experiment as written (its parameters' given or
	// default values) with the same fresh seeds, and Gain the paired
	// difference Confirm − Baseline of the objective per replication.
	Confirm, Baseline *Eval
	Gain              results.Stat
	// Generations run and distinct genomes evaluated.
	Generations, Distinct int
	// Cells counts the distinct cells the search asked for (the
	// confirmation's not included).
	Cells int
	// Eliminated counts the genomes a race eliminated; Equivalent those
	// its indifference zone stopped last (not eliminated).
	Eliminated, Equivalent int
}

// Progress is what the search reports after each generation.
type Progress struct {
	Generation, Generations int
	// Evaluated and Distinct count evaluations and distinct genomes so far.
	Evaluated, Distinct int
	// Best is the best feasible evaluation so far (nil: none yet).
	Best *Eval
	// Confirming is set in the last report: the search is over and the
	// confirmation runs next.
	Confirming bool
	// FinalRace is set in the two reports around the final race of the
	// elite (Race.Final): before it, with Best the incumbent and Done
	// unset; after it, with Best its winner and Done set.
	FinalRace, Done bool
}

// Options tune a search.
type Options struct {
	// Seed drives the search (PCG): the base experiment's seed by default.
	Seed *uint64
	// Progress receives a report after every generation (nil: none).
	Progress func(Progress)
}

// search is one run of the algorithm.
type search struct {
	spec  *Spec
	run   Runner
	ctx   context.Context
	base  []runner.Cell
	cache map[string]*Eval
	evals []*Eval
	gen   int
	// final is the final race's winner, the search's best (nil: no final
	// race ran).
	final *Eval
	rng   *rand.Rand
	err   error
	// lastNew is the last generation that evaluated a new genome.
	lastNew  int
	progress func(Progress)
	// asked holds the ID of every cell the search asked for.
	asked map[string]bool
	// got is the runner's last answer: every result it knows.
	got map[string]runner.CellResult
	// points are the base's grid points (its cells of replication 0).
	points []runner.Cell
}

// stallGenerations ends a search whose last this many generations found no
// genome not evaluated before (a converged population, whose budget would
// otherwise never be spent).
const stallGenerations = 25

// exhausted reports whether the search must stop: its budget of distinct
// genomes spent, or no new genome for stallGenerations generations.
func (s *search) exhausted() bool {
	a := s.spec.Algorithm
	return a.Budget > 0 && len(s.cache) >= a.Budget || s.gen-s.lastNew >= stallGenerations
}

// report sends a progress report of the generation just evaluated.
func (s *search) report(f func(Progress)) {
	if f != nil {
		f(s.state())
	}
}

// state returns the search's state as a report: the generation, the
// evaluations and the best so far.
func (s *search) state() Progress {
	return Progress{Generation: s.gen, Generations: s.spec.Algorithm.Generations, Evaluated: len(s.evals), Distinct: len(s.cache), Best: s.best()}
}

// limit keeps a batch within the budget: in order, every genome that would
// be a new distinct evaluation past the budget is set to fallback(i), a
// position already evaluated, so that no cell runs for it.
func (s *search) limit(gs []*genome, fallback func(i int) []float64) {
	b := s.spec.Algorithm.Budget
	if b <= 0 {
		return
	}
	fresh := map[string]bool{}
	for i, g := range gs {
		k := key(s.values(g.x))
		if _, ok := s.cache[k]; ok || fresh[k] {
			continue
		}
		if len(s.cache)+len(fresh) >= b {
			g.x = slices.Clone(fallback(i))
			if g.v != nil {
				clear(g.v)
			}
			continue
		}
		fresh[k] = true
	}
}

// Search runs the spec's search with runner and returns every evaluation,
// the best, the Pareto front and the confirmation.
func Search(ctx context.Context, spec *Spec, runner Runner, opt Options) (*Result, error) {
	seed := spec.Base.Seed
	if opt.Seed != nil {
		seed = *opt.Seed
	}
	s := &search{spec: spec, run: runner, ctx: ctx, base: spec.Base.Cells(), cache: map[string]*Eval{},
		rng: rand.New(rand.NewPCG(seed, 0x7475_6e65)), asked: map[string]bool{}}
	for _, b := range s.base {
		if b.Replication == 0 {
			s.points = append(s.points, b)
		}
	}
	a := spec.Algorithm
	// The initial population, drawn uniformly on the [0, 1] encoding (with
	// PSO velocities) and evaluated as one batch.
	initial := make([]*genome, a.Population)
	for i := range initial {
		g := &genome{s: s, x: make([]float64, len(spec.Params))}
		for j := range g.x {
			g.x[j] = s.rng.Float64()
		}
		if a.Name == PSO {
			g.v = make([]float64, len(g.x))
			for j := range g.v {
				g.v[j] = (s.rng.Float64() - 0.5) * 0.5
			}
		}
		initial[i] = g
	}
	s.limit(initial, func(int) []float64 { return initial[0].x })
	if err := s.evaluate(initial); err != nil {
		return nil, err
	}
	for _, g := range initial {
		g.best, g.bestFit = slices.Clone(g.x), g.fit
	}
	s.report(opt.Progress)
	var m eaopt.Model = gaModel{s: s}
	switch a.Name {
	case DE:
		m = deModel{s: s}
	case PSO:
		m = psoModel{s: s}
	}
	next := 0
	cfg := eaopt.GAConfig{
		NPops: 1, PopSize: uint(a.Population), NGenerations: uint(a.Generations), HofSize: 1,
		Model: m,
		RNG:   mrand.New(pcgSource{rand.NewPCG(seed, 0x6761_6f70)}),
		EarlyStop: func(*eaopt.GA) bool {
			return s.err != nil || ctx.Err() != nil || s.exhausted()
		},
	}
	ga, err := cfg.NewGA()
	if err != nil {
		return nil, fmt.Errorf("tune: %w", err)
	}
	s.progress = opt.Progress
	err = ga.Minimize(func(*mrand.Rand) eaopt.Genome {
		g := initial[next%len(initial)]
		next++
		return g
	})
	if s.err != nil {
		return nil, s.err
	}
	if err != nil {
		return nil, fmt.Errorf("tune: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if rc := spec.Race; rc != nil && rc.Final > 0 {
		p := s.state()
		p.FinalRace = true
		if opt.Progress != nil {
			opt.Progress(p)
		}
		win, err := s.finalRace()
		if err != nil {
			return nil, err
		}
		s.final = win
		if opt.Progress != nil {
			p = s.state()
			p.FinalRace, p.Done = true, true
			opt.Progress(p)
		}
	}
	res := &Result{Evals: s.evals, Best: s.best(), Generations: s.gen, Distinct: len(s.cache), Cells: len(s.asked)}
	for _, e := range s.cache {
		if e.EquivalentRound > 0 && e.EliminatedRound == 0 {
			res.Equivalent++
		}
		if e.EliminatedRound > 0 {
			res.Eliminated++
		}
	}
	if spec.Second != nil {
		res.Front = s.front()
	}
	if res.Best != nil && spec.ConfirmReplications > 0 {
		if opt.Progress != nil {
			opt.Progress(Progress{Generation: s.gen, Generations: a.Generations, Evaluated: len(s.evals), Distinct: len(s.cache), Best: res.Best, Confirming: true})
		}
		c, b, err := s.confirm(res.Best.Values)
		if err != nil {
			return nil, err
		}
		res.Confirm, res.Baseline = c, b
		var d []float64
		for i := range min(len(c.Reps), len(b.Reps)) {
			d = append(d, c.Reps[i]-b.Reps[i])
		}
		res.Gain = results.MeanCI(d, 0.95)
	}
	return res, nil
}

// genome is a point of the search space encoded in [0, 1]^d.
type genome struct {
	s    *search
	x    []float64
	fit  float64
	done bool
	// PSO: the particle's velocity and its best position and fitness.
	v       []float64
	best    []float64
	bestFit float64
}

// Evaluate returns the fitness the batch evaluation gave it.
func (g *genome) Evaluate() (float64, error) {
	if !g.done {
		return 0, errors.New("tune: a genome reached eaopt unevaluated")
	}
	return g.fit, nil
}

// Mutate adds N(0, σ) to each gene with probability PMut, within [0, 1].
func (g *genome) Mutate(rng *mrand.Rand) {
	a := g.s.spec.Algorithm
	for i := range g.x {
		if rng.Float64() < a.PMut {
			g.x[i] = min(max(g.x[i]+a.Sigma*rng.NormFloat64(), 0), 1)
		}
	}
	g.done = false
}

// Crossover swaps each gene with the mate's with probability one half
// (uniform crossover); both children are evaluated.
func (g *genome) Crossover(o eaopt.Genome, rng *mrand.Rand) {
	h := o.(*genome)
	for i := range g.x {
		if rng.Float64() < 0.5 {
			g.x[i], h.x[i] = h.x[i], g.x[i]
		}
	}
	g.done, h.done = false, false
}

// Clone copies the genome.
func (g *genome) Clone() eaopt.Genome {
	c := *g
	c.x = slices.Clone(g.x)
	c.v = slices.Clone(g.v)
	c.best = slices.Clone(g.best)
	return &c
}

// gaModel is one GA generation: the best kept (elitism), the others bred
// by tournament selection, uniform crossover and Gaussian mutation, all
// evaluated as one batch of cells.
type gaModel struct{ s *search }

// Apply implements eaopt.Model.
func (m gaModel) Apply(pop *eaopt.Population) error {
	a := m.s.spec.Algorithm
	ind := pop.Individuals // sorted by fitness after every evaluation
	next := eaopt.Individuals{ind[0].Clone(pop.RNG)}
	sel := eaopt.SelTournament{NContestants: uint(min(3, len(ind)))}
	for len(next) < len(ind) {
		parents, _, err := sel.Apply(2, ind, pop.RNG)
		if err != nil {
			return err
		}
		x, y := parents[0].Clone(pop.RNG), parents[1].Clone(pop.RNG)
		if pop.RNG.Float64() < a.PCross {
			x.Genome.Crossover(y.Genome, pop.RNG)
		}
		x.Genome.Mutate(pop.RNG)
		y.Genome.Mutate(pop.RNG)
		next = append(next, x)
		if len(next) < len(ind) {
			next = append(next, y)
		}
	}
	elite := ind[0].Genome.(*genome).x
	return m.s.generation(pop, next, func(int) []float64 { return elite })
}

// Validate implements eaopt.Model.
func (gaModel) Validate() error { return nil }

// deModel is one generation of differential evolution (DE/rand/1/bin,
// Storn and Price 1997): for every individual a trial vector x_a + F·(x_b −
// x_c) of three others, crossed with it gene by gene with probability CR
// (one gene at least), clipped to [0, 1]; the trials are evaluated as one
// batch and each replaces its individual when it is no worse.
type deModel struct{ s *search }

// Apply implements eaopt.Model.
func (m deModel) Apply(pop *eaopt.Population) error {
	a := m.s.spec.Algorithm
	ind := pop.Individuals
	n := len(ind)
	trials := make(eaopt.Individuals, n)
	for i := range ind {
		pick := make([]int, 0, 3)
		for len(pick) < 3 {
			j := pop.RNG.Intn(n)
			if j != i && !slices.Contains(pick, j) {
				pick = append(pick, j)
			}
		}
		xa, xb, xc := ind[pick[0]].Genome.(*genome).x, ind[pick[1]].Genome.(*genome).x, ind[pick[2]].Genome.(*genome).x
		t := ind[i].Clone(pop.RNG)
		g := t.Genome.(*genome)
		jr := pop.RNG.Intn(len(g.x))
		for j := range g.x {
			if j == jr || pop.RNG.Float64() < a.CR {
				g.x[j] = min(max(xa[j]+a.F*(xb[j]-xc[j]), 0), 1)
			}
		}
		g.done = false
		trials[i] = t
	}
	parents := slices.Clone(ind)
	if err := m.s.generation(pop, trials, func(i int) []float64 { return parents[i].Genome.(*genome).x }); err != nil {
		return err
	}
	if m.s.spec.Race != nil {
		// A race may have run a parent further (or eliminated it): its
		// fitness is its evaluation's now.
		for i := range parents {
			parents[i].Fitness = m.s.fitness(parents[i].Genome.(*genome))
		}
	}
	for i := range trials {
		if trials[i].Fitness > parents[i].Fitness {
			pop.Individuals[i] = parents[i]
		}
	}
	return nil
}

// Validate implements eaopt.Model.
func (deModel) Validate() error { return nil }

// psoModel is one step of particle swarm optimisation (the inertia-weight
// form of SPSO): every particle's velocity becomes w·v + c1·r1·(its best −
// x) + c2·r2·(the swarm's best − x), bounded to ±0.5, and its position x +
// v clipped to [0, 1]; the new positions are evaluated as one batch and
// every particle keeps its best.
type psoModel struct{ s *search }

// Apply implements eaopt.Model.
func (m psoModel) Apply(pop *eaopt.Population) error {
	a := m.s.spec.Algorithm
	ind := pop.Individuals
	var gbest *genome
	for _, in := range ind {
		if g := in.Genome.(*genome); gbest == nil || g.bestFit < gbest.bestFit {
			gbest = g
		}
	}
	gb := slices.Clone(gbest.best)
	next := make(eaopt.Individuals, len(ind))
	for i, in := range ind {
		t := in.Clone(pop.RNG)
		g := t.Genome.(*genome)
		for j := range g.x {
			v := a.W*g.v[j] + a.C1*pop.RNG.Float64()*(g.best[j]-g.x[j]) + a.C2*pop.RNG.Float64()*(gb[j]-g.x[j])
			g.v[j] = min(max(v, -0.5), 0.5)
			g.x[j] = min(max(g.x[j]+g.v[j], 0), 1)
		}
		g.done = false
		next[i] = t
	}
	if err := m.s.generation(pop, next, func(i int) []float64 { return next[i].Genome.(*genome).best }); err != nil {
		return err
	}
	for _, in := range pop.Individuals {
		if g := in.Genome.(*genome); g.fit < g.bestFit {
			g.best, g.bestFit = slices.Clone(g.x), g.fit
		}
	}
	return nil
}

// Validate implements eaopt.Model.
func (psoModel) Validate() error { return nil }

// generation evaluates a new generation's individuals as one batch (within
// the budget: see limit) and makes them the population.
func (s *search) generation(pop *eaopt.Population, next eaopt.Individuals, fallback func(i int) []float64) error {
	s.gen++
	gs := make([]*genome, len(next))
	for i, in := range next {
		gs[i] = in.Genome.(*genome)
		if !gs[i].done {
			next[i].Evaluated = false
		}
	}
	s.limit(gs, fallback)
	if err := s.evaluate(gs); err != nil {
		s.err = err
		return err
	}
	for i, in := range next {
		next[i].Fitness, next[i].Evaluated = in.Genome.(*genome).fit, true
	}
	pop.Individuals = next
	s.report(s.progress)
	return nil
}

// values decodes a genome.
func (s *search) values(x []float64) []any {
	v := make([]any, len(x))
	for i, p := range s.spec.Params {
		v[i] = p.value(x[i])
	}
	return v
}

// key identifies a genome by its decoded values.
func key(v []any) string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = fmt.Sprintf("%T:%v", x, x)
	}
	return strings.Join(parts, "|")
}

// cells returns the cells of the base experiment with the genome's values
// (none: as the base is written). Every searched parameter is a common-
// random-numbers parameter of the cell (in Cell.CRN, out of its seed), so a
// cell's seed is its grid point's and replication's whatever the genome:
// every genome meets the same workloads. ID and seed are derived as the
// experiments package derives them (CellID, CellSeed), so that a worker
// re-deriving them accepts the cell. Under ns (non-empty: the
// confirmation) the base seed is ns's own (fresh seeds) and there are reps
// replications.
func (s *search) cells(v []any, ns string, reps int) []runner.Cell {
	spec := s.spec
	baseSeed := spec.Base.Seed
	if ns != "" {
		baseSeed = experiments.CellSeed(spec.Name+"/"+ns, spec.Base.Seed, nil, 0)
	}
	var out []runner.Cell
	for _, b := range s.base {
		if ns != "" && b.Replication != 0 {
			continue
		}
		if ns == "" {
			out = append(out, s.cell(b, v, baseSeed, b.Replication, len(out)))
			continue
		}
		for r := 0; r < reps; r++ {
			out = append(out, s.cell(b, v, baseSeed, r, len(out)))
		}
	}
	return out
}

// cell returns base cell b with the genome's values v (nil: as the base is
// written), replication rep, under base seed baseSeed, at index idx.
func (s *search) cell(b runner.Cell, v []any, baseSeed uint64, rep, idx int) runner.Cell {
	spec := s.spec
	c := b
	c.Params = slices.Clone(b.Params)
	crn := baseCRN(b)
	for i, p := range spec.Params {
		if v != nil && p.Name == "scheduler" {
			c.Scheduler = fmt.Sprint(v[i])
		}
	}
	set := func(name string, x any) {
		if name, ok := scoped(name, c.Scheduler); ok {
			c.Params = setParam(c.Params, name, x)
			if !strings.HasPrefix(name, "scheduler.") && !slices.Contains(crn, name) {
				crn = append(crn, name)
			}
		}
	}
	for i, p := range spec.Params {
		if v == nil || p.Name == "scheduler" {
			continue
		}
		set(p.Name, v[i])
		if p.Complement != "" {
			set(p.Complement, 1-v[i].(float64))
		}
	}
	slices.Sort(crn)
	c.Replication = rep
	setSeedBasis(&c, baseSeed, crn)
	var seedParams []runner.Param
	for _, p := range c.Params {
		if !slices.Contains(crn, p.Name) {
			seedParams = append(seedParams, p)
		}
	}
	c.Seed = experiments.CellSeed(c.Experiment, baseSeed, seedParams, c.Replication)
	c.ID = experiments.CellID(c.Experiment, baseSeed, c.Scheduler, c.Params, c.Replication)
	c.Index = idx
	return c
}

// scoped returns the cell parameter a search parameter sets in a cell of
// scheduler sched: scheduler.<name>.<p> sets scheduler.<p> in the cells of
// scheduler <name> only (ok false in the others); any other name is itself.
func scoped(name, sched string) (string, bool) {
	parts := strings.Split(name, ".")
	if len(parts) != 3 || parts[0] != "scheduler" {
		return name, true
	}
	return "scheduler." + parts[2], parts[1] == sched
}

// setParam sets a parameter in a sorted list.
func setParam(ps []runner.Param, name string, v any) []runner.Param {
	i, found := slices.BinarySearchFunc(ps, name, func(p runner.Param, n string) int { return strings.Compare(p.Name, n) })
	if found {
		ps[i].Value = v
		return ps
	}
	return slices.Insert(ps, i, runner.Param{Name: name, Value: v})
}

// evaluate evaluates the genomes not evaluated yet as one batch: the cells
// of every new distinct genome are run together; a genome evaluated before
// takes its evaluation from the cache.
func (s *search) evaluate(gs []*genome) error {
	if s.spec.Race != nil {
		return s.evaluateRace(gs)
	}
	type pending struct {
		g    *genome
		v    []any
		k    string
		idx  int
		hit  bool
		cell []runner.Cell
	}
	var ps []pending
	var batch []runner.Cell
	fresh := map[string]bool{}
	for i, g := range gs {
		if g.done {
			continue
		}
		v := s.values(g.x)
		k := key(v)
		p := pending{g: g, v: v, k: k, idx: i}
		if _, ok := s.cache[k]; ok || fresh[k] {
			p.hit = true
		} else {
			fresh[k] = true
			p.cell = s.cells(v, "", 0)
			batch = append(batch, p.cell...)
		}
		ps = append(ps, p)
	}
	if err := s.ctx.Err(); err != nil {
		return err
	}
	got := map[string]runner.CellResult{}
	if len(batch) > 0 {
		s.lastNew = s.gen
		var err error
		if got, err = s.run.Run(s.ctx, batch); err != nil {
			return err
		}
		for _, c := range batch {
			if s.asked != nil {
				s.asked[c.ID] = true
			}
		}
	}
	for _, p := range ps {
		e := &Eval{Generation: s.gen, Index: p.idx, Values: p.v, key: p.k}
		if prev, ok := s.cache[p.k]; ok {
			cp := *prev
			cp.Generation, cp.Index, cp.Cached = s.gen, p.idx, true
			e = &cp
		} else {
			s.measure(e, p.cell, got)
			s.cache[p.k] = e
		}
		s.evals = append(s.evals, e)
		p.g.fit, p.g.done = e.Fitness, true
	}
	return nil
}

// measure fills an evaluation from its cells' results: per replication the
// mean over the grid points, then mean and 95% CI over replications.
func (s *search) measure(e *Eval, cells []runner.Cell, got map[string]runner.CellResult) {
	spec := s.spec
	e.Cells, e.Failed, e.Constraints = len(cells), 0, nil
	byRep := map[int]map[string][]float64{} // replication → metric → values over points
	for _, c := range cells {
		r, ok := got[c.ID]
		if !ok || r.Status != runner.StatusOK {
			e.Failed++
			continue
		}
		m := byRep[c.Replication]
		if m == nil {
			m = map[string][]float64{}
			byRep[c.Replication] = m
		}
		for _, x := range r.Metrics {
			m[x.Name] = append(m[x.Name], x.Value)
		}
	}
	e.Metrics = map[string]results.Stat{}
	names := map[string]bool{}
	for _, m := range byRep {
		for n := range m {
			names[n] = true
		}
	}
	reps := make([]int, 0, len(byRep))
	for r := range byRep {
		reps = append(reps, r)
	}
	slices.Sort(reps)
	e.Replications = len(reps)
	for n := range names {
		var xs []float64
		for _, r := range reps {
			if vs := byRep[r][n]; len(vs) > 0 {
				xs = append(xs, mean(vs))
			}
		}
		e.Metrics[n] = results.MeanCI(xs, 0.95)
	}
	stat := func(n string) (float64, float64) {
		st, ok := e.Metrics[n]
		if !ok {
			return math.NaN(), math.NaN()
		}
		return st.Mean, st.HalfWidth
	}
	// An objective: per replication the aggregate over the grid points,
	// then mean and CI over replications.
	objective := func(o *Objective) (float64, float64, []float64) {
		var xs []float64
		for _, r := range reps {
			if vs := byRep[r][o.Metric]; len(vs) > 0 {
				xs = append(xs, aggregate(o.Points, vs))
			}
		}
		if len(xs) == 0 {
			return math.NaN(), math.NaN(), nil
		}
		st := results.MeanCI(xs, 0.95)
		return st.Mean, st.HalfWidth, xs
	}
	e.Objective, e.ObjectiveCI, e.Reps = objective(&spec.Objective)
	e.Second, e.SecondCI = math.NaN(), math.NaN()
	if spec.Second != nil {
		e.Second, e.SecondCI, _ = objective(spec.Second)
	}
	violation := float64(e.Failed)
	for _, c := range spec.Constraints {
		v, _ := stat(c.Metric)
		e.Constraints = append(e.Constraints, v)
		d := c.Value - v // ">=": short by d
		if c.Op == "<=" {
			d = v - c.Value
		}
		switch {
		case math.IsNaN(v):
			violation++
		case d > 0:
			violation += d / math.Max(math.Abs(c.Value), 1e-9)
		}
	}
	e.Feasible = violation == 0
	sign := 1.0
	if spec.Objective.Maximize {
		sign = -1
	}
	switch {
	case math.IsNaN(e.Objective):
		e.Fitness = 1e12 + violation
	default:
		e.Fitness = sign*e.Objective + 10*(1+math.Abs(e.Objective))*violation
	}
}

// aggregate returns the mean, max or min of xs.
func aggregate(how string, xs []float64) float64 {
	switch how {
	case "max":
		return slices.Max(xs)
	case "min":
		return slices.Min(xs)
	}
	return mean(xs)
}

func mean(xs []float64) float64 {
	t := 0.0
	for _, x := range xs {
		t += x
	}
	return t / float64(len(xs))
}

// best returns the distinct feasible evaluation of lowest fitness (ties:
// the first evaluated) that no race eliminated and its last race did not
// stop as equivalent (Race.Indifference): a stopped genome is within δ of
// the round's best, which ran on and is known over more replications, and
// its own mean over fewer replications would win by noise (the winner's
// curse). When none is left, the feasible one of lowest fitness.
func (s *search) best() *Eval {
	if s.final != nil {
		return s.final
	}
	var b, any *Eval
	for _, e := range s.evals {
		if e.Cached || !e.Feasible {
			continue
		}
		if any == nil || e.Fitness < any.Fitness {
			any = e
		}
		if e.EliminatedRound == 0 && e.EquivalentRound == 0 && (b == nil || e.Fitness < b.Fitness) {
			b = e
		}
	}
	if b == nil {
		return any
	}
	return b
}

// front returns the non-dominated distinct feasible evaluations of the two
// objectives (both as minimised), in order of the first objective.
func (s *search) front() []*Eval {
	sign := func(o *Objective) float64 {
		if o.Maximize {
			return -1
		}
		return 1
	}
	s1, s2 := sign(&s.spec.Objective), sign(s.spec.Second)
	var cands []*Eval
	for _, e := range s.evals {
		if !e.Cached && e.Feasible && !math.IsNaN(e.Second) {
			cands = append(cands, e)
		}
	}
	var out []*Eval
	for _, e := range cands {
		dominated := false
		for _, f := range cands {
			a1, a2, b1, b2 := s1*f.Objective, s2*f.Second, s1*e.Objective, s2*e.Second
			if a1 <= b1 && a2 <= b2 && (a1 < b1 || a2 < b2) {
				dominated = true
				break
			}
		}
		if !dominated {
			out = append(out, e)
		}
	}
	slices.SortStableFunc(out, func(a, b *Eval) int { return cmp.Compare(s1*a.Objective, s1*b.Objective) })
	return out
}

// confirm evaluates a genome and the base as written (its parameters'
// given or default values) with ConfirmReplications fresh seeds, the same
// for both, as one batch.
func (s *search) confirm(v []any) (best, base *Eval, err error) {
	bc := s.cells(v, "confirm", s.spec.ConfirmReplications)
	basec := s.cells(nil, "confirm", s.spec.ConfirmReplications)
	got, err := s.run.Run(s.ctx, append(slices.Clone(bc), basec...))
	if err != nil {
		return nil, nil, err
	}
	best = &Eval{Generation: -1, Values: v}
	s.measure(best, bc, got)
	base = &Eval{Generation: -1}
	s.measure(base, basec, got)
	return best, base, nil
}

// pcgSource adapts a math/rand/v2 PCG to math/rand's Source64 (eaopt takes
// a *math/rand.Rand).
type pcgSource struct{ p *rand.PCG }

func (s pcgSource) Int63() int64   { return int64(s.p.Uint64() >> 1) }
func (s pcgSource) Uint64() uint64 { return s.p.Uint64() }
func (s pcgSource) Seed(int64)     {}
