package strategytest

import (
	"fmt"
	"slices"
	"testing"

	"github.com/schedfarm/schedfarm/family"
	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/strategies"
)

// SuiteSeeds is how many seeds Families draws family workloads for.
const SuiteSeeds = 3

// Families runs the one shared invariant suite over every family: the
// random rigid-job workloads of SuiteFor for every engine scheduler the
// family registers (Family.Schedulers), and, for a family.SuiteProvider,
// its own workloads (projects, a cloud of VMs, a failing grid) under
// RunCase. A family added to the list is covered without a new test.
func Families(t *testing.T, fams []family.Family) {
	for _, f := range fams {
		t.Run(f.Name(), func(t *testing.T) {
			t.Parallel()
			if es := f.Schedulers(); len(es) > 0 {
				reg, err := strategies.NewRegistry(es...)
				if err != nil {
					t.Fatal(err)
				}
				for _, name := range reg.Names() {
					t.Run(name, func(t *testing.T) { SuiteFor(t, reg, name) })
				}
			}
			sp, ok := f.(family.SuiteProvider)
			if !ok {
				return
			}
			for seed := uint64(1); seed <= SuiteSeeds; seed++ {
				for _, c := range sp.SuiteCases(seed) {
					for _, name := range c.Schedulers {
						t.Run(fmt.Sprintf("%s/%s/seed%d", c.Name, name, seed), func(t *testing.T) {
							for _, e := range RunCase(c, name) {
								t.Error(e)
							}
						})
					}
				}
			}
		})
	}
}

// RunCase runs one scheduler of a family case twice and returns every
// violation: of the shared invariants (CheckInvariants; for a preemptive
// case without the span-based capacity check, for a rated one without the
// served-equals-work check), of the family's own rules,
// and any difference between the two schedules.
func RunCase(c family.SuiteCase, name string) []error {
	var rec *Recording
	wrap := func(s sim.Scheduler) sim.Scheduler {
		var w sim.Scheduler
		w, rec = Recorder(c.Platform, s)
		return w
	}
	jobs, errs, err := c.Run(name, wrap)
	if err != nil {
		return []error{err}
	}
	if rec == nil {
		return []error{fmt.Errorf("%s: Run did not wrap the scheduler", c.Name)}
	}
	rec.Jobs = jobs
	if c.Preemptive {
		errs = append(errs, checkEnded(rec)...)
	} else {
		errs = append(errs, checkInvariants(rec, !c.Rated)...)
	}
	again, _, err := c.Run(name, func(s sim.Scheduler) sim.Scheduler { return s })
	if err != nil {
		return append(errs, fmt.Errorf("second run: %w", err))
	}
	if d := diff(jobs, again); d != "" {
		errs = append(errs, fmt.Errorf("same input, different schedule: %s", d))
	}
	return errs
}

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
