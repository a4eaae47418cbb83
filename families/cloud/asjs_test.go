package cloud

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestASJSBestIsTheScan: asjsBest, which walks each task's capable VMs in
// score order (asjsOrders), picks what scoring every capable VM picks
// (asjsScan, the code before it), on random clouds with tied scores
// (speeds and bandwidths from small sets, some bandwidths 0), tasks that
// only some VMs can hold, random busy VMs, and deadline-aware or not at
// random instants. It also checks the cases the walk must get right all
// occur: capable lists short of the platform, jobs that wait for a busy
// best, and jobs assigned.
func TestASJSBestIsTheScan(t *testing.T) {
	subset, waits, assigned := 0, 0, 0
	for seed := uint64(1); seed <= 40; seed++ {
		rng := rand.New(rand.NewPCG(seed, 0xa5e5))
		w := randomWorkload(rng, 4+rng.IntN(20), 60)
		for v := range w.VMs {
			w.VMs[v].Speed = []float64{1, 2, 4}[rng.IntN(3)]
			w.VMs[v].Bandwidth = []float64{0, 5, 10, 20}[rng.IntN(4)]
		}
		for _, aware := range []bool{false, true} {
			s := newScheduler(w, nil, aware)
			q := &queue{asjs: true, waitBest: true, bwWeight: []float64{0, 0.3, 0.5, 1}[rng.IntN(4)]}
			q.scores(s)
			if q.unordered {
				t.Fatalf("seed %d: NaN scores", seed)
			}
			for i := range s.info {
				ji := &s.info[i]
				s.prepare(ji)
				for range 4 {
					for v := range s.busy {
						s.busy[v] = rng.IntN(3) == 0
					}
					s.now = ji.j.Submit + float64(rng.IntN(6))
					got := q.asjsBest(s, ji)
					want := q.asjsScan(s, ji)
					if !slices.EqualFunc(got, want, slices.Equal) {
						t.Fatalf("seed %d aware %v job %d at %g, busy %v: asjsBest %v, the scan %v",
							seed, aware, ji.j.ID, s.now, s.busy, got, want)
					}
					switch {
					case got != nil:
						assigned++
					case slices.ContainsFunc(s.busy, func(b bool) bool { return b }):
						waits++
					}
				}
				for _, c := range ji.capable {
					if len(c) > 0 && len(c) < len(w.VMs) {
						subset++
					}
				}
			}
		}
	}
	if subset == 0 || waits == 0 || assigned == 0 {
		t.Fatal(fmt.Sprintf("cases not covered: %d tasks with some VMs unable, %d nil answers with busy VMs, %d assignments", subset, waits, assigned))
	}
}
