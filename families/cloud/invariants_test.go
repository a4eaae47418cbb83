package cloud

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// variants are the schedulers with their defaults and with parameters at
// their limits.
// variant is a scheduler with parameters for the invariant tests.
type variant struct {
	name   string
	params map[string]any
}

// variants returns every scheduler with its defaults, then the readings
// and settings worth checking on their own.
func variants() []variant {
	var out []variant
	for _, n := range Names() {
		out = append(out, variant{n, nil})
	}
	return append(out, []variant{
		{Fair, map[string]any{"max_share": 1}}, {Fair, map[string]any{"max_share": 8}},
		{CPLMT, map[string]any{"kappa": 0}}, {CPLMT, map[string]any{"kappa": 1e9, "epsilon": 0, "omega": 0, "eta": 0}},
		{CPLMT, map[string]any{"alpha": 0.5, "beta": 2, "gamma": 0.5}}, {ASJS, map[string]any{"bw_weight": 1, "blocking": 1}}, {FIFO, map[string]any{"blocking": 1}},
		// Issue 21's readings: the baselines deadline-aware, ASJS not
		// waiting for its best VMs, or waiting for the best bandwidth.
		{FIFO, map[string]any{"deadline_aware": 1}}, {Fair, map[string]any{"deadline_aware": 1}}, {CMMS, map[string]any{"deadline_aware": 1}},
		{ASJS, map[string]any{"deadline_aware": 1}}, {ASJS, map[string]any{"wait_best": 0}}, {ASJS, map[string]any{"wait_best": 0, "deadline_aware": 1}},
		{ASJS, map[string]any{"bw_weight": 1}}, {FIFO, map[string]any{"blocking": 1, "deadline_aware": 1}},
	}...)
}

// Every scheduler keeps the rules on random workloads, and the same input
// gives the same schedule.
func TestInvariantsRandom(t *testing.T) {
	for _, v := range variants() {
		t.Run(fmt.Sprintf("%s%v", v.name, v.params), func(t *testing.T) {
			t.Parallel()
			finished, dropped := 0, 0
			for seed := uint64(1); seed <= 6; seed++ {
				w := randomWorkload(rand.New(rand.NewPCG(seed, 0xc10d)), 12, 300)
				a := runT(t, w, v.name, v.params)
				b := runT(t, w, v.name, v.params)
				for i := range a.Jobs {
					ja, jb := a.Jobs[i], b.Jobs[i]
					if ja.State() != jb.State() || ja.Start() != jb.Start() || ja.End() != jb.End() || !slices.EqualFunc(a.Placements[i].VMs, b.Placements[i].VMs, slices.Equal) {
						t.Fatalf("seed %d job %d: %s [%g, %g] %v, then %s [%g, %g] %v", seed, ja.ID,
							ja.State(), ja.Start(), ja.End(), a.Placements[i].VMs, jb.State(), jb.Start(), jb.End(), b.Placements[i].VMs)
					}
				}
				m := a.Metrics()
				finished += m.Finished
				dropped += m.Unfinished
			}
			if finished == 0 || dropped == 0 {
				t.Errorf("%d finished, %d dropped: the workloads do not exercise both", finished, dropped)
			}
		})
	}
}

// A paper-sized platform (120 VMs, Table 1 ranges) under load: the rules
// hold over thousands of jobs.
func TestInvariantsTable1Scale(t *testing.T) {
	if testing.Short() {
		t.Skip("long")
	}
	rng := rand.New(rand.NewPCG(7, 0xc10d))
	w := &Workload{}
	for range 120 {
		w.VMs = append(w.VMs, VM{Memory: 1 + 4*rng.Float64(), Speed: 1 + 5*rng.Float64(), Bandwidth: 1 + 19*rng.Float64(), Disk: -1})
	}
	t0 := 0.0
	for i := range 4000 {
		t0 += rng.ExpFloat64() / 20
		j := Job{ID: int64(i + 1), Submit: t0, Deadline: float64(1 + rng.IntN(6))}
		for range 1 + rng.IntN(8) {
			// Demands at the low end of Table 1 so that many jobs are feasible.
			j.Tasks = append(j.Tasks, Task{Memory: 1 + 2*rng.Float64(), Bandwidth: 1 + 9*rng.Float64(), Instructions: 5 + 20*rng.Float64()})
		}
		w.Jobs = append(w.Jobs, j)
	}
	for _, name := range Names() {
		r := runT(t, w, name, nil)
		m := r.Metrics()
		t.Logf("%-5s finished %d, infeasible %d, AVE %.3f, AWT %.3f, SIN %.0f, utilisation %.3f", name, m.Finished, m.Infeasible, m.AVE, m.AWT, m.SIN, m.Utilization)
	}
}
