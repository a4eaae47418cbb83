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
// join their primary resource's local queue in the order of the mapping.
func (s *Scheduler) cycle(c *sim.Cluster) {
	now := c.Now()
	s.cnt.Cycles++
	s.nextCycle = now + s.cfg.Interval
	s.bfGroup = 0
	free := s.expectedFree(c)
	horizon := now + s.cfg.Interval
	for len(s.ready) > 0 && slices.Min(free) < horizon {
		n := min(s.cfg.Batch, len(s.ready))
		batch := s.ready[:n:n]
		s.ready = s.ready[n:]
		s.groups++
		var order []int
		var chains [][]int
		if n == s.cfg.Batch {
			s.cnt.Batches++
			order, chains = s.mga(batch, free, now)
		} else {
			s.cnt.Windows++
			order, chains = s.minMin(batch, free, now)
		}
		p := s.planner(batch, now)
		o := p.plan(order, chains, free, nil)
		s.cnt.Condition1 += int(math.Round(o.Penalty * float64(n)))
		for _, j := range order {
			js := batch[j]
			js.chain, js.next, js.group = chains[j], 1, s.groups
			js.irs = s.cfg.Scheme == IRSTMS && len(chains[j]) == 1
			js.ph, js.res = pQueued, chains[j][0]
			rs := &s.rs[js.res]
			rs.queue = append(rs.queue, js)
		}
	}
	if len(s.ready) > 0 {
		s.ready = slices.Clone(s.ready) // drop the mapped prefix's memory
	}
}

// expectedFree returns, per resource, when it is expected to have done its
// running job, its local queue and the migrants heading for it (α·PET of
// each job's remaining work there).
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
			t += s.cfg.Alpha * s.remaining(c, js, r)
		}
		free[r] = t
	}
	for _, js := range s.trans {
		free[js.res] = math.Max(free[js.res], js.arrive) + s.cfg.Alpha*s.remaining(c, js, js.res)
	}
	return free
}

// planner evaluates mappings of one batch.
type planner struct {
	s       *Scheduler
	jobs    []*jstate
	now     float64
	chainRs []Resource
	stages  []Stage
	f       []float64
	late    []int
	count   []int
}

func (s *Scheduler) planner(jobs []*jstate, now float64) *planner {
	n := len(s.rs)
	return &planner{s: s, jobs: jobs, now: now, f: make([]float64, n), late: make([]int, n), count: make([]int, n)}
}

// plan places the jobs of order (with their chains) after the expected
// free times free0 (updated in place when out is nil, else out receives
// the result) and returns the objectives of §4.3:
//
//   - Makespan: the latest expected free time, relative to now;
//   - Util: the expected busy time of all resources from now over
//     resources × makespan;
//   - Unfair: 1 − IJF of eq. 9 with the batch's jobs grouped by primary
//     resource (how fairly the mapping treats the jobs of the batch);
//   - Penalty: the share of jobs violating Condition 1 (PET > α × demanded
//     flow time).
//
// A job's primary resource runs it at its turn for α × its first stage's
// expected occupation; each backup receives α × its stage's expected
// occupation; its completion is expected at its start + α·PET. A
// single-resource job of IR-STMS is estimated by eq. 4 instead.
func (p *planner) plan(order []int, chains [][]int, free0 []float64, out []float64) ga.Objectives {
	s := p.s
	f := free0
	if out != nil {
		copy(out, free0)
		f = out
	}
	clear(p.late)
	clear(p.count)
	viol := 0
	alpha := s.cfg.Alpha
	for _, j := range order {
		js := p.jobs[j]
		ch := chains[j]
		var pet float64
		x := ch[0]
		start := math.Max(f[x], p.now)
		if s.cfg.Scheme == IRSTMS && len(ch) == 1 {
			pet = PETIRS(js.a, js.a.Size, s.res[x])
			f[x] = start + alpha*pet
		} else {
			p.chainRs = p.chainRs[:0]
			for _, r := range ch {
				p.chainRs = append(p.chainRs, s.res[r])
			}
			pet, p.stages = s.cfg.PETChain(js.a, js.a.Size, p.chainRs, p.stages)
			f[x] = start + alpha*p.stages[0].Load
			for k := 1; k < len(ch); k++ {
				f[ch[k]] = math.Max(f[ch[k]], p.now) + alpha*p.stages[k].Load
			}
		}
		if pet > alpha*(js.a.Deadline-js.sj.Submit) {
			viol++
		}
		p.count[x]++
		if start+alpha*pet > js.a.Deadline {
			p.late[x]++
		}
	}
	ms, busy := 0.0, 0.0
	for _, t := range f {
		ms = math.Max(ms, t-p.now)
		busy += math.Max(t-p.now, 0)
	}
	o := ga.Objectives{Makespan: ms}
	if ms > 0 {
		o.Util = busy / (ms * float64(len(f)))
	}
	o.Unfair = unfairness(p.late, p.count)
	if len(order) > 0 {
		o.Penalty = float64(viol) / float64(len(order))
	}
	return o
}

