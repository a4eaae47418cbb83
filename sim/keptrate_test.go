package sim

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestKeptRatesMatchFresh: flushRates keeps each job's slowest process
// speed and how many processes run at it (keptRate) and folds the stale
// speeds into it one by one; seed 000's model on two tiers is asked
// without the interface. After every pass of a random script of starts,
// relocations (swaps, moves, restarts, with and without a pause), pauses
// in place and preemptions on two and three tiers, every running job's
// rate must equal the one computed from scratch: 0 while paused, else the
// slowest of its processes under the processors' current occupants, asked
// of the sharing model through its interface.
func TestKeptRatesMatchFresh(t *testing.T) {
	for _, c := range []struct {
		name  string
		tiers int
		model func(seed uint64) Sharing
	}{
		{"two-tier", 2, func(seed uint64) Sharing { return NewTwoTier(seed) }},
		{"crowd/2", 2, func(uint64) Sharing { return crowdSharing{} }},
		{"crowd/3", 3, func(uint64) Sharing { return crowdSharing{} }},
	} {
		for seed := uint64(1); seed <= 5; seed++ {
			t.Run(fmt.Sprintf("%s/%d", c.name, seed), func(t *testing.T) {
				checked, ok := keptRatesScript(t, c.tiers, c.model(seed), seed)
				t.Logf("%d rates checked; %d rates set from kept minimums", checked, ok)
				if checked < 500 || ok < 50 {
					t.Fatalf("only %d rates checked, %d kept minimums in use", checked, ok)
				}
			})
		}
	}
}

// keptRatesScript runs the random script and returns how many rates it
// checked and how many rates flushRates took from a kept minimum.
func keptRatesScript(t *testing.T, tiers int, model Sharing, seed uint64) (checked, ok int) {
	const procs = 8
	rng := rand.New(rand.NewPCG(seed, 11))
	var jobs []*Job
	at := Time(0)
	for i := range 150 {
		at += Time(rng.IntN(3))
		n := 1 + rng.IntN(4)
		w := Time(1 + rng.IntN(30))
		j := NewJob(int64(i+1), at, []int{n}, w, w, 0)
		cpu := make([]float64, n)
		for k := range cpu {
			cpu[k] = 0.2 + 0.8*rng.Float64()
			if rng.IntN(5) == 0 {
				cpu[k] = 1
			}
		}
		j.SetCPU(cpu, cpu)
		jobs = append(jobs, j)
	}
	plat := Processors(procs)
	plat.Tiers, plat.Sharing = tiers, model
	fresh := func(c *Cluster, j *Job) float64 {
		if c.now < j.tx.pausedTo {
			return 0
		}
		return freshRate(c, j, model, tiers)
	}
	idle := func(c *Cluster, tier int) []int {
		var l []int
		for p := range procs {
			if o, _ := c.Occupant(tier, p); o == nil {
				l = append(l, p)
			}
		}
		rng.Shuffle(len(l), func(a, b int) { l[a], l[b] = l[b], l[a] })
		return l
	}
	var suspended []*Job
	s := &script{hook: func(c *Cluster, q []*Job) {
		for _, j := range c.Running() {
			if j.tx.dirty {
				t.Fatalf("t=%g job %d dirty at a pass", c.now, j.ID)
			}
			if want := fresh(c, j); j.rate != want {
				t.Errorf("t=%g job %d: rate %g, from scratch %g", c.now, j.ID, j.rate, want)
			}
			checked++
		}
		ok = c.tiers.keptUsed
		running := append([]*Job(nil), c.Running()...)
		for _, j := range running {
			switch r := rng.IntN(12); {
			case r == 0: // preempt
				if err := c.Preempt(j); err != nil {
					t.Fatal(err)
				}
				suspended = append(suspended, j)
			case r == 1: // pause in place
				if err := c.PauseInPlace(j, Time(rng.IntN(4))); err != nil {
					t.Fatal(err)
				}
			case r <= 3: // relocate: swap, move or restart, maybe paused
				tier := rng.IntN(tiers)
				own := append([]int(nil), j.tx.procs...)
				free := true
				for _, p := range own {
					if o, _ := c.Occupant(tier, p); o != nil && o != j {
						free = false
					}
				}
				target := own
				if !free || rng.IntN(2) == 0 {
					l := idle(c, tier)
					if len(l) < len(own) {
						continue
					}
					target = l[:len(own)]
				}
				how := Relocation{Restart: rng.IntN(4) == 0}
				if rng.IntN(3) == 0 {
					how.Pause = Time(1 + rng.IntN(3))
				}
				if err := c.Relocate(j, tier, target, how); err != nil {
					t.Fatal(err)
				}
			}
		}
		for _, j := range append(suspended, q...) {
			if j.State() != Queued {
				continue
			}
			tier := rng.IntN(tiers)
			if l := idle(c, tier); len(l) >= j.Demand[0] {
				if err := c.StartOn(j, tier, l[:j.Demand[0]]); err != nil {
					t.Fatal(err)
				}
			}
		}
	}}
	if _, _, err := Run(plat, s, NewSliceStream(jobs), nil); err != nil {
		t.Fatal(err)
	}
	return checked, ok
}

// freshRate is j's rate computed from scratch: the slowest of its
// processes under the sharing model, given every tier's occupant of each
// of its processors now.
func freshRate(c *Cluster, j *Job, model Sharing, tiers int) float64 {
	rate := math.Inf(1)
	occ := make([]float64, tiers)
	tj := j.tx
	for i, p := range tj.procs {
		for k := range tiers {
			if o, op := c.Occupant(k, p); o != nil {
				occ[k] = o.CPU(op)
			} else {
				occ[k] = 0
			}
		}
		rate = min(rate, model.Speed(j, i, int(tj.tier), occ))
	}
	return rate
}
