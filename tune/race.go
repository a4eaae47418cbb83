package tune

import (
	"slices"

	"github.com/schedfarm/schedfarm/runner"
	"github.com/schedfarm/schedfarm/stats"
)

// evaluateRace evaluates a batch of genomes by racing (Spec.Race): the
// candidates are the batch's new distinct genomes, the batch's genomes
// evaluated before and not eliminated, and the incumbent (the best
// evaluation so far). Round after round every surviving candidate gets the
// replications it lacks up to r = race.min, race.min + 1, …, race.max —
// only those new cells are asked for, with the same seeds for every
// candidate (common random numbers) — and then eliminate drops the
// survivors decided worse than the round's best (and, with an
// indifference zone, stops those decided equivalent to it). The race ends
// at race.max or when one candidate is left. A genome's fitness is then its
// evaluation's over the replications it got.
func (s *search) evaluateRace(gs []*genome) error {
	type pending struct {
		g     *genome
		v     []any
		k     string
		idx   int
		fresh bool
	}
	var ps []pending
	var cands []*Eval
	in := map[string]bool{}
	add := func(e *Eval) {
		if !in[e.key] && e.EliminatedRound == 0 {
			in[e.key] = true
			cands = append(cands, e)
		}
	}
	if inc := s.best(); inc != nil {
		add(inc)
	}
	fresh := false
	for i, g := range gs {
		if g.done {
			continue
		}
		v := s.values(g.x)
		k := key(v)
		p := pending{g: g, v: v, k: k, idx: i}
		e, ok := s.cache[k]
		if !ok {
			e = &Eval{Generation: s.gen, Index: i, Values: v, key: k}
			s.cache[k] = e
			p.fresh, fresh = true, true
		}
		add(e)
		ps = append(ps, p)
	}
	if err := s.ctx.Err(); err != nil {
		return err
	}
	if fresh {
		s.lastNew = s.gen
	}
	if _, err := s.race(cands, s.spec.Race.Min, s.spec.Race.Max, s.gen); err != nil {
		return err
	}
	for _, p := range ps {
		e := s.cache[p.k]
		if !p.fresh {
			cp := *e
			cp.Generation, cp.Index, cp.Cached = s.gen, p.idx, true
			e = &cp
		}
		s.evals = append(s.evals, e)
		p.g.done = true
	}
	for _, g := range gs {
		g.fit = s.fitness(g)
	}
	return nil
}

// fitness returns a genome's fitness: its evaluation's now (a race may
// have run it further since it was bred), or the fitness it has when it
// has no evaluation.
func (s *search) fitness(g *genome) float64 {
	if e, ok := s.cache[key(s.values(g.x))]; ok {
		return e.Fitness
	}
	return g.fit
}

// race runs the rounds of one race among cands (in order: the incumbent
// first, then the batch's), its rounds at r = from, from + 1, …, max
// replications, and returns the survivors. Eliminations and stops are
// recorded as of generation gen, round r − race.min + 1.
func (s *search) race(cands []*Eval, from, max, gen int) ([]*Eval, error) {
	rc := s.spec.Race
	alive := cands
	for _, e := range cands {
		// Back in a race: a stop as equivalent in an earlier one no
		// longer holds.
		e.EquivalentGeneration, e.EquivalentRound, e.EquivalentP = 0, 0, 0
	}
	for r := from; ; r++ {
		if err := s.ctx.Err(); err != nil {
			return nil, err
		}
		var batch []runner.Cell
		var grown []*Eval
		for _, e := range alive {
			if len(e.raceIDs) > 0 && len(e.raceIDs[0]) >= r {
				continue
			}
			batch = append(batch, s.extend(e, r)...)
			grown = append(grown, e)
		}
		if len(batch) > 0 {
			got, err := s.run.Run(s.ctx, batch)
			if err != nil {
				return nil, err
			}
			s.got = got
			for _, c := range batch {
				s.asked[c.ID] = true
			}
		}
		for _, e := range grown {
			s.measure(e, e.raceCells, s.got)
		}
		if len(alive) > 1 {
			alive = s.eliminate(alive, r, r-rc.Min+1, gen)
		}
		if len(alive) <= 1 || r >= max {
			return alive, nil
		}
	}
}

