package cloud

import (
	"math"
	"slices"
	"sort"

	"github.com/schedfarm/schedfarm/param"
	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/strategies"
)

// CPLMT is the paper's scheduler (§3).
const CPLMT = "cplmt"

func cplmtEntry() strategies.Entry {
	positive := func(name, doc string) param.Spec {
		return param.Spec{Name: name, Kind: param.Float, Default: 1.0, Min: 1e-9, Max: 1e9, Doc: doc}
	}
	share := func(name, doc string) param.Spec {
		return param.Spec{Name: name, Kind: param.Float, Default: 0.8, Min: 0, Max: 1, Unit: "fraction 0–1", Doc: doc}
	}
	return strategies.Entry{
		Name:     CPLMT,
		Summary:  "seed 001 CPLMT: jobs classified by how few VMs satisfy them, the job of smallest max–min time first, tasks on the VMs nearest it; deadline-aware (§3)",
		Platform: string(Output),
		Params: []param.Spec{
			positive("alpha", "α (§4.1: 1): a VM satisfies a task's processing need when instructions/speed ≤ α · time left to the deadline (Algorithm 1)"),
			positive("beta", "β (§4.1: 1): a VM satisfies a task's memory when demand ≤ β · its memory"),
			positive("gamma", "γ (§4.1: 1): a VM satisfies a task's bandwidth when demand ≤ γ · its bandwidth"),
			share("epsilon", "ε (§4.1: 0.8): a job is processing-urgent (ulCPU, in place of the paper's unused ulHD) when more than ε·VMs cannot satisfy one of its tasks"),
			share("omega", "ω (§4.1: 0.8): memory-urgent (ulMEM, formula 14) when more than ω·VMs cannot satisfy one of its tasks"),
			share("eta", "η (§4.1: 0.8): bandwidth-urgent (ulBW, formula 16) when more than η·VMs cannot satisfy one of its tasks"),
			{Name: "kappa", Kind: param.Float, Default: 15.0, Min: 0, Max: 1e9, Doc: "κ (§4.2: 15): a job is a ujob (scheduled first) when (VMs satisfying every aspect of its hardest task) / parallelism ≤ κ (formula 7)"},
		},
		New: func(b strategies.Build) (sim.Scheduler, error) {
			ps := b.Params
			return build(b, &cplmt{alpha: ps.Float("alpha"), beta: ps.Float("beta"), gamma: ps.Float("gamma"),
				eps: ps.Float("epsilon"), omega: ps.Float("omega"), eta: ps.Float("eta"), kappa: ps.Float("kappa")}, true)
		},
	}
}

// cplmt is the paper's scheduler (§3): jobs classified by how few VMs can
// satisfy them (formulas 7–21), classes in the order of Fig. 3, the job of
// smallest mt first within a class (Algorithm 2), its tasks placed on the
// VMs whose times are nearest to the job's max–min time (Algorithm 3).
type cplmt struct {
	alpha, beta, gamma, eps, omega, eta, kappa float64
	data                                       []cpData
}

// cpData is CPLMT's side table of one waiting job.
type cpData struct {
	// cpuET[k] holds the k-th distinct task's time on every VM, ascending
	// (Algorithm 1's processing test is et ≤ α · time left). A task equal
	// to the one before it (same demands and instructions) has the same
	// times and counts and is not listed again: classify takes maxima and
	// minima over the tasks.
	cpuET [][]float64
	// satET[k] holds that task's time on the VMs that satisfy its memory
	// (β) and bandwidth (γ), ascending: with the time test, the VMs that
	// satisfy the task in every aspect (formula 7's num).
	satET [][]float64
	// par is the job's parallelism (number of tasks).
	par int
	// jovMEM and jovBW are formulas 8 and 11: the most VMs that cannot
	// satisfy one of the tasks' memory or bandwidth (static).
	jovMEM, jovBW int
	// rank (0 first) and tovload are set at every pass.
	rank    int
	tovload float64
}

