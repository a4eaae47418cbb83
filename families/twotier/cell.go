package twotier

import (
	"fmt"
	"io"
	"math/rand/v2"

	"github.com/schedfarm/schedfarm/family"
	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/strategies"
	"github.com/schedfarm/schedfarm/workload/seed004"
)

// The glue that turns a project cell (Output: the seed004 model)
// into a run of 2TSB, 2TFB, 2TFB-SF or 2TPB on one pool per resource type,
// with the project metrics of Chapter 5: the family's
// family.PlatformRunner (family.go).

// runCell simulates one project cell: the model draws the projects from
// PCG(cell seed, family.GeneratorStream), the platform is one pool per
// resource type (ProjectJobs).
func runCell(c family.Cell) (*family.Result, error) {
	if v, err := WorkloadModel().Decode(c.Params); err == nil && v.Str("stop") == StopCompletions {
		return runToCompletions(c, v)
	}
	w, err := NewProjects(c.Params, rand.New(rand.NewPCG(c.Seed, family.GeneratorStream)))
	if err != nil {
		return nil, fmt.Errorf("workload.generator: %w", err)
	}
	plat, jobs := ProjectJobs(w.Capacities, w.Projects)
	jobs, s, err := RunProjects(plat, jobs, c.Scheduler, c.SchedulerParams)
	if err != nil {
		return nil, err
	}
	out := &family.Result{Metrics: cellMetrics(s, ProjectMetrics(jobs))}
	if c.KeepJobs {
		out.Jobs = jobs
	}
	return out, nil
}

// RunProjects simulates jobs (simulated in place) on plat under the named
// scheduler of the family and returns them with their per-job summary.
func RunProjects(plat sim.Platform, jobs []*sim.Job, scheduler string, params map[string]any) ([]*sim.Job, sim.Summary, error) {
	s, err := registry().New(scheduler, plat, params)
	if err != nil {
		return nil, sim.Summary{}, err
	}
	jobs, _, err = sim.Run(plat, s, sim.NewSliceStream(jobs), nil)
	if err != nil {
		return nil, sim.Summary{}, err
	}
	return jobs, sim.Summarize(jobs, plat, sim.MetricOptions{}), nil
}

// registry holds the family's schedulers, the ones its cells run.
func registry() *strategies.Registry {
	r, err := strategies.NewRegistry(fam{}.Schedulers()...)
	if err != nil {
		panic(err) // the family's table is fixed; a duplicate is a programming error caught by tests
	}
	return r
}

// ProjectJobs returns the platform of a project workload (one pool "r1" …
// "rN" per resource type, of the given capacities) and its jobs in arrival
// order, numbered from 1, with exact service times; each job carries its
// project's ID and priority.
func ProjectJobs(capacities []int, projects []seed004.Project) (sim.Platform, []*sim.Job) {
	var plat sim.Platform
	for i, c := range capacities {
		plat.Pools = append(plat.Pools, sim.Pool{Name: fmt.Sprintf("r%d", i+1), Capacity: c})
	}
	var jobs []*sim.Job
	id := int64(0)
	for _, pr := range projects {
		for _, j := range pr.Jobs {
			id++
			sj := sim.NewJob(id, pr.Arrival, append([]int(nil), j.Req...), j.Service, j.Service, 0)
			sj.Project, sj.Priority = int64(pr.ID), pr.Priority
			jobs = append(jobs, sj)
		}
	}
	return plat, jobs
}

// Seed004Workload draws a seed-004 workload (Table 6) with generator
// parameters p, a fraction highFrac of high-priority projects (overriding
// p.HighPriority) and random source rng, and returns its platform and jobs
// (ProjectJobs).
func Seed004Workload(p seed004.Params, highFrac float64, rng *rand.Rand) (sim.Platform, []*sim.Job, error) {
	p.HighPriority = highFrac
	g, err := seed004.New(p, rng)
	if err != nil {
		return sim.Platform{}, nil, err
	}
	var projects []seed004.Project
	for {
		pr, err := g.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return sim.Platform{}, nil, err
		}
		projects = append(projects, pr)
	}
	plat, jobs := ProjectJobs(g.Capacities(), projects)
	return plat, jobs, nil
}
