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
		return &queue{asjs: true, bwWeight: ps["bw_weight"], blocking: ps["blocking"] == 1}
	case CMMS:
		return minMin{}
	}
	return &queue{blocking: ps["blocking"] == 1}
}

// queue is FIFO (first fit) and ASJS (best score): jobs in arrival order;
// a job that cannot start is passed over, or, blocking, holds back every
// job behind it until it starts or is dropped.
type queue struct {
	asjs     bool
	bwWeight float64
	blocking bool
}

func (q *queue) arrive(*scheduler, *jobInfo) {}
func (q *queue) leave(*jobInfo)              {}

func (q *queue) schedule(s *scheduler) {
	key := func(t, v int, et float64) float64 { return 0 } // first fit
	if q.asjs {
		key = func(t, v int, et float64) float64 { return -q.score(s, v) }
	}
	for _, ji := range s.waiting {
		if s.idle == 0 {
			return
		}
		g, _ := s.assignEach(ji, key)
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
	vm := &s.w.VMs[v]
	sc := (1 - q.bwWeight) * vm.Speed / s.maxSpeed
	if s.maxBW > 0 && vm.Bandwidth > 0 {
		sc += q.bwWeight * vm.Bandwidth / s.maxBW
	}
	return sc
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
		if s.free(v) && ji.meets(s.now, s.et(ji, t, v)) {
			return v
		}
	}
	return -1
}
