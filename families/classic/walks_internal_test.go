package classic

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/strategies/strategytest"
)

// checkedSJBF is an SJBF scheduler that, after every pass, compares the
// kept shortest-first list with what the backfill used to build at every
// pass: the queue's waiting entries without a reservation, stably sorted
// by estimate.
type checkedSJBF struct {
	*Backfill
	t      *testing.T
	checks int
}

func (c *checkedSJBF) Pass(cl *sim.Cluster, ch sim.Changes) {
	c.Backfill.Pass(cl, ch)
	b := c.Backfill
	var want, got []*entry
	for _, e := range b.queue {
		if !e.started && !e.reserved {
			want = append(want, e)
		}
	}
	slices.SortStableFunc(want, byEstimate)
	for _, e := range b.shortest {
		if !e.started && !e.reserved {
			got = append(got, e)
		}
	}
	if !slices.Equal(got, want) {
		c.t.Fatalf("at %g: the kept shortest-first candidates differ from the queue sorted by estimate (%d vs %d entries)", cl.Now(), len(got), len(want))
	}
	if len(b.shortest) != len(b.queue) {
		c.t.Fatalf("at %g: the shortest-first list holds %d entries, the queue %d", cl.Now(), len(b.shortest), len(b.queue))
	}
	c.checks++
}

// TestShortestFirstIsTheSortedQueue runs SJBF over random workloads with
// many equal estimates and early ends, and checks the kept order after
// every pass (checkedSJBF).
func TestShortestFirstIsTheSortedQueue(t *testing.T) {
	opts := strategytest.RandomOptions{Jobs: 600, Capacities: []int{16}, MaxGap: 2, MaxWork: 20, Underrun: 0.5, Overrun: 0.1}
	checks := passesChecked(t, SJBF(), 8, 7, opts, func(b *Backfill) (sim.Scheduler, *int) {
		c := &checkedSJBF{Backfill: b, t: t}
		return c, &c.checks
	})
	if checks < 1000 {
		t.Fatalf("only %d passes checked", checks)
	}
}

// passesChecked runs cfg over random workloads (seeds 1 to seeds, stream
// stream), each through the checking scheduler wrap makes of a fresh
// Backfill, and returns how many passes the checkers counted.
func passesChecked(t *testing.T, cfg Config, seeds, stream uint64, opts strategytest.RandomOptions, wrap func(*Backfill) (sim.Scheduler, *int)) int {
	t.Helper()
	p := sim.Processors(opts.Capacities[0])
	checks := 0
	for seed := uint64(1); seed <= seeds; seed++ {
		specs := strategytest.Random(rand.New(rand.NewPCG(seed, stream)), opts)
		b, err := New(p, cfg)
		if err != nil {
			t.Fatal(err)
		}
		s, n := wrap(b)
		if _, err := strategytest.Record(p, s, specs); err != nil {
			t.Fatal(err)
		}
		checks += *n
	}
	return checks
}

// walkChecked is a Backfill that checks, after every pass, what its walks
// rely on to skip entries: every entry before head has started, and
// reserved counts the entries holding a reservation that have not started
// (compress stops after that many).
type walkChecked struct {
	*Backfill
	t      *testing.T
	checks int
}

func (w *walkChecked) Pass(cl *sim.Cluster, ch sim.Changes) {
	w.Backfill.Pass(cl, ch)
	b := w.Backfill
	for i, e := range b.queue[:b.head] {
		if !e.started {
			w.t.Fatalf("at %g: entry %d of %d, before head %d, has not started", cl.Now(), i, len(b.queue), b.head)
		}
	}
	held := 0
	for _, e := range b.queue {
		if e.reserved && !e.started {
			held++
		}
	}
	if held != b.reserved {
		w.t.Fatalf("at %g: %d entries hold a reservation, the count says %d", cl.Now(), held, b.reserved)
	}
	w.checks++
}

// TestWalksSkipOnlyWhatTheyMay runs every member of the family over random
// workloads with early ends and overruns and checks walkChecked's
// invariants after every pass.
func TestWalksSkipOnlyWhatTheyMay(t *testing.T) {
	opts := strategytest.RandomOptions{Jobs: 500, Capacities: []int{16}, MaxGap: 3, MaxWork: 30, Underrun: 0.6, Overrun: 0.1}
	checks := 0
	for _, cfg := range []Config{FCFS(), EASY(), SJBF(), Conservative(), Depth(3), {Depth: 0, Backfill: true}} {
		checks += passesChecked(t, cfg, 4, 11, opts, func(b *Backfill) (sim.Scheduler, *int) {
			w := &walkChecked{Backfill: b, t: t}
			return w, &w.checks
		})
	}
	if checks < 5000 {
		t.Fatalf("only %d passes checked", checks)
	}
}
