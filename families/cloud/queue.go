package cloud

// queue is FIFO (first fit) and ASJS (best score): jobs in arrival order;
// a job that cannot start is passed over, or, blocking, holds back every
// job behind it until it starts or is dropped. ASJS with waitBest scores
// busy VMs too and waits for its best (asjsBest).
type queue struct {
	asjs     bool
	bwWeight float64
	blocking bool
	waitBest bool
	// idleScore[v] and busyScore[v] are ASJS's scores of VM v (score,
	// bwScore), computed once; unordered when one of them is NaN, which
	// no order ranks as the scan does (asjsBest then scans).
	idleScore, busyScore []float64
	unordered            bool
	// idleOrder and busyOrder are the VMs by descending idle and busy
	// score, ties by number.
	idleOrder, busyOrder []int32
}

func (q *queue) arrive(*scheduler, *jobInfo) {}

// leave drops the job's ASJS orders with its capable lists.
func (q *queue) leave(ji *jobInfo) { ji.byIdle, ji.byBusy = nil, nil }

func (q *queue) schedule(s *scheduler) {
	assign := func(ji *jobInfo) [][]int { return firstFit(s, ji) }
	if q.asjs {
		q.scores(s)
		key := func(t, v int, et float64) float64 { return -q.idleScore[v] }
		assign = func(ji *jobInfo) [][]int {
			g, _ := s.assignEach(ji, key)
			return g
		}
		if q.waitBest {
			assign = func(ji *jobInfo) [][]int { return q.asjsBest(s, ji) }
		}
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

// firstFit is FIFO's assignment: each task in index order on its lowest
// candidate VM (assignEach with a constant key); nil if a task has none.
func firstFit(s *scheduler, ji *jobInfo) [][]int {
	if len(ji.j.Tasks) > s.idle {
		return nil // a VM per task, distinct: too few idle
	}
	s.newMark()
	pick := s.scratch(len(ji.j.Tasks))
	from := 0
	for t := range pick {
		if !sameAsPrevious(ji, t) {
			from = 0
		}
		v, next := firstCandidateFrom(s, ji, t, from)
		if v < 0 {
			return nil
		}
		s.taken[v] = s.mark
		pick[t], from = v, next
	}
	return groupsOf(pick)
}

// sameAsPrevious reports whether task t of ji equals task t−1 (demands and
// instructions): then it has the same capable VMs, in the same order, and
// the same time on each.
func sameAsPrevious(ji *jobInfo, t int) bool {
	return t > 0 && ji.j.Tasks[t] == ji.j.Tasks[t-1]
}

// firstCandidateFrom returns the first candidate VM of task t at or after
// position from of its capable list, and the position after it (−1 and the
// list's length if none). Within one assignment a task equal to the one
// before it can start where that one's search ended: the VMs before it
// were no candidates for the same task and, VMs only being taken, are
// none now.
func firstCandidateFrom(s *scheduler, ji *jobInfo, t, from int) (int, int) {
	c := ji.capable[t]
	for i := from; i < len(c); i++ {
		v := int(c[i])
		if s.free(v) && (!s.aware || ji.meets(s.now, s.et(ji, t, v))) {
			return v, i + 1
		}
	}
	return -1, len(c)
}
