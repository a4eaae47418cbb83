package consolidation

import (
	"fmt"
	"math/rand/v2"

	"github.com/schedfarm/schedfarm/family"
	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/strategies"
)

// suiteReading is one named reading the invariant suite runs (the shared
// suite already runs every scheduler with its defaults on random
// workloads whose usages are mostly told).
type suiteReading struct {
	label, name string
	params      map[string]any
}

// suiteReadings are the readings of doc.go that the defaults do not
// exercise: every unknown_usage value for each scheduler, and MEASY paying
// a long migration cost at its source.
func suiteReadings(reg *strategies.Registry) []suiteReading {
	var rs []suiteReading
	for _, name := range reg.Names() {
		for _, u := range unknownNames {
			rs = append(rs, suiteReading{fmt.Sprintf("%s(unknown_usage=%s)", name, u), name, map[string]any{"unknown_usage": u}})
		}
	}
	return append(rs,
		suiteReading{"measy(migration_pause=source)", "measy", map[string]any{"migration_pause": "source"}},
		suiteReading{"measy(migration_pause=source,migration_cost=15)", "measy", map[string]any{"migration_pause": "source", "migration_cost": 15.0}},
		suiteReading{"measy(migration_pause=target,migration_cost=15)", "measy", map[string]any{"migration_cost": 15.0}},
	)
}

// SuiteCases gives the shared invariant suite KEASY, REASY and MEASY under
// every reading of doc.go, on 12 processors in two tiers: 250 jobs with
// integer times (many ties, early ends), a few wider than the machine,
// per-process usages of which half the jobs are told nothing (so
// unknown_usage decides). Jobs move between tiers with their progress, so
// the case is Preemptive: the recorder checks the VMs after every pass.
func (fam) SuiteCases(seed uint64) []family.SuiteCase {
	reg, err := strategies.NewRegistry(fam{}.Schedulers()...)
	if err != nil {
		panic(err) // the family's table is fixed
	}
	rs := suiteReadings(reg)
	p := sim.Processors(12)
	p.Tiers = 2
	c := family.SuiteCase{Name: "readings", Platform: p, Preemptive: true}
	for _, r := range rs {
		c.Schedulers = append(c.Schedulers, r.label)
	}
	c.Run = func(label string, wrap func(sim.Scheduler) sim.Scheduler) ([]*sim.Job, []error, error) {
		for _, r := range rs {
			if r.label != label {
				continue
			}
			p.Sharing = sim.NewTwoTier(seed) // fresh scratch; same draws
			s, err := reg.New(r.name, p, r.params)
			if err != nil {
				return nil, nil, err
			}
			jobs := suiteJobs(rand.New(rand.NewPCG(seed, 0xc0)), 250, 12)
			out, _, err := sim.Run(p, wrap(s), sim.NewSliceStream(jobs), nil)
			var errs []error
			if r.name == "measy" && seed == 1 && !migrated(out) {
				errs = append(errs, fmt.Errorf("%s: no job migrated: the workload does not exercise the migration path", label))
			}
			return out, errs, err
		}
		return nil, nil, fmt.Errorf("no reading %q", label)
	}
	return []family.SuiteCase{c}
}

// suiteJobs draws n jobs for procs processors: integer submit times and
// works, a third finishing before their estimate, one in forty wider than
// the machine, usages 100% for one process and uniform in [0.3, 1]
// otherwise, told exactly to half the jobs and not at all to the rest.
func suiteJobs(rng *rand.Rand, n, procs int) []*sim.Job {
	jobs := make([]*sim.Job, n)
	t := 0
	for i := range jobs {
		t += rng.IntN(3)
		size := 1 + rng.IntN(max(1, procs/3))
		if rng.IntN(3) == 0 {
			size = 1 + rng.IntN(procs)
		}
		if rng.IntN(40) == 0 {
			size = procs + 1
		}
		work := sim.Time(1 + rng.IntN(30))
		est := work
		if rng.IntN(3) == 0 {
			est += sim.Time(1 + rng.IntN(10))
		}
		j := sim.NewJob(int64(i+1), sim.Time(t), []int{size}, est, work, 0)
		cpu := make([]float64, size)
		for k := range cpu {
			cpu[k] = 1
			if size > 1 {
				cpu[k] = 0.3 + 0.7*rng.Float64()
			}
		}
		var told []float64
		if rng.IntN(2) == 0 {
			told = append([]float64(nil), cpu...)
		}
		j.SetCPU(cpu, told)
		jobs[i] = j
	}
	return jobs
}

// migrated reports whether any job migrated with its progress.
func migrated(jobs []*sim.Job) bool {
	for _, j := range jobs {
		if j.Migrations() > 0 {
			return true
		}
	}
	return false
}
