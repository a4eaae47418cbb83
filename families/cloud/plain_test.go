package cloud

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/workload/seed001"
)

// The schedulers' shortcuts (issue 25: CPLMT's times listed in speed order
// without a sort, tasks equal to the one before sharing their lists and
// searches, scratch assignments, cached ASJS scores) are checked against
// the plain computation: the policies below are the family's code before
// them, and a run with them must give exactly the same result.

// plainPrepare is scheduler.prepare without shared lists.
func plainPrepare(s *scheduler, ji *jobInfo) {
	j := ji.j
	ji.abs = j.Submit + j.Deadline
	ji.tol = 1e-9 * math.Max(1, math.Abs(ji.abs))
	ji.capable = make([][]int32, len(j.Tasks))
	ji.infeasible = false
	maxmin := 0.0
	for t := range j.Tasks {
		tk := &j.Tasks[t]
		best := math.Inf(1)
		for v := range s.w.VMs {
			vm := &s.w.VMs[v]
			if Fits(tk, vm) {
				ji.capable[t] = append(ji.capable[t], int32(v))
				best = math.Min(best, s.w.ExecTime(j, tk, vm))
			}
		}
		maxmin = math.Max(maxmin, best)
	}
	ji.lst = ji.abs - maxmin
	if ji.lst < j.Submit-ji.tol || math.IsInf(maxmin, 1) {
		ji.lst = math.Inf(-1)
		ji.infeasible = true
	}
}

func plainCandidates(s *scheduler, ji *jobInfo, t int, fn func(v int, et float64)) {
	for _, v32 := range ji.capable[t] {
		v := int(v32)
		if !s.free(v) {
			continue
		}
		if et := s.et(ji, t, v); s.inTime(ji, et) {
			fn(v, et)
		}
	}
}

func plainAssignEach(s *scheduler, ji *jobInfo, key func(t, v int, et float64) float64) ([][]int, float64) {
	s.newMark()
	groups := make([][]int, len(ji.j.Tasks))
	dur := 0.0
	for t := range ji.j.Tasks {
		best, bestKey, bestEt := -1, math.Inf(1), 0.0
		plainCandidates(s, ji, t, func(v int, et float64) {
			if k := key(t, v, et); best < 0 || k < bestKey {
				best, bestKey, bestEt = v, k, et
			}
		})
		if best < 0 {
			return nil, 0
		}
		s.taken[best] = s.mark
		groups[t] = []int{best}
		dur = math.Max(dur, bestEt)
	}
	return groups, dur
}

func plainFirstCandidate(s *scheduler, ji *jobInfo, t int) int {
	for _, v32 := range ji.capable[t] {
		v := int(v32)
		if s.free(v) && s.inTime(ji, s.et(ji, t, v)) {
			return v
		}
	}
	return -1
}

// plainQueue is FIFO and ASJS.
type plainQueue struct{ q *queue }

func (p plainQueue) arrive(s *scheduler, ji *jobInfo) { plainPrepare(s, ji) }
func (plainQueue) leave(*jobInfo)                     {}

func (p plainQueue) schedule(s *scheduler) {
	q := p.q
	key := func(t, v int, et float64) float64 { return 0 } // first fit
	if q.asjs {
		key = func(t, v int, et float64) float64 { return -q.score(s, v) }
	}
	assign := func(ji *jobInfo) [][]int {
		g, _ := plainAssignEach(s, ji, key)
		return g
	}
	if q.asjs && q.waitBest {
		assign = func(ji *jobInfo) [][]int { return p.asjsBest(s, ji) }
	}
	for _, ji := range s.waiting {
		if s.idle == 0 {
			return
		}
		g := assign(ji)
		if g == nil {
			if q.blocking {
				return
			}
			continue
		}
		if s.start(ji, g) != nil {
			return
		}
	}
}

func (p plainQueue) asjsBest(s *scheduler, ji *jobInfo) [][]int {
	q := p.q
	s.newMark()
	groups := make([][]int, len(ji.j.Tasks))
	for t := range ji.j.Tasks {
		best, bestScore, bestIdle := -1, math.Inf(-1), false
		for _, v32 := range ji.capable[t] {
			v := int(v32)
			if s.taken[v] == s.mark || !s.inTime(ji, s.et(ji, t, v)) {
				continue
			}
			idle := !s.busy[v]
			sc := q.bwScore(s, v)
			if idle {
				sc = q.score(s, v)
			}
			if best < 0 || sc > bestScore || (sc == bestScore && idle && !bestIdle) {
				best, bestScore, bestIdle = v, sc, idle
			}
		}
		if best < 0 || !bestIdle {
			return nil
		}
		s.taken[best] = s.mark
		groups[t] = []int{best}
	}
	return groups
}

