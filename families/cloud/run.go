package cloud

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/schedfarm/schedfarm/sim"
)

// PoolName is the name of the platform's one pool: one unit per VM.
const PoolName = "vms"

// Placement is where and when one job ran, from the scheduler's side
// table.
type Placement struct {
	// VMs holds, per task, the VMs the task ran on (one, or several for a
	// task Fair shared); nil for a job that never started.
	VMs [][]int
	// Start and End are the planned start and end (End = Start + the
	// longest task time).
	Start, End float64
	// Infeasible is set for a job that no VMs could finish by its
	// deadline even when it arrived (dropped at once by every scheduler).
	Infeasible bool
}

// Result is the outcome of Run.
type Result struct {
	// Workload is the simulated workload.
	Workload *Workload
	// Scheduler names the scheduler.
	Scheduler string
	// Jobs are the simulated jobs in submit order; Jobs[i] is
	// Workload.Jobs[i], with its ID.
	Jobs []*sim.Job
	// Placements[i] is where Jobs[i] ran.
	Placements []Placement
	// Stats counts the engine's events and passes.
	Stats sim.Stats
	// DeadlineAware is set when the scheduler considered deadlines (CPLMT
	// always; a baseline with deadline_aware = 1): see scheduler.aware.
	DeadlineAware bool
}

// Platform returns the sim platform of w: one pool PoolName with one unit
// per VM. Which VMs a job holds is kept by the scheduler; the pool makes
// the engine count them.
func Platform(w *Workload) sim.Platform {
	return sim.Platform{Pools: []sim.Pool{{Name: PoolName, Capacity: len(w.VMs)}}}
}

// Run simulates w under the named scheduler with params (see Params). The
// workload is not modified.
func Run(w *Workload, name string, params map[string]any) (*Result, error) {
	return run(w, name, params, nil)
}

// run is Run with the scheduler wrapped by wrap (nil: not wrapped), as the
// invariant suite records it.
func run(w *Workload, name string, params map[string]any, wrap func(sim.Scheduler) sim.Scheduler) (*Result, error) {
	if err := w.Validate(); err != nil {
		return nil, err
	}
	built, err := registry().NewOn(name, Platform(w), w, params)
	if err != nil {
		return nil, fmt.Errorf("cloud: %w", err)
	}
	s := built.(*scheduler)
	jobs := make([]*sim.Job, len(w.Jobs))
	for i := range w.Jobs {
		j := &w.Jobs[i]
		work := 0.0
		for _, t := range j.Tasks {
			work = math.Max(work, t.Instructions)
		}
		// Work is the longest task on a standard machine; the scheduler
		// sets the rate that makes it last as long as its VMs take.
		jobs[i] = sim.NewJob(j.ID, j.Submit, []int{len(j.Tasks)}, work, work, 0)
		s.info[i].sj, s.info[i].work = jobs[i], work
		s.byJob[jobs[i]] = &s.info[i]
	}
	var sched sim.Scheduler = s
	if wrap != nil {
		sched = wrap(s)
	}
	out, st, err := sim.Run(Platform(w), sched, sim.NewSliceStream(jobs), nil)
	if err == nil {
		err = s.err
	}
	if err != nil {
		return nil, fmt.Errorf("cloud: %s: %w", name, err)
	}
	r := &Result{Workload: w, Scheduler: name, Jobs: out, Placements: make([]Placement, len(out)), Stats: st, DeadlineAware: s.aware}
	for i := range s.info {
		ji := &s.info[i]
		r.Placements[i] = Placement{VMs: ji.groups, Start: ji.start, End: ji.end, Infeasible: ji.infeasible}
	}
	return r, nil
}

// Job states in the scheduler's side table.
const (
	pending uint8 = iota // not yet arrived
	waiting
	running
	gone // ended, or dropped
)

// jobInfo is the side table entry of one job: what the engine does not
// know about it.
type jobInfo struct {
	idx   int
	j     *Job
	sj    *sim.Job
	state uint8
	abs   float64 // absolute deadline
	tol   float64 // deadline tolerance (rounding)
	work  float64
	// capable[t] lists the VMs (ascending) that can hold task t at all.
	capable [][]int32
	// byIdle[t] and byBusy[t] are capable[t] in ASJS's two score orders
	// (queue.asjsOrders), made when the job is first assigned.
	byIdle, byBusy [][]int32
	// byTime[k] lists the VMs that can hold the k-th distinct task (a task
	// equal to the one before it is not listed again) by its time on them,
	// ascending, ties by VM number (timeOrders): CPLMT's and CMMS's, made
	// when the job is first assigned.
	byTime [][]int32
	// lst is the latest start at which some VMs could still finish the
	// job by its deadline (−Inf: none ever can).
	lst        float64
	infeasible bool
	groups     [][]int
	start, end float64
	tried      uint32 // pass stamp: could not start in this pass
}

