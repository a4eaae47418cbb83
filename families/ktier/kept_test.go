package ktier

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
)

// The walk's test N_j ≤ N_backfill + N_idle (§3.3) reads what the
// backfilled jobs arrived later than j hold from structures kept across
// passes: the backfilled set in arrival order, the
// queue's arrival ranks and suspension flags, and a cursor into the set.
// Every answer is checked here against the definition computed from
// scratch — the rank map, the Demand of every backfilled job, the
// suspended set — on random workloads at K = 1…4 heavy enough to suspend
// often (the queue at every 16th call: it is long); both answers must occur, and the kept structures must agree
// with the scratch ones at every call.
func TestLaterHoldMatchesScratch(t *testing.T) {
	for k := 1; k <= 4; k++ {
		for seed := uint64(1); seed <= 2; seed++ {
			t.Run(fmt.Sprintf("k%d/seed%d", k, seed), func(t *testing.T) {
				p := sim.Processors(16)
				if k > 1 {
					p.Tiers, p.Sharing = k, NewSharing(seed)
				}
				s, err := New(p, Config{Threshold: DefaultThreshold, MigrationCost: DefaultMigrationCost})
				if err != nil {
					t.Fatal(err)
				}
				calls, yes, no, bad := 0, 0, 0, 0
				checkLaterHold = func(s *Scheduler, r uint64, need int, got bool) {
					calls++
					if got {
						yes++
					} else {
						no++
					}
					if err := scratchLaterHold(s, r, need, got, calls%16 == 0); err != nil && bad < 5 {
						bad++
						t.Error(err)
					}
				}
				defer func() { checkLaterHold = nil }()
				jobs := suiteJobs(rand.New(rand.NewPCG(seed, uint64(10+k))), 500, 16)
				if _, _, err := sim.Run(p, s, sim.NewSliceStream(jobs), nil); err != nil {
					t.Fatal(err)
				}
				if yes == 0 || no == 0 || s.Suspensions == 0 {
					t.Fatalf("%d calls, %d true, %d false, %d suspensions: the workload does not exercise both answers", calls, yes, no, s.Suspensions)
				}
			})
		}
	}
}

// scratchLaterHold recomputes laterHold(r, need) from the rank map and the
// jobs' demands, and checks the backfilled set against the same sources
// and, with queue set, the queue too.
func scratchLaterHold(s *Scheduler, r uint64, need int, got, queue bool) error {
	later := 0
	for i, b := range s.backfilled {
		rank, ok := s.order[b.j]
		switch {
		case !ok || rank != b.rank:
			return fmt.Errorf("backfilled job %d: kept rank %d, map %d (%v)", b.j.ID, b.rank, rank, ok)
		case b.n != b.j.Demand[0]:
			return fmt.Errorf("backfilled job %d: kept N %d, demand %d", b.j.ID, b.n, b.j.Demand[0])
		case i > 0 && s.backfilled[i-1].rank >= rank:
			return fmt.Errorf("backfilled set out of arrival order at %d", i)
		}
		if rank > r {
			later += b.j.Demand[0]
		}
	}
	for i, q := range s.queue {
		if !queue {
			break
		}
		if rank := s.order[q.j]; rank != q.rank || q.susp != s.suspended[q.j] || q.n != q.j.Demand[0] {
			return fmt.Errorf("queue entry %d (job %d): kept rank %d susp %v N %d, map %d %v, demand %d", i, q.j.ID, q.rank, q.susp, q.n, rank, s.suspended[q.j], q.j.Demand[0])
		}
		if i > 0 && s.queue[i-1].rank >= q.rank {
			return fmt.Errorf("queue out of arrival order at %d", i)
		}
	}
	if want := need <= later; got != want {
		return fmt.Errorf("rank %d, need %d: kept answer %v, from scratch %v (later jobs hold %d)", r, need, got, want, later)
	}
	return nil
}

// §3.2's background placement takes the n candidate nodes with the least
// estimated busy CPU (ties: the lower node). leastLoaded selects them
// without sorting every candidate; it must give exactly the first n of the
// sorted list, in order, for every size, on ties and on sorted, reversed
// and random input.
func TestLeastLoadedIsTheSortedPrefix(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for trial := 0; trial < 3000; trial++ {
		size := 1 + rng.IntN(70)
		cs := make([]cand, size)
		for i := range cs {
			cs[i] = cand{p: i, busy: float64(rng.IntN(1 + rng.IntN(8)))}
		}
		switch trial % 4 {
		case 1:
			slices.SortFunc(cs, func(a, b cand) int { return cmp.Or(cmp.Compare(a.busy, b.busy), cmp.Compare(a.p, b.p)) })
		case 2:
			slices.SortFunc(cs, func(a, b cand) int { return cmp.Or(cmp.Compare(b.busy, a.busy), cmp.Compare(b.p, a.p)) })
		default:
			rng.Shuffle(size, func(i, j int) { cs[i], cs[j] = cs[j], cs[i] })
		}
		want := slices.Clone(cs)
		slices.SortStableFunc(want, func(a, b cand) int { return cmp.Or(cmp.Compare(a.busy, b.busy), cmp.Compare(a.p, b.p)) })
		n := 1 + rng.IntN(size)
		leastLoaded(cs, n)
		if !slices.Equal(cs[:n], want[:n]) {
			t.Fatalf("trial %d, %d candidates, n %d: got %v, want %v", trial, size, n, cs[:n], want[:n])
		}
	}
}
