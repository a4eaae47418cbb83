package twotier

import (
	"math"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
)

// goldenJobs is the example of the thesis's §4.5 (Tables 3 and 4): M1 = 3,
// M2 = 4; p1 at 0: j11 (te 2; q 1,2), j12 (6; 1,2); p2 at 1: j21 (1; 2,3);
// p3 at 2: j31 (1; 1,2), j32 (4; 2,1); p4 at 5: j41 (2; 1,2).
func goldenJobs() (sim.Platform, []*sim.Job) {
	p := sim.Platform{Pools: []sim.Pool{{Name: "r1", Capacity: 3}, {Name: "r2", Capacity: 4}}}
	mk := func(id, project int64, ta, te float64, q1, q2 int) *sim.Job {
		j := sim.NewJob(id, ta, []int{q1, q2}, te, te, 0)
		j.Project = project
		return j
	}
	return p, []*sim.Job{
		mk(11, 1, 0, 2, 1, 2),
		mk(12, 1, 0, 6, 1, 2),
		mk(21, 2, 1, 1, 2, 3),
		mk(31, 3, 2, 1, 1, 2),
		mk(32, 3, 2, 4, 2, 1),
		mk(41, 4, 5, 2, 1, 2),
	}
}

func TestGoldenExample(t *testing.T) {
	for _, c := range []struct {
		name   string
		cfg    Config
		finish []float64 // j11 j12 j21 j31 j32 j41
		tn     []float64 // p1..p4
		pta    float64
	}{
		{"2TSB", TSB(), []float64{2, 6, 7, 3, 11, 9}, []float64{6, 6, 9, 4}, 6.25},
		{"2TFB-SF", TFBSF(0.2, Unlimited), []float64{2, 6, 8, 3, 7, 10}, []float64{6, 7, 5, 5}, 5.75},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, jobs := goldenJobs()
			s, err := New(p, c.cfg)
			if err != nil {
				t.Fatal(err)
			}
			out, _, err := sim.Run(p, s, sim.NewSliceStream(jobs), nil)
			if err != nil {
				t.Fatal(err)
			}
			for i, j := range out {
				if j.State() != sim.Finished || j.End() != c.finish[i] {
					t.Errorf("job j%d: %s at %g, want finished at %g", j.ID, j.State(), j.End(), c.finish[i])
				}
			}
			m := ProjectMetrics(out)
			if m.Projects != 4 {
				t.Fatalf("%d projects, want 4", m.Projects)
			}
			for i, pr := range m.PerProject {
				if pr.TurnAround != c.tn[i] {
					t.Errorf("p%d: turn-around %g, want %g", pr.ID, pr.TurnAround, c.tn[i])
				}
			}
			if math.Abs(m.PTA-c.pta) > 1e-12 {
				t.Errorf("PTA %g, want %g", m.PTA, c.pta)
			}
		})
	}
}

// TestGoldenLatestStart checks the detail the thesis prints: under 2TFB-SF
// j21's latest starting time is 7 + 6·0.2 − 1 = 7.2 once p2 is planned.
func TestGoldenLatestStart(t *testing.T) {
	p, jobs := goldenJobs()
	s, _ := New(p, TFBSF(0.2, Unlimited))
	var seen float64
	probe := schedFunc(func(c *sim.Cluster, ch sim.Changes) {
		s.Pass(c, ch)
		if c.Now() == 1 {
			for _, r := range s.Reservations() {
				if r.Job.ID == 21 {
					seen = r.Start
				}
			}
		}
	})
	if _, _, err := sim.Run(p, probe, sim.NewSliceStream(jobs), nil); err != nil {
		t.Fatal(err)
	}
	if math.Abs(seen-7.2) > 1e-12 {
		t.Errorf("lts of j21 = %g, want 7.2", seen)
	}
}

type schedFunc func(c *sim.Cluster, ch sim.Changes)

func (f schedFunc) Pass(c *sim.Cluster, ch sim.Changes) { f(c, ch) }
