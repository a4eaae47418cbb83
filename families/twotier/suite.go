package twotier

import (
	"fmt"
	"math/rand/v2"

	"github.com/schedfarm/schedfarm/family"
	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/strategies"
	"github.com/schedfarm/schedfarm/workload/seed004"
)

// suiteVariant is one scheduler setting the invariant suite runs.
type suiteVariant struct {
	label, name string
	params      map[string]any
}

// suiteVariants are every scheduler with its defaults, 2TFB-SF and 2TPB
// with other slack factors and preemption limits, and every reading of
// doc.go that is a scheduler parameter.
func suiteVariants(reg *strategies.Registry) []suiteVariant {
	var vs []suiteVariant
	for _, n := range reg.Names() {
		vs = append(vs, suiteVariant{n, n, nil})
	}
	vs = append(vs,
		suiteVariant{"2tfb-sf(sf=2,pl=0)", "2tfb-sf", map[string]any{"sf": 2.0, "pl": int64(0)}},
		suiteVariant{"2tpb(sf=1)", "2tpb", map[string]any{"sf": 1.0}},
		suiteVariant{"2tpb(sf=0.5,pl=1)", "2tpb", map[string]any{"sf": 0.5, "pl": int64(1)}},
		suiteVariant{"2tfb(victim=first)", "2tfb", map[string]any{"victim": "first"}},
		suiteVariant{"2tfb-sf(victim=first)", "2tfb-sf", map[string]any{"victim": "first"}},
	)
	for _, c := range plCountNames[1:] {
		vs = append(vs,
			suiteVariant{"2tfb-sf(pl=1,pl_count=" + c + ")", "2tfb-sf", map[string]any{"pl": int64(1), "pl_count": c}},
			suiteVariant{"2tpb(pl=1,pl_count=" + c + ")", "2tpb", map[string]any{"pl": int64(1), "pl_count": c}})
	}
	for _, o := range ownLTSNames[1:] {
		vs = append(vs,
			suiteVariant{"2tfb(own_lts=" + o + ")", "2tfb", map[string]any{"own_lts": o}},
			suiteVariant{"2tfb-sf(own_lts=" + o + ")", "2tfb-sf", map[string]any{"own_lts": o}},
			suiteVariant{"2tpb(own_lts=" + o + ")", "2tpb", map[string]any{"own_lts": o}})
	}
	return append(vs,
		suiteVariant{"2tfb-sf(lts_tn=job)", "2tfb-sf", map[string]any{"lts_tn": "job"}},
		suiteVariant{"2tpb(lts_tn=job)", "2tpb", map[string]any{"lts_tn": "job"}},
	)
}

// SuiteCases gives the shared invariant suite random project workloads
// (two resource types, projects of up to five jobs with integer times:
// many ties, one project in five high-priority), every variant of
// suiteVariants on each: "projects", 200 projects all run to their end
// (stop: arrivals); "projects-to-completions", projects streamed until
// suiteCompletions of them have completed (stop: completions,
// runCompletions), the jobs of projects that arrived before that
// completion still run to their end.
func (fam) SuiteCases(seed uint64) []family.SuiteCase {
	p := sim.Platform{Pools: []sim.Pool{{Name: "a", Capacity: 5}, {Name: "b", Capacity: 3}}}
	reg, err := strategies.NewRegistry(fam{}.Schedulers()...)
	if err != nil {
		panic(err) // the family's table is fixed
	}
	vs := suiteVariants(reg)
	c := family.SuiteCase{Name: "projects", Platform: p}
	for _, v := range vs {
		c.Schedulers = append(c.Schedulers, v.label)
	}
	// scheduler builds the variant named label, wrapped by the suite.
	scheduler := func(label string, wrap func(sim.Scheduler) sim.Scheduler) (sim.Scheduler, error) {
		for _, v := range vs {
			if v.label == label {
				s, err := reg.New(v.name, p, v.params)
				if err != nil {
					return nil, err
				}
				return wrap(s), nil
			}
		}
		return nil, reg.Check(label, nil)
	}
	c.Run = func(label string, wrap func(sim.Scheduler) sim.Scheduler) ([]*sim.Job, []error, error) {
		s, err := scheduler(label, wrap)
		if err != nil {
			return nil, nil, err
		}
		jobs := randomProjects(rand.New(rand.NewPCG(seed, 77)), p, 200, 4)
		out, _, err := sim.Run(p, s, sim.NewSliceStream(jobs), nil)
		return out, nil, err
	}
	cc := family.SuiteCase{Name: "projects-to-completions", Platform: p, Schedulers: c.Schedulers}
	cc.Run = func(label string, wrap func(sim.Scheduler) sim.Scheduler) ([]*sim.Job, []error, error) {
		s, err := scheduler(label, wrap)
		if err != nil {
			return nil, nil, err
		}
		next := randomProjectStream(rand.New(rand.NewPCG(seed, 78)), p, 4)
		first, all, err := runCompletions(p, s, next, suiteCompletions)
		if err != nil {
			return nil, nil, err
		}
		// The recorder saw every job that ran: all go to the suite's
		// checks, and the stop's own rules are checked here.
		return all, checkCompletions(first, all, suiteCompletions), nil
	}
	return []family.SuiteCase{c, cc}
}