// meets reports whether a task time et started now ends by the deadline.
func (ji *jobInfo) meets(now, et float64) bool { return now+et <= ji.abs+ji.tol }

// dropAt is when a waiting job is dropped: at its latest start
// (deadline-aware) or at its deadline (unaware).
func (ji *jobInfo) dropAt(aware bool) float64 {
	if aware {
		return ji.lst
	}
	return ji.abs
}

// policy is one scheduler of the family: it starts waiting jobs through
// scheduler.start during a pass.
type policy interface {
	// arrive is called once when a job arrives, leave when it starts or is
	// dropped.
	arrive(s *scheduler, ji *jobInfo)
	leave(ji *jobInfo)
	// schedule starts what it wants of s.waiting on idle VMs.
	schedule(s *scheduler)
}

// scheduler is the sim.Scheduler shared by the family: it keeps the side
// tables (tasks, VMs held, deadlines), drops jobs that can no longer meet
// their deadline, and lets its policy choose.
//
// Deadline-aware (CPLMT's Check(), Fig. 3; a baseline's deadline_aware
// reading): a task is offered only VMs that end it by the deadline, a job
// no VMs can finish in time is dropped on arrival, and a waiting job is
// dropped at its latest start. Deadline-unaware (the baselines of §4.2 by
// default): a task is offered every idle VM that can hold it, a started
// job runs to its end even past its deadline (holding its VMs, §1) and is
// then unfinished, and a waiting job expires at its deadline.
type scheduler struct {
	w       *Workload
	pol     policy
	aware   bool
	info    []jobInfo
	byJob   map[*sim.Job]*jobInfo
	busy    []bool
	idle    int
	waiting []*jobInfo // arrival order
	c       *sim.Cluster
	now     float64
	pass    uint32
	err     error
	// maxSpeed and maxBW are the platform's largest speed and bandwidth.
	maxSpeed, maxBW float64
	// taken marks VMs chosen for the job being assigned (stamp = mark).
	taken []uint32
	mark  uint32
	// pick and pick2 are scratch one-VM-per-task assignments (assignInto,
	// CMMS keeping its best in pick2), so that an attempt that fails
	// allocates nothing; prepare uses pick and vmBuf for its lists.
	pick, pick2 []int
	vmBuf       []int32
	// timed is timeOrders's scratch space.
	timed []timedVM
	// bySpeed lists the VMs by speed, fastest first (ties: lower number):
	// with no transfer time a task's times in this order are ascending
	// (CPLMT's arrive).
	bySpeed []int32
}

func newScheduler(w *Workload, p policy, aware bool) *scheduler {
	s := &scheduler{w: w, pol: p, aware: aware, info: make([]jobInfo, len(w.Jobs)), byJob: make(map[*sim.Job]*jobInfo, len(w.Jobs)),
		busy: make([]bool, len(w.VMs)), idle: len(w.VMs), taken: make([]uint32, len(w.VMs))}
	for i := range w.Jobs {
		s.info[i].idx = i
		s.info[i].j = &w.Jobs[i]
	}
	for _, v := range w.VMs {
		s.maxSpeed = math.Max(s.maxSpeed, v.Speed)
		s.maxBW = math.Max(s.maxBW, v.Bandwidth)
	}
	s.bySpeed = make([]int32, len(w.VMs))
	for v := range s.bySpeed {
		s.bySpeed[v] = int32(v)
	}
	slices.SortStableFunc(s.bySpeed, func(a, b int32) int { return cmp.Compare(w.VMs[b].Speed, w.VMs[a].Speed) })
	return s
}

// Pass implements sim.Scheduler.
func (s *scheduler) Pass(c *sim.Cluster, ch sim.Changes) {
	s.c, s.now = c, c.Now()
	s.pass++
	for _, sj := range ch.Ended {
		ji := s.byJob[sj]
		for _, g := range ji.groups {
			for _, v := range g {
				s.busy[v] = false
				s.idle++
			}
		}
		ji.state = gone
	}
	for _, sj := range ch.Arrived {
		ji := s.byJob[sj]
		s.prepare(ji)
		ji.state = waiting
		s.waiting = append(s.waiting, ji)
		s.pol.arrive(s, ji)
	}
	if s.aware {
		// Jobs that no VMs could finish in time any more (only arrivals
		// can be late here: a waiting job is dropped at its latest start).
		s.drop(func(ji *jobInfo) bool { return ji.infeasible })
	} else {
		// Jobs whose deadline has come while they waited.
		s.drop(func(ji *jobInfo) bool { return ji.abs <= s.now })
	}
	s.compact()
	s.pol.schedule(s)
	if s.aware {
		s.drop(func(ji *jobInfo) bool { return ji.lst <= s.now })
		s.compact()
	}
	wake := math.Inf(1)
	for _, ji := range s.waiting {
		wake = min(wake, ji.dropAt(s.aware))
	}
	if !math.IsInf(wake, 1) {
		c.WakeAt(wake)
	}
}

