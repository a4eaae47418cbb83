package cloud

import (
	"math"

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
func (q *queue) asjsBest(s *scheduler, ji *jobInfo) [][]int {
	s.newMark()
	pick := s.scratch(len(ji.j.Tasks))
	for t := range pick {
		best, bestScore, bestIdle := -1, math.Inf(-1), false
		for _, v32 := range ji.capable[t] {
			v := int(v32)
			if s.taken[v] == s.mark || (s.aware && !ji.meets(s.now, s.et(ji, t, v))) {
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

// scores fills idleScore and busyScore once.
func (q *queue) scores(s *scheduler) {
	if q.idleScore != nil {
		return
	}
	q.idleScore, q.busyScore = make([]float64, len(s.w.VMs)), make([]float64, len(s.w.VMs))
	for v := range s.w.VMs {
		q.idleScore[v], q.busyScore[v] = q.score(s, v), q.bwScore(s, v)
	}
}
