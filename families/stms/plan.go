package stms

import (
	"math"
	"slices"

	"github.com/schedfarm/schedfarm/ga"
	"github.com/schedfarm/schedfarm/sim"
)

// cycle is one scheduling cycle (§4.4): while the ready queue is not empty
// and some resource is expected to be free before the next cycle, the first
// Batch ready jobs (submit order) are mapped by the mGA, or, when fewer
// than Batch jobs are ready, by Min-Min (the sliding window). Mapped jobs
// join their primary resource's local queue in the order of the mapping,
// each with the start the mapping planned for it.
func (s *Scheduler) cycle(c *sim.Cluster) {
	now := c.Now()
	s.cnt.Cycles++
	s.nextCycle = now + s.cfg.Interval
	free := s.expectedFree(c)
	horizon := now + s.cfg.Interval
	p := s.plan
	all := s.ready // the mapped jobs are a prefix of it
	for len(s.ready) > 0 && slices.Min(free) < horizon {
		n := min(s.cfg.Batch, len(s.ready))
		batch := s.ready[:n:n]
		s.ready = s.ready[n:]
		s.groups++
		p.load(batch, now)
		var order []int
		var chains [][]int
		switch {
		case s.mapHook != nil:
			order, chains = s.mapHook(p)
		case n == s.cfg.Batch:
			s.cnt.Batches++
			order, chains = s.mga(free)
		default:
			s.cnt.Windows++
			order, chains = p.minMin(free)
		}
		o := p.plan(order, chains, free, nil, p.starts)
		s.cnt.Condition1 += int(math.Round(o.Penalty * float64(n)))
		for _, j := range order {
			js := batch[j]
			js.chain, js.next, js.group = slices.Clone(chains[j]), 1, s.groups
			js.slots = slices.Clone(p.slots[j*p.nk : j*p.nk+len(chains[j])])
			js.irs = s.cfg.Scheme == IRSTMS && len(chains[j]) == 1
			if js.irs {
				js.irsSlot = s.cfg.Alpha * p.irs[j*p.nr+chains[j][0]]
			}
			js.ph, js.res, js.planned = pQueued, chains[j][0], p.starts[j]
			rs := &s.rs[js.res]
			rs.queue = append(rs.queue, js)
		}
	}
	if len(s.ready) < len(all) {
		// The jobs left move to the front of the same array, the
		// mapped prefix's slots cleared behind them: its memory is
		// reused, not left behind (they were once copied out, a fresh
		// array each cycle and a sixth of a seed-002 cell's allocated
		// bytes; docs/performance-log.md, "Forty-first session"). The
		// batches were slices of that prefix; the planner is done with
		// the last one (load starts each cycle's).
		k := copy(all, s.ready)
		clear(all[k:])
		s.ready = all[:k]
	}
}

// expectedFree returns, per resource, when it is expected to have done its
// running job, its local queue and the migrants heading for it (α·PET of
// each job's remaining work there; under the timetable a mapped job starts
// no earlier than planned).
func (s *Scheduler) expectedFree(c *sim.Cluster) []float64 {
	now := c.Now()
	free := make([]float64, len(s.rs))
	for r := range s.rs {
		t := now
		rs := &s.rs[r]
		if rs.run != nil {
			t += s.cfg.Alpha * s.remaining(c, rs.run, r)
		}
		for _, js := range rs.queue {
			if s.cfg.Dispatch == Timetable && !js.contender {
				t = math.Max(t, js.planned)
			}
			t += s.cfg.Alpha * s.remaining(c, js, r)
		}
		free[r] = t
	}
	for _, js := range s.trans {
		free[js.res] = math.Max(free[js.res], js.arrive) + s.cfg.Alpha*s.remaining(c, js, js.res)
	}
	return free
}

