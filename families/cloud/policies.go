package cloud

import (
	"math"
)

// newPolicy builds the named scheduler's policy from resolved parameters.
func newPolicy(name string, ps map[string]float64) policy {
	switch name {
	case CPLMT:
		return &cplmt{alpha: ps["alpha"], beta: ps["beta"], gamma: ps["gamma"],
			eps: ps["epsilon"], omega: ps["omega"], eta: ps["eta"], kappa: ps["kappa"]}
	case Fair:
		return &fair{maxShare: int(ps["max_share"])}
	case ASJS:
		return &queue{asjs: true, bwWeight: ps["bw_weight"], blocking: ps["blocking"] == 1, waitBest: ps["wait_best"] == 1}
	case CMMS:
		return minMin{}
	}
	return &queue{blocking: ps["blocking"] == 1}
}

// queue is FIFO (first fit) and ASJS (best score): jobs in arrival order;
// a job that cannot start is passed over, or, blocking, holds back every
// job behind it until it starts or is dropped. ASJS with waitBest scores
// busy VMs too and waits for its best (asjsBest).
type queue struct {
	asjs     bool
	bwWeight float64
	blocking bool
	waitBest bool
}

func (q *queue) arrive(*scheduler, *jobInfo) {}
func (q *queue) leave(*jobInfo)              {}

func (q *queue) schedule(s *scheduler) {
	key := func(t, v int, et float64) float64 { return 0 } // first fit
	if q.asjs {
		key = func(t, v int, et float64) float64 { return -q.score(s, v) }
	}
	assign := func(ji *jobInfo) [][]int {
		g, _ := s.assignEach(ji, key)
		return g
	}
	if q.asjs && q.waitBest {
		assign = func(ji *jobInfo) [][]int { return q.asjsBest(s, ji) }
	}
	for _, ji := range s.waiting {
		if s.idle == 0 {
			return
		}
		g := assign(ji)
		if g == nil {
			if q.blocking {
				return // the head waits; nothing behind it may pass
			}
			continue
		}
		if s.start(ji, g) != nil {
			return
		}
	}
}

// score is ASJS's VM score: weighted bandwidth and speed, each relative to
// the platform's largest.
func (q *queue) score(s *scheduler, v int) float64 {
	return q.bwScore(s, v) + (1-q.bwWeight)*s.w.VMs[v].Speed/s.maxSpeed
}

// bwScore is the bandwidth part of the score.
func (q *queue) bwScore(s *scheduler, v int) float64 {
	if bw := s.w.VMs[v].Bandwidth; s.maxBW > 0 && bw > 0 {
		return q.bwWeight * bw / s.maxBW
	}
	return 0
}

// asjsBest is ASJS waiting for the best resource (§4.2: "ASJS always tries
// to find the best resource, so it always longs the waiting time and it
// also brings the wasting of the resource"). Every VM that can hold a task
// is scored, busy or idle, by the adaptive score of [21]: its bandwidth
// part always, its processing part only while it is idle (a busy VM has
// no processing ability to offer now). Each task in index order takes the
// best-scoring VM not yet taken by the job (ties: an idle VM, then the
// lower number; deadline-aware: only VMs that would end it in time if it
// started now). If one of them is busy the job waits (nil), leaving the
// idle VMs unused, until its best VMs are idle.
func (q *queue) asjsBest(s *scheduler, ji *jobInfo) [][]int {
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

// minMin is CMMS: among the waiting jobs, the one that would complete
// soonest with every task on its fastest free VM starts there; repeat.
type minMin struct{}

func (minMin) arrive(*scheduler, *jobInfo) {}
func (minMin) leave(*jobInfo)              {}

func (minMin) schedule(s *scheduler) {
	fastest := func(t, v int, et float64) float64 { return et }
	for s.idle > 0 {
		var best *jobInfo
		var bestG [][]int
		bestD := math.Inf(1)
		for _, ji := range s.waiting {
			if ji.state != waiting || ji.tried == s.pass {
				continue
			}
			g, d := s.assignEach(ji, fastest)
			if g == nil {
				ji.tried = s.pass // idle VMs only get fewer in this pass
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

// fair is the fair-share scheduler: in arrival order, each waiting job is
// offered an equal share of the idle VMs left (idle / jobs not yet
// offered); a task gets up to min(max_share, share / parallelism) VMs
// (at least one) and its instructions are split over them. A job that
// cannot start is passed over.
type fair struct{ maxShare int }

func (f *fair) arrive(*scheduler, *jobInfo) {}
func (f *fair) leave(*jobInfo)              {}

func (f *fair) schedule(s *scheduler) {
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

// assign gives every task one VM (first fit), then adds VMs to the tasks
// round by round (first fit) until each has k or none is left.
func (f *fair) assign(s *scheduler, ji *jobInfo, k int) [][]int {
	s.newMark()
	groups := make([][]int, len(ji.j.Tasks))
	for round := 0; round < k; round++ {
		added := false
		for t := range groups {
			v := firstCandidate(s, ji, t)
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

// firstCandidate returns the lowest candidate VM of task t, or −1.
func firstCandidate(s *scheduler, ji *jobInfo, t int) int {
	for _, v32 := range ji.capable[t] {
		v := int(v32)
		if s.free(v) && s.inTime(ji, s.et(ji, t, v)) {
			return v
		}
	}
	return -1
}
