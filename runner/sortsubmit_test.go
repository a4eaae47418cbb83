package runner

import (
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/workload"
)

// TestSortBySubmitIsTheStableSort checks that sorting only the out-of-order
// stretch gives what a stable sort of the whole list gives, ties included,
// on lists that are sorted, sorted but for a few moved jobs (what pyss's
// 1-second records do), and shuffled.
func TestSortBySubmitIsTheStableSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for trial := range 3000 {
		n := 1 + rng.IntN(40)
		submits := make([]float64, n)
		for i := range submits {
			submits[i] = float64(rng.IntN(8)) // many ties
		}
		switch trial % 3 {
		case 0:
			slices.Sort(submits)
		case 1:
			slices.Sort(submits)
			for range rng.IntN(4) {
				submits[rng.IntN(n)] = float64(rng.IntN(8))
			}
		}
		jobs := make([]*sim.Job, n)
		recs := make([]workload.Job, n)
		for i, s := range submits {
			jobs[i] = &sim.Job{ID: int64(i), Submit: s}
			recs[i] = workload.Job{ID: int64(i), Submit: s}
		}
		want := slices.Clone(jobs)
		sort.SliceStable(want, func(a, b int) bool { return want[a].Submit < want[b].Submit })
		sortBySubmit(jobs, recs)
		for i := range jobs {
			if jobs[i] != want[i] || recs[i].ID != want[i].ID {
				t.Fatalf("trial %d, submits %v: position %d holds job %d (record %d), the stable sort has job %d",
					trial, submits, i, jobs[i].ID, recs[i].ID, want[i].ID)
			}
		}
	}
}

// TestUnsortedWindowHandComputed pins the window on small lists worked out
// by hand.
func TestUnsortedWindowHandComputed(t *testing.T) {
	for _, c := range []struct {
		submits []float64
		lo, hi  int
	}{
		{[]float64{}, 0, 0},
		{[]float64{3}, 0, 0},
		{[]float64{1, 1, 2, 5}, 0, 0},
		{[]float64{1, 0, 2, 3}, 0, 2},          // the first two swap
		{[]float64{0, 1, 1, 0, 2, 3}, 1, 4},    // 0 at index 3 moves before both 1s; the leading 0 stays
		{[]float64{0, 2, 1, 2, 2, 5}, 1, 3},    // the 2 at index 1 moves after the 1 only: the other 2s keep their places
		{[]float64{1, 2, 3, 0}, 0, 4},          // the last job goes first
		{[]float64{0, 1, 3, 2, 2, 2, 4}, 2, 6}, // the 3 passes every 2
	} {
		jobs := make([]*sim.Job, len(c.submits))
		for i, s := range c.submits {
			jobs[i] = &sim.Job{Submit: s}
		}
		if lo, hi := unsortedWindow(jobs); lo != c.lo || hi != c.hi {
			t.Errorf("%v: window [%d, %d), want [%d, %d)", c.submits, lo, hi, c.lo, c.hi)
		}
	}
}