// planner evaluates mappings of one batch. load fills tables of every
// batch job's execution time, state-tracking overhead and failure
// probability on every resource at every chain stage, so that evaluating a
// mapping (the mGA's inner loop) computes no exponential and allocates
// nothing.
type planner struct {
	s    *Scheduler
	jobs []*jstate
	now  float64
	nr   int // resources
	nk   int // chain stages (MaxChain)
	// Per job j, resource r and stage k at [(j·nr + r)·nk + k]: stage k has
	// size S_j / 2^k (a failure strikes half-way on average, §2.3.1).
	stages []stage
	// single[j·nr + r] is α × the PET of job j alone on r under the scheme's
	// single-resource rule (eq. 4 under IR-STMS, eqs. 2–3 otherwise).
	single []float64
	// irs[j·nr + r] is eq. 4 for job j on r.
	irs []float64
	// fallback is the resource a migration beyond a chain is assumed to
	// reach (Model.FallbackBandwidth).
	fallback Resource

	// alpha is the scheduler's α; irsOne whether a job on one resource
	// is estimated by eq. 4 (IR-STMS): placeOne's settings, copied here
	// so that it reads them without the scheduler's pointer.
	alpha  float64
	irsOne bool
	// migrationCost, transferFactor and bandwidth[r] (resource r's AB)
	// are what place reads of Model.Transfer for a migration within a
	// chain, copied here with α.
	migrationCost, transferFactor float64
	bandwidth                     []float64

	// weight[r] is resource r's share in the utilisation (1, or its speed
	// when utilisation is capacity-weighted); weightSum their sum.
	weight    []float64
	weightSum float64

	// cond1[j] is α × job j's demanded flow time (Condition 1's bound on
	// its PET), deadline[j] its deadline: read by plan for every job of
	// every genome, computed once per batch (the same expressions).
	cond1, deadline []float64

	f, free2    []float64
	late, count []int
	starts      []float64
	// slots[j·nk + k] is the start the committed plan reserved for stage k
	// of job j's chain (k = 0: its planned start on its primary; k ≥ 1: the
	// slot its backup keeps for it, after what that resource had then).
	slots   []float64
	dec     *ga.Decoder
	decJobs int
}

// stage is what place reads of one stage of a job's chain on one resource,
// side by side (a stage is part of one cache line, not spread over
// several): the failure probability pf, eq. 3's expected occupation
// before the previous stages' survival factor, load = (1−pf)(et+so) +
// pf(et/2+so), and what a failure in the stage costs when it is the
// chain's last, last = Transfer to the fallback resource + et/2 + so/2
// (et is eq. 2's ET, so the switching overhead): all but the survival
// factor, which depends on the stages before. moved is the numerator of
// DM (§2.3.1) for a migration out of the stage, 8·(S_k/2 + JD): a
// migration to the chain's next resource y costs Transfer = MigrationCost
// + TransferFactor·moved/AB_{r,y}, the division by the pair's bandwidth
// being all that place has left to compute (the same operations as
// Model.Transfer, in the same order, so the same bits).
type stage struct {
	pf, load, last, moved float64
}

func newPlanner(s *Scheduler) *planner {
	n := len(s.res)
	p := &planner{s: s, nr: n, nk: s.cfg.MaxChain, f: make([]float64, n), free2: make([]float64, n),
		late: make([]int, n), count: make([]int, n), weight: make([]float64, n),
		fallback: Resource{Bandwidth: s.cfg.FallbackBandwidth},
		alpha:    s.cfg.Alpha, irsOne: s.cfg.Scheme == IRSTMS,
		migrationCost: s.cfg.MigrationCost, transferFactor: s.cfg.TransferFactor,
		bandwidth: make([]float64, n)}
	for r, res := range s.res {
		p.bandwidth[r] = res.Bandwidth
		p.weight[r] = 1
		if s.cfg.CapacityUtil {
			p.weight[r] = res.Speed
		}
		p.weightSum += p.weight[r]
	}
	return p
}

// freeBuf returns a scratch slice of one value per resource (overwritten
// by the next call).
func (p *planner) freeBuf() []float64 { return p.free2 }

// sized returns b with length n, reusing its memory when it has room (the
// contents are left as they were: every caller overwrites them).
func sized[T any](b []T, n int) []T {
	if cap(b) < n {
		return make([]T, n)
	}
	return b[:n]
}

