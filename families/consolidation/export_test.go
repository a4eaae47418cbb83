package consolidation

import (
	"testing"

	"github.com/schedfarm/schedfarm/sim"
)

// Verify turns on, for s (a *Scheduler), the cross-checks of its kept
// structures (the VM candidate lists, the SJF order) against the plain
// computation at every use, and returns a function reporting how many
// checks were made and the first mismatch.
func Verify(s sim.Scheduler) func() (checks int, err error) {
	v := &verifier{}
	s.(*Scheduler).vms.verify = v
	return func() (int, error) { return v.checks, v.err }
}

// VerifyBelow is Verify that also reports how many VM picks were made while
// some VM was keyed below usage 0.
func VerifyBelow(s sim.Scheduler) func() (checks, below int, err error) {
	v := &verifier{}
	s.(*Scheduler).vms.verify = v
	return func() (int, int, error) { return v.checks, v.belowKeyed, v.err }
}

// VerifyStops is Verify that also reports how many scans of Steps 2 and 3
// stopped before the end of their list; every list counts as long
// (fitting) until t ends, failed or not.
func VerifyStops(t testing.TB, s sim.Scheduler) func() (checks, stops int, err error) {
	old := longList
	longList = 0
	t.Cleanup(func() { longList = old })
	v := &verifier{}
	s.(*Scheduler).vms.verify = v
	return func() (int, int, error) { return v.checks, v.stops, v.err }
}
