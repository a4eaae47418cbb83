package familytest

import (
	"fmt"
	"testing"

	"github.com/schedfarm/schedfarm/family"
	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/strategies"
	"github.com/schedfarm/schedfarm/strategies/strategytest"
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
					t.Run(name, func(t *testing.T) { strategytest.SuiteFor(t, reg, name) })
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
	var rec *strategytest.Recording
	wrap := func(s sim.Scheduler) sim.Scheduler {
		var w sim.Scheduler
		w, rec = strategytest.Recorder(c.Platform, s)
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
		errs = append(errs, strategytest.CheckPreemptive(rec)...)
	} else {
		errs = append(errs, strategytest.CheckInvariantsOf(rec, !c.Rated)...)
	}
	again, _, err := c.Run(name, func(s sim.Scheduler) sim.Scheduler { return s })
	if err != nil {
		return append(errs, fmt.Errorf("second run: %w", err))
	}
	if d := strategytest.Diff(jobs, again); d != "" {
		errs = append(errs, fmt.Errorf("same input, different schedule: %s", d))
	}
	return errs
}