// finalRace runs the final race of the elite (Race.Final): the Race.Elite
// best distinct evaluations never eliminated — feasible first, then by
// fitness, ties to the earlier evaluated; a genome stopped as equivalent
// takes part, its stop cleared — race on, round by round, at r =
// Race.Max + 1, …, Race.Final replications (the rounds up to Race.Max
// were the generations' tests, on the same replications), with the
// generations' rule (eliminate), their eliminations recorded as
// generation s.gen+1. It returns the winner: the last candidate left, or
// the survivor of lowest fitness over the Final replications (feasible
// first; ties: the earlier in the elite), which is then the search's best
// (search.best). It returns nil when nothing was evaluated.
//
// Why: the generations' races run each candidate to Race.Max at most, so
// the incumbent's mean is over few replications and the best of many
// such means is biased low (the winner's curse). The final race runs only
// the few genomes that can still be the answer to Final replications and
// lets the paired tests, not the noise of a handful of replications,
// decide among them.
func (s *search) finalRace() (*Eval, error) {
	var elite []*Eval
	seen := map[string]bool{}
	for _, e := range s.evals {
		if e.Cached || seen[e.key] || e.EliminatedRound > 0 {
			continue
		}
		seen[e.key] = true
		elite = append(elite, e)
	}
	slices.SortStableFunc(elite, func(a, b *Eval) int {
		switch {
		case fitter(a.Feasible, a.Fitness, b.Feasible, b.Fitness):
			return -1
		case fitter(b.Feasible, b.Fitness, a.Feasible, a.Fitness):
			return 1
		}
		return 0
	})
	elite = elite[:min(len(elite), s.spec.Race.Elite)]
	if len(elite) == 0 {
		return nil, nil
	}
	alive, err := s.race(elite, s.spec.Race.Max+1, s.spec.Race.Final, s.gen+1)
	if err != nil {
		return nil, err
	}
	win := alive[0]
	for _, e := range alive[1:] {
		if fitter(e.Feasible, e.Fitness, win.Feasible, win.Fitness) {
			win = e
		}
	}
	return win, nil
}

// fitter reports whether an evaluation (feasible, fitness) ranks before
// another (feasible2, fitness2) in a race: feasible first, then lower
// fitness.
func fitter(feasible bool, fitness float64, feasible2 bool, fitness2 float64) bool {
	return feasible && !feasible2 || feasible == feasible2 && fitness < fitness2
}

// extend returns the cells that bring an evaluation to r replications at
// every grid point (replications it has are not asked for again) and
// records them on it.
func (s *search) extend(e *Eval, r int) []runner.Cell {
	if e.raceIDs == nil {
		e.raceIDs = make([][]string, len(s.points))
	}
	var out []runner.Cell
	for i, b := range s.points {
		for rep := len(e.raceIDs[i]); rep < r; rep++ {
			c := s.cell(b, e.Values, s.spec.Base.Seed, rep, len(e.raceCells))
			e.raceIDs[i] = append(e.raceIDs[i], c.ID)
			e.raceCells = append(e.raceCells, c)
			out = append(out, c)
		}
	}
	return out
}

