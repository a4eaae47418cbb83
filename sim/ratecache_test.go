package sim

import (
	"math/rand/v2"
	"testing"
)

// crowdSharing is a test model for any number of tiers whose speed depends
// on every occupant of the processor: process i of j runs at
// 1 / (1 + (tier+1)·(sum of the others' usages) + i/100).
type crowdSharing struct{}

func (crowdSharing) Speed(j *Job, i, tier int, occ []float64) float64 {
	others := 0.0
	for k, u := range occ {
		if k != tier {
			others += u
		}
	}
	return 1 / (1 + float64(tier+1)*others + float64(i)/100)
}

// TestKeptSpeedsMatchFreshRates: the engine keeps each process's speed
// until its processor's occupants change (slot.speed); after every pass of
// a random script of starts, relocations and suspensions on three tiers,
// every running job's rate must equal the one computed from scratch — the
// slowest of its processes under the processors' current occupants.
func TestKeptSpeedsMatchFreshRates(t *testing.T) {
	const procs, tiers = 6, 3
	rng := rand.New(rand.NewPCG(7, 1))
	var jobs []*Job
	for i := range 60 {
		n := 1 + rng.IntN(3)
		w := Time(1 + rng.IntN(20))
		j := NewJob(int64(i+1), Time(rng.IntN(80)), []int{n}, w, w, 0)
		cpu := make([]float64, n)
		for k := range cpu {
			cpu[k] = 0.2 + 0.8*rng.Float64()
		}
		j.SetCPU(cpu, cpu)
		jobs = append(jobs, j)
	}
	for i := 1; i < len(jobs); i++ { // submit order
		for k := i; k > 0 && jobs[k].Submit < jobs[k-1].Submit; k-- {
			jobs[k], jobs[k-1] = jobs[k-1], jobs[k]
		}
	}
	plat := Processors(procs)
	plat.Tiers, plat.Sharing = tiers, crowdSharing{}
	fresh := func(c *Cluster, j *Job) float64 { return freshRate(c, j, crowdSharing{}, tiers) }
	var running, suspended []*Job
	checked := 0
	s := &script{hook: func(c *Cluster, q []*Job) {
		k := 0
		for _, j := range running {
			if j.State() == Running {
				running[k] = j
				k++
				if tj := j.tx; !tj.dirty && c.now >= tj.pausedTo {
					if want := fresh(c, j); j.rate != want {
						t.Errorf("t=%g job %d: rate %g, from scratch %g", c.now, j.ID, j.rate, want)
					}
					checked++
				}
			}
		}
		running = running[:k]
		// suspend one running job now and then
		if len(running) > 0 && rng.IntN(4) == 0 {
			i := rng.IntN(len(running))
			if err := c.Preempt(running[i]); err != nil {
				t.Fatal(err)
			}
			suspended = append(suspended, running[i])
			running = append(running[:i], running[i+1:]...)
		}
		// start queued jobs (suspended, then fresh) on random idle VMs of
		// the first tier, from a random one, with room
		for _, j := range append(suspended, q...) {
			if j.State() != Queued {
				continue
			}
			n := j.Demand[0]
			var idle []int
			tier := rng.IntN(tiers)
			for range tiers {
				idle = idle[:0]
				for p := range procs {
					if o, _ := c.Occupant(tier, p); o == nil {
						idle = append(idle, p)
					}
				}
				if len(idle) >= n {
					break
				}
				tier = (tier + 1) % tiers
			}
			if len(idle) < n {
				continue
			}
			rng.Shuffle(len(idle), func(a, b int) { idle[a], idle[b] = idle[b], idle[a] })
			if err := c.StartOn(j, tier, idle[:n]); err != nil {
				t.Fatal(err)
			}
			running = append(running, j)
		}
	}}
	if _, _, err := Run(plat, s, NewSliceStream(jobs), nil); err != nil {
		t.Fatal(err)
	}
	if checked < 50 {
		t.Fatalf("only %d rates checked", checked)
	}
}