// prepare fills the static side-table entries of a job that arrives. A
// task equal to the one before it (same demands and instructions: the
// tasks of a job under the copied and split readings) has the same capable
// VMs and best time: it shares the list. The lists share one allocation.
func (s *scheduler) prepare(ji *jobInfo) {
	j := ji.j
	ji.abs = j.Submit + j.Deadline
	ji.tol = 1e-9 * math.Max(1, math.Abs(ji.abs))
	ji.capable = make([][]int32, len(j.Tasks))
	buf, ends := s.vmBuf[:0], s.pick[:0] // ends[t]: where task t's list ends in buf
	maxmin := 0.0
	for t := range j.Tasks {
		tk := &j.Tasks[t]
		if t == 0 || *tk != j.Tasks[t-1] {
			best := math.Inf(1)
			for v := range s.w.VMs {
				vm := &s.w.VMs[v]
				if Fits(tk, vm) {
					buf = append(buf, int32(v))
					best = min(best, s.w.ExecTime(j, tk, vm))
				}
			}
			maxmin = max(maxmin, best)
		}
		ends = append(ends, len(buf))
	}
	s.vmBuf, s.pick = buf, ends
	back := make([]int32, len(buf))
	copy(back, buf)
	for t := range j.Tasks {
		if t > 0 && ends[t] == ends[t-1] && j.Tasks[t] == j.Tasks[t-1] {
			ji.capable[t] = ji.capable[t-1]
			continue
		}
		lo := 0
		if t > 0 {
			lo = ends[t-1]
		}
		ji.capable[t] = back[lo:ends[t]:ends[t]]
	}
	ji.lst = ji.abs - maxmin
	if ji.lst < j.Submit-ji.tol || math.IsInf(maxmin, 1) {
		ji.lst = math.Inf(-1)
		ji.infeasible = true
	}
}

// drop rejects every waiting job for which late says so.
func (s *scheduler) drop(late func(*jobInfo) bool) {
	for _, ji := range s.waiting {
		if ji.state != waiting || !late(ji) {
			continue
		}
		// The reasons are constants: formatting the deadline into each
		// was a tenth of FIFO's run (the job carries its deadline).
		reason := "cannot end by its deadline: no idle VMs could finish it in time"
		switch {
		case !s.aware:
			reason = "its deadline came while it waited"
		case ji.infeasible:
			reason = "cannot end by its deadline on any VMs"
		}
		if err := s.c.Reject(ji.sj, reason); err != nil {
			s.fail(err)
			return
		}
		ji.state = gone
		s.pol.leave(ji)
		ji.capable, ji.byTime = nil, nil
	}
}

// compact removes the jobs that left the waiting list.
func (s *scheduler) compact() {
	k := 0
	for _, ji := range s.waiting {
		if ji.state == waiting {
			s.waiting[k] = ji
			k++
		}
	}
	clear(s.waiting[k:])
	s.waiting = s.waiting[:k]
}

func (s *scheduler) fail(err error) {
	if s.err == nil {
		s.err = err
	}
}

// et is the time task t of ji takes on VM v.
func (s *scheduler) et(ji *jobInfo, t, v int) float64 {
	return s.w.ExecTime(ji.j, &ji.j.Tasks[t], &s.w.VMs[v])
}

// within returns the VMs of order (every VM of the platform, in some order)
// that are in c, in that order: order itself when c holds every VM. It
// marks c's VMs with the assignment marks (newMark), so it is called
// between assignments.
func (s *scheduler) within(order, c []int32) []int32 {
	if len(c) == len(order) {
		return order
	}
	s.newMark()
	for _, v := range c {
		s.taken[v] = s.mark
	}
	out := make([]int32, 0, len(c))
	for _, v := range order {
		if s.taken[v] == s.mark {
			out = append(out, v)
		}
	}
	return out
}

// newMark starts a new assignment: no VM is taken.
func (s *scheduler) newMark() {
	s.mark++
	if s.mark == 0 {
		clear(s.taken)
		s.mark = 1
	}
}

// free reports whether VM v is idle and not yet taken by the assignment
// being built.
func (s *scheduler) free(v int) bool { return !s.busy[v] && s.taken[v] != s.mark }

