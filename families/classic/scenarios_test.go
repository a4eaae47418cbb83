package classic_test

import (
	"testing"

	"github.com/schedfarm/schedfarm/families"
	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/strategies/strategytest"
)

type J = strategytest.JobSpec

// classicNames are the registered schedulers of this family; each scenario
// gives a hand-computed schedule for every one of them.
var classicNames = []string{"fcfs", "easy", "sjbf", "cons", "depth"}

// job is shorthand: id, submit, processors, estimate, actual work.
func job(id int64, submit sim.Time, procs int, est, work sim.Time) J {
	return J{ID: id, Submit: submit, Demand: []int{procs}, Estimate: est, Work: work}
}

// scenario is a small workload with start times computed by hand for each
// scheduler.
type scenario struct {
	name   string
	procs  int
	jobs   []J
	starts map[string][]sim.Time // scheduler → start time of each job in order (-1: rejected)
}

func scenarios() []scenario {
	return []scenario{
		{
			// J1 holds 3 of 4 processors until 10. J2 (2 procs) is the head,
			// reserved at 10. J3 (4 procs) is second. J4 (1 proc, 30 s)
			// fits now and runs past the shadow time, but uses one of the 2
			// extra processors at 10, so EASY backfills it at 3 — delaying
			// J3 from 20 to 33. CONS reserved J3 at 20 and puts J4 after it
			// at 30; depth 2 protects J3 the same way; FCFS never backfills.
			name:  "easy delays the second job, cons does not",
			procs: 4,
			jobs: []J{
				job(1, 0, 3, 10, 10),
				job(2, 1, 2, 10, 10),
				job(3, 2, 4, 10, 10),
				job(4, 3, 1, 30, 30),
			},
			starts: map[string][]sim.Time{
				"fcfs":  {0, 10, 20, 30},
				"easy":  {0, 10, 33, 3},
				"sjbf":  {0, 10, 33, 3},
				"cons":  {0, 10, 20, 30},
				"depth": {0, 10, 20, 30}, // k = 2 by default
			},
		},
		{
			// J0 and J1 fill the machine; J0 ends at 4. J2 (4 procs) is the
			// head, reserved at 20. J3 (2 procs, 10 s) and J4 (2 procs, 5 s)
			// both fit before the shadow time when J0 ends at 4. EASY tries
			// them in submit order (J3 at 4, J4 when J3 ends at 14); SJBF
			// tries the shorter J4 first (J4 at 4, J3 at 9). CONS reserved
			// J3 at 4 and J4 at 14 on arrival, so it matches EASY here.
			name:  "sjbf tries the shortest candidate first",
			procs: 4,
			jobs: []J{
				job(1, 0, 2, 4, 4),
				job(2, 0, 2, 20, 20),
				job(3, 1, 4, 10, 10),
				job(4, 2, 2, 10, 10),
				job(5, 3, 2, 5, 5),
			},
			starts: map[string][]sim.Time{
				"fcfs":  {0, 0, 20, 30, 30},
				"easy":  {0, 0, 20, 4, 14},
				"sjbf":  {0, 0, 20, 9, 4},
				"cons":  {0, 0, 20, 4, 14},
				"depth": {0, 0, 20, 4, 14},
			},
		},
		{
			// Early finish: J1 is estimated at 10 but ends at 4. CONS
			// reserved J2 at 10 and J3 at 15 on arrival; when J1 ends, the
			// queue is compressed in submit order: J2 to 4, then J3 to 9.
			name:  "early finish compresses reservations",
			procs: 2,
			jobs: []J{
				job(1, 0, 2, 10, 4),
				job(2, 1, 2, 5, 5),
				job(3, 2, 1, 3, 3),
			},
			starts: map[string][]sim.Time{
				"fcfs": {0, 4, 9}, "easy": {0, 4, 9}, "sjbf": {0, 4, 9}, "cons": {0, 4, 9}, "depth": {0, 4, 9},
			},
		},
		{
			// Ties: J1 ends at exactly 10, when J2 (all 4 processors)
			// arrives: completions run before arrivals, so J2 starts at 10
			// without oversubscribing. J3 and J4 arrive together at 12 and
			// start in submit order when J2 ends at 15: both fit.
			name:  "an end and an arrival at the same instant",
			procs: 4,
			jobs: []J{
				job(1, 0, 4, 10, 10),
				job(2, 10, 4, 5, 5),
				job(3, 12, 3, 1, 1),
				job(4, 12, 1, 1, 1),
			},
			starts: map[string][]sim.Time{
				"fcfs": {0, 10, 15, 15}, "easy": {0, 10, 15, 15}, "sjbf": {0, 10, 15, 15}, "cons": {0, 10, 15, 15}, "depth": {0, 10, 15, 15},
			},
		},
		{
			// A job wider than the machine is rejected on arrival with a
			// reason and blocks nobody: J3 starts as soon as J1 ends.
			name:  "a job wider than the machine",
			procs: 4,
			jobs: []J{
				job(1, 0, 4, 5, 5),
				job(2, 1, 5, 1, 1),
				job(3, 2, 2, 1, 1),
			},
			starts: map[string][]sim.Time{
				"fcfs": {0, -1, 5}, "easy": {0, -1, 5}, "sjbf": {0, -1, 5}, "cons": {0, -1, 5}, "depth": {0, -1, 5},
			},
		},
		{
			// Overrun: J1 asks for 5 s but needs 50; with a limit at its
			// estimate the engine kills it at 5 and J2 starts then.
			name:  "overrun kill at the requested time",
			procs: 2,
			jobs: []J{
				{ID: 1, Submit: 0, Demand: []int{2}, Estimate: 5, Work: 50, Limit: 5},
				job(2, 1, 1, 5, 5),
			},
			starts: map[string][]sim.Time{
				"fcfs": {0, 5}, "easy": {0, 5}, "sjbf": {0, 5}, "cons": {0, 5}, "depth": {0, 5},
			},
		},
	}
}

