package cloud

import (
	"github.com/schedfarm/schedfarm/param"
	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/strategies"
)

// Fair is the fair-share baseline of §4.2 (the Hadoop fair scheduler, [22]).
const Fair = "fair"

func fairEntry() strategies.Entry {
	return strategies.Entry{
		Name:     Fair,
		Summary:  "seed 001 Fair: each waiting job in arrival order offered an equal share of the idle VMs, a task sharing up to max_share of them (§4.2, [22])",
		Platform: string(Output),
		Params: []param.Spec{
			{Name: "max_share", Kind: param.Int, Default: int64(3), Min: 1, Max: 1000, Unit: "VMs", Doc: "most VMs one task may share when idle VMs are plentiful (§4.2: a 4-task job 'can share 8 VMs even 12 VMs'); 1 = no sharing"},
			deadlineAwareSpec,
		},
		New: func(b strategies.Build) (sim.Scheduler, error) {
			return build(b, &fair{maxShare: b.Params.Int("max_share")}, b.Params.Int("deadline_aware") == 1)
		},
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
// round by round (first fit) until each has k or none is left. Within a
// round a task equal to the one before it resumes that one's search
// (firstCandidateFrom); the first round writes into s's scratch, so that
// a job that cannot start allocates nothing.
func (f *fair) assign(s *scheduler, ji *jobInfo, k int) [][]int {
	groups := firstFit(s, ji) // the first round: FIFO's first fit
	if groups == nil {
		return nil
	}
	for round := 1; round < k; round++ {
		added := false
		from := 0
		for t := range groups {
			if !sameAsPrevious(ji, t) {
				from = 0
			}
			v, next := firstCandidateFrom(s, ji, t, from)
			from = next
			if v < 0 {
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