// candidates calls fn for every VM that could run task t of ji now: idle,
// not taken by the assignment being built, able to hold it, and —
// deadline-aware — fast enough to end it by the deadline; in ascending VM
// order.
func (s *scheduler) candidates(ji *jobInfo, t int, fn func(v int, et float64)) {
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

// inTime reports whether a task time et started now is acceptable: it ends
// by the job's deadline, or the scheduler does not look at deadlines.
func (s *scheduler) inTime(ji *jobInfo, et float64) bool { return !s.aware || ji.meets(s.now, et) }

// assignEach builds a one-VM-per-task assignment, tasks in index order,
// each taking the candidate with the smallest key (ties: lowest VM). It
// returns nil if some task has no candidate, else the assignment and the
// job's duration (its longest task).
func (s *scheduler) assignEach(ji *jobInfo, key func(t, v int, et float64) float64) ([][]int, float64) {
	pick, dur := s.assignInto(s.scratch(len(ji.j.Tasks)), ji, key)
	if pick == nil {
		return nil, 0
	}
	return groupsOf(pick), dur
}

// assignInto is assignEach writing task t's VM into pick[t] (len(pick) is
// the number of tasks): it returns pick, or nil if some task has no
// candidate, and the job's duration.
func (s *scheduler) assignInto(pick []int, ji *jobInfo, key func(t, v int, et float64) float64) ([]int, float64) {
	if len(pick) > s.idle {
		return nil, 0 // a VM per task, distinct: too few idle
	}
	s.newMark()
	dur := 0.0
	for t := range ji.j.Tasks {
		best, bestKey, bestEt := -1, math.Inf(1), 0.0
		s.candidates(ji, t, func(v int, et float64) {
			if k := key(t, v, et); best < 0 || k < bestKey {
				best, bestKey, bestEt = v, k, et
			}
		})
		if best < 0 {
			return nil, 0
		}
		s.taken[best] = s.mark
		pick[t] = best
		dur = max(dur, bestEt)
	}
	return pick, dur
}

// scratch returns s.pick with length n.
func (s *scheduler) scratch(n int) []int {
	if cap(s.pick) < n {
		s.pick = make([]int, n)
	}
	return s.pick[:n]
}

// groupsOf returns the task groups of a one-VM-per-task assignment: a
// fresh copy (groups[t] = [pick[t]], capacity 1).
func groupsOf(pick []int) [][]int {
	back := slices.Clone(pick)
	groups := make([][]int, len(pick))
	for t := range groups {
		groups[t] = back[t : t+1 : t+1]
	}
	return groups
}

// start starts ji now with groups[t] the VMs of task t. It checks what the
// engine cannot (distinct idle VMs that hold every task, the deadline met
// when the scheduler is deadline-aware) and sets the job's rate so that it lasts as long as its slowest task.
func (s *scheduler) start(ji *jobInfo, groups [][]int) error {
	j := ji.j
	if ji.state != waiting || len(groups) != len(j.Tasks) {
		return s.bad(fmt.Errorf("cloud: job %d: start with %d task groups in state %d; accepted: a waiting job, one group per task (%d)", j.ID, len(groups), ji.state, len(j.Tasks)))
	}
	s.newMark()
	dur, n := 0.0, 0
	for t, g := range groups {
		if len(g) == 0 {
			return s.bad(fmt.Errorf("cloud: job %d task %d has no VM", j.ID, t))
		}
		for _, v := range g {
			if v < 0 || v >= len(s.w.VMs) || !s.free(v) || !Fits(&j.Tasks[t], &s.w.VMs[v]) {
				return s.bad(fmt.Errorf("cloud: job %d task %d on VM %d: busy, used twice or too small", j.ID, t, v))
			}
			s.taken[v] = s.mark
		}
		dur = max(dur, s.w.GroupTime(j, &j.Tasks[t], g))
		n += len(g)
	}
	if !s.inTime(ji, dur) {
		return s.bad(fmt.Errorf("cloud: job %d would end at %g, after its deadline %g", j.ID, s.now+dur, ji.abs))
	}
	var err error
	if n == len(j.Tasks) {
		err = s.c.Start(ji.sj)
	} else {
		err = s.c.StartShaped(ji.sj, []int{n})
	}
	if err == nil {
		err = s.c.SetRate(ji.sj, ji.work/dur)
	}
	if err != nil {
		return s.bad(err)
	}
	for _, g := range groups {
		for _, v := range g {
			s.busy[v] = true
		}
	}
	s.idle -= n
	ji.state, ji.groups, ji.start, ji.end = running, groups, s.now, s.now+dur
	s.pol.leave(ji)
	ji.capable, ji.byTime = nil, nil
	return nil
}

// bad records a policy error; Run returns it.
func (s *scheduler) bad(err error) error {
	s.fail(err)
	return err
}
