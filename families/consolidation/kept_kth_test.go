package consolidation_test

import (
	"testing"

	"github.com/schedfarm/schedfarm/families"
	"github.com/schedfarm/schedfarm/families/consolidation"
	"github.com/schedfarm/schedfarm/runner"
	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/workload"
	"github.com/schedfarm/schedfarm/workload/swf/swftest"
)

// TestKeptStructuresMatchScratchKTH is TestKeptStructuresMatchScratch on
// KTH-SP2 (100 processors, user estimates): the whole trace under KEASY,
// REASY and MEASY with the paper's usages, and its first 6,000 jobs told
// nothing of their usage under each unknown_usage reading and MEASY paying
// at its source. Every pass's every use of the kept structures is checked
// against the plain computation. Skips without the traces.
func TestKeptStructuresMatchScratchKTH(t *testing.T) {
	records := swftest.Records(t, swftest.KTH)
	none := map[string]any{consolidation.FieldCPUEstimate: "none"}
	for _, c := range []struct {
		name, sched string
		params      map[string]any
		fields      map[string]any
		maxJobs     int
	}{
		{"keasy", "keasy", nil, nil, 0},
		{"reasy", "reasy", nil, nil, 0},
		{"measy", "measy", nil, nil, 0},
		{"measy/source", "measy", map[string]any{"migration_pause": "source"}, nil, 6000},
		{"keasy/none/observed", "keasy", nil, none, 6000},
		{"reasy/none/full", "reasy", map[string]any{"unknown_usage": "full"}, none, 6000},
		{"measy/none/ignore", "measy", map[string]any{"unknown_usage": "ignore"}, none, 6000},
	} {
		t.Run(c.name, func(t *testing.T) {
			var result func() (int, error)
			_, err := runner.New(families.Builtin()).Run(runner.Config{
				Source: workload.NewSliceSource(records), Procs: 100, Scheduler: c.sched, SchedulerParams: c.params,
				Estimates: runner.EstimatesUser, Overrun: runner.OverrunKill, FamilyFields: c.fields, MaxJobs: c.maxJobs,
				Wrap: func(s sim.Scheduler) sim.Scheduler { result = consolidation.Verify(s); return s },
			})
			if err != nil {
				t.Fatal(err)
			}
			checks, err := result()
			if err != nil {
				t.Fatal(err)
			}
			if checks < 10000 {
				t.Fatalf("only %d cross-checks", checks)
			}
			t.Logf("%d cross-checks", checks)
		})
	}
}
