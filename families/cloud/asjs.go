package cloud

import (
	"cmp"
	"math"
	"slices"

	"github.com/schedfarm/schedfarm/param"
	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/strategies"
)

// ASJS is the adaptive-scoring baseline of §4.2 ([21]).
const ASJS = "asjs"

func asjsEntry() strategies.Entry {
	return strategies.Entry{
		Name:     ASJS,
		Summary:  "seed 001 ASJS: the FIFO queue, each task on the VM of best bandwidth-and-speed score, waiting for its best VMs (§4.2, [21])",
		Platform: string(Output),
		Params: []param.Spec{
			{Name: "bw_weight", Kind: param.Float, Default: 0.5, Min: 0, Max: 1, Unit: "fraction 0–1", Doc: "weight of bandwidth in the VM score bw_weight·bandwidth/max + (1−bw_weight)·speed/max"},
			{Name: "wait_best", Kind: param.Int, Default: int64(1), Min: 0, Max: 1, Doc: "1 = a job waits for its best resources (§4.2: ASJS \"always tries to find the best resource, so it always longs the waiting time\"): busy VMs are scored too, by bandwidth only (the processing part counts only while idle, [21]'s adaptive score), and a task whose best VM is busy waits for it; 0 = each task takes the best idle VM, never waiting (before issue 21; not the paper's)"},
			blockingSpec,
			deadlineAwareSpec,
		},
		New: func(b strategies.Build) (sim.Scheduler, error) {
			ps := b.Params
			return build(b, &queue{asjs: true, bwWeight: ps.Float("bw_weight"), blocking: ps.Int("blocking") == 1, waitBest: ps.Int("wait_best") == 1},
				ps.Int("deadline_aware") == 1)
		},
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
//
// The best is idle exactly when the best idle candidate's score is at
// least every busy candidate's, and it is then the first idle candidate
// of the highest score in capable order. So each task's capable VMs are
// walked in two orders made once for the job (asjsOrders): by idle score
// to the first idle candidate, then by busy score while the score beats
// that one's, where a busy candidate means the job waits. A waiting job is
// assigned again at every pass; the walks stop near the top of the
// orders instead of scoring every capable VM each time. The result is the
// scan's (asjsScan, kept for NaN scores; TestPlainComputation compares
// both with the plain computation).
func (q *queue) asjsBest(s *scheduler, ji *jobInfo) [][]int {
	if q.unordered {
		return q.asjsScan(s, ji)
	}
	q.asjsOrders(s, ji)
	s.newMark()
	pick := s.scratch(len(ji.j.Tasks))
	for t := range pick {
		byIdle, byBusy := ji.byIdle[t], ji.byBusy[t]
		best := -1
		for _, v32 := range byIdle {
			if v := int(v32); !s.busy[v] && q.candidate(s, ji, t, v) {
				best = v
				break
			}
		}
		if best < 0 {
			return nil // no idle candidate: none, or the best is busy
		}
		top := q.idleScore[best]
		for _, v32 := range byBusy {
			v := int(v32)
			if q.busyScore[v] <= top {
				break // no busy candidate beats the idle one (a tie goes to idle)
			}
			if s.busy[v] && q.candidate(s, ji, t, v) {
				return nil // the best is busy: the job waits for it
			}
		}
		s.taken[best] = s.mark
		pick[t] = best
	}
	return groupsOf(pick)
}

// candidate reports whether VM v may take task t of ji in this
// assignment: not taken by an earlier task, and, deadline-aware, ending
// the task in time if it started now.
func (q *queue) candidate(s *scheduler, ji *jobInfo, t, v int) bool {
	return s.taken[v] != s.mark && (!s.aware || ji.meets(s.now, s.et(ji, t, v)))
}

// asjsScan is asjsBest scoring every capable VM of each task.
func (q *queue) asjsScan(s *scheduler, ji *jobInfo) [][]int {
	s.newMark()
	pick := s.scratch(len(ji.j.Tasks))
	for t := range pick {
		best, bestScore, bestIdle := -1, math.Inf(-1), false
		for _, v32 := range ji.capable[t] {
			v := int(v32)
			if !q.candidate(s, ji, t, v) {
				continue
			}
			idle := !s.busy[v]
			sc := q.busyScore[v]
			if idle {
				sc = q.idleScore[v]
			}
			if best < 0 || sc > bestScore || (sc == bestScore && idle && !bestIdle) {
				best, bestScore, bestIdle = v, sc, idle
			}
		}
		if best < 0 || !bestIdle {
			return nil
		}
		s.taken[best] = s.mark
		pick[t] = best
	}
	return groupsOf(pick)
}

// asjsOrders gives ji, once, each task's capable VMs by idle score and by
// busy score (byIdle, byBusy), each descending with ties in capable (VM
// number) order: the platform's orders (scores) with the VMs that cannot
// hold the task left out (scheduler.within), shared by a task equal to the
// one before it, as its capable list is. It uses the assignment marks, so
// it is called before an assignment starts.
func (q *queue) asjsOrders(s *scheduler, ji *jobInfo) {
	if ji.byIdle != nil {
		return
	}
	ji.byIdle, ji.byBusy = make([][]int32, len(ji.capable)), make([][]int32, len(ji.capable))
	for t, c := range ji.capable {
		if sameAsPrevious(ji, t) {
			ji.byIdle[t], ji.byBusy[t] = ji.byIdle[t-1], ji.byBusy[t-1]
			continue
		}
		ji.byIdle[t], ji.byBusy[t] = s.within(q.idleOrder, c), s.within(q.busyOrder, c)
	}
}

// byScore returns the VMs 0 … len(score)−1 sorted by descending score,
// ties by VM number (the scores hold no NaN).
func byScore(score []float64) []int32 {
	out := make([]int32, len(score))
	for v := range out {
		out[v] = int32(v)
	}
	slices.SortFunc(out, func(a, b int32) int {
		if c := cmp.Compare(score[b], score[a]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	return out
}

// scores fills idleScore and busyScore once.
func (q *queue) scores(s *scheduler) {
	if q.idleScore != nil {
		return
	}
	q.idleScore, q.busyScore = make([]float64, len(s.w.VMs)), make([]float64, len(s.w.VMs))
	for v := range s.w.VMs {
		q.idleScore[v], q.busyScore[v] = q.score(s, v), q.bwScore(s, v)
		q.unordered = q.unordered || math.IsNaN(q.idleScore[v]) || math.IsNaN(q.busyScore[v])
	}
	if !q.unordered {
		q.idleOrder, q.busyOrder = byScore(q.idleScore), byScore(q.busyScore)
	}
}
