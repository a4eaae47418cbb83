package familytest

import (
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/family"
	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/strategies"
)

type fakeFamily struct{ entries []strategies.Entry }

func (fakeFamily) Name() string                     { return "fake" }
func (fakeFamily) Doc() string                      { return "a test family" }
func (f fakeFamily) Schedulers() []strategies.Entry { return f.entries }
func none(strategies.Build) (sim.Scheduler, error)  { return nil, nil }

// A scheduler of a family's own platform must be run by a suite case; an
// engine scheduler need not (the random workloads cover it).
func TestUncovered(t *testing.T) {
	f := fakeFamily{entries: []strategies.Entry{
		{Name: "a", Platform: "own", New: none},
		{Name: "b", Platform: "own", New: none},
		{Name: "engine", New: none},
	}}
	errs := Uncovered(f, []family.SuiteCase{{Schedulers: []string{"a+reading"}}})
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "scheduler b runs on the family's own platform own") {
		t.Errorf("Uncovered = %v; want b only", errs)
	}
	if errs := Uncovered(f, []family.SuiteCase{{Schedulers: nil}}); len(errs) != 0 {
		t.Errorf("a case with Schedulers nil runs every scheduler, yet: %v", errs)
	}
	if errs := Uncovered(f, nil); len(errs) != 2 {
		t.Errorf("no cases: %v; want a and b", errs)
	}
}