// plainFair is Fair.
type plainFair struct{ maxShare int }

func (plainFair) arrive(s *scheduler, ji *jobInfo) { plainPrepare(s, ji) }
func (plainFair) leave(*jobInfo)                   {}

func (f plainFair) schedule(s *scheduler) {
	left := len(s.waiting)
	for _, ji := range s.waiting {
		if s.idle == 0 {
			return
		}
		share := s.idle / left
		left--
		k := min(f.maxShare, max(1, share/len(ji.j.Tasks)))
		if g := f.assign(s, ji, k); g != nil {
			if s.start(ji, g) != nil {
				return
			}
		}
	}
}

func (f plainFair) assign(s *scheduler, ji *jobInfo, k int) [][]int {
	s.newMark()
	groups := make([][]int, len(ji.j.Tasks))
	for round := 0; round < k; round++ {
		added := false
		for t := range groups {
			v := plainFirstCandidate(s, ji, t)
			if v < 0 {
				if round == 0 {
					return nil
				}
				continue
			}
			s.taken[v] = s.mark
			groups[t] = append(groups[t], v)
			added = true
		}
		if !added {
			break
		}
	}
	return groups
}

// plainMinMin is CMMS.
type plainMinMin struct{}

func (plainMinMin) arrive(s *scheduler, ji *jobInfo) { plainPrepare(s, ji) }
func (plainMinMin) leave(*jobInfo)                   {}

func (plainMinMin) schedule(s *scheduler) {
	fastest := func(t, v int, et float64) float64 { return et }
	for s.idle > 0 {
		var best *jobInfo
		var bestG [][]int
		bestD := math.Inf(1)
		for _, ji := range s.waiting {
			if ji.state != waiting || ji.tried == s.pass {
				continue
			}
			g, d := plainAssignEach(s, ji, fastest)
			if g == nil {
				ji.tried = s.pass
				continue
			}
			if d < bestD {
				best, bestG, bestD = ji, g, d
			}
		}
		if best == nil || s.start(best, bestG) != nil {
			return
		}
	}
}

// plainCplmt is CPLMT, each task's times sorted on arrival.
type plainCplmt struct {
	p    *cplmt
	data map[int]*plainCpData
}

type plainCpData struct {
	cpuET, satET  [][]float64
	jovMEM, jovBW int
	rank          int
	tovload       float64
}

