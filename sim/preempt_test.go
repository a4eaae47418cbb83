package sim

import "testing"

// scripted runs actions at given instants (one pass each).
type scripted struct {
	at  map[Time]func(c *Cluster)
	ats []Time
}

func (s *scripted) Pass(c *Cluster, ch Changes) {
	if f := s.at[c.Now()]; f != nil {
		f(c)
	}
	for _, t := range s.ats {
		c.WakeAt(t)
	}
}

// A job of 10 s suspended at 4 and resumed at 9 ends at 15, with Start 0;
// while it is suspended its unit serves another job; Remaining reports the
// work left.
func TestSuspendResume(t *testing.T) {
	a := NewJob(1, 0, []int{1}, 10, 10, 0)
	b := NewJob(2, 0, []int{1}, 3, 3, 0)
	var rem4, rem9 Time
	s := &scripted{ats: []Time{4, 9}, at: map[Time]func(*Cluster){
		0: func(c *Cluster) {
			if err := c.Start(a); err != nil {
				t.Fatal(err)
			}
		},
		4: func(c *Cluster) {
			if err := c.Suspend(a); err != nil {
				t.Fatal(err)
			}
			rem4 = c.Remaining(a)
			if a.State() != Queued || c.Free(0) != 1 || c.Waiting() != 2 {
				t.Fatalf("after suspend: %s free %d waiting %d", a.State(), c.Free(0), c.Waiting())
			}
			if err := c.Start(b); err != nil {
				t.Fatal(err)
			}
		},
		9: func(c *Cluster) {
			if err := c.Resume(a); err != nil {
				t.Fatal(err)
			}
			rem9 = c.Remaining(a)
		},
	}}
	jobs, _, err := Run(Processors(1), s, NewSliceStream([]*Job{a, b}), nil)
	if err != nil {
		t.Fatal(err)
	}
	if rem4 != 6 || rem9 != 6 {
		t.Errorf("remaining %g at 4, %g at 9; want 6, 6", rem4, rem9)
	}
	if a.State() != Finished || a.Start() != 0 || a.End() != 15 {
		t.Errorf("a: %s start %g end %g; want finished 0..15", a.State(), a.Start(), a.End())
	}
	if b.Start() != 4 || b.End() != 7 || len(jobs) != 2 {
		t.Errorf("b: %g..%g", b.Start(), b.End())
	}
}

// Restart keeps the rate and discards the progress: a job of 20 s of work at
// rate 2, restarted at 4, ends at 14.
func TestRestartAndRates(t *testing.T) {
	a := NewJob(1, 0, []int{1}, 20, 20, 0)
	s := &scripted{ats: []Time{4}, at: map[Time]func(*Cluster){
		0: func(c *Cluster) {
			if err := c.Start(a); err != nil {
				t.Fatal(err)
			}
			if err := c.SetRate(a, 2); err != nil {
				t.Fatal(err)
			}
		},
		4: func(c *Cluster) {
			if got := c.Remaining(a); got != 12 {
				t.Errorf("remaining at 4: %g, want 12", got)
			}
			if err := c.Restart(a); err != nil {
				t.Fatal(err)
			}
		},
	}}
	if _, _, err := Run(Processors(1), s, NewSliceStream([]*Job{a}), nil); err != nil {
		t.Fatal(err)
	}
	if a.End() != 14 || a.Start() != 0 {
		t.Errorf("end %g start %g; want 14, 0", a.End(), a.Start())
	}
}

// Misuse stops the run with an error; a suspended job left waiting is
// reported as stuck rather than hanging.
func TestSuspendErrors(t *testing.T) {
	a := NewJob(1, 0, []int{1}, 5, 5, 0)
	s := &scripted{at: map[Time]func(*Cluster){0: func(c *Cluster) { c.Suspend(a) }}}
	if _, _, err := Run(Processors(1), s, NewSliceStream([]*Job{a}), nil); err == nil {
		t.Error("suspending a queued job: no error")
	}
	a = NewJob(1, 0, []int{1}, 5, 5, 0)
	s = &scripted{ats: []Time{1}, at: map[Time]func(*Cluster){
		0: func(c *Cluster) { c.Start(a) },
		1: func(c *Cluster) { c.Suspend(a) },
	}}
	if _, _, err := Run(Processors(1), s, NewSliceStream([]*Job{a}), nil); err == nil {
		t.Error("suspended job never resumed: no error")
	}
	a = NewJob(1, 0, []int{1}, 5, 5, 0)
	b := NewJob(2, 0, []int{1}, 5, 5, 0)
	s = &scripted{ats: []Time{1}, at: map[Time]func(*Cluster){
		0: func(c *Cluster) { c.Start(a) },
		1: func(c *Cluster) { c.Suspend(a); c.Start(b); c.Resume(a) },
	}}
	if _, _, err := Run(Processors(1), s, NewSliceStream([]*Job{a, b}), nil); err == nil {
		t.Error("resume without a free unit: no error")
	}
}
