package sim

import "testing"

// waker asks, in its first pass, for passes at 10, 20 and 10 again, then
// at 20 again from the pass at 10; it starts its one job in the pass at 20.
type waker struct{ passes []Time }

func (w *waker) Pass(c *Cluster, ch Changes) {
	w.passes = append(w.passes, c.Now())
	switch c.Now() {
	case 0:
		c.WakeAt(10)
		c.WakeAt(20)
		c.WakeAt(10)
	case 10:
		c.WakeAt(20)
	case 20:
		for _, j := range c.eng.jobs {
			if j.State() == Queued {
				c.Start(j)
			}
		}
	}
}

// TestWakeAtQueuesOneTimerPerTime: asking again for a time already asked
// for queues no second timer, and the passes are the same — one at 0 (the
// arrival), 10, 20 and the job's end at 25.
func TestWakeAtQueuesOneTimerPerTime(t *testing.T) {
	w := &waker{}
	_, st, err := Run(Processors(1), w, NewSliceStream([]*Job{NewJob(1, 0, []int{1}, 5, 5, 0)}), nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := []Time{0, 10, 20, 25}; len(w.passes) != len(want) || w.passes[0] != 0 || w.passes[1] != 10 || w.passes[2] != 20 || w.passes[3] != 25 {
		t.Fatalf("passes at %v, want %v", w.passes, want)
	}
	// Events: the arrival, its pass, a timer at 10 and its pass, one timer
	// at 20 and its pass, the end and its pass.
	if st.Events != 8 || st.Passes != 4 {
		t.Fatalf("%d events, %d passes; want 8 and 4 (one timer per time)", st.Events, st.Passes)
	}
}