// load prepares the tables for a batch of jobs planned at now.
func (p *planner) load(jobs []*jstate, now float64) {
	s := p.s
	p.jobs, p.now = jobs, now
	n := len(jobs) * p.nr
	p.stages = sized(p.stages, n*p.nk)
	p.single, p.irs = sized(p.single, n), sized(p.irs, n)
	p.starts = sized(p.starts, len(jobs))
	p.cond1, p.deadline = sized(p.cond1, len(jobs)), sized(p.deadline, len(jobs))
	p.slots = sized(p.slots, len(jobs)*p.nk)
	for j, js := range jobs {
		p.cond1[j] = s.cfg.Alpha * (js.a.Deadline - js.sj.Submit)
		p.deadline[j] = js.a.Deadline
		for r, res := range s.res {
			size := js.a.Size
			for k := 0; k < p.nk; k++ {
				i := (j*p.nr+r)*p.nk + k
				et := ET(size, res)
				so, pf := s.cfg.SO(et), FailProb(js.a, res, et)
				half := js.a.Size / float64(int(2)<<k) // S_k / 2
				p.stages[i] = stage{pf: pf, load: (1-pf)*(et+so) + pf*(et/2+so),
					last:  s.cfg.Transfer(half, js.a.Data, res, p.fallback) + et/2 + so/2,
					moved: 8 * (half + js.a.Data)}
				size /= 2
			}
			p.irs[j*p.nr+r] = PETIRS(js.a, js.a.Size, res)
		}
	}
	// Min-Min's single-resource estimates, from the tables just filled.
	one := []int{0}
	for j := range jobs {
		for r := range s.res {
			one[0] = r
			pet, _ := p.place(j, one, now, p.free2, nil)
			p.single[j*p.nr+r] = s.cfg.Alpha * pet
		}
	}
	if p.dec == nil || p.decJobs != len(jobs) {
		p.dec, p.decJobs = ga.NewDecoder(len(jobs), p.nk), len(jobs)
	}
}

// plan places the jobs of order (with their chains) after the expected
// free times free0 (updated in place when out is nil, else out receives
// the result), writes each job's planned start into starts (if not nil) and
// returns the objectives of §4.3:
//
//   - Makespan (eq. 7's ms of the schedule σ of this batch, §4.1): the
//     latest expected free time of a resource the batch's jobs use
//     (primary or backup), relative to now. Resources the batch leaves
//     alone do not count: their backlog is the same under every mapping
//     of the batch and would flatten ms across the population.
//   - Util (eq. 7's au): the average utilisation of the resources over
//     that makespan — each resource's expected busy time within [now, now
//   - ms] (its backlog included, clipped to the window), summed and
//     divided by resources × ms; with utilization capacity each resource
//     weighs by its speed.
//   - Unfair: 1 − IJF of eq. 9 with the batch's jobs grouped by primary
//     resource (how fairly the mapping treats the jobs of the batch);
//   - Penalty: the share of jobs violating Condition 1 (PET > α × demanded
//     flow time).
//
// A job's primary resource runs it at its turn for α × its first stage's
// expected occupation; each backup receives α × its stage's expected
// occupation; its completion is expected at its start + α·PET. A
// single-resource job of IR-STMS is estimated by eq. 4 instead. Eqs. 2–3
// are those of Model.PETChain, read from the tables.
func (p *planner) plan(order []int, chains [][]int, free0 []float64, out []float64, starts []float64) ga.Objectives {
	s := p.s
	f := free0
	if out != nil {
		copy(out, free0)
		f = out
	}
	clear(p.late)
	clear(p.count)
	viol := 0
	// ms, the makespan: the latest expected free time of a resource the
	// batch's jobs use, relative to now, and at least +0. place only ever
	// moves a free time later (a stage starts no earlier than its
	// resource's free time and occupies it for α × a non-negative load),
	// so a used resource's last free time is the largest written to it,
	// and ms is the largest of every free time written, taken as each
	// job is placed. Taken by compare rather than the built-in max, whose
	// NaN and signed-zero handling makes each step wait for the last; the
	// same value: ms starts at +0 and only grows, so a −0 never becomes
	// it, and a NaN becomes it and stays, as with max.
	ms := 0.0
	flow := 0.0
	alpha := s.cfg.Alpha
	for _, j := range order {
		ch := chains[j]
		x := ch[0]
		start := atLeast(f[x], p.now)
		var slots []float64
		if starts != nil {
			starts[j] = start
			slots = p.slots[j*p.nk : j*p.nk+len(ch)]
		}
		// The chain's latest free time less now is the largest of its
		// resources' (subtraction keeps the order; a NaN stays one). A
		// job on one resource, most of them, is placed by placeOne
		// inlined here (docs/performance-log.md, "Forty-fifth session").
		var pet, last float64
		if len(ch) == 1 && slots == nil {
			pet, last = p.placeOne(j, x, start, f)
		} else {
			pet, last = p.place(j, ch, start, f, slots)
		}
		if d := last - p.now; d > ms || d != d {
			ms = d
		}
		flow += start + alpha*pet - p.now
		if pet > p.cond1[j] {
			viol++
		}
		p.count[x]++
		if start+alpha*pet > p.deadline[j] {
			p.late[x]++
		}
	}
	busy := 0.0
	for r, t := range f {
		// min(max(t−now, 0), ms), written out as in atLeast: ms is +0 or
		// more, or NaN; a NaN on either side gives NaN, as min and max do.
		d := t - p.now
		if d <= 0 {
			d = 0
		}
		if d > ms || ms != ms {
			d = ms
		}
		busy += d * p.weight[r]
	}
	o := ga.Objectives{Makespan: ms, Flow: flow / float64(max(len(order), 1))}
	if ms > 0 {
		o.Util = busy / (ms * p.weightSum)
	}
	o.Unfair = unfairness(p.late, p.count)
	if len(order) > 0 {
		o.Penalty = float64(viol) / float64(len(order))
	}
	return o
}

