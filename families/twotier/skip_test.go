package twotier

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/workload/seed004"
)

// TestSkippedTimesWouldFail checks the shortcut of Scheduler.schedule:
// passing over the feasible backfilling times that a failed attempt proved
// would fail (failedAttempt.covers: those in (bt, t] after an attempt at bt
// whose first over-committed instant was t, where no delay the attempt
// decided meets the part of the job's window that lies past its window at
// bt) places every job exactly where trying each time in turn, as Figure 4
// lines 8–16 write it, does. Trying every time, it also requires that no
// time it would pass over succeeds. It runs every flexible configuration
// and reading on overloaded seed-004 projects, and requires that times
// were passed over after attempts that decided delays, not only after
// those that failed at once.
func TestSkippedTimesWouldFail(t *testing.T) {
	type run struct {
		scheduler string
		params    map[string]any
	}
	runs := []run{
		{"2tfb", nil},
		{"2tfb", map[string]any{"victim": "first"}},
		{"2tfb-sf", map[string]any{"sf": 0.5, "pl": "unlimited"}},
		{"2tfb-sf", map[string]any{"sf": 0.5, "pl": "unlimited", "victim": "first"}},
		{"2tfb-sf", map[string]any{"sf": 0.5, "pl": "unlimited", "own_lts": "infinite"}},
		{"2tfb-sf", map[string]any{"sf": 0.5, "pl": "unlimited", "own_lts": "provisional"}},
		{"2tfb-sf", map[string]any{"sf": 0.5, "pl": "unlimited", "lts_tn": "job"}},
		{"2tfb-sf", map[string]any{"sf": 2, "pl": 1}},
		{"2tfb-sf", map[string]any{"sf": 1, "pl": 0}},
		{"2tpb", map[string]any{"sf": 0.5, "pl": 1, "pl_count": "call"}},
		{"2tpb", map[string]any{"sf": 0.5, "pl": 1, "pl_count": "job"}},
		{"2tpb", map[string]any{"sf": 0.5, "pl": 1, "pl_count": "lifetime"}},
		{"2tpb", map[string]any{"sf": 1, "pl": "unlimited"}},
	}
	model := seed004.Default()
	model.Projects, model.MeanInterarrival = 120, 10
	total, totalAfterDelays := 0, 0
	for _, c := range runs {
		for seed := uint64(1); seed <= 2; seed++ {
			name := fmt.Sprintf("%s %v seed %d", c.scheduler, c.params, seed)
			schedule := func(every bool) ([]*sim.Job, int, int, int) {
				plat, js, err := Seed004Workload(model, 0.2, rand.New(rand.NewPCG(seed, 4)))
				if err != nil {
					t.Fatal(err)
				}
				n, afterDelays, wrong := 0, 0, 0
				tryEveryTime, passedOver, passedAfterDelays, wronglyPassedOver = every, &n, &afterDelays, &wrong
				defer func() { tryEveryTime, passedOver, passedAfterDelays, wronglyPassedOver = false, nil, nil, nil }()
				out, _, err := RunProjects(plat, js, c.scheduler, c.params)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				return out, n, afterDelays, wrong
			}
			want, wouldSkip, _, wrong := schedule(true)
			if wrong > 0 {
				t.Errorf("%s: %d of the %d feasible backfilling times that would be passed over succeed when tried", name, wrong, wouldSkip)
			}
			got, skipped, afterDelays, _ := schedule(false)
			total += skipped
			totalAfterDelays += afterDelays
			if len(got) != len(want) {
				t.Fatalf("%s: %d jobs, want %d", name, len(got), len(want))
			}
			for i := range want {
				if got[i].ID != want[i].ID || got[i].Start() != want[i].Start() || got[i].End() != want[i].End() {
					t.Fatalf("%s: job %d ran %g–%g with times passed over, %g–%g trying every time (%d passed over)",
						name, want[i].ID, got[i].Start(), got[i].End(), want[i].Start(), want[i].End(), skipped)
				}
			}
		}
	}
	if total == 0 || totalAfterDelays == 0 {
		t.Fatalf("%d feasible backfilling times passed over, %d of them after attempts that decided delays: the test checks too little", total, totalAfterDelays)
	}
	t.Logf("%d feasible backfilling times passed over, %d of them after attempts that decided delays", total, totalAfterDelays)
}
