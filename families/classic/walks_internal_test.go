package classic

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/strategies/strategytest"
)

// checked is a Backfill that runs check on itself after every pass and
// counts the passes checked.
type checked struct {
	*Backfill
	t      *testing.T
	check  func(t *testing.T, b *Backfill, now sim.Time)
	checks int
}

func (c *checked) Pass(cl *sim.Cluster, ch sim.Changes) {
	c.Backfill.Pass(cl, ch)
	c.check(c.t, c.Backfill, cl.Now())
	c.checks++
}

// passesChecked runs cfg over random workloads (seeds 1 to seeds, stream
// stream), each on a fresh Backfill checked after every pass, and returns
// how many passes were checked.
func passesChecked(t *testing.T, cfg Config, seeds, stream uint64, opts strategytest.RandomOptions, check func(t *testing.T, b *Backfill, now sim.Time)) int {
	t.Helper()
	p := sim.Processors(opts.Capacities[0])
	checks := 0
	for seed := uint64(1); seed <= seeds; seed++ {
		specs := strategytest.Random(rand.New(rand.NewPCG(seed, stream)), opts)
		b, err := New(p, cfg)
		if err != nil {
			t.Fatal(err)
		}
		c := &checked{Backfill: b, t: t, check: check}
		if _, err := strategytest.Record(p, c, specs); err != nil {
			t.Fatal(err)
		}
		checks += c.checks
	}
	return checks
}

// shortestIsSorted compares the kept shortest-first list with what the
// backfill used to build at every pass: the queue's waiting entries
// without a reservation, stably sorted by estimate.
func shortestIsSorted(t *testing.T, b *Backfill, now sim.Time) {
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
		t.Fatalf("at %g: the kept shortest-first candidates differ from the queue sorted by estimate (%d vs %d entries)", now, len(got), len(want))
	}
	if len(b.shortest) != len(b.queue) {
		t.Fatalf("at %g: the shortest-first list holds %d entries, the queue %d", now, len(b.shortest), len(b.queue))
	}
}

// TestShortestFirstIsTheSortedQueue runs SJBF over random workloads with
// many equal estimates and early ends, and checks the kept order after
// every pass (shortestIsSorted).
func TestShortestFirstIsTheSortedQueue(t *testing.T) {
	opts := strategytest.RandomOptions{Jobs: 600, Capacities: []int{16}, MaxGap: 2, MaxWork: 20, Underrun: 0.5, Overrun: 0.1}
	if checks := passesChecked(t, SJBF(), 8, 7, opts, shortestIsSorted); checks < 1000 {
		t.Fatalf("only %d passes checked", checks)
	}
}

// walksMaySkip checks what the walks rely on to skip entries: every entry
// before head has started, and reserved counts the entries holding a
// reservation that have not started (compress stops after that many).
func walksMaySkip(t *testing.T, b *Backfill, now sim.Time) {
	for i, e := range b.queue[:b.head] {
		if !e.started {
			t.Fatalf("at %g: entry %d of %d, before head %d, has not started", now, i, len(b.queue), b.head)
		}
	}
	held := 0
	for _, e := range b.queue {
		if e.reserved && !e.started {
			held++
		}
	}
	if held != b.reserved {
		t.Fatalf("at %g: %d entries hold a reservation, the count says %d", now, held, b.reserved)
	}
}

// TestWalksSkipOnlyWhatTheyMay runs every member of the family over random
// workloads with early ends and overruns and checks walksMaySkip after
// every pass.
func TestWalksSkipOnlyWhatTheyMay(t *testing.T) {
	opts := strategytest.RandomOptions{Jobs: 500, Capacities: []int{16}, MaxGap: 3, MaxWork: 30, Underrun: 0.6, Overrun: 0.1}
	checks := 0
	for _, cfg := range []Config{FCFS(), EASY(), SJBF(), Conservative(), Depth(3), {Depth: 0, Backfill: true}} {
		checks += passesChecked(t, cfg, 4, 11, opts, walksMaySkip)
	}
	if checks < 5000 {
		t.Fatalf("only %d passes checked", checks)
	}
}