// suiteCompletions is how many completions end a run of the
// "projects-to-completions" suite case; about 200 projects arrive by then
// (the suite's random projects arrive faster than they are served).
const suiteCompletions = 60

// checkCompletions returns every violation of the completions stop by a
// run that simulated all and picked first as the jobs of the first want
// projects to complete: first is want whole projects, all of whose jobs
// finished, none of them completed after a project left out (ties at the
// last completion aside), and the stream stopped: every project of all
// arrived no later than the want-th completion but for the one the engine
// had already drawn.
func checkCompletions(first, all []*sim.Job, want int) []error {
	var errs []error
	type proj struct {
		arrival, end sim.Time
		jobs, ended  int
	}
	projects := map[int64]*proj{}
	for _, j := range all {
		pr := projects[j.Project]
		if pr == nil {
			pr = &proj{arrival: j.Submit}
			projects[j.Project] = pr
		}
		pr.jobs++
		if j.State() == sim.Finished {
			pr.ended++
			pr.end = max(pr.end, j.End())
		}
	}
	in := map[int64]int{}
	for _, j := range first {
		in[j.Project]++
	}
	if len(in) != want {
		return append(errs, fmt.Errorf("completions: %d projects kept, want %d", len(in), want))
	}
	last := sim.Time(0) // the want-th completion
	for id, n := range in {
		pr := projects[id]
		if pr == nil || n != pr.jobs || pr.ended != pr.jobs {
			errs = append(errs, fmt.Errorf("completions: project %d kept with %d jobs, not all of its jobs finished", id, n))
			continue
		}
		last = max(last, pr.end)
	}
	late := 0
	for id, pr := range projects {
		if in[id] == 0 && pr.ended == pr.jobs && pr.end < last {
			errs = append(errs, fmt.Errorf("completions: project %d completed at %g, before the %d-th completion at %g, and was left out", id, pr.end, want, last))
		}
		if pr.arrival > last {
			late++
		}
	}
	if late > 1 {
		errs = append(errs, fmt.Errorf("completions: %d projects arrived after the %d-th completion at %g; the stream should have stopped", late, want, last))
	}
	return errs
}

// randomProjectStream yields random projects without end, drawn as
// randomProjects draws them.
func randomProjectStream(rng *rand.Rand, p sim.Platform, gap int) func() (seed004.Project, error) {
	t := 0.0
	u := 0
	return func() (seed004.Project, error) {
		u++
		t += float64(rng.IntN(gap + 1))
		pr := seed004.Project{ID: u, Arrival: t}
		if rng.IntN(5) == 0 {
			pr.Priority = 1
		}
		for v := range 1 + rng.IntN(5) {
			q := make([]int, len(p.Pools))
			for k, pool := range p.Pools {
				q[k] = rng.IntN(pool.Capacity/2 + 1)
			}
			te := float64(1 + rng.IntN(20))
			pr.Jobs = append(pr.Jobs, seed004.Job{Index: v + 1, Service: te, Req: q})
		}
		return pr, nil
	}
}

// randomProjects draws n projects with integer times (many ties) on p, one
// in five high-priority.
func randomProjects(rng *rand.Rand, p sim.Platform, n int, gap int) []*sim.Job {
	var jobs []*sim.Job
	t := 0.0
	id := int64(0)
	for u := 1; u <= n; u++ {
		t += float64(rng.IntN(gap + 1))
		pi := 0.0
		if rng.IntN(5) == 0 {
			pi = 1
		}
		for range 1 + rng.IntN(5) {
			id++
			q := make([]int, len(p.Pools))
			for k, pool := range p.Pools {
				q[k] = rng.IntN(pool.Capacity/2 + 1)
			}
			te := float64(1 + rng.IntN(20))
			j := sim.NewJob(id, t, q, te, te, 0)
			j.Project, j.Priority = int64(u), pi
			jobs = append(jobs, j)
		}
	}
	return jobs
}
