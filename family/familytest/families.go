package familytest

import (
	"fmt"
	"strings"
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
// RunCase. A family added to the list is covered without a new test, and
// so is a scheduler added to a family: an engine scheduler gets the random
// workloads, and a scheduler of the family's own platform
// (strategies.Entry.Platform) must appear in one of its SuiteCases — a
// case with Schedulers nil runs every scheduler of the family; a name may
// carry a reading after "+" ("stms+eager").
func Families(t *testing.T, fams []family.Family) {
	for _, f := range fams {
		t.Run(f.Name(), func(t *testing.T) {
			t.Parallel()
			var engine []strategies.Entry // the schedulers of the engine's shared platforms
			for _, e := range f.Schedulers() {
				if e.Platform == "" {
					engine = append(engine, e)
				}
			}
			if len(engine) > 0 {
				reg, err := strategies.NewRegistry(engine...)
				if err != nil {
					t.Fatal(err)
				}
				for _, name := range reg.Names() {
					t.Run(name, func(t *testing.T) { strategytest.SuiteFor(t, reg, name) })
				}
			}
			sp, ok := f.(family.SuiteProvider)
			if !ok {
				for _, err := range Uncovered(f, nil) {
					t.Error(err)
				}
				return
			}
			var all []family.SuiteCase
			for seed := uint64(1); seed <= SuiteSeeds; seed++ {
				cases := sp.SuiteCases(seed)
				all = append(all, cases...)
				for _, c := range cases {
					for _, name := range caseSchedulers(f, c) {
						t.Run(fmt.Sprintf("%s/%s/seed%d", c.Name, name, seed), func(t *testing.T) {
							for _, e := range RunCase(c, name) {
								t.Error(e)
							}
						})
					}
				}
			}
			for _, err := range Uncovered(f, all) {
				t.Error(err)
			}
		})
	}
}

// caseSchedulers returns the names a case runs: its Schedulers, or every
// scheduler of the family when nil.
func caseSchedulers(f family.Family, c family.SuiteCase) []string {
	if c.Schedulers != nil {
		return c.Schedulers
	}
	var names []string
	for _, e := range f.Schedulers() {
		names = append(names, e.Name)
	}
	return names
}

// Uncovered returns an error for every scheduler of the family's own
// platform (strategies.Entry.Platform) that none of cases runs (a name
// counts with any "+reading").
func Uncovered(f family.Family, cases []family.SuiteCase) []error {
	covered := map[string]bool{}
	for _, c := range cases {
		for _, name := range caseSchedulers(f, c) {
			base, _, _ := strings.Cut(name, "+")
			covered[base] = true
		}
	}
	var errs []error
	for _, e := range f.Schedulers() {
		if e.Platform != "" && !covered[e.Name] {
			errs = append(errs, fmt.Errorf("scheduler %s runs on the family's own platform %s but is in none of its SuiteCases; list it there (or leave SuiteCase.Schedulers nil: every scheduler of the family)", e.Name, e.Platform))
		}
	}
	return errs
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