// Class is a job's CPLMT class: whether it is a ujob (formula 7) and how
// many of the urgent sets ulCPU, ulMEM, ulBW it belongs to (ThreeOL = 3 …
// OtherL = 0, formulas 18–21).
type Class struct {
	// UJob is set when few VMs satisfy the job: num / parallelism ≤ κ.
	UJob bool
	// Urgent is the number of urgent sets (3 ThreeOL, 2 TwoOL, 1 OneOL,
	// 0 OtherL).
	Urgent int
	// Rank orders the classes: ujobs before unjobs, then ThreeOL, TwoOL,
	// OneOL, OtherL (0 is scheduled first).
	Rank int
	// JovCPU, JovMEM and JovBW are formulas 10, 8 and 11; Num is formula
	// 7's num; Tovload is formula 22 (with jovCPU for the unused jovHD).
	JovCPU, JovMEM, JovBW, Num int
	Tovload                    float64
}

// arrive lists each distinct task's times on all VMs and on the VMs that
// satisfy it, ascending. The times are computed in the order of the VMs'
// speeds, fastest first (scheduler.bySpeed): without a transfer time the
// times I/speed are then already ascending (division rounds monotonically)
// and need no sort; with one they may not be, and are sorted. Either way
// the list is the ascending order of the same values (none is NaN or −0),
// which is unique: the sort's result exactly, ties included.
func (p *cplmt) arrive(s *scheduler, ji *jobInfo) {
	if p.data == nil {
		p.data = make([]cpData, len(s.info))
	}
	d := &p.data[ji.idx]
	j := ji.j
	distinct := 0
	for t := range j.Tasks {
		if !sameAsPrevious(ji, t) {
			distinct++
		}
	}
	n := len(s.w.VMs)
	back := make([]float64, 2*n*distinct)
	d.cpuET = make([][]float64, 0, distinct)
	d.satET = make([][]float64, 0, distinct)
	d.par = len(j.Tasks)
	d.jovMEM, d.jovBW = 0, 0
	for t := range j.Tasks {
		if sameAsPrevious(ji, t) {
			continue
		}
		tk := &j.Tasks[t]
		ovMEM, ovBW := 0, 0
		all, sat := back[:n:n], back[n:n:2*n]
		back = back[2*n:]
		for i, v32 := range s.bySpeed {
			vm := &s.w.VMs[v32]
			et := s.w.ExecTime(j, tk, vm)
			all[i] = et
			mem, bw := within(tk.Memory, vm.Memory, p.beta), within(tk.Bandwidth, vm.Bandwidth, p.gamma)
			if !mem {
				ovMEM++
			}
			if !bw {
				ovBW++
			}
			if mem && bw && within(tk.Disk, vm.Disk, 1) {
				sat = append(sat, et)
			}
		}
		if !slices.IsSorted(all) { // sat is a subsequence of all
			slices.Sort(all)
			slices.Sort(sat)
		}
		d.cpuET, d.satET = append(d.cpuET, all), append(d.satET, sat)
		d.jovMEM, d.jovBW = max(d.jovMEM, ovMEM), max(d.jovBW, ovBW)
	}
}

func (p *cplmt) leave(ji *jobInfo) {
	if p.data != nil {
		p.data[ji.idx] = cpData{}
	}
}

// classify returns the class of a waiting job at time now.
func (p *cplmt) classify(s *scheduler, ji *jobInfo) Class {
	d := &p.data[ji.idx]
	n := len(s.w.VMs)
	lim := p.alpha * (ji.abs - s.now)
	c := Class{JovMEM: d.jovMEM, JovBW: d.jovBW, Num: n}
	for t := range d.cpuET {
		// VMs whose time exceeds α · time left cannot satisfy the task.
		ok := sort.Search(len(d.cpuET[t]), func(i int) bool { return d.cpuET[t][i] > lim })
		c.JovCPU = max(c.JovCPU, n-ok)
		c.Num = min(c.Num, sort.Search(len(d.satET[t]), func(i int) bool { return d.satET[t][i] > lim }))
	}
	c.UJob = float64(c.Num)/float64(d.par) <= p.kappa
	vend := float64(n)
	for _, ul := range []bool{float64(c.JovCPU) > p.eps*vend, float64(c.JovMEM) > p.omega*vend, float64(c.JovBW) > p.eta*vend} {
		if ul {
			c.Urgent++
		}
	}
	c.Rank = 3 - c.Urgent
	if !c.UJob {
		c.Rank += 4
	}
	c.Tovload = float64(c.JovCPU + c.JovMEM + c.JovBW)
	return c
}