// eliminate returns the survivors of round `round` of a race of
// generation gen (r replications each shared): the round's best is the
// survivor of lowest fitness over those r replications (feasible ones
// first; ties: the earlier candidate); every
// other survivor's paired differences to it (paired) are tested one-sided
// (stats.Sample.Greater(0): worse than the best), and Holm's procedure
// (stats.Holm) at family-wise level race.alpha across the survivors
// compared decides which are eliminated.
//
// With an indifference zone (race.indifference, margin δ) each compared
// survivor has a second hypothesis, H₀: |μ| ≥ δ for the mean paired
// difference μ, tested by two one-sided tests (stats.Sample.Within(−δ,
// δ), the claims judge's equivalence test), and Holm's procedure runs over
// all 2m hypotheses of the round at once, so the family-wise error of
// everything the round decides stays at race.alpha. A survivor whose
// equivalence is rejected is stopped (not eliminated): whichever of it
// and the best is chosen, the objective differs by less than δ. A
// survivor both decided worse and equivalent is eliminated.
func (s *search) eliminate(alive []*Eval, r, round, gen int) []*Eval {
	rc := s.spec.Race
	best, bestFit, bestFeasible, bestObj := -1, 0.0, false, 0.0
	for i, e := range alive {
		t := &Eval{}
		s.measure(t, cellsBelow(e.raceCells, r), s.got)
		if best < 0 || fitter(t.Feasible, t.Fitness, bestFeasible, bestFit) {
			best, bestFit, bestFeasible, bestObj = i, t.Fitness, t.Feasible, t.Objective
		}
	}
	delta := rc.margin(bestObj)
	var ps, eq []float64
	var idx []int
	for i, e := range alive {
		if i == best {
			continue
		}
		d := stats.Summarize(s.paired(e, alive[best], r))
		ps = append(ps, d.Greater(0))
		if delta > 0 {
			eq = append(eq, d.Within(-delta, delta))
		}
		idx = append(idx, i)
	}
	reject := stats.Holm(append(slices.Clone(ps), eq...), rc.Alpha)
	var out []*Eval
	drop := map[int]bool{}
	for j, i := range idx {
		e := alive[i]
		switch {
		case reject[j]:
			e.EliminatedGeneration, e.EliminatedRound, e.EliminatedBy, e.EliminatedP = gen, round, RaceTest, ps[j]
			drop[i] = true
		case len(eq) > 0 && reject[len(ps)+j]:
			e.EquivalentGeneration, e.EquivalentRound, e.EquivalentP = gen, round, eq[j]
			drop[i] = true
		}
	}
	for i, e := range alive {
		if !drop[i] {
			out = append(out, e)
		}
	}
	return out
}

// cellsBelow returns the cells of replications below r.
func cellsBelow(cells []runner.Cell, r int) []runner.Cell {
	var out []runner.Cell
	for _, c := range cells {
		if c.Replication < r {
			out = append(out, c)
		}
	}
	return out
}

// paired returns the differences of the objective, e − b, as minimised
// (negated when maximised: positive means e is worse), over the first r
// replications, paired by grid point and replication (the same seeds).
// With points: mean there is one per grid point and replication where
// both cells succeeded; with max or min, one per replication: the
// aggregates over the grid points both succeeded at.
func (s *search) paired(e, b *Eval, r int) []float64 {
	o := s.spec.Objective
	sign := 1.0
	if o.Maximize {
		sign = -1
	}
	value := func(id string) (float64, bool) {
		res, ok := s.got[id]
		if !ok || res.Status != runner.StatusOK {
			return 0, false
		}
		for _, m := range res.Metrics {
			if m.Name == o.Metric {
				return m.Value, true
			}
		}
		return 0, false
	}
	var d []float64
	for rep := 0; rep < r; rep++ {
		var xe, xb []float64
		for i := range s.points {
			ve, ok1 := value(e.raceIDs[i][rep])
			vb, ok2 := value(b.raceIDs[i][rep])
			if !ok1 || !ok2 {
				continue
			}
			if o.Points == "mean" {
				d = append(d, sign*(ve-vb))
				continue
			}
			xe, xb = append(xe, ve), append(xb, vb)
		}
		if o.Points != "mean" && len(xe) > 0 {
			d = append(d, sign*(aggregate(o.Points, xe)-aggregate(o.Points, xb)))
		}
	}
	return d
}
