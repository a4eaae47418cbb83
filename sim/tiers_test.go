package sim

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// fixedTwoTier is the two-tier model with every random range collapsed to
// one value, so schedules can be computed by hand: loss 2%, eff 0.85 for a
// single-process job and 0.5 for a multi-process one.
func fixedTwoTier() *TwoTier {
	m := NewTwoTier(1)
	m.LossLo, m.LossHi = 0.02, 0.02
	m.EffSingleLo, m.EffSingleHi = 0.85, 0.85
	m.EffMean, m.EffSD = 0.5, 0
	return m
}

func twoTier(p int) Platform {
	pl := Processors(p)
	pl.Tiers, pl.Sharing = 2, fixedTwoTier()
	return pl
}

// script runs a hook at every pass; queued jobs are started only by it.
type script struct {
	queue []*Job
	hook  func(c *Cluster, queue []*Job)
}

func (s *script) Pass(c *Cluster, ch Changes) {
	s.queue = append(s.queue, ch.Arrived...)
	s.hook(c, s.queue)
	k := 0
	for _, j := range s.queue {
		if j.State() == Queued {
			s.queue[k] = j
			k++
		}
	}
	s.queue = s.queue[:k]
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

func TestTwoTierSpeeds(t *testing.T) {
	// A (1 process, usage 1) in the foreground of processor 0, B (1
	// process, usage 0.4) in its background, both from t=0, 10 s of work
	// each. A's foreground VM is fully used, so B gets no idle share: B
	// runs at eff·0/0.4 = 0 while A runs at 1 − loss = 0.98. A ends at
	// 10/0.98; then B runs alone at full speed and ends 10 s later.
	a := NewJob(1, 0, []int{1}, 10, 10, 0)
	b := NewJob(2, 0, []int{1}, 10, 10, 0)
	b.SetCPU([]float64{0.4}, []float64{0.4})
	s := &script{hook: func(c *Cluster, q []*Job) {
		if c.Now() == 0 {
			if err := c.StartOn(a, 0, []int{0}); err != nil {
				t.Fatal(err)
			}
			if err := c.StartOn(b, 1, []int{0}); err != nil {
				t.Fatal(err)
			}
		}
	}}
	jobs, _, err := Run(twoTier(2), s, NewSliceStream([]*Job{a, b}), nil)
	if err != nil {
		t.Fatal(err)
	}
	endA := 10 / 0.98
	if !near(jobs[0].End(), endA) || !near(jobs[1].End(), endA+10) {
		t.Errorf("ends %g, %g; want %g, %g", jobs[0].End(), jobs[1].End(), endA, endA+10)
	}
	// Slowdowns divide by the dedicated time served, not the wall time.
	if !near(b.Served(), 10) || !near(b.Response(), endA+10) || !near(b.BoundedSlowdown(10), (endA+10)/10) {
		t.Errorf("B served %g, response %g, bsld %g", b.Served(), b.Response(), b.BoundedSlowdown(10))
	}
}

func TestTwoTierIdleShare(t *testing.T) {
	// Foreground A: 2 processes with usages 0.5 and 0.9, on processors 0
	// and 1, 20 s of work. Background B: 2 processes with usages 0.3 and
	// 0.5 (eff 0.5 for a multi-process job) on processors 0 and 1.
	//   B's process 0 on processor 0: idle 0.5 ≥ 0.3 → 0.5.
	//   B's process 1 on processor 1: idle 0.1 < 0.5 → 0.5·0.1/0.5 = 0.1.
	// B runs at its slowest process: 0.1. A runs at 0.98 (B is busy
	// beside it) and ends at 20/0.98; B has done 0.1·20/0.98 by then and
	// finishes its 10 s alone at full speed.
	a := NewJob(1, 0, []int{2}, 20, 20, 0)
	a.SetCPU([]float64{0.5, 0.9}, nil)
	b := NewJob(2, 0, []int{2}, 10, 10, 0)
	b.SetCPU([]float64{0.3, 0.5}, nil)
	s := &script{hook: func(c *Cluster, q []*Job) {
		if c.Now() == 0 {
			c.StartOn(a, 0, []int{0, 1})
			c.StartOn(b, 1, []int{0, 1})
		}
	}}
	if _, _, err := Run(twoTier(2), s, NewSliceStream([]*Job{a, b}), nil); err != nil {
		t.Fatal(err)
	}
	endA := 20 / 0.98
	doneB := 0.1 * endA
	if !near(a.End(), endA) || !near(b.End(), endA+10-doneB) {
		t.Errorf("ends %g, %g; want %g, %g", a.End(), b.End(), endA, endA+10-doneB)
	}
}

func TestRelocateSwapMigrateRestart(t *testing.T) {
	// Three 10-s single-process jobs with usage 1 on 3 processors.
	// t=0: A fg on 0, B bg on 0 (speed 0: A leaves no idle share), C fg on 1.
	// t=4: B migrates to the foreground of processor 2 with a 5 s pause
	//      (its progress, 0, is kept); C restarts in place on processor 1:
	//      its 4 s are lost.
	// A runs at 0.98 while B is beside it (4 s → 3.92 done), then at 1:
	// 6.08 left → ends at 10.08.
	// B: paused 4..9, then full speed alone on processor 2: ends at 19.
	// C: restarted at 4, alone: ends at 14.
	a := NewJob(1, 0, []int{1}, 10, 10, 0)
	b := NewJob(2, 0, []int{1}, 10, 10, 0)
	cj := NewJob(3, 0, []int{1}, 10, 10, 0)
	s := &script{hook: func(c *Cluster, q []*Job) {
		switch c.Now() {
		case 0:
			c.StartOn(a, 0, []int{0})
			c.StartOn(b, 1, []int{0})
			c.StartOn(cj, 0, []int{1})
			c.WakeAt(4)
		case 4:
			if err := c.Relocate(b, 0, []int{2}, Relocation{Pause: 5}); err != nil {
				t.Fatal(err)
			}
			if err := c.Relocate(cj, 0, []int{1}, Relocation{Restart: true}); err != nil {
				t.Fatal(err)
			}
			if got := c.Progress(a); !near(got, 4*0.98) {
				t.Errorf("A's progress at 4: %g, want %g", got, 4*0.98)
			}
			if c.FreeIn(0) != 0 || c.FreeIn(1) != 3 {
				t.Errorf("free VMs at 4: fg %d bg %d, want 0 and 3", c.FreeIn(0), c.FreeIn(1))
			}
		}
	}}
	if _, _, err := Run(twoTier(3), s, NewSliceStream([]*Job{a, b, cj}), nil); err != nil {
		t.Fatal(err)
	}
	if !near(a.End(), 10.08) || !near(b.End(), 19) || !near(cj.End(), 14) {
		t.Errorf("ends A %g B %g C %g; want 10.08, 19, 14", a.End(), b.End(), cj.End())
	}
	if b.Migrations() != 1 || cj.Restarts() != 1 || a.Migrations()+a.Restarts()+a.Swaps() != 0 {
		t.Errorf("counts: B migrations %d, C restarts %d, A %d/%d/%d", b.Migrations(), cj.Restarts(), a.Migrations(), a.Restarts(), a.Swaps())
	}
	if !near(cj.Served(), 10) || cj.Start() != 0 {
		t.Errorf("C served %g (want 10: the lost run does not count), start %g (want its first start, 0)", cj.Served(), cj.Start())
	}
}

// A job suspended during its migration pause and resumed before the pause
// would have ended runs at once: the suspension ends the move (seed 003's
// CMBF suspends a promoted job for an earlier arrival). B (10 s, alone on
// processor 0's background: full speed) migrates at 2 to processor 1's
// foreground with a 5 s pause (2 s done), is suspended at 3 and resumed
// at 4 in the lowest idle foreground VM, processor 0's: 8 s left at full
// speed, it ends at 12. Before, the cancelled pause event left it at rate
// 0 forever.
func TestSuspendEndsMigrationPause(t *testing.T) {
	b := NewJob(1, 0, []int{1}, 10, 10, 0)
	s := &script{hook: func(c *Cluster, q []*Job) {
		switch c.Now() {
		case 0:
			c.StartOn(b, 1, []int{0})
			c.WakeAt(2)
		case 2:
			if err := c.Relocate(b, 0, []int{1}, Relocation{Pause: 5}); err != nil {
				t.Fatal(err)
			}
			c.WakeAt(3)
		case 3:
			if err := c.Preempt(b); err != nil {
				t.Fatal(err)
			}
			c.WakeAt(4)
		case 4:
			if err := c.Resume(b); err != nil {
				t.Fatal(err)
			}
		}
	}}
	if _, _, err := Run(twoTier(2), s, NewSliceStream([]*Job{b}), nil); err != nil {
		t.Fatal(err)
	}
	if b.State() != Finished || !near(b.End(), 12) || !near(b.Served(), 10) {
		t.Errorf("B: %s at %g, served %g; want finished at 12, served 10", b.State(), b.End(), b.Served())
	}
}

func TestSwapKeepsProgress(t *testing.T) {
	// B runs in the background of processor 0 alone (full speed) for 3 s,
	// then swaps to the foreground of the same processor: 7 s left, ends
	// at 10, with one swap and no migration.
	b := NewJob(1, 0, []int{1}, 10, 10, 0)
	s := &script{hook: func(c *Cluster, q []*Job) {
		switch c.Now() {
		case 0:
			c.StartOn(b, 1, []int{0})
			c.WakeAt(3)
		case 3:
			if err := c.Relocate(b, 0, []int{0}, Relocation{}); err != nil {
				t.Fatal(err)
			}
		}
	}}
	if _, _, err := Run(twoTier(1), s, NewSliceStream([]*Job{b}), nil); err != nil {
		t.Fatal(err)
	}
	if b.End() != 10 || b.Swaps() != 1 || b.Migrations() != 0 {
		t.Errorf("end %g swaps %d migrations %d; want 10, 1, 0", b.End(), b.Swaps(), b.Migrations())
	}
}

func TestTieredLimitCountsServedTime(t *testing.T) {
	// Estimate 5 s, work 8 s, killed at its limit: on a tiered platform the
	// limit counts dedicated time. Alone at full speed for 2 s, then a
	// foreground job arrives and it runs in the background at speed 0.85
	// (single process of usage 0.4; the foreground uses 0.5, leaving 0.5
	// idle): the 3 s left take 3/0.85.
	j := NewJob(1, 0, []int{1}, 5, 8, 5)
	j.SetCPU([]float64{0.4}, nil)
	fg := NewJob(2, 2, []int{1}, 100, 100, 0)
	fg.SetCPU([]float64{0.5}, nil)
	s := &script{hook: func(c *Cluster, q []*Job) {
		switch c.Now() {
		case 0:
			c.StartOn(j, 1, []int{0})
		case 2:
			c.StartOn(fg, 0, []int{0})
		}
	}}
	if _, _, err := Run(twoTier(1), s, NewSliceStream([]*Job{j, fg}), nil); err != nil {
		t.Fatal(err)
	}
	if j.State() != Killed || !near(j.End(), 2+3/0.85) || !near(j.Served(), 5) {
		t.Errorf("job: %s at %g served %g; want killed at %g having served 5", j.State(), j.End(), j.Served(), 2+3/0.85)
	}
}

func TestTieredPlacementErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		act  func(c *Cluster, a, b *Job) error
		want string
	}{
		{"busy VM", func(c *Cluster, a, b *Job) error {
			c.StartOn(a, 0, []int{0})
			return c.StartOn(b, 0, []int{0})
		}, "runs job 1"},
		{"process count", func(c *Cluster, a, b *Job) error { return c.StartOn(a, 0, []int{0, 1}) }, "has 1 processes, placed on 2"},
		{"tier", func(c *Cluster, a, b *Job) error { return c.StartOn(a, 2, []int{0}) }, "tiers 0..1"},
		{"processor", func(c *Cluster, a, b *Job) error { return c.StartOn(a, 0, []int{7}) }, "processor 7"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := NewJob(1, 0, []int{1}, 1, 1, 0)
			b := NewJob(2, 0, []int{1}, 1, 1, 0)
			var got error
			s := &script{hook: func(c *Cluster, q []*Job) {
				if c.Now() == 0 {
					got = tc.act(c, a, b)
				}
			}}
			_, _, err := Run(twoTier(2), s, NewSliceStream([]*Job{a, b}), nil)
			if got == nil || !strings.Contains(got.Error(), tc.want) || err == nil {
				t.Errorf("action error %v, run error %v; want %q", got, err, tc.want)
			}
		})
	}
}