func (p *cplmt) schedule(s *scheduler) {
	if s.idle == 0 {
		return
	}
	for _, ji := range s.waiting {
		c := p.classify(s, ji)
		p.data[ji.idx].rank, p.data[ji.idx].tovload = c.Rank, c.Tovload
	}
	for s.idle > 0 {
		// Algorithm 2 over the first class (Fig. 3 order) that has a job
		// every task of which has a free VM that ends it in time.
		var best *jobInfo
		bestRank, bestMt, bestM := math.MaxInt, math.Inf(1), 0.0
		for _, ji := range s.waiting {
			d := &p.data[ji.idx]
			if ji.state != waiting || ji.tried == s.pass || d.rank > bestRank {
				continue
			}
			m := p.maxMinTime(s, ji)
			if math.IsInf(m, 1) {
				ji.tried = s.pass
				continue
			}
			// Formula 23 (not reproduced in the text): smaller for a
			// shorter job and for one fewer VMs satisfy.
			mt := m / (1 + d.tovload)
			if d.rank < bestRank || mt < bestMt {
				best, bestRank, bestMt, bestM = ji, d.rank, mt, m
			}
		}
		if best == nil {
			return
		}
		g := nearestAssign(s, best, bestM)
		if g == nil {
			best.tried = s.pass
			continue
		}
		if s.start(best, g) != nil {
			return
		}
	}
}

// maxMinTime is Algorithm 3's maxminet over the free VMs: the largest, over
// the tasks, of the task's smallest time on a candidate VM (+Inf when a
// task has none). A candidate is a free VM that can hold the task and,
// deadline-aware, ends it by the deadline; whether a time ends it in time
// does not depend on the VM, and a smaller time ends no later, so the
// smallest time on a candidate is that of the first free VM in the task's
// time order (jobInfo.byTime) if it ends in time, and there is none if it
// does not.
// The walk stops there instead of timing every VM that can hold the task;
// the scan (maxMinScan) gives the same value (TestMaxMinTimeIsTheScan).
func (p *cplmt) maxMinTime(s *scheduler, ji *jobInfo) float64 {
	byTime := s.timeOrders(ji)
	s.newMark() // nothing is taken: a free VM is an idle one
	m := 0.0
	k := -1
	for t := range ji.j.Tasks {
		if sameAsPrevious(ji, t) {
			continue // the same candidates and times: the same minimum
		}
		k++
		best := math.Inf(1)
		if i := s.firstFree(byTime[k], 0); i < len(byTime[k]) {
			if et := s.et(ji, t, int(byTime[k][i])); s.inTime(ji, et) {
				best = et
			}
		}
		m = max(m, best)
	}
	return m
}

// maxMinScan is maxMinTime timing every candidate VM of every task.
func maxMinScan(s *scheduler, ji *jobInfo) float64 {
	s.newMark()
	m := 0.0
	for t := range ji.j.Tasks {
		if sameAsPrevious(ji, t) {
			continue // the same candidates and times: the same minimum
		}
		best := math.Inf(1)
		s.candidates(ji, t, func(v int, et float64) { best = min(best, et) })
		m = max(m, best)
	}
	return m
}

// nearestAssign is Algorithm 3's placement: tasks in order, each on the
// free VM whose time is at most maxminet and nearest to it, else on the one
// just above it (still ending by the deadline); nil if a task finds none.
func nearestAssign(s *scheduler, ji *jobInfo, maxminet float64) [][]int {
	groups, _ := s.assignEach(ji, func(t, v int, et float64) float64 {
		if et <= maxminet {
			return maxminet - et // below: nearest first
		}
		return 1 + et // above: > maxminet ≥ every key below, so only if none below
	})
	return groups
}
