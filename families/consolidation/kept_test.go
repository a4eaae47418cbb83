package consolidation

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
)

// TestKeptStructuresMatchScratch runs every variant under every reading on
// the invariant suite's random workloads (12 processors, many ties, half
// the jobs told nothing of their usage) with the cross-checks on: at every
// use, the VM candidate lists kept from the occupancy log must equal the
// lists sorted from scratch, and the SJF order kept by insertion the
// waiting jobs stably sorted by estimate; the counts of the lists' jobs by
// size must be the lists', and a scan of Step 2 or 3 that stops before the
// end of its list (sizes.go) must leave only jobs that could not fit.
func TestKeptStructuresMatchScratch(t *testing.T) {
	for _, d := range []Deploy{Kill, Reserve, Migrate} {
		for _, u := range []Unknown{UnknownObserved, UnknownFull, UnknownIgnored} {
			for _, at := range []PauseAt{PauseAtTarget, PauseAtSource} {
				if at == PauseAtSource && d != Migrate {
					continue
				}
				name := fmt.Sprintf("%s/%s/%s", d, u, at)
				t.Run(name, func(t *testing.T) {
					stops := 0
					for seed := uint64(1); seed <= 4; seed++ {
						p := platform(12)
						p.Sharing = sim.NewTwoTier(seed)
						s, err := New(p, Config{Deploy: d, Threshold: DefaultThreshold, MigrationCost: 15, Unknown: u, PauseAt: at})
						if err != nil {
							t.Fatal(err)
						}
						result := VerifyStops(t, s)
						jobs := suiteJobs(rand.New(rand.NewPCG(seed, 0xc0)), 400, 12)
						stops += runVerified(t, seed, p, s, jobs, result)
					}
					if stops == 0 {
						t.Fatal("no scan of Step 2 or 3 stopped before the end of its list")
					}
				})
			}
		}
	}
}

// TestKeptStructuresWithKeysBelowZero is the cross-check with estimates
// that sort before an idle VM's usage 0: a told estimate may be negative or
// NaN (sim.Job.SetCPU takes what it is given, and eligible's order puts
// NaN, then negative usages, first). Then the VMs keyed as usage 0 do not
// come first, and takeFirst must not answer from their bit set alone.
func TestKeptStructuresWithKeysBelowZero(t *testing.T) {
	for _, d := range []Deploy{Kill, Reserve, Migrate} {
		t.Run(d.String(), func(t *testing.T) {
			below := 0
			for seed := uint64(1); seed <= 4; seed++ {
				p := platform(12)
				p.Sharing = sim.NewTwoTier(seed)
				s, err := New(p, Config{Deploy: d, Threshold: DefaultThreshold, MigrationCost: 15, Unknown: UnknownObserved})
				if err != nil {
					t.Fatal(err)
				}
				result := VerifyBelow(s)
				rng := rand.New(rand.NewPCG(seed, 0xb0))
				jobs := suiteJobs(rng, 400, 12)
				for _, j := range jobs {
					for k := range j.CPUEstimate {
						switch rng.IntN(6) {
						case 0:
							j.CPUEstimate[k] = -0.5 * rng.Float64()
						case 1:
							j.CPUEstimate[k] = math.NaN()
						}
					}
				}
				below += runVerified(t, seed, p, s, jobs, result)
			}
			if below == 0 {
				t.Fatal("no VM pick was made while a VM was keyed below usage 0")
			}
		})
	}
}

// runVerified runs jobs under s, whose cross-checks result reports (Verify
// and its kin), and returns the count result gives beside the checks; it
// fails the test on a mismatch or on fewer than 1,000 cross-checks.
func runVerified(t *testing.T, seed uint64, p sim.Platform, s sim.Scheduler, jobs []*sim.Job, result func() (int, int, error)) int {
	t.Helper()
	if _, _, err := sim.Run(p, s, sim.NewSliceStream(jobs), nil); err != nil {
		t.Fatal(err)
	}
	checks, n, err := result()
	if err != nil {
		t.Fatalf("seed %d: %v", seed, err)
	}
	if checks < 1000 {
		t.Fatalf("seed %d: only %d cross-checks", seed, checks)
	}
	return n
}
