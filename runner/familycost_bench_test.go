package runner_test

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	"github.com/schedfarm/schedfarm/families"
	"github.com/schedfarm/schedfarm/families/cloud"
	"github.com/schedfarm/schedfarm/families/stms"
	"github.com/schedfarm/schedfarm/families/twotier"
	"github.com/schedfarm/schedfarm/family"
	"github.com/schedfarm/schedfarm/runner"
	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/workload"
	"github.com/schedfarm/schedfarm/workload/seed004"
	"github.com/schedfarm/schedfarm/workload/swf/swftest"
)

// costRun is one timed simulation: the engine's counts (sim.Stats) and the
// time the scheduler's construction and the run took (inputs are built
// untimed).
type costRun func(b *testing.B) (st sim.Stats, d time.Duration)

// start collects the previous run's garbage (untimed), so that neither
// side of a pair pays for the other's, and returns the time.
func start() time.Time {
	runtime.GC()
	return time.Now()
}

// BenchmarkFamilyEventCost measures, for each family of issue 25's list,
// the cost of one engine event (sim.Stats.Events: arrivals, ends, timers
// and scheduling passes popped) under the family's scheduler and, in the
// same loop and alternating with it, under EASY on the same input; it
// reports both, their ratio, the event and pass counts, and the ratio of
// whole runs (docs/performance-families.md). Timed: building the
// scheduler and sim.Run (runner.Run for the SWF inputs, cloud.Run for the
// cloud family); the inputs are built untimed and the garbage of the
// previous run is collected untimed before each run.
//
//   - ktier/*, twotier/*-kth: KTH-SP2 (28,489 jobs, 100 processors, user
//     estimates, kill at the requested time) through runner.Run, as
//     BenchmarkKTH; CMBF with seed 000's CPU usages drawn from Seed 1;
//     2TFB-SF and 2TPB with their defaults (SF 0.5, PL unlimited), every
//     job a project of its own with priority 0.
//   - twotier/*-seed004: 1,000 seed-004 projects (Table 6, mean
//     interarrival 40, 1/5 high priority, PCG(1, 4): 4,483 jobs on 5
//     pools); EASY runs the same jobs on the same pools (the projects
//     ignored).
//   - cloud/*: a seed-001 cell (Table 1 simulation variant, 2,000 jobs,
//     rate 10, deadlines in units, PCG(1, GeneratorStream)); EASY runs the
//     same jobs on one pool of 120 VMs, each asking for one VM per task
//     for its best time on the VMs (Workload.BestTime) as estimate and
//     runtime, without deadlines; the 83 jobs no VM can hold (every cloud
//     scheduler drops them on arrival) are left out.
//   - stms/*: a seed-002 cell (4,000 jobs, 50 resources, load 0.65, λ in
//     [1e-4, 1e-3]/s, timetable dispatch, the mGA of Table 2, seed 1);
//     EASY runs the same jobs on one pool of 50 resources, each for its
//     estimate (its size at the mean resource speed), without failures.
//
// Each b.Loop iteration runs reps family runs, each followed by easyReps
// EASY runs (more for the short EASY runs of the cloud and grid inputs).
// Run it with -benchtime 1x (about 1 minute on 2 vCPUs):
//
//	SCHEDFARM_TRACES=/work/shared/traces go test -run XXX -bench FamilyEventCost -benchtime 1x ./runner/
func BenchmarkFamilyEventCost(b *testing.B) {
	cat := families.Builtin()
	var records []workload.Job // KTH-SP2, read once
	kth := func(sched string, params map[string]any) costRun {
		return func(b *testing.B) (sim.Stats, time.Duration) {
			if records == nil {
				records = swftest.Records(b, swftest.KTH)
			}
			t0 := start()
			res, err := runner.New(cat).Run(runner.Config{
				Source: workload.NewSliceSource(records), Procs: 100, Scheduler: sched, SchedulerParams: params,
				Estimates: runner.EstimatesUser, Overrun: runner.OverrunKill, Seed: 1,
			})
			d := time.Since(t0)
			if err != nil {
				b.Fatal(err)
			}
			st := res.Stats
			res.Release()
			return st, d
		}
	}
	// engine runs the named scheduler of the catalog on fresh jobs from mk.
	engine := func(name string, params map[string]any, mk func(b *testing.B) (sim.Platform, []*sim.Job, any)) costRun {
		return func(b *testing.B) (sim.Stats, time.Duration) {
			plat, jobs, world := mk(b)
			t0 := start()
			s, err := cat.Schedulers().NewOn(name, plat, world, params)
			if err != nil {
				b.Fatal(err)
			}
			_, st, err := sim.Run(plat, s, sim.NewSliceStream(jobs), nil)
			d := time.Since(t0)
			if err != nil {
				b.Fatal(err)
			}
			return st, d
		}
	}

	// seed 004 projects.
	projects := func(b *testing.B) (sim.Platform, []*sim.Job, any) {
		p := seed004.Default() // 1,000 projects, mean interarrival 40
		plat, jobs, err := twotier.Seed004Workload(p, 0.2, rand.New(rand.NewPCG(1, 4)))
		if err != nil {
			b.Fatal(err)
		}
		return plat, jobs, nil
	}

	// seed 001 cloud.
	cloudParams := map[string]any{"variant": "simulation", "jobs": int64(2000), "rate": 10.0, "deadline": "units"}
	cloudWorkload := func(b *testing.B) *cloud.Workload {
		v, err := cloud.WorkloadModel().Decode(cloudParams)
		if err != nil {
			b.Fatal(err)
		}
		w, err := cloud.Seed001Workload(v, rand.New(rand.NewPCG(1, family.GeneratorStream)))
		if err != nil {
			b.Fatal(err)
		}
		return w
	}
	cloudRun := func(name string) costRun {
		return func(b *testing.B) (sim.Stats, time.Duration) {
			w := cloudWorkload(b)
			t0 := start()
			r, err := cloud.Run(w, name, nil)
			d := time.Since(t0)
			if err != nil {
				b.Fatal(err)
			}
			return r.Stats, d
		}
	}
	cloudEASY := engine("easy", nil, func(b *testing.B) (sim.Platform, []*sim.Job, any) {
		w := cloudWorkload(b)
		jobs := make([]*sim.Job, 0, len(w.Jobs))
		for i := range w.Jobs {
			j := &w.Jobs[i]
			best := w.BestTime(j)
			if math.IsInf(best, 1) {
				continue // no VM holds a task: every cloud scheduler drops it on arrival
			}
			jobs = append(jobs, sim.NewJob(j.ID, j.Submit, []int{len(j.Tasks)}, best, best, 0))
		}
		return cloud.Platform(w), jobs, nil
	})

	// seed 002 grid.
	gridParams := map[string]any{"jobs": int64(4000), "resources": int64(50), "load": 0.65,
		"lambda_min": 0.0001, "lambda_max": 0.001, "dispatch": "timetable"}
	grid := func(b *testing.B) (sim.Platform, []*sim.Job, any) {
		w, plat, jobs, err := stms.Seed002World(gridParams, 1)
		if err != nil {
			b.Fatal(err)
		}
		return plat, jobs, w
	}
	gridEASY := engine("easy", nil, func(b *testing.B) (sim.Platform, []*sim.Job, any) {
		plat, jobs, _ := grid(b)
		for i, j := range jobs {
			// pet_error 0: the estimate is the size at the mean speed.
			jobs[i] = sim.NewJob(j.ID, j.Submit, j.Demand, j.Estimate, j.Estimate, 0)
		}
		return plat, jobs, nil
	})

	for _, c := range []struct {
		name         string
		reps         int // family runs per b.Loop iteration
		easyReps     int // EASY runs after each family run
		family, easy costRun
	}{
		{"ktier/cmbf-k4-kth", 3, 1, kth("cmbf", map[string]any{"k": 4}), kth("easy", nil)},
		{"ktier/cmbf-k2-kth", 3, 1, kth("cmbf", map[string]any{"k": 2}), kth("easy", nil)},
		{"twotier/2tfb-sf-kth", 3, 1, kth("2tfb-sf", nil), kth("easy", nil)},
		{"twotier/2tpb-kth", 3, 1, kth("2tpb", nil), kth("easy", nil)},
		{"twotier/2tfb-sf-seed004", 1, 1, engine("2tfb-sf", nil, projects), engine("easy", nil, projects)},
		{"twotier/2tpb-seed004", 2, 1, engine("2tpb", nil, projects), engine("easy", nil, projects)},
		{"cloud/cplmt", 10, 10, cloudRun("cplmt"), cloudEASY},
		{"cloud/fifo", 10, 10, cloudRun("fifo"), cloudEASY},
		{"cloud/fair", 10, 10, cloudRun("fair"), cloudEASY},
		{"cloud/asjs", 10, 10, cloudRun("asjs"), cloudEASY},
		{"cloud/cmms", 10, 10, cloudRun("cmms"), cloudEASY},
		{"stms/stms", 3, 10, engine("stms", nil, grid), gridEASY},
		{"stms/ir-stms", 3, 10, engine("ir-stms", nil, grid), gridEASY},
		{"stms/gb-stms", 3, 10, engine("gb-stms", nil, grid), gridEASY},
		{"stms/sp-stms", 3, 10, engine("sp-stms", nil, grid), gridEASY},
	} {
		b.Run(c.name, func(b *testing.B) {
			var fam, easy sim.Stats
			var famD, easyD time.Duration
			for b.Loop() {
				for range c.reps {
					st, d := c.family(b)
					fam.Events, fam.Passes, famD = fam.Events+st.Events, fam.Passes+st.Passes, famD+d
					for range c.easyReps {
						st, d = c.easy(b)
						easy.Events, easy.Passes, easyD = easy.Events+st.Events, easy.Passes+st.Passes, easyD+d
					}
				}
			}
			famRuns, easyRuns := float64(b.N*c.reps), float64(b.N*c.reps*c.easyReps)
			famNs := float64(famD.Nanoseconds()) / float64(fam.Events)
			easyNs := float64(easyD.Nanoseconds()) / float64(easy.Events)
			b.ReportMetric(famNs, "ns/event")
			b.ReportMetric(easyNs, "easy-ns/event")
			b.ReportMetric(famNs/easyNs, "ratio")
			b.ReportMetric(float64(fam.Events)/famRuns, "events")
			b.ReportMetric(float64(easy.Events)/easyRuns, "easy-events")
			b.ReportMetric(float64(fam.Passes)/famRuns, "passes")
			b.ReportMetric(float64(easy.Passes)/easyRuns, "easy-passes")
			// The whole run's time ratio (the same jobs on both sides: a
			// per-job ratio), for families whose event counts differ from
			// EASY's.
			b.ReportMetric((famD.Seconds()/famRuns)/(easyD.Seconds()/easyRuns), "run-ratio")
		})
	}
}
