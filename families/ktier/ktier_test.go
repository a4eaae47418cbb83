package ktier

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
)

// With two tiers the K-tier model is seed 000's sim.TwoTier: the same
// speed for every occupancy (an idle VM, busy foregrounds of every usage,
// backgrounds of every usage), both through the K = 2 path and through
// the general path with the third tier idle.
func TestTwoTiersAreSeed000(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	k, ref := NewSharing(42), sim.NewTwoTier(42)
	for n := 0; n < 2000; n++ {
		occ := []float64{0, 0}
		for i := range occ {
			if rng.IntN(4) > 0 {
				occ[i] = 0.05 + 0.95*rng.Float64()
			}
		}
		for tier := 0; tier < 2; tier++ {
			if occ[tier] == 0 {
				continue
			}
			// the process in tier `tier` is process 0 of j, at its usage
			j := sim.NewJob(int64(n), 0, []int{1 + rng.IntN(3)}, 1, 1, 0)
			cpu := make([]float64, j.Demand[0])
			for i := range cpu {
				cpu[i] = occ[tier]
			}
			j.SetCPU(cpu, nil)
			want := ref.Speed(j, 0, tier, occ)
			if got := k.Speed(j, 0, tier, occ); got != want {
				t.Fatalf("occ %v tier %d: K-tier %g, two-tier %g", occ, tier, got, want)
			}
			three := []float64{occ[0], occ[1], 0}
			if got := k.Speed(j, 0, tier, three); math.Abs(got-want) > 1e-15 {
				t.Fatalf("occ %v tier %d (third tier idle): K-tier %g, two-tier %g", three, tier, got, want)
			}
		}
	}
}

// Max-min fair shares worked by hand: 0.5 of CPU among demands 0.1, 0.3
// and 0.4 gives 0.1 (its demand; the equal share is 0.5/3), then 0.2 and
// 0.2 (the 0.4 left, halved).
func TestWaterFillByHand(t *testing.T) {
	all := []float64{0.4, 0, 0.1, 0.3}
	for _, c := range []struct{ req, want float64 }{{0.1, 0.1}, {0.3, 0.2}, {0.4, 0.2}} {
		if got := WaterFill(0.5, c.req, all); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("demand %g: share %g, want %g", c.req, got, c.want)
		}
	}
	if got := WaterFill(1, 0.3, []float64{0.3, 0.2}); got != 0.3 {
		t.Errorf("enough for all: %g, want 0.3", got)
	}
}

// Three tiers: the foreground at usage 0.5 leaves 0.5; background
// processes of usage 0.4 and 0.3 get 0.25 each (0.5/2, both demands
// above it) and run at eff·0.25/0.4 and eff·0.25/0.3; the foreground
// loses its loss once.
func TestThreeTierSpeedsByHand(t *testing.T) {
	m := NewSharing(7)
	fg, b1, b2 := job(1, 0, 2, 1, 0.5), job(2, 0, 2, 1, 0.4), job(3, 0, 2, 1, 0.3)
	loss, _ := m.Draws(fg)
	_, eff1 := m.Draws(b1)
	_, eff2 := m.Draws(b2)
	occ := []float64{0.5, 0.4, 0.3}
	for _, c := range []struct {
		j    *sim.Job
		tier int
		want float64
	}{{fg, 0, 1 - loss}, {b1, 1, eff1 * 0.25 / 0.4}, {b2, 2, eff2 * 0.25 / 0.3}} {
		if got := m.Speed(c.j, 0, c.tier, occ); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("tier %d: %g, want %g", c.tier, got, c.want)
		}
	}
	// An idle foreground: the backgrounds share the whole CPU (0.7 ≤ 1:
	// full speed each).
	if got := m.Speed(b1, 0, 1, []float64{0, 0.4, 0.3}); got != 1 {
		t.Errorf("idle foreground: %g, want 1", got)
	}
	if got := m.Speed(fg, 0, 0, []float64{0.5, 0, 0}); got != 1 {
		t.Errorf("no background busy: %g, want 1", got)
	}
}

