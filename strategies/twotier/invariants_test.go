package twotier_test

import (
	"math/rand/v2"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/strategies/strategytest"
	"github.com/schedfarm/schedfarm/strategies/twotier"
)

// TestFamilyInvariantsOnProjects runs every member on random project
// workloads under the shared invariant checks (no pool over-committed, every
// job ends, no job starts after its latest starting time, which never moves
// later).
func TestFamilyInvariantsOnProjects(t *testing.T) {
	p := sim.Platform{Pools: []sim.Pool{{Name: "a", Capacity: 5}, {Name: "b", Capacity: 3}}}
	for _, cfg := range []twotier.Config{twotier.TSB(), twotier.TFB(), twotier.TFBSF(0.5, twotier.Unlimited), twotier.TFBSF(2, 0), twotier.TPB(1, twotier.Unlimited), twotier.TPB(0.5, 1)} {
		for seed := uint64(1); seed <= 4; seed++ {
			jobs := twotier.RandomProjects(rand.New(rand.NewPCG(seed, 77)), p, 200, 4)
			s, _ := twotier.New(p, cfg)
			w, rec := strategytest.Recorder(p, s)
			out, _, err := sim.Run(p, w, sim.NewSliceStream(jobs), nil)
			if err != nil {
				t.Fatal(err)
			}
			rec.Jobs = out
			for _, e := range strategytest.CheckInvariants(rec) {
				t.Errorf("%+v seed %d: %v", cfg, seed, e)
			}
		}
	}
}
