package cloud

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestFastestIsTheScan: CMMS's fastestInto, which walks each task's time
// order (timeOrders) to its first free VM, picks what timing every
// candidate VM of every task picks (assignInto with the task's time as
// the key, the code before it), and finds the same duration. The speeds
// include 7 and the next number above it, whose quotients of 1, 2, 4 and 8
// instructions round to one time: the faster VM then comes first in the speed order whatever its
// number, and the order must put it after a lower-numbered one (the scan's
// tie). The cases the walk must get right all occur: transfer times,
// tasks equal to the one before them, such runs of equal times put in VM
// order, jobs assigned and jobs not.
func TestFastestIsTheScan(t *testing.T) {
	transfer, repeated, reordered, assigned, refused := 0, 0, 0, 0, 0
	seventh := math.Nextafter(7, 8)
	randomWalks(t, 0xc3a5, func(w *Workload, rng *rand.Rand) {
		w.TransferScale = []float64{0, 0, 0.25}[rng.IntN(3)]
		for v := range w.VMs {
			w.VMs[v].Speed = []float64{1, 2, 7, seventh, 4}[rng.IntN(5)]
		}
		for j := range w.Jobs {
			ts := w.Jobs[j].Tasks
			for k := 1; k < len(ts); k++ {
				if rng.IntN(2) == 0 {
					ts[k] = ts[k-1] // the copied and split readings' equal tasks
				}
			}
		}
	}, func(*scheduler, *rand.Rand) func(*jobInfo) { return nil }, func(c walk) {
		s, ji := c.s, c.ji
		n := len(ji.j.Tasks)
		got, gotDur := minMin{}.fastestInto(s, make([]int, n), ji)
		want, wantDur := s.assignInto(make([]int, n), ji, func(_, _ int, et float64) float64 { return et })
		if !slices.Equal(got, want) || gotDur != wantDur {
			t.Fatalf("seed %d aware %v job %d at %g, busy %v: fastestInto %v (%g), the scan %v (%g)", c.seed, c.aware, ji.j.ID, s.now, s.busy, got, gotDur, want, wantDur)
		}
		if got == nil {
			refused++
			return
		}
		assigned++
		if s.w.TransferScale > 0 && ji.j.InputSize > 0 {
			transfer++
		} else if ji.byTime != nil {
			k := -1
			for i := range ji.j.Tasks {
				if sameAsPrevious(ji, i) {
					continue
				}
				k++
				if !slices.Equal(ji.byTime[k], s.within(s.bySpeed, ji.capable[i])) {
					reordered++
				}
			}
		}
		for i := 1; i < n; i++ {
			if sameAsPrevious(ji, i) {
				repeated++
				break
			}
		}
	})
	if transfer == 0 || repeated == 0 || reordered == 0 || assigned == 0 || refused == 0 {
		t.Fatalf("cases not covered: %d with transfer times, %d with equal tasks, %d orders put in VM order within equal times, %d assigned, %d not", transfer, repeated, reordered, assigned, refused)
	}
	t.Logf("%d assigned (%d with transfer times, %d with equal tasks, %d orders put in VM order within equal times), %d not", assigned, transfer, repeated, reordered, refused)
}