// unfairness is 1 − IJF (eq. 9) over the groups with count > 0: the
// population standard deviation of late/count.
func unfairness(late, count []int) float64 {
	var fr []float64
	for i, n := range count {
		if n > 0 {
			fr = append(fr, float64(late[i])/float64(n))
		}
	}
	return stddev(fr)
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

// single is the PET of a whole job on one resource as the scheme's
// single-resource rule estimates it.
func (s *Scheduler) single(js *jstate, r int) float64 {
	if s.cfg.Scheme == IRSTMS {
		return PETIRS(js.a, js.a.Size, s.res[r])
	}
	var pet float64
	pet, s.scratch = s.cfg.PETChain(js.a, js.a.Size, []Resource{s.res[r]}, s.scratch)
	return pet
}

// minMin maps jobs by Min-Min: repeatedly, of every unmapped job's
// earliest expected completion (over resources, after free), the smallest
// is committed. Ties: lower resource, then earlier job.
func (s *Scheduler) minMin(jobs []*jstate, free []float64, now float64) (order []int, chains [][]int) {
	f := slices.Clone(free)
	chains = make([][]int, len(jobs))
	done := make([]bool, len(jobs))
	// The PET of a job on a resource does not change as others are placed.
	pet := make([]float64, len(jobs)*len(f))
	for j, js := range jobs {
		for r := range f {
			pet[j*len(f)+r] = s.cfg.Alpha * s.single(js, r)
		}
	}
	for range jobs {
		bj, br, bt := -1, -1, math.Inf(1)
		for j := range jobs {
			if done[j] {
				continue
			}
			for r := range f {
				t := math.Max(f[r], now) + pet[j*len(f)+r]
				if t < bt {
					bj, br, bt = j, r, t
				}
			}
		}
		done[bj] = true
		chains[bj] = []int{br}
		order = append(order, bj)
		f[br] = bt
	}
	return order, chains
}

// mga maps a batch with the messy GA (§4): the Min-Min mapping is one
// member of the initial population and the template that completes genomes
// missing a job; chains are cut at MaxChain.
func (s *Scheduler) mga(jobs []*jstate, free []float64, now float64) (order []int, chains [][]int) {
	tOrder, tChains := s.minMin(jobs, free, now)
	p := s.planner(jobs, now)
	scratch := make([]float64, len(free))
	decode := func(g ga.Genome) ([]int, [][]int) {
		o, ch := ga.Chains(g, len(jobs), s.cfg.MaxChain)
		for _, j := range tOrder {
			if ch[j] == nil {
				ch[j] = tChains[j]
				o = append(o, j)
			}
		}
		return o, ch
	}
	ev := ga.EvaluatorFunc(func(g ga.Genome) ga.Objectives {
		o, ch := decode(g)
		return p.plan(o, ch, free, scratch)
	})
	seed := make(ga.Genome, 0, len(jobs))
	for _, j := range tOrder {
		seed = append(seed, ga.Gene{Job: j, Res: tChains[j][0]})
	}
	cfg := s.cfg.GA
	cfg.Jobs, cfg.Resources = len(jobs), len(s.rs)
	res, err := ga.Run(cfg, ev, []ga.Genome{seed}, s.gaRng)
	if err != nil {
		return tOrder, tChains // unreachable: the configuration was validated
	}
	return decode(res.Best)
}
