package strategytest

import (
	"fmt"
	"slices"

	"github.com/schedfarm/schedfarm/sim"
)

// CheckPreemptive is the part of CheckInvariants that holds for
// schedulers that suspend and resume jobs (a job's first start and last
// end then span its suspensions, so the span-based capacity check does not
// apply; the recorder checks the VMs of a tiered platform after every
// pass): every job ends in a final state, none starts before its submit
// time or ends before it started, a rejected job has a reason, and no
// reservation moved later.
func CheckPreemptive(rec *Recording) []error { return checkEnded(rec) }

// checkEnded implements CheckPreemptive.
func checkEnded(rec *Recording) []error {
	var errs []error
	for _, j := range rec.Jobs {
		switch j.State() {
		case sim.Finished, sim.Killed:
			if j.Start() < j.Submit || j.End() < j.Start() {
				errs = append(errs, fmt.Errorf("job %d: submit %g, start %g, end %g", j.ID, j.Submit, j.Start(), j.End()))
			}
		case sim.Rejected:
			if j.Reason() == "" {
				errs = append(errs, fmt.Errorf("job %d rejected without a reason", j.ID))
			}
		default:
			errs = append(errs, fmt.Errorf("job %d ended the simulation in state %s", j.ID, j.State()))
		}
	}
	ids := make([]int64, 0, len(rec.Promises))
	for id := range rec.Promises {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		ps := rec.Promises[id]
		for i := 1; i < len(ps); i++ {
			if ps[i] > ps[i-1] {
				errs = append(errs, fmt.Errorf("job %d: reservation moved later, from %g to %g", id, ps[i-1], ps[i]))
			}
		}
	}
	return errs
}
