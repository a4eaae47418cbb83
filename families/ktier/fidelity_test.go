package ktier

import (
	"math"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
)

// Issue 21 item 12, §3.2: "It also provides an opportunity to change jobs
// which are running on the background to foreground when there is enough
// resource to run" — in a Conservative *Migration* supported BackFilling,
// enough resource is any N_j idle foreground VMs, not only those of the
// job's own nodes. Worked by hand on 2 nodes with K = 2, every process at
// usage 0.5, the foreground loss fixed at 0.02 and a single process's
// background efficiency at 0.8, migration cost 20 s:
//
//	t = 0   J1 (1 process, 100 s) takes the foreground VM of node 0, J2
//	        (1 process, 10 s) that of node 1.
//	t = 1   J3 (1 process, 100 s) finds no idle foreground VM and no later
//	        backfilled job; both nodes' foregrounds are at 0.5 < 0.96 with
//	        the same busy CPU, so it takes the background VM of node 0 and
//	        runs at eff = 0.8 (the idle 0.5 covers its 0.5); J1 now runs at
//	        1 − 0.02 = 0.98.
//	t = 10  J2 ends: node 1's foreground VM is idle, enough for J3's one
//	        process, though J3's own node 0 still runs J1. J3 migrates to
//	        it with 9 × 0.8 = 7.2 s done, makes no progress until 30, then
//	        runs alone on node 1 at 1: it ends at 30 + (100 − 7.2) = 122.8.
//	        J1 has done 1 + 9 × 0.98 = 9.82 s and runs at 1 again (its
//	        background VM is idle): it ends at 10 + 90.18 = 100.18.
//
// The old rule (promote only to the job's own idle foreground VMs) kept J3
// in node 0's background until J1 ended at 1 + 99/0.98 ≈ 102.02 and then
// swapped it in place: J3 ended at ≈ 121.20 with no migration.
func TestPromotionToAnyIdleForegroundByHand(t *testing.T) {
	sh := NewSharing(1)
	sh.LossLo, sh.LossHi = 0.02, 0.02
	sh.EffSingleLo, sh.EffSingleHi = 0.8, 0.8
	p := sim.Processors(2)
	p.Tiers, p.Sharing = 2, sh
	s, err := New(p, Config{Threshold: DefaultThreshold, MigrationCost: 20})
	if err != nil {
		t.Fatal(err)
	}
	rec := &placements{s: s, at: map[int64][]string{}}
	jobs := []*sim.Job{job(1, 0, 1, 100, 0.5), job(2, 0, 1, 10, 0.5), job(3, 1, 1, 100, 0.5)}
	out, _, err := sim.Run(p, rec, sim.NewSliceStream(jobs), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := rec.at[3]; len(got) == 0 || got[0] != "1:0" || got[len(got)-1] != "0:1" {
		t.Errorf("J3 placed %v; want first 1:0 (background of node 0), last 0:1 (foreground of node 1)", got)
	}
	j1, j3 := out[0], out[2]
	if j3.Migrations() != 1 || j3.Swaps() != 0 {
		t.Errorf("J3: %d migrations, %d swaps; want 1, 0", j3.Migrations(), j3.Swaps())
	}
	for _, c := range []struct {
		j    *sim.Job
		want sim.Time
	}{{j1, 100.18}, {j3, 122.8}} {
		if c.j.State() != sim.Finished || math.Abs(c.j.End()-c.want) > 1e-9 {
			t.Errorf("J%d: %s at %.6f, want finished at %g", c.j.ID, c.j.State(), c.j.End(), c.want)
		}
		if math.Abs(c.j.Served()-c.j.Work()) > 1e-9 {
			t.Errorf("J%d served %g of its work %g", c.j.ID, c.j.Served(), c.j.Work())
		}
	}
	if s.Promotions != 1 {
		t.Errorf("%d promotions, want 1", s.Promotions)
	}
}

// Issue 21 item 13, §3.3's Basic CMBF: "If N_j ≤ N_idle then … dispatch
// it …; If j is not at the head of Q then Insert j into Q_backfill; else
// … Suspend jobs in Q_backfill that arrive later than j … Remove j from Q
// and dispatch it to N_j idle nodes" — only the idle-nodes branch inserts
// into Q_backfill, so a job dispatched after suspending others is never
// suspended for an earlier one. Worked by hand on 10 dedicated nodes
// (K = 1):
//
//	t = 0    J1 (4 nodes, 100 s) and J2 (1 node, 20 s) start, each at the
//	         head of Q: 5 nodes idle.
//	t = 1    J3 (10 nodes, 10 s) waits: 10 > 5 idle + 0 held by later
//	         backfilled jobs.
//	t = 2    J4 (6 nodes, 200 s) waits: 6 > 5 + 0.
//	t = 3    J5 (5 nodes, 100 s) fits the 5 idle nodes, behind J3 and J4:
//	         it is backfilled (idle-nodes branch, not the head).
//	t = 20   J2 ends: 1 idle. J3: 10 > 1 + 5 (J5). J4: 6 ≤ 1 + 5, so J5
//	         is suspended (17 s done, 83 left) and J4 runs on 6 nodes from
//	         20 — the suspend branch: J4 does not join Q_backfill.
//	t = 100  J1 ends: 4 idle. J3: 10 > 4 + 0 (J4 is not in Q_backfill);
//	         J5: 5 > 4 + 0. Both wait.
//	t = 220  J4 ends: J3 runs 220–230 at the head of Q.
//	t = 230  J5 resumes with its 83 s: it ends at 313.
//
// One suspension. The old code put J4 in Q_backfill, so at 100 J3 (10 ≤
// 4 + 6) suspended it and ran 100–110; J4 resumed at 110 and ended at 230
// (two suspensions).
func TestSuspendBranchJobIsNotBackfilledByHand(t *testing.T) {
	p := sim.Processors(10)
	s, err := New(p, Config{Threshold: DefaultThreshold, MigrationCost: DefaultMigrationCost})
	if err != nil {
		t.Fatal(err)
	}
	jobs := []*sim.Job{job(1, 0, 4, 100, 1), job(2, 0, 1, 20, 1), job(3, 1, 10, 10, 1), job(4, 2, 6, 200, 1), job(5, 3, 5, 100, 1)}
	out, _, err := sim.Run(p, s, sim.NewSliceStream(jobs), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct{ start, end sim.Time }{{0, 100}, {0, 20}, {220, 230}, {20, 220}, {3, 313}}
	for i, j := range out {
		if j.State() != sim.Finished || j.Start() != want[i].start || j.End() != want[i].end {
			t.Errorf("J%d: %s %g–%g, want %g–%g", j.ID, j.State(), j.Start(), j.End(), want[i].start, want[i].end)
		}
		if j.Served() != j.Work() {
			t.Errorf("J%d served %g of its work %g", j.ID, j.Served(), j.Work())
		}
	}
	if s.Suspensions != 1 {
		t.Errorf("%d suspensions, want 1 (J5 at 20)", s.Suspensions)
	}
}