func (pc *plainCplmt) arrive(s *scheduler, ji *jobInfo) {
	plainPrepare(s, ji)
	p := pc.p
	d := &plainCpData{}
	pc.data[ji.idx] = d
	j := ji.j
	d.cpuET = make([][]float64, len(j.Tasks))
	d.satET = make([][]float64, len(j.Tasks))
	for t := range j.Tasks {
		tk := &j.Tasks[t]
		ovMEM, ovBW := 0, 0
		all := make([]float64, len(s.w.VMs))
		var sat []float64
		for v := range s.w.VMs {
			vm := &s.w.VMs[v]
			et := s.w.ExecTime(j, tk, vm)
			all[v] = et
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
		slices.Sort(all)
		slices.Sort(sat)
		d.cpuET[t], d.satET[t] = all, sat
		d.jovMEM, d.jovBW = max(d.jovMEM, ovMEM), max(d.jovBW, ovBW)
	}
}

func (pc *plainCplmt) leave(ji *jobInfo) { delete(pc.data, ji.idx) }

func (pc *plainCplmt) classify(s *scheduler, ji *jobInfo) Class {
	p := pc.p
	d := pc.data[ji.idx]
	n := len(s.w.VMs)
	lim := p.alpha * (ji.abs - s.now)
	c := Class{JovMEM: d.jovMEM, JovBW: d.jovBW, Num: n}
	for t := range d.cpuET {
		ok := sort.Search(len(d.cpuET[t]), func(i int) bool { return d.cpuET[t][i] > lim })
		c.JovCPU = max(c.JovCPU, n-ok)
		c.Num = min(c.Num, sort.Search(len(d.satET[t]), func(i int) bool { return d.satET[t][i] > lim }))
	}
	c.UJob = float64(c.Num)/float64(len(d.cpuET)) <= p.kappa
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

func (pc *plainCplmt) schedule(s *scheduler) {
	if s.idle == 0 {
		return
	}
	for _, ji := range s.waiting {
		c := pc.classify(s, ji)
		pc.data[ji.idx].rank, pc.data[ji.idx].tovload = c.Rank, c.Tovload
	}
	for s.idle > 0 {
		var best *jobInfo
		bestRank, bestMt, bestM := math.MaxInt, math.Inf(1), 0.0
		for _, ji := range s.waiting {
			d := pc.data[ji.idx]
			if ji.state != waiting || ji.tried == s.pass || d.rank > bestRank {
				continue
			}
			m := plainMaxMinTime(s, ji)
			if math.IsInf(m, 1) {
				ji.tried = s.pass
				continue
			}
			mt := m / (1 + d.tovload)
			if d.rank < bestRank || mt < bestMt {
				best, bestRank, bestMt, bestM = ji, d.rank, mt, m
			}
		}
		if best == nil {
			return
		}
		g, _ := plainAssignEach(s, best, func(t, v int, et float64) float64 {
			if et <= bestM {
				return bestM - et
			}
			return 1 + et
		})
		if g == nil {
			best.tried = s.pass
			continue
		}
		if s.start(best, g) != nil {
			return
		}
	}
}

func plainMaxMinTime(s *scheduler, ji *jobInfo) float64 {
	s.newMark()
	m := 0.0
	for t := range ji.j.Tasks {
		best := math.Inf(1)
		plainCandidates(s, ji, t, func(v int, et float64) { best = math.Min(best, et) })
		m = math.Max(m, best)
	}
	return m
}

// plainRun is run with the scheduler's policy replaced by its plain
// version.
func plainRun(t *testing.T, w *Workload, name string, params map[string]any) *Result {
	t.Helper()
	r, err := run(w, name, params, func(sc sim.Scheduler) sim.Scheduler {
		s := sc.(*scheduler)
		switch p := s.pol.(type) {
		case *queue:
			s.pol = plainQueue{p}
		case *fair:
			s.pol = plainFair{p.maxShare}
		case minMin:
			s.pol = plainMinMin{}
		case *cplmt:
			s.pol = &plainCplmt{p: p, data: map[int]*plainCpData{}}
		default:
			t.Fatalf("no plain version of %T", p)
		}
		return s
	})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// sameResult reports the first difference between two runs' results.
func sameResult(a, b *Result) error {
	if a.Stats != b.Stats {
		return fmt.Errorf("stats %+v, plain %+v", a.Stats, b.Stats)
	}
	for i := range a.Jobs {
		ja, jb := a.Jobs[i], b.Jobs[i]
		pa, pb := a.Placements[i], b.Placements[i]
		if ja.State() != jb.State() || ja.Start() != jb.Start() || ja.End() != jb.End() || ja.Reason() != jb.Reason() ||
			pa.Start != pb.Start || pa.End != pb.End || pa.Infeasible != pb.Infeasible || !slices.EqualFunc(pa.VMs, pb.VMs, slices.Equal) {
			return fmt.Errorf("job %d: %s [%g, %g] %v %+v; plain %s [%g, %g] %v %+v", ja.ID,
				ja.State(), ja.Start(), ja.End(), pa.VMs, pa, jb.State(), jb.Start(), jb.End(), pb.VMs, pb)
		}
	}
	return nil
}

// plainWorkloads are random clouds for the cross-check: randomWorkload's
// ties (speeds 1, 2, 4; integer demands; input files), the same with most
// jobs' tasks equal (as the copied reading makes them) and speeds whose
// quotients round to ties, and seed001 clouds of both variants under every
// tasks reading (the methodological one with transfer times).
func plainWorkloads(seed uint64) map[string]*Workload {
	rng := rand.New(rand.NewPCG(seed, 0x9a1e))
	out := map[string]*Workload{"random": randomWorkload(rng, 12, 250)}
	w := randomWorkload(rng, 16, 250)
	speeds := []float64{1, 3, 0.1, 0.3, 1.0 / 3, 3.0000000000000004, 0.7, 7}
	for v := range w.VMs {
		w.VMs[v].Speed = speeds[rng.IntN(len(speeds))]
		if rng.IntN(8) == 0 {
			w.VMs[v].Bandwidth = 0 // no transfer time on it (and holds no bandwidth demand)
		}
	}
	for i := range w.Jobs {
		j := &w.Jobs[i]
		if rng.IntN(4) != 0 {
			for t := range j.Tasks {
				j.Tasks[t] = j.Tasks[0]
			}
		} else if len(j.Tasks) > 2 {
			j.Tasks[2] = j.Tasks[1] // equal neighbours after a different first task
		}
		if rng.IntN(3) == 0 {
			j.Tasks[0].Instructions = 0.1 * float64(1+rng.IntN(30))
		}
	}
	out["equal-tasks"] = w
	for _, variant := range []string{seed001.Simulation, seed001.Methodological} {
		for _, tasks := range seed001.TasksReadings() {
			for _, dl := range []string{DeadlineUnits, DeadlineRelative} {
				v, err := WorkloadModel().Decode(map[string]any{"variant": variant, "jobs": 150, "vms": 20, "rate": 3.0, "deadline": dl, "tasks": tasks})
				if err != nil {
					panic(err)
				}
				gw, err := Seed001Workload(v, rand.New(rand.NewPCG(seed, 0x5eed)))
				if err != nil {
					panic(err)
				}
				out[variant+"-"+tasks+"-"+dl] = gw
			}
		}
	}
	return out
}

// TestPlainComputation: every scheduler, under every reading the invariant
// suite runs, gives exactly the plain computation's result.
func TestPlainComputation(t *testing.T) {
	for _, v := range variants() {
		t.Run(fmt.Sprintf("%s%v", v.name, v.params), func(t *testing.T) {
			t.Parallel()
			for seed := uint64(1); seed <= 3; seed++ {
				ws := plainWorkloads(seed)
				names := make([]string, 0, len(ws))
				for n := range ws {
					names = append(names, n)
				}
				slices.Sort(names)
				for _, n := range names {
					a, b := runT(t, ws[n], v.name, v.params), plainRun(t, ws[n], v.name, v.params)
					if err := sameResult(a, b); err != nil {
						t.Fatalf("seed %d %s: %v", seed, n, err)
					}
				}
			}
		})
	}
}

// TestCPLMTTimesAsSorted: arrive's lists are the per-task sorted times,
// with and without transfer times, ties included.
func TestCPLMTTimesAsSorted(t *testing.T) {
	sorted := 0
	for seed := uint64(1); seed <= 4; seed++ {
		for n, w := range plainWorkloads(seed) {
			s := newScheduler(w, nil, true)
			p := &cplmt{alpha: 1, beta: 1, gamma: 1, eps: 0.8, omega: 0.8, eta: 0.8, kappa: 15}
			ref := &plainCplmt{p: p, data: map[int]*plainCpData{}}
			for i := range s.info {
				ji := &s.info[i]
				p.arrive(s, ji)
				ref.arrive(s, ji)
				d, rd := &p.data[i], ref.data[i]
				k := -1
				for tk := range ji.j.Tasks {
					if !sameAsPrevious(ji, tk) {
						k++
					}
					if !slices.Equal(d.cpuET[k], rd.cpuET[tk]) || !slices.Equal(d.satET[k], rd.satET[tk]) {
						t.Fatalf("seed %d %s job %d task %d: times %v / %v, sorted %v / %v", seed, n, ji.j.ID, tk, d.cpuET[k], d.satET[k], rd.cpuET[tk], rd.satET[tk])
					}
					if w.TransferScale == 0 || ji.j.InputSize == 0 {
						sorted++
					}
				}
				if k+1 != len(d.cpuET) || d.par != len(ji.j.Tasks) || d.jovMEM != rd.jovMEM || d.jovBW != rd.jovBW {
					t.Fatalf("seed %d %s job %d: %d lists, par %d, jov %d %d; plain %d %d", seed, n, ji.j.ID, len(d.cpuET), d.par, d.jovMEM, d.jovBW, rd.jovMEM, rd.jovBW)
				}
			}
		}
	}
	if sorted == 0 {
		t.Fatal("no task without transfer time")
	}
}
