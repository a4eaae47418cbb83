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

func (minMin) schedule(s *scheduler) {
	fastest := func(t, v int, et float64) float64 { return et }
	for s.idle > 0 {
		var best *jobInfo
		var bestPick []int // s.pick2 when set; s.pick is the next attempt's
		bestD := math.Inf(1)
		for _, ji := range s.waiting {
			if ji.state != waiting || ji.tried == s.pass {
				continue
			}
			g, d := s.assignInto(s.scratch(len(ji.j.Tasks)), ji, fastest)
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
