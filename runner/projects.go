package runner

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"time"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/strategies"
	"github.com/schedfarm/schedfarm/strategies/twotier"
	"github.com/schedfarm/schedfarm/workload/seed004"
)

// JobsConfig describes a simulation of ready-made jobs on a multi-pool
// platform: the path for project workloads (seed 004), which are not SWF.
type JobsConfig struct {
	// Platform is the machine; every job's Demand has one entry per pool.
	Platform sim.Platform
	// Jobs in submit order; jobs of one project share sim.Job.Project and
	// arrive together. They are simulated in place.
	Jobs []*sim.Job
	// Scheduler is a registry name; SchedulerParams its parameters.
	Scheduler       string
	SchedulerParams map[string]any
	// Registry to build the scheduler from; nil means strategies.Builtin().
	Registry *strategies.Registry
	// Wrap, if set, wraps the scheduler before the run.
	Wrap func(sim.Scheduler) sim.Scheduler
}

// JobsResult is the outcome of RunJobs.
type JobsResult struct {
	Jobs     []*sim.Job
	Summary  sim.Summary
	Projects twotier.Metrics
	Stats    sim.Stats
	Elapsed  time.Duration
}

// RunJobs simulates cfg.Jobs on cfg.Platform under the named scheduler and
// computes the per-job summary and the project metrics of seed 004.
func RunJobs(cfg JobsConfig) (*JobsResult, error) {
	if cfg.Registry == nil {
		cfg.Registry = strategies.Builtin()
	}
	if cfg.Scheduler == "" {
		return nil, errors.New("scheduler: empty; accepted: " + fmt.Sprint(cfg.Registry.Names()))
	}
	s, err := cfg.Registry.New(cfg.Scheduler, cfg.Platform, cfg.SchedulerParams)
	if err != nil {
		return nil, err
	}
	if cfg.Wrap != nil {
		s = cfg.Wrap(s)
	}
	t0 := time.Now()
	jobs, st, err := sim.Run(cfg.Platform, s, sim.NewSliceStream(cfg.Jobs), nil)
	if err != nil {
		return nil, err
	}
	return &JobsResult{
		Jobs:     jobs,
		Summary:  sim.Summarize(jobs, cfg.Platform, sim.MetricOptions{}),
		Projects: twotier.ProjectMetrics(jobs),
		Stats:    st,
		Elapsed:  time.Since(t0),
	}, nil
}

// Seed004Workload draws a seed-004 workload (Table 6) with generator
// parameters p and random source rng, and returns its platform (one pool
// "r1" … "rN" per resource type) and its jobs in arrival order, with exact
// service times. A fraction highFrac of the projects (drawn from rng after
// the generator's own draws, one per project) get priority 1, the rest 0.
func Seed004Workload(p seed004.Params, highFrac float64, rng *rand.Rand) (sim.Platform, []*sim.Job, error) {
	if !(highFrac >= 0 && highFrac <= 1) {
		return sim.Platform{}, nil, fmt.Errorf("high-priority fraction %g; accepted: a number in [0, 1]", highFrac)
	}
	g, err := seed004.New(p, rng)
	if err != nil {
		return sim.Platform{}, nil, err
	}
	var plat sim.Platform
	for i, c := range g.Capacities() {
		plat.Pools = append(plat.Pools, sim.Pool{Name: fmt.Sprintf("r%d", i+1), Capacity: c})
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
	var jobs []*sim.Job
	id := int64(0)
	for _, pr := range projects {
		pi := 0.0
		if highFrac > 0 && rng.Float64() < highFrac {
			pi = 1
		}
		for _, j := range pr.Jobs {
			id++
			sj := sim.NewJob(id, pr.Arrival, append([]int(nil), j.Req...), j.Service, j.Service, 0)
			sj.Project, sj.Priority = int64(pr.ID), pi
			jobs = append(jobs, sj)
		}
	}
	return plat, jobs, nil
}