func TestStartOnTieredPlatformUsesIdleForeground(t *testing.T) {
	// A classic scheduler on a tiered platform: Start takes the lowest
	// idle foreground VMs and jobs run at full speed, exactly as on the
	// dedicated machine.
	jobs := []*Job{NewJob(1, 0, []int{2}, 5, 5, 0), NewJob(2, 1, []int{1}, 3, 3, 0), NewJob(3, 1, []int{2}, 2, 2, 0)}
	done, _, err := Run(twoTier(3), &greedy{}, NewSliceStream(jobs), nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []Time{5, 4, 7} {
		if done[i].End() != want {
			t.Errorf("job %d ends at %g, want %g", i+1, done[i].End(), want)
		}
	}
}

func TestTwoTierDrawsArePerJob(t *testing.T) {
	m := NewTwoTier(9)
	j1 := NewJob(4, 0, []int{1}, 1, 1, 0)
	j2 := NewJob(4, 0, []int{1}, 1, 1, 0)
	multi := NewJob(5, 0, []int{3}, 1, 1, 0)
	l1, e1 := m.draws(j1)
	l2, e2 := m.draws(j2)
	if l1 != l2 || e1 != e2 {
		t.Errorf("same job ID, different draws: %g/%g vs %g/%g", l1, e1, l2, e2)
	}
	if l1 < 0.005 || l1 > 0.04 || e1 < 0.8 || e1 > 0.92 {
		t.Errorf("single-process draws loss %g eff %g outside [0.005, 0.04] and [0.80, 0.92]", l1, e1)
	}
	if _, e := m.draws(multi); e < 0.198 || e > 0.766 {
		t.Errorf("multi-process eff %g outside [0.198, 0.766]", e)
	}
}

func TestPauseInPlaceKeepsTheVMs(t *testing.T) {
	// A (1 process, usage 0.5, 10 s) in the foreground of processor 0, B
	// (1 process, usage 0.4, 10 s) in its background: B gets eff 0.85 (idle
	// share 0.5 ≥ 0.4), A 0.98. At t=2 B pauses in place for 3 s: it keeps
	// its VM (A still runs at 0.98 beside it) and makes no progress until 5.
	// B: 1.7 done at 2, then 0.85 from 5 until A ends at 10/0.98, by then
	// 1.7 + 0.85·(10/0.98 − 5) done; the rest alone: end = 10/0.98 + 10 −
	// 1.7 − 0.85·(10/0.98 − 5).
	a := NewJob(1, 0, []int{1}, 10, 10, 0)
	a.SetCPU([]float64{0.5}, nil)
	b := NewJob(2, 0, []int{1}, 10, 10, 0)
	b.SetCPU([]float64{0.4}, nil)
	s := &script{hook: func(c *Cluster, q []*Job) {
		switch c.Now() {
		case 0:
			c.StartOn(a, 0, []int{0})
			c.StartOn(b, 1, []int{0})
			c.WakeAt(2)
		case 2:
			if got := c.ObservedCPU(0, 0); got != 0.5 {
				t.Errorf("observed usage of processor 0's foreground: %g, want 0.5", got)
			}
			if got := c.ObservedCPU(0, 1); got != 0 {
				t.Errorf("observed usage of an idle VM: %g, want 0", got)
			}
			if err := c.PauseInPlace(b, 3); err != nil {
				t.Fatal(err)
			}
			if tier, procs := c.Placement(b); tier != 1 || len(procs) != 1 || procs[0] != 0 || c.FreeIn(1) != 1 {
				t.Errorf("B after the pause: tier %d on %v, %d idle background VMs; want tier 1 on [0], 1", tier, procs, c.FreeIn(1))
			}
		}
	}}
	if _, _, err := Run(twoTier(2), s, NewSliceStream([]*Job{a, b}), nil); err != nil {
		t.Fatal(err)
	}
	ta := 10 / 0.98
	if want := ta + 10 - 1.7 - 0.85*(ta-5); !near(a.End(), ta) || !near(b.End(), want) {
		t.Errorf("ends A %g B %g; want %g, %g", a.End(), b.End(), ta, want)
	}
	if b.Migrations()+b.Swaps()+b.Restarts() != 0 {
		t.Errorf("B: a pause in place counted as a move (%d/%d/%d)", b.Migrations(), b.Swaps(), b.Restarts())
	}
}

// TestEndedJobsGiveTheirStateBack: an ended job's platform state (its
// tierJob and processor list) is taken again by the jobs placed after it
// (Cluster.retire), zeroed: 400 jobs of one to four processes, eight
// processors on two tiers, use fewer than a quarter as many tierJobs and
// lists as jobs, and every running job carries its own sharing-model
// draws (those of its ID, as a job never placed is given) and no pause of
// a job before it. Without retire every job would have its own; without
// the zeroing the draws and pauses of an ended job would carry over.
func TestEndedJobsGiveTheirStateBack(t *testing.T) {
	const procs, n = 8, 400
	rng := rand.New(rand.NewPCG(3, 5))
	var jobs []*Job
	at := Time(0)
	for i := range n {
		at += Time(rng.IntN(2))
		w := Time(1 + rng.IntN(9))
		jobs = append(jobs, NewJob(int64(i+1), at, []int{1 + rng.IntN(4)}, w, w, 0))
	}
	plat := Processors(procs)
	plat.Tiers, plat.Sharing = 2, NewTwoTier(7)
	reference := NewTwoTier(7)
	states, lists := map[*tierJob]bool{}, map[*int]bool{}
	started := 0
	s := &script{hook: func(c *Cluster, q []*Job) {
		for _, j := range c.Running() {
			tj := j.tx
			states[tj], lists[&tj.procs[:1][0]] = true, true
			loss, eff := reference.Draws(&Job{ID: j.ID, Demand: j.Demand})
			if !tj.shareSet || tj.share != [2]float64{loss, eff} {
				t.Fatalf("t=%g job %d: draws %v (set %v), its own %v", c.now, j.ID, tj.share, tj.shareSet, [2]float64{loss, eff})
			}
			if tj.pausedTo != 0 || tj.resumeEv != nil {
				t.Fatalf("t=%g job %d: paused to %g, never paused", c.now, j.ID, tj.pausedTo)
			}
		}
		for _, j := range q {
			if j.State() != Queued {
				continue
			}
			for tier := range 2 {
				var idle []int
				for p := range procs {
					if o, _ := c.Occupant(tier, p); o == nil {
						idle = append(idle, p)
					}
				}
				if len(idle) >= j.Demand[0] {
					if err := c.StartOn(j, tier, idle[:j.Demand[0]]); err != nil {
						t.Fatal(err)
					}
					started++
					break
				}
			}
		}
	}}
	if _, _, err := Run(plat, s, NewSliceStream(jobs), nil); err != nil {
		t.Fatal(err)
	}
	if started != n {
		t.Fatalf("%d of %d jobs started", started, n)
	}
	if len(states) > n/4 || len(lists) > n/4 {
		t.Fatalf("%d jobs ran in %d tierJobs and %d processor lists; want under a quarter as many", n, len(states), len(lists))
	}
	t.Logf("%d jobs ran in %d tierJobs and %d processor lists", n, len(states), len(lists))
}
