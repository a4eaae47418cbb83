package cloud

import (
	"math"

	"github.com/schedfarm/schedfarm/param"
	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/strategies"
)

// CMMS is the Cloud Min-Min baseline of §4.2 ([24]).
const CMMS = "cmms"

func cmmsEntry() strategies.Entry {
	return strategies.Entry{
		Name:     CMMS,
		Summary:  "seed 001 CMMS (Min-Min): the waiting job that would end soonest on its fastest free VMs starts there, repeatedly (§4.2, [24])",
		Platform: string(Output),
		Params:   []param.Spec{deadlineAwareSpec},
		New: func(b strategies.Build) (sim.Scheduler, error) {
			return build(b, minMin{}, b.Params.Int("deadline_aware") == 1)
		},
	}
}

// minMin is CMMS: among the waiting jobs, the one that would complete
// soonest with every task on its fastest free VM starts there; repeat.
type minMin struct{}

func (minMin) arrive(*scheduler, *jobInfo) {}
func (minMin) leave(*jobInfo)              {}

func (m minMin) schedule(s *scheduler) {
	for s.idle > 0 {
		var best *jobInfo
		var bestPick []int // s.pick2 when set; s.pick is the next attempt's
		bestD := math.Inf(1)
		for _, ji := range s.waiting {
			if ji.state != waiting || ji.tried == s.pass {
				continue
			}
			g, d := m.fastestInto(s, s.scratch(len(ji.j.Tasks)), ji)
			if g == nil {
				ji.tried = s.pass // idle VMs only get fewer in this pass
				continue
			}
			if d < bestD {
				best, bestD = ji, d
				bestPick, s.pick, s.pick2 = g, s.pick2, s.pick
			}
		}
		if best == nil || s.start(best, groupsOf(bestPick)) != nil {
			return
		}
	}
}

// fastestInto is assignInto with CMMS's key, a task's time: each task, in
// index order, on the free VM where it is fastest (ties: the lowest VM)
// and, deadline-aware, only if that ends it in time; pick and its
// duration, or nil. It walks the task's time order (timeOrders) to the
// first free VM instead of timing every VM that can hold the task: in that
// order, equal times by VM number, the first free VM is the scan's pick,
// and whether a time ends the task by the deadline does not depend on the
// VM, a smaller time ending no later, so if that VM's does not, no
// candidate's does. A task equal to the one before it walks on from that
// one's pick: the VMs before it were busy or taken, and still are.
// TestFastestIsTheScan: the same picks and duration as assignInto.
func (minMin) fastestInto(s *scheduler, pick []int, ji *jobInfo) ([]int, float64) {
	if len(pick) > s.idle {
		return nil, 0 // a VM per task, distinct: too few idle
	}
	byTime := s.timeOrders(ji) // before newMark: it uses the marks
	s.newMark()
	dur := 0.0
	k, from := -1, 0
	for t := range pick {
		if !sameAsPrevious(ji, t) {
			k, from = k+1, 0
		}
		order := byTime[k]
		i := s.firstFree(order, from)
		if i == len(order) {
			return nil, 0
		}
		v := int(order[i])
		et := s.et(ji, t, v)
		if !s.inTime(ji, et) {
			return nil, 0
		}
		s.taken[v] = s.mark
		pick[t], from = v, i+1
		dur = max(dur, et)
	}
	return pick, dur
}