func TestHandComputedSchedules(t *testing.T) {
	reg := families.Builtin().Schedulers()
	for _, sc := range scenarios() {
		for _, name := range classicNames {
			want, ok := sc.starts[name]
			if !ok {
				t.Errorf("%s: no expected schedule for %s", sc.name, name)
				continue
			}
			p := sim.Processors(sc.procs)
			s, err := reg.New(name, p, nil)
			if err != nil {
				t.Fatal(err)
			}
			rec, err := strategytest.Record(p, s, sc.jobs)
			if err != nil {
				t.Fatalf("%s/%s: %v", sc.name, name, err)
			}
			for _, e := range strategytest.CheckInvariants(rec) {
				t.Errorf("%s/%s: %v", sc.name, name, e)
			}
			for i, j := range rec.Jobs {
				got := j.Start()
				if j.State() == sim.Rejected {
					got = -1
				}
				if got != want[i] {
					t.Errorf("%s/%s: job %d starts at %g, want %g", sc.name, name, j.ID, got, want[i])
				}
			}
		}
	}
}

func TestKilledJobState(t *testing.T) {
	p := sim.Processors(2)
	s, _ := families.Builtin().Schedulers().New("easy", p, nil)
	rec, err := strategytest.Record(p, s, []J{{ID: 1, Submit: 0, Demand: []int{2}, Estimate: 5, Work: 50, Limit: 5}})
	if err != nil {
		t.Fatal(err)
	}
	j := rec.Jobs[0]
	if j.State() != sim.Killed || j.End() != 5 || j.Reason() == "" {
		t.Errorf("job 1: %s at %g (%q), want killed at 5 with a reason", j.State(), j.End(), j.Reason())
	}
}

// TestDepthComposes checks that depth 1 is EASY and unlimited depth is CONS
// on random workloads: the named schedulers are compositions of one
// mechanism, not copies.
func TestDepthComposes(t *testing.T) {
	reg := families.Builtin().Schedulers()
	p := sim.Processors(16)
	for seed := uint64(1); seed <= 5; seed++ {
		specs := strategytest.Random(randFor(seed), strategytest.RandomOptions{Jobs: 400, Capacities: []int{16}, MaxGap: 3, MaxWork: 30, Underrun: 0.5})
		for _, pair := range [][2]any{{"easy", int64(1)}, {"cons", "unlimited"}} {
			named, _ := reg.New(pair[0].(string), p, nil)
			depth, err := reg.New("depth", p, map[string]any{"k": pair[1]})
			if err != nil {
				t.Fatal(err)
			}
			a, _ := strategytest.Record(p, named, specs)
			b, _ := strategytest.Record(p, depth, specs)
			for i := range a.Jobs {
				if a.Jobs[i].Start() != b.Jobs[i].Start() {
					t.Fatalf("seed %d: %s and depth k=%v differ at job %d: %g vs %g", seed, pair[0], pair[1], a.Jobs[i].ID, a.Jobs[i].Start(), b.Jobs[i].Start())
				}
			}
		}
	}
}
