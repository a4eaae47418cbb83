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
