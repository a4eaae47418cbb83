package twotier

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/schedfarm/schedfarm/family"
	"github.com/schedfarm/schedfarm/param"
	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/workload/seed004"
)

// How a seed-004 run ends: the values of the model parameter stop (doc.go,
// Readings). §5.1: "Each simulation run is terminated upon the successful
// completion of 1000 projects."
const (
	// StopArrivals (default): the model's projects arrive and all of them
	// are run to their end.
	StopArrivals = "arrivals"
	// StopCompletions: projects keep arriving until the projects-th one
	// completes; the metrics are over the first projects to complete.
	StopCompletions = "completions"
)

// runToCompletions simulates a project cell under StopCompletions: the
// generator streams projects (the same ones, in the same order, as under
// StopArrivals: the same random streams, drawn the same way) until the
// v.Int("projects")-th project has completed, and the cell's metrics are
// those of the first that many projects to complete, in completion order.
// The scheduler is online, so projects arriving after that completion
// cannot change it; the run still ends the jobs already arrived, which the
// metrics leave out.
func runToCompletions(c family.Cell, v param.Values) (*family.Result, error) {
	rng := rand.New(rand.NewPCG(c.Seed, family.GeneratorStream))
	// The draw NewProjects makes for the model's stream.
	mrng := rand.New(rand.NewPCG(rng.Uint64(), rng.Uint64()))
	want := v.Int("projects")
	p := generatorParams(v)
	p.Projects = math.MaxInt32
	g, err := seed004.New(p, mrng)
	if err != nil {
		return nil, fmt.Errorf("workload.generator: %w", err)
	}
	plat, _ := ProjectJobs(g.Capacities(), nil)
	jobs, err := RunToCompletions(plat, g.Next, want, c.Scheduler, c.SchedulerParams)
	if err != nil {
		return nil, err
	}
	sum := sim.Summarize(jobs, plat, sim.MetricOptions{})
	out := &family.Result{Metrics: cellMetrics(sum, ProjectMetrics(jobs))}
	if c.KeepJobs {
		out.Jobs = jobs
	}
	return out, nil
}

// RunToCompletions simulates, on plat under the named scheduler of the
// family, the projects next yields (in arrival order, IDs 1, 2, … as the
// seed004 generator numbers them) until want projects have completed, and
// returns the jobs of the first want projects to complete, in submit order.
func RunToCompletions(plat sim.Platform, next func() (seed004.Project, error), want int, scheduler string, params map[string]any) ([]*sim.Job, error) {
	s, err := registry().New(scheduler, plat, params)
	if err != nil {
		return nil, err
	}
	first, _, err := runCompletions(plat, s, next, want)
	return first, err
}

// runCompletions is RunToCompletions under the scheduler s (the invariant
// suite's wrapped one): first are the jobs of the first want projects to
// complete, in submit order, and all every job the run simulated, in
// submit order — those of projects that arrived before the want-th
// completion and ended after it included.
func runCompletions(plat sim.Platform, s sim.Scheduler, next func() (seed004.Project, error), want int) (first, all []*sim.Job, err error) {
	src := &completionStream{next: next, want: want}
	all, _, err = sim.Run(plat, s, src, src.observe)
	if err != nil {
		return nil, nil, err
	}
	if src.err != nil {
		return nil, nil, src.err
	}
	return src.firstCompleted(all), all, nil
}

// completionStream streams projects as jobs (numbered as ProjectJobs
// numbers them) until want projects have completed (observe).
type completionStream struct {
	next    func() (seed004.Project, error)
	want    int
	pending []*sim.Job
	id      int64
	left    []int // jobs not yet ended, per project ID (index = ID)
	done    []int // project IDs in completion order
	err     error
}

// Next implements sim.Stream.
func (s *completionStream) Next() *sim.Job {
	for len(s.pending) == 0 {
		if len(s.done) >= s.want || s.err != nil {
			return nil
		}
		pr, err := s.next()
		if err != nil {
			s.err = fmt.Errorf("workload.generator: %w", err)
			return nil
		}
		for len(s.left) <= pr.ID {
			s.left = append(s.left, 0)
		}
		s.left[pr.ID] = len(pr.Jobs)
		for _, j := range pr.Jobs {
			s.id++
			sj := sim.NewJob(s.id, pr.Arrival, append([]int(nil), j.Req...), j.Service, j.Service, 0)
			sj.Project, sj.Priority = int64(pr.ID), pr.Priority
			s.pending = append(s.pending, sj)
		}
	}
	j := s.pending[0]
	s.pending = s.pending[1:]
	return j
}

// observe is the run's sim.Observer: it notes each project's completion.
func (s *completionStream) observe(j *sim.Job) {
	id := int(j.Project)
	s.left[id]--
	if s.left[id] == 0 {
		s.done = append(s.done, id)
	}
}

// firstCompleted returns the jobs of the first want projects to complete,
// in submit order.
func (s *completionStream) firstCompleted(all []*sim.Job) []*sim.Job {
	keep := make([]bool, len(s.left))
	for _, id := range s.done[:min(s.want, len(s.done))] {
		keep[id] = true
	}
	var out []*sim.Job
	for _, j := range all {
		if keep[j.Project] {
			out = append(out, j)
		}
	}
	return out
}