// place plans job j of the batch on its chain from start on its primary:
// it returns the job's PET and the latest of the free times it wrote (NaN
// if one is), and adds α × each stage's expected occupation to
// the free times f of the chain's resources (the primary from start, a
// backup after what it already has). A single-resource job of IR-STMS is
// estimated by eq. 4; otherwise eqs. 2–3 as in Model.PETChain, from the
// tables. slots, if not nil, receives each stage's reserved start: the
// slot a migrant waits for at its backup (§2.2, Fig. 1).
func (p *planner) place(j int, ch []int, start float64, f []float64, slots []float64) (pet, last float64) {
	if len(ch) == 1 {
		if slots != nil {
			slots[0] = start
		}
		return p.placeOne(j, ch[0], start, f)
	}
	alpha := p.alpha
	cost, factor, bw := p.migrationCost, p.transferFactor, p.bandwidth
	last = math.Inf(-1)
	pw := 1.0
	for k, r := range ch {
		st := &p.stages[(j*p.nr+r)*p.nk+k]
		pf := st.pf
		load := pw * st.load
		if k == len(ch)-1 {
			pet += load + pw*pf*st.last
		} else {
			// Model.Transfer(S_k/2, JD, r, ch[k+1]) from the stage's
			// moved: MigrationCost + TransferFactor·DM, DM = moved/AB.
			ab := (bw[r] + bw[ch[k+1]]) / 2
			pet += load + pw*pf*(cost+factor*(st.moved/ab))
			pw *= pf
		}
		at := start
		if k > 0 {
			at = atLeast(f[r], p.now)
		}
		if slots != nil {
			slots[k] = at
		}
		f[r] = at + alpha*load
		if v := f[r]; v > last || v != v {
			last = v
		}
	}
	return pet, last
}

// placeOne is place for a chain of the one resource r, small enough to be
// inlined where plan calls it: under IR-STMS eq. 4, otherwise eqs. 2–3
// for a single stage, the loop of place with k = 0 and pw = 1, written
// out (1·x is x exactly; pet starts at +0 and adds the same sum; last is
// the one free time written, as the loop's comparison against −Inf
// leaves it). TestPlaceOneIsTheChainLoop checks it against that loop.
func (p *planner) placeOne(j, r int, start float64, f []float64) (pet, last float64) {
	i, load := j*p.nr+r, 0.0
	if p.irsOne {
		pet = p.irs[i]
		load = pet
	} else {
		st := &p.stages[i*p.nk]
		load = st.load
		pet += load + st.pf*st.last
	}
	f[r] = start + p.alpha*load
	return pet, f[r]
}

// atLeast is max(t, now) for the planner's times: now, the batch's planning
// instant, is never NaN or −0, and there the built-in max's steps for those
// (a NaN on either side, −0 below +0) reduce to this comparison, which
// keeps a NaN t as max does. It is taken once per job and stage of every
// genome the mGA evaluates, where the built-in's sequence cost about a
// tenth of plan's instructions (callgrind), and in Min-Min's inner loop.
func atLeast(t, now float64) float64 {
	if t <= now {
		return now
	}
	return t
}