// job builds a job of n processes with work w = its estimate, every
// process at usage u (told exactly).
func job(id int64, submit sim.Time, n int, w sim.Time, u float64) *sim.Job {
	j := sim.NewJob(id, submit, []int{n}, w, w, 0)
	cpu := make([]float64, n)
	for i := range cpu {
		cpu[i] = u
	}
	j.SetCPU(cpu, cpu)
	return j
}

// CMBF's suspend path on 6 dedicated nodes, worked by hand. J1 (4 nodes,
// 10 s) starts at 0; J2 (5 nodes, 10 s) arrives at 1 and waits; J3 and J4
// (1 node, 20 s each) arrive at 2 and 3 and are backfilled on the 2 idle
// nodes. At 10 J1 ends: 4 nodes idle, J2 needs 5, and later-arriving
// backfilled jobs hold 2 — so the latest, J4 (7 s done), is suspended,
// and that is enough: J3 keeps running. J2 runs 10–20. J3 ends at 22.
// J4 resumes at 20 with its 13 s left and ends at 33, first started at 3,
// served 20 s.
func TestCMBFSuspendPathByHand(t *testing.T) {
	p := sim.Processors(6)
	s, err := New(p, Config{Threshold: DefaultThreshold, MigrationCost: DefaultMigrationCost})
	if err != nil {
		t.Fatal(err)
	}
	jobs := []*sim.Job{job(1, 0, 4, 10, 1), job(2, 1, 5, 10, 1), job(3, 2, 1, 20, 1), job(4, 3, 1, 20, 1)}
	out, _, err := sim.Run(p, s, sim.NewSliceStream(jobs), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct{ start, end sim.Time }{{0, 10}, {10, 20}, {2, 22}, {3, 33}}
	for i, j := range out {
		if j.State() != sim.Finished || j.Start() != want[i].start || j.End() != want[i].end {
			t.Errorf("J%d: %s %g–%g, want %g–%g", j.ID, j.State(), j.Start(), j.End(), want[i].start, want[i].end)
		}
		if j.Served() != j.Work() {
			t.Errorf("J%d served %g of its work %g", j.ID, j.Served(), j.Work())
		}
	}
	if s.Suspensions != 1 {
		t.Errorf("%d suspensions, want 1 (J4 only)", s.Suspensions)
	}
	if bsld := out[3].BoundedSlowdown(10); math.Abs(bsld-30.0/20) > 1e-12 {
		t.Errorf("J4's bounded slowdown %g, want response 30 / served 20", bsld)
	}
}

// placements records every running job's tier and nodes after each pass.
// and, in after, the placements right after the pass in which job 1
// ended.
type placements struct {
	s     *Scheduler
	at    map[int64][]string
	after map[int64]string
}

func (r *placements) Pass(c *sim.Cluster, ch sim.Changes) {
	r.s.Pass(c, ch)
	ended := false
	for _, j := range ch.Ended {
		ended = ended || j.ID == 1
	}
	for _, j := range c.Running() {
		tier, procs := c.Placement(j)
		r.at[j.ID] = append(r.at[j.ID], place(tier, procs))
		if ended {
			if r.after == nil {
				r.after = map[int64]string{}
			}
			r.after[j.ID] = place(tier, procs)
		}
	}
}

func place(tier int, procs []int) string {
	b := []byte{byte('0' + tier), ':'}
	for _, p := range procs {
		b = append(b, byte('0'+p))
	}
	return string(b)
}

// K-tier placement on 2 nodes with K = 3, worked by hand. J1 (2
// processes at usage 0.5) takes both foreground VMs. J2 and J3 (1
// process) find no idle foreground and no later backfilled job; both
// nodes' foreground usage 0.5 is below the threshold, so J2 goes to tier
// 1 of node 0 (equal busy CPU: the lower node), J3 to tier 1 of node 1
// (node 0 is now busier). J4 (2 processes) finds tier 1 full and takes
// tier 2 of both nodes. J5 (1 process) finds every VM busy and waits.
// When J1 ends the queue goes first: J5 (its head) takes the foreground
// VM of node 0; then the background jobs move up in arrival order wherever
// enough foreground VMs are idle (§3.2, "when there is enough resource to
// run"): J2 (1 process) migrates to the one idle foreground VM, node 1's,
// though its own node 0's is J5's; J3 (tier 1 of node 1) then finds no
// idle foreground VM and stays, as does J4 in tier 2. A node whose
// foreground usage is told at 0.97 takes no background process.
func TestKTierPlacementByHand(t *testing.T) {
	p := sim.Processors(2)
	p.Tiers, p.Sharing = 3, NewSharing(1)
	s, err := New(p, Config{Threshold: DefaultThreshold, MigrationCost: DefaultMigrationCost})
	if err != nil {
		t.Fatal(err)
	}
	rec := &placements{s: s, at: map[int64][]string{}}
	jobs := []*sim.Job{job(1, 0, 2, 10, 0.5), job(2, 1, 1, 30, 1), job(3, 2, 1, 30, 1), job(4, 3, 2, 30, 0.6), job(5, 4, 1, 5, 1)}
	if _, _, err := sim.Run(p, rec, sim.NewSliceStream(jobs), nil); err != nil {
		t.Fatal(err)
	}
	first := func(id int64) string { return rec.at[id][0] }
	for id, want := range map[int64]string{1: "0:01", 2: "1:0", 3: "1:1", 4: "2:01"} {
		if got := first(id); got != want {
			t.Errorf("J%d first placed %s, want %s", id, got, want)
		}
	}
	if a := rec.after; a[5] != "0:0" || a[2] != "0:1" || a[3] != "1:1" || a[4] != "2:01" {
		t.Errorf("after J1: J5 %s, J2 %s, J3 %s, J4 %s; want 0:0, 0:1, 1:1, 2:01", a[5], a[2], a[3], a[4])
	}

	// The threshold: a foreground told at 0.97 keeps its background idle.
	p2 := sim.Processors(1)
	p2.Tiers, p2.Sharing = 2, NewSharing(1)
	s2, _ := New(p2, Config{Threshold: DefaultThreshold, MigrationCost: DefaultMigrationCost})
	rec2 := &placements{s: s2, at: map[int64][]string{}}
	hot := job(1, 0, 1, 10, 0.97)
	if _, _, err := sim.Run(p2, rec2, sim.NewSliceStream([]*sim.Job{hot, job(2, 1, 1, 5, 1)}), nil); err != nil {
		t.Fatal(err)
	}
	if got := rec2.at[2][0]; got != "0:0" {
		t.Errorf("beside a foreground at 0.97 J2 first ran at %s, want 0:0 (after J1)", got)
	}
}

// K = 2 reproduces seed 000's platform: CMBF on sim.TwoTier and on the
// K-tier model with K = 2 gives the same schedule, to the last bit.
func TestK2IsSeed000Platform(t *testing.T) {
	run := func(sh sim.Sharing) []*sim.Job {
		p := sim.Processors(8)
		p.Tiers, p.Sharing = 2, sh
		s, _ := New(p, Config{Threshold: DefaultThreshold, MigrationCost: DefaultMigrationCost})
		out, _, err := sim.Run(p, s, sim.NewSliceStream(suiteJobs(rand.New(rand.NewPCG(5, 5)), 300, 8)), nil)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	a, b := run(sim.NewTwoTier(9)), run(NewSharing(9))
	for i := range a {
		if a[i].State() != b[i].State() || a[i].Start() != b[i].Start() || a[i].End() != b[i].End() {
			t.Fatalf("job %d: two-tier %s %g–%g, K-tier %s %g–%g", a[i].ID, a[i].State(), a[i].Start(), a[i].End(), b[i].State(), b[i].Start(), b[i].End())
		}
	}
}
