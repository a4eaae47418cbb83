package consolidation

import (
	"math"
	"slices"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
)

// platform returns p processors in two tiers whose sharing model has its
// random ranges collapsed, so schedules can be computed by hand: loss 2%,
// eff 0.85 for a single-process job, 0.5 for a multi-process one.
func platform(p int) sim.Platform {
	m := sim.NewTwoTier(1)
	m.LossLo, m.LossHi = 0.02, 0.02
	m.EffSingleLo, m.EffSingleHi = 0.85, 0.85
	m.EffMean, m.EffSD = 0.5, 0
	pl := sim.Processors(p)
	pl.Tiers, pl.Sharing = 2, m
	return pl
}

// job builds a job whose estimate equals its work, with exact CPU usages
// (nil: 100% and no information).
func job(id int64, submit sim.Time, work sim.Time, usage ...float64) *sim.Job {
	n := max(1, len(usage))
	j := sim.NewJob(id, submit, []int{n}, work, work, 0)
	if usage != nil {
		j.SetCPU(usage, append([]float64(nil), usage...))
	}
	return j
}

func run(t *testing.T, p sim.Platform, d Deploy, cost sim.Time, jobs ...*sim.Job) {
	t.Helper()
	s, err := New(p, Config{Deploy: d, Threshold: DefaultThreshold, MigrationCost: cost})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := sim.Run(p, s, sim.NewSliceStream(jobs), nil); err != nil {
		t.Fatal(err)
	}
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

func wantEnds(t *testing.T, jobs []*sim.Job, ends ...float64) {
	t.Helper()
	for i, j := range jobs {
		if j.State() != sim.Finished || !near(j.End(), ends[i]) {
			t.Errorf("job %d: %s at %.6f, want finished at %.6f", j.ID, j.State(), j.End(), ends[i])
		}
	}
}

func TestBackgroundHelpsTheHeadJob(t *testing.T) {
	// 4 processors, all three jobs at t=0:
	//   J1: 3 processes at 50%, 10 s;  J2: 2 processes at 40%, 4 s;
	//   J3: 1 process, 2 s.
	// Step 1 puts J1 in the foreground of processors 0–2; J2 (2 > 1 idle)
	// stops FCFS. Step 2: J2's shadow time is J1's end, 10, with 2 extra
	// VMs, so J3 (ends at 2 ≤ 10) backfills on processor 3. Step 3: J2
	// goes to the background; processor 3 is excluded (J3 uses 100% ≥ 96%),
	// so it takes processors 0 and 1 (50% used, 50% idle ≥ its 40%): speed
	// eff = 0.5. J1 runs at 0.98 beside it. J2 ends at 4/0.5 = 8; J1 has
	// done 0.98·8 by then and finishes the rest alone at full speed.
	// Plain EASY would start J2 only at 10 (ends 14).
	for _, d := range []Deploy{Kill, Reserve, Migrate} {
		t.Run(d.String(), func(t *testing.T) {
			j1, j2, j3 := job(1, 0, 10, 0.5, 0.5, 0.5), job(2, 0, 4, 0.4, 0.4), job(3, 0, 2, 1)
			run(t, platform(4), d, 20, j1, j2, j3)
			wantEnds(t, []*sim.Job{j1, j2, j3}, 8+(10-0.98*8), 8, 2)
		})
	}
}

// movingScenario: 3 processors; J1 (2 × 50%, 6 s) and J2 (2 × 40%, 10 s)
// at t=0, J3 (1 process, 100%, 20 s) at t=1.
//
//	t=0  J1 foreground on 0, 1. J2 does not fit (2 > 1); its shadow is 6.
//	     SJF puts J2 in the background of processors 2 (foreground idle:
//	     speed 1) and 0 (idle share 0.5 ≥ 0.4: speed 0.5) → J2 at 0.5,
//	     J1 at 0.98.
//	t=1  J3 arrives; J2 is the head (shadow 1 + (6 − 0.98) with 1 extra
//	     VM), so J3 backfills on the extra VM, processor 2's foreground:
//	     J2's process there gets no idle share → J2 stops (speed 0); J3
//	     runs at 0.98.
//	t1   J1 ends at 1 + (6 − 0.98)/0.98. J2 fits in the foreground (2 idle)
//	     but its own processor 2 is held by J3. Here the variants differ.
func movingScenario() (j1, j2, j3 *sim.Job, t1 float64) {
	j1, j2, j3 = job(1, 0, 6, 0.5, 0.5), job(2, 0, 10, 0.4, 0.4), job(3, 1, 20, 1)
	return j1, j2, j3, 1 + (6-0.98)/0.98
}

func TestKEASYKillsAndRestarts(t *testing.T) {
	// KEASY kills J2 and restarts it on processors 1 and 0: 10 s from t1.
	// J3 runs alone from t1: its 0.98·(t1 − 1) done, the rest at speed 1.
	j1, j2, j3, t1 := movingScenario()
	run(t, platform(3), Kill, 0, j1, j2, j3)
	wantEnds(t, []*sim.Job{j1, j2, j3}, t1, t1+10, t1+20-0.98*(t1-1))
	if j2.Restarts() != 1 || j2.Migrations() != 0 {
		t.Errorf("J2: %d restarts, %d migrations; want 1, 0", j2.Restarts(), j2.Migrations())
	}
	if !near(j2.Served(), 10) {
		t.Errorf("J2 served %g, want 10 (the killed run does not count)", j2.Served())
	}
}

func TestMEASYMigratesWithItsProgress(t *testing.T) {
	// MEASY migrates J2 with its 0.5 s of progress; after a 2 s migration
	// pause it has 9.5 s left at full speed.
	j1, j2, j3, t1 := movingScenario()
	run(t, platform(3), Migrate, 2, j1, j2, j3)
	wantEnds(t, []*sim.Job{j1, j2, j3}, t1, t1+2+9.5, t1+20-0.98*(t1-1))
	if j2.Migrations() != 1 || j2.Restarts() != 0 {
		t.Errorf("J2: %d migrations, %d restarts; want 1, 0", j2.Migrations(), j2.Restarts())
	}
}

func TestREASYWaitsForItsOwnProcessors(t *testing.T) {
	// REASY's head J2 runs in the background of processors 0 and 2; its
	// reservation (Algorithm 3) is J1's end t1 with N_E = 1 idle + 2 − 2 = 1
	// extra VM. The only idle foreground VM, processor 2's, is J2's own, not
	// an extra one ("the extra foreground VMs are the ones now idle and no
	// process of the job is running in their background VMs", §2.3.1): J3
	// (20 s, ending after t1) may not backfill there. SJF puts J3 in the
	// background of processor 1 (J1 uses 50% < 96%): speed 0.85·0.5/1 =
	// 0.425. J2 keeps its speed 0.5 (processor 0 beside J1), so at t1 it has
	// done 0.5·t1. At t1 J1 ends: J2's own foreground VMs are idle and it
	// swaps up (10 − 0.5·t1 left at speed 1), and so does J3 on processor 1
	// (20 − 0.425·(t1 − 1) left).
	j1, j2, j3, t1 := movingScenario()
	run(t, platform(3), Reserve, 0, j1, j2, j3)
	wantEnds(t, []*sim.Job{j1, j2, j3}, t1, t1+10-0.5*t1, t1+20-0.425*(t1-1))
	if j2.Swaps() != 1 || j2.Migrations()+j2.Restarts() != 0 {
		t.Errorf("J2: %d swaps, %d migrations, %d restarts; want 1, 0, 0", j2.Swaps(), j2.Migrations(), j2.Restarts())
	}
	if j3.Swaps() != 1 {
		t.Errorf("J3: %d swaps, want 1 (background, then its own foreground VM)", j3.Swaps())
	}
}

func TestDispatchPairsBusyProcessesWithIdleProcessors(t *testing.T) {
	// 4 processors, all at t=0: J1 (2 processes at 90% and 30%, 10 s),
	// J2 (3 processes at 20%, 80%, 60%, 4 s), J3 (1 process, 100%, 100 s).
	//   Step 1: J1's busiest process on processor 0, the other on 1; J2
	//           (3 > 2 idle) stops FCFS.
	//   Step 2: J2's shadow is 10 with 1 extra VM; J3 ends late but fits
	//           the extra VM: foreground of processor 2.
	//   Step 3: J2 to the background. Processor 2 is closed (J3 uses
	//           100% ≥ 96%); the others in ascending utilisation: 3 (idle
	//           foreground), 1 (30%), 0 (90%). J2's processes by descending
	//           usage — 1 (80%), 2 (60%), 0 (20%) — take them in that order.
	j1 := job(1, 0, 10, 0.9, 0.3)
	j2 := job(2, 0, 4, 0.2, 0.8, 0.6)
	j3 := job(3, 0, 100, 1)
	var fg1, bg2, fg3 []int
	p := platform(4)
	s, _ := New(p, Config{Deploy: Migrate, Threshold: DefaultThreshold})
	probe := passFunc(func(c *sim.Cluster, ch sim.Changes) {
		s.Pass(c, ch)
		if c.Now() == 0 {
			_, a := c.Placement(j1)
			_, b := c.Placement(j2)
			_, d := c.Placement(j3)
			fg1, bg2, fg3 = append([]int(nil), a...), append([]int(nil), b...), append([]int(nil), d...)
		}
	})
	if _, _, err := sim.Run(p, probe, sim.NewSliceStream([]*sim.Job{j1, j2, j3}), nil); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(fg1, []int{0, 1}) || !slices.Equal(bg2, []int{0, 3, 1}) || !slices.Equal(fg3, []int{2}) {
		t.Errorf("placements J1 %v, J2 %v, J3 %v; want [0 1], [0 3 1], [2]", fg1, bg2, fg3)
	}
}

// passFunc adapts a function to sim.Scheduler.
type passFunc func(c *sim.Cluster, ch sim.Changes)

func (f passFunc) Pass(c *sim.Cluster, ch sim.Changes) { f(c, ch) }

func TestConfigErrors(t *testing.T) {
	if _, err := New(sim.Processors(4), Config{Deploy: Kill, Threshold: 0.96}); err == nil {
		t.Error("a dedicated machine was accepted")
	}
	if err := (Config{Deploy: 7, Threshold: 0, MigrationCost: -1}).Validate(); err == nil {
		t.Error("bad config accepted")
	}
}