// unfairness is 1 − IJF (eq. 9) over the groups with count > 0: the
// population standard deviation of late/count.
func unfairness(late, count []int) float64 {
	var sum, sq float64
	n := 0
	for i, c := range count {
		if c > 0 {
			x := float64(late[i]) / float64(c)
			sum += x
			sq += x * x
			n++
		}
	}
	if n == 0 {
		return 0
	}
	m := sum / float64(n)
	return math.Sqrt(max(sq/float64(n)-m*m, 0))
}

func stddev(x []float64) float64 {
	if len(x) == 0 {
		return 0
	}
	m := 0.0
	for _, v := range x {
		m += v
	}
	m /= float64(len(x))
	v := 0.0
	for _, e := range x {
		v += (e - m) * (e - m)
	}
	return math.Sqrt(v / float64(len(x)))
}

// minMin maps the loaded batch by Min-Min: repeatedly, of every unmapped
// job's earliest expected completion (over resources, after free), the
// smallest is committed. Ties: earlier job, then lower resource (the first
// in job-then-resource order).
//
// Each unmapped job's earliest completion and its resource are kept: a
// commit moves only its resource's free time, and never earlier (the
// completion is at least the resource's ready time), so only the jobs whose
// earliest was on that resource are looked at again; a job's earliest
// elsewhere stays the earliest, and the first in resource order. The
// result is the plain scan's of every job on every resource at every step
// (TestMinMinIsThePlainScan), in O(n·r) steps a look instead of O(n²·r)
// in all.
func (p *planner) minMin(free []float64) (order []int, chains [][]int) {
	f := slices.Clone(free)
	n, nr := len(p.jobs), p.nr
	chains = make([][]int, n)
	order = make([]int, 0, n)
	done := make([]bool, n)
	best := make([]int, n)   // the resource of job j's earliest completion
	at := make([]float64, n) // and when
	look := func(j int) {
		br, bt := -1, math.Inf(1)
		for r, pet := range p.single[j*nr : (j+1)*nr] {
			if t := atLeast(f[r], p.now) + pet; t < bt {
				br, bt = r, t
			}
		}
		best[j], at[j] = br, bt
	}
	for j := range n {
		look(j)
	}
	for range n {
		bj, bt := -1, math.Inf(1)
		for j, t := range at {
			if !done[j] && t < bt {
				bj, bt = j, t
			}
		}
		br := best[bj]
		done[bj] = true
		chains[bj] = []int{br}
		order = append(order, bj)
		// A resource whose ready time went back (a negative estimate,
		// which the tables never hold) could become any job's earliest:
		// then every job is looked at again.
		back := atLeast(bt, p.now) < atLeast(f[br], p.now)
		f[br] = bt
		for j := range n {
			if !done[j] && (back || best[j] == br) {
				look(j)
			}
		}
	}
	return order, chains
}

// evaluator returns the mGA's view of the loaded batch after the expected
// free times free: the evaluator of a genome (decoded against the Min-Min
// template) and the template as a genome, the seed of the population.
func (p *planner) evaluator(free []float64) (ga.Evaluator, ga.Genome) {
	tOrder, tChains := p.minMin(free)
	p.dec.SetTemplate(tOrder, tChains)
	scratch := make([]float64, len(free))
	ev := ga.EvaluatorFunc(func(g ga.Genome) ga.Objectives {
		o, ch := p.dec.Decode(g)
		return p.plan(o, ch, free, scratch, nil)
	})
	seed := make(ga.Genome, 0, len(p.jobs))
	for _, j := range tOrder {
		seed = append(seed, ga.Gene{Job: j, Res: tChains[j][0]})
	}
	return ev, seed
}

// mga maps the loaded batch with the messy GA (§4): the Min-Min mapping is
// one member of the initial population and the template that completes
// genomes missing a job; chains are cut at MaxChain.
func (s *Scheduler) mga(free []float64) (order []int, chains [][]int) {
	p := s.plan
	if s.batchHook != nil {
		s.batchHook(p, free)
	}
	ev, seed := p.evaluator(free)
	cfg := s.cfg.GA
	cfg.Jobs, cfg.Resources = len(p.jobs), len(s.rs)
	res, err := ga.Run(cfg, ev, []ga.Genome{seed}, s.gaRng)
	if err != nil {
		res.Best = seed // unreachable: the configuration was validated
	}
	tms := ev.Evaluate(seed).Makespan
	if tms > 0 {
		s.cnt.PlanGain += (tms - res.Objectives.Makespan) / tms
	}
	order, chains = p.dec.Decode(res.Best)
	return slices.Clone(order), chains
}
