package runner

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"time"

	"github.com/schedfarm/schedfarm/families"
	"github.com/schedfarm/schedfarm/families/twotier"
	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/strategies"
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
	// Registry to build the scheduler from; nil means families.Schedulers().
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
		cfg.Registry = families.Schedulers()
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

// Metrics returns the run's metrics in a fixed order:
//
//	jobs, finished, rejected, backfilled
//	wait_{mean,median,p95,max}, response_…, slowdown_…, bsld_…
//	utilization, makespan
//	projects, projects_rejected, pta, jta, project_wait_mean, project_run_mean
//	projects_high, pta_high, projects_low, pta_low  (only for a non-empty class)
//
// pta is the mean project turn-around time (eq. 6 of seed 004), jta the mean
// job turn-around time (eq. 8); the priority classes are those of
// twotier.HighPriority.
func (r *JobsResult) Metrics() []Metric {
	s, p := r.Summary, r.Projects
	ms := []Metric{
		{Name: "jobs", Value: float64(s.Jobs)},
		{Name: "finished", Value: float64(s.Finished)},
		{Name: "rejected", Value: float64(s.Rejected)},
		{Name: "backfilled", Value: float64(s.Backfilled)},
	}
	ms = appendDists(ms, s)
	ms = append(ms,
		Metric{Name: "utilization", Value: s.Utilization},
		Metric{Name: "makespan", Value: s.Makespan},
		Metric{Name: "projects", Value: float64(p.Projects)},
		Metric{Name: "projects_rejected", Value: float64(p.Rejected)},
		Metric{Name: "pta", Value: p.PTA},
		Metric{Name: "jta", Value: p.JTA},
		Metric{Name: "project_wait_mean", Value: p.Waiting},
		Metric{Name: "project_run_mean", Value: p.Running})
	if p.High > 0 {
		ms = append(ms, Metric{Name: "projects_high", Value: float64(p.High)}, Metric{Name: "pta_high", Value: p.HighPTA})
	}
	if p.Low > 0 {
		ms = append(ms, Metric{Name: "projects_low", Value: float64(p.Low)}, Metric{Name: "pta_low", Value: p.LowPTA})
	}
	return ms
}

// ProjectMetricNames returns every name JobsResult.Metrics can use, in order.
func ProjectMetricNames() []string {
	ms := (&JobsResult{Projects: twotier.Metrics{High: 1, Low: 1}}).Metrics()
	names := make([]string, len(ms))
	for i, m := range ms {
		names[i] = m.Name
	}
	return names
}
