package models

import (
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/schedfarm/schedfarm/workload/seed004"
)

// Output is what a model generates.
type Output int

const (
	// SWF models yield rigid jobs for one processor pool, as a
	// workload.Source (New).
	SWF Output = iota
	// Projects models yield multi-resource projects together with the
	// resource capacities they were drawn for (NewProjects).
	Projects
	// Cloud models (seed 001) yield VMs with memory, processing ability and
	// bandwidth, and parallel jobs with per-task demands and deadlines; the
	// runner builds them from Decode's values.
	Cloud
	// Grid models (seed 002) yield failing heterogeneous resources and jobs
	// with sizes, data and deadlines; the runner builds them from Decode's
	// values.
	Grid
)

// String names the output as specs and result files do.
func (o Output) String() string {
	return [...]string{"swf", "projects", "cloud", "grid"}[o]
}

// OutputOf reports what the named model generates; false if it is unknown.
func OutputOf(name string) (Output, bool) {
	m, ok := find(name)
	return m.output, ok
}

// ProjectWorkload is a generated project workload: the capacity of every
// resource type and the projects in arrival order.
type ProjectWorkload struct {
	// Model is the registry name.
	Model string
	// Params are every parameter of the model, defaults included, sorted by
	// name.
	Params []Param
	// Capacities holds M_i for each resource type i.
	Capacities []int
	// Projects in arrival order; every job's Req has one entry per type.
	Projects []seed004.Project
}

// Jobs returns the number of jobs over all projects.
func (w ProjectWorkload) Jobs() int {
	n := 0
	for _, p := range w.Projects {
		n += len(p.Jobs)
	}
	return n
}

// NewProjects builds the named Projects model with params, drawing its seeds
// from rng, and generates the whole workload (projects are simulated from
// memory; 1,000 projects of Table 6 take about 300 kB). Errors list every
// unknown or out-of-range parameter.
func NewProjects(name string, params map[string]any, rng *rand.Rand) (ProjectWorkload, error) {
	m, ok := find(name)
	switch {
	case !ok:
		return ProjectWorkload{}, fmt.Errorf("workload model %q unknown (known: %s)", name, strings.Join(Names(), ", "))
	case m.output != Projects:
		return ProjectWorkload{}, fmt.Errorf("workload model %q generates %s workloads, not projects", name, m.output)
	case rng == nil:
		return ProjectWorkload{}, fmt.Errorf("%s: nil *rand.Rand", name)
	}
	v, err := decode(name, m.params, params)
	if err != nil {
		return ProjectWorkload{}, err
	}
	w, err := m.projects(v, rand.New(rand.NewPCG(rng.Uint64(), rng.Uint64())))
	if err != nil {
		return ProjectWorkload{}, err
	}
	w.Model = name
	for _, s := range m.params {
		w.Params = append(w.Params, Param{s.Name, v[s.Name]})
	}
	slices.SortFunc(w.Params, func(a, b Param) int { return strings.Compare(a.Name, b.Name) })
	return w, nil
}

func seed004Model() model {
	d := seed004.Default()
	return model{
		name:    "seed004",
		summary: "seed 004 two-tier projects (Table 6): exponential project arrivals, ⌊Normal(5, 2)⌋ jobs per project, Exp(500) service, ⌊Exp(2)⌋ per-type requirements, 5 types with capacities U[20, 40]",
		output:  Projects,
		params: []ParamSpec{
			{Name: "projects", Kind: Int, Default: int64(d.Projects), Min: 1, Max: 1e8, Doc: "number of projects (the thesis: 1,000 per replication)"},
			{Name: "interarrival", Kind: Float, Default: d.MeanInterarrival, Min: 1e-6, Max: 1e12, Doc: "mean time between project arrivals (the thesis sweeps 10 … 160)"},
			{Name: "jobs_mean", Kind: Float, Default: d.JobsMean, Min: 1e-6, Max: 1e6, Doc: "mean of the Normal number of jobs per project (integer part, at least 1)"},
			{Name: "jobs_sd", Kind: Float, Default: d.JobsSD, Min: 0, Max: 1e6, Doc: "standard deviation of the number of jobs per project"},
			{Name: "service_mean", Kind: Float, Default: d.ServiceMean, Min: 1e-6, Max: 1e12, Doc: "mean exponential service time"},
			{Name: "requirement_mean", Kind: Float, Default: d.RequirementMean, Min: 1e-6, Max: 1e6, Doc: "mean of the exponential requirement per resource type (integer part, capped at the capacity)"},
			{Name: "types", Kind: Int, Default: int64(d.Types), Min: 1, Max: 1000, Doc: "number of resource types N"},
			{Name: "capacity_min", Kind: Int, Default: int64(d.CapacityMin), Min: 1, Max: 1e9, Doc: "smallest capacity M_i (capacities uniform on the integers of [capacity_min, capacity_max])"},
			{Name: "capacity_max", Kind: Int, Default: int64(d.CapacityMax), Min: 1, Max: 1e9, Doc: "largest capacity M_i"},
			{Name: "high_priority", Kind: Float, Default: d.HighPriority, Min: 0, Max: 1, Doc: "probability that a project is high-priority (pi = 1; Figures 11–12: 0.2); drawn from a stream of its own"},
		},
		projects: func(v values, rng *rand.Rand) (ProjectWorkload, error) {
			p := seed004.Params{
				Projects: v.int("projects"), MeanInterarrival: v.float("interarrival"),
				JobsMean: v.float("jobs_mean"), JobsSD: v.float("jobs_sd"),
				ServiceMean: v.float("service_mean"), RequirementMean: v.float("requirement_mean"),
				Types: v.int("types"), CapacityMin: v.int("capacity_min"), CapacityMax: v.int("capacity_max"),
				HighPriority: v.float("high_priority"),
			}
			g, err := seed004.New(p, rng)
			if err != nil {
				return ProjectWorkload{}, err
			}
			w := ProjectWorkload{Capacities: g.Capacities(), Projects: make([]seed004.Project, 0, p.Projects)}
			for {
				pr, err := g.Next()
				if err == io.EOF {
					return w, nil
				}
				if err != nil {
					return ProjectWorkload{}, err
				}
				w.Projects = append(w.Projects, pr)
			}
		},
	}
}
