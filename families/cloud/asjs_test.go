package cloud

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// A walk is one assignment question asked of a random cloud: job ji,
// prepared and arrived, at s.now with s.busy drawn at random.
type walk struct {
	s     *scheduler
	ji    *jobInfo
	aware bool
	seed  uint64
}

// randomWalks asks ask every question of 40 random clouds (randomWorkload,
// then redraw: speeds and bandwidths from small sets, for ties), each
// deadline-aware and not: every job is prepared (its capable VMs, some
// tasks held by only some VMs) and arrive is called for it (nil: none),
// then it is asked four times, a third of the VMs busy at random and now
// up to 7 s after its submission.
func randomWalks(t *testing.T, salt uint64, redraw func(w *Workload, rng *rand.Rand), policy func(s *scheduler, rng *rand.Rand) (arrive func(*jobInfo)), ask func(walk)) {
	t.Helper()
	for seed := uint64(1); seed <= 40; seed++ {
		rng := rand.New(rand.NewPCG(seed, salt))
		w := randomWorkload(rng, 4+rng.IntN(20), 60)
		redraw(w, rng)
		for _, aware := range []bool{false, true} {
			s := newScheduler(w, nil, aware)
			arrive := policy(s, rng)
			for i := range s.info {
				ji := &s.info[i]
				s.prepare(ji)
				if arrive != nil {
					arrive(ji)
				}
				for range 4 {
					for v := range s.busy {
						s.busy[v] = rng.IntN(3) == 0
					}
					s.now = ji.j.Submit + float64(rng.IntN(8))
					ask(walk{s, ji, aware, seed})
				}
			}
		}
	}
}

// TestASJSBestIsTheScan: asjsBest, which walks each task's capable VMs in
// score order (asjsOrders), picks what scoring every capable VM picks
// (asjsScan, the code before it), with tied scores, some bandwidths 0 and
// any bandwidth weight. The cases the walk must get right all occur:
// capable lists short of the platform, jobs that wait for a busy best, and
// jobs assigned.
func TestASJSBestIsTheScan(t *testing.T) {
	subset, waits, assigned := 0, 0, 0
	var q *queue
	randomWalks(t, 0xa5e5, func(w *Workload, rng *rand.Rand) {
		for v := range w.VMs {
			w.VMs[v].Speed = []float64{1, 2, 4}[rng.IntN(3)]
			w.VMs[v].Bandwidth = []float64{0, 5, 10, 20}[rng.IntN(4)]
		}
	}, func(s *scheduler, rng *rand.Rand) func(*jobInfo) {
		q = &queue{asjs: true, waitBest: true, bwWeight: []float64{0, 0.3, 0.5, 1}[rng.IntN(4)]}
		q.scores(s)
		if q.unordered {
			t.Fatal("NaN scores")
		}
		return nil
	}, func(c walk) {
		got, want := q.asjsBest(c.s, c.ji), q.asjsScan(c.s, c.ji)
		if !slices.EqualFunc(got, want, slices.Equal) {
			t.Fatalf("seed %d aware %v job %d at %g, busy %v: asjsBest %v, the scan %v", c.seed, c.aware, c.ji.j.ID, c.s.now, c.s.busy, got, want)
		}
		switch {
		case got != nil:
			assigned++
		case slices.Contains(c.s.busy, true):
			waits++
		}
		for _, l := range c.ji.capable {
			if len(l) > 0 && len(l) < len(c.s.w.VMs) {
				subset++
			}
		}
	})
	if subset == 0 || waits == 0 || assigned == 0 {
		t.Fatalf("cases not covered: %d tasks with some VMs unable, %d nil answers with busy VMs, %d assignments", subset, waits, assigned)
	}
}

// TestMaxMinTimeIsTheScan: CPLMT's maxminet, walking each task's VMs in
// time order to the first free one (cplmt.maxMinTime), is the scan's over
// every candidate (maxMinScan, the code before it), with and without
// transfer times (tied speeds, some bandwidths 0). The cases the walk must
// get right all occur: transfer times, no candidate in time (+Inf), and
// finite answers.
func TestMaxMinTimeIsTheScan(t *testing.T) {
	transfer, none, finite := 0, 0, 0
	var p *cplmt
	randomWalks(t, 0x3a3, func(w *Workload, rng *rand.Rand) {
		w.TransferScale = []float64{0, 0.25, 1}[rng.IntN(3)]
		for v := range w.VMs {
			w.VMs[v].Speed = []float64{1, 2, 3, 4}[rng.IntN(4)]
			w.VMs[v].Bandwidth = []float64{0, 1, 5, 20}[rng.IntN(4)]
		}
	}, func(s *scheduler, _ *rand.Rand) func(*jobInfo) {
		p = &cplmt{alpha: 1, beta: 1, gamma: 1, eps: 0.8, omega: 0.8, eta: 0.8, kappa: 15}
		return func(ji *jobInfo) { p.arrive(s, ji) }
	}, func(c walk) {
		got, want := p.maxMinTime(c.s, c.ji), maxMinScan(c.s, c.ji)
		if got != want {
			t.Fatalf("seed %d aware %v job %d at %g, busy %v: maxMinTime %g, the scan %g", c.seed, c.aware, c.ji.j.ID, c.s.now, c.s.busy, got, want)
		}
		if math.IsInf(got, 1) {
			none++
		} else {
			finite++
		}
		if c.s.w.TransferScale > 0 && c.ji.j.InputSize > 0 {
			transfer++
		}
	})
	if transfer == 0 || none == 0 || finite == 0 {
		t.Fatalf("cases not covered: %d with transfer times, %d +Inf, %d finite", transfer, none, finite)
	}
}
