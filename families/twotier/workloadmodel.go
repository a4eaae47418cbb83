package twotier

import (
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/schedfarm/schedfarm/param"
	"github.com/schedfarm/schedfarm/workload/models"
	"github.com/schedfarm/schedfarm/workload/seed004"
)

// Output is what the family's workload model (seed004) generates: projects
// of jobs over N typed resource pools together with the capacities they
// were drawn for (ProjectWorkload); its cells run on one pool per type.
const Output = models.Output("projects")

// ProjectWorkload is a generated project workload: the capacity of every
// resource type and the projects in arrival order.
type ProjectWorkload struct {
	// Model is the model's name.
	Model string
	// Params are every parameter of the model, defaults included, sorted by
	// name.
	Params []models.Param
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

// NewProjects draws the seed004 workload with params from rng (its seeds:
// two words of rng) and generates it whole (projects are simulated from
// memory; 1,000 projects of Table 6 take about 300 kB). Errors list every
// unknown or out-of-range parameter.
func NewProjects(params map[string]any, rng *rand.Rand) (ProjectWorkload, error) {
	m := WorkloadModel()
	if rng == nil {
		return ProjectWorkload{}, fmt.Errorf("%s: nil *rand.Rand", m.Name)
	}
	v, err := m.Decode(params)
	if err != nil {
		return ProjectWorkload{}, err
	}
	w, err := generateProjects(v, rand.New(rand.NewPCG(rng.Uint64(), rng.Uint64())))
	if err != nil {
		return ProjectWorkload{}, err
	}
	w.Model = m.Name
	for _, s := range m.Params {
		w.Params = append(w.Params, models.Param{Name: s.Name, Value: v[s.Name]})
	}
	slices.SortFunc(w.Params, func(a, b models.Param) int { return strings.Compare(a.Name, b.Name) })
	return w, nil
}

// generateProjects draws the projects of decoded parameters v from rng.
func generateProjects(v param.Values, rng *rand.Rand) (ProjectWorkload, error) {
	p := generatorParams(v)
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
}

// WorkloadModel is the seed004 workload generator model (Table 6): projects of
// jobs on N resource types with capacities, for the family's schedulers.
func WorkloadModel() models.Model {
	d := seed004.Default()
	return models.Model{
		Name:    "seed004",
		Summary: "seed 004 two-tier projects (Table 6): exponential project arrivals, ⌊Normal(5, 2)⌋ jobs per project, Exp(500) service, ⌊Exp(2)⌋ per-type requirements, 5 types with capacities U[20, 40]",
		Output:  Output,
		Params: []param.Spec{
			{Name: "projects", Kind: param.Int, Default: int64(d.Projects), Min: 1, Max: 1e8, Doc: "number of projects (the thesis: 1,000 per replication)"},
			{Name: "interarrival", Kind: param.Float, Default: d.MeanInterarrival, Min: 1e-6, Max: 1e12, Doc: "mean time between project arrivals (the thesis sweeps 10 … 160)"},
			{Name: "jobs_mean", Kind: param.Float, Default: d.JobsMean, Min: 1e-6, Max: 1e6, Doc: "mean of the Normal number of jobs per project (integer part, at least 1)"},
			{Name: "jobs_sd", Kind: param.Float, Default: d.JobsSD, Min: 0, Max: 1e6, Doc: "standard deviation of the number of jobs per project"},
			{Name: "service_mean", Kind: param.Float, Default: d.ServiceMean, Min: 1e-6, Max: 1e12, Doc: "mean exponential service time"},
			{Name: "requirement_mean", Kind: param.Float, Default: d.RequirementMean, Min: 1e-6, Max: 1e6, Doc: "mean of the exponential requirement per resource type (integer part, capped at the capacity)"},
			{Name: "types", Kind: param.Int, Default: int64(d.Types), Min: 1, Max: 1000, Doc: "number of resource types N"},
			{Name: "capacity_min", Kind: param.Int, Default: int64(d.CapacityMin), Min: 1, Max: 1e9, Doc: "smallest capacity M_i (capacities uniform on the integers of [capacity_min, capacity_max])"},
			{Name: "capacity_max", Kind: param.Int, Default: int64(d.CapacityMax), Min: 1, Max: 1e9, Doc: "largest capacity M_i"},
			{Name: "high_priority", Kind: param.Float, Default: d.HighPriority, Min: 0, Max: 1, Doc: "probability that a project is high-priority (pi = 1; Figures 11–12: 0.2); drawn from a stream of its own"},
			{Name: "stop", Kind: param.String, Default: StopArrivals, Choices: []string{StopArrivals, StopCompletions},
				Doc: "how a run ends (§5.1: \"terminated upon the successful completion of 1000 projects\"): arrivals = the projects projects arrive and all are run to their end; completions = projects keep arriving until the projects-th completes, and the metrics are over the first projects to complete (run cells only; a generated file holds projects projects)"},
		},
		Lines: writeLines,
	}
}

// writeLines writes a seed004 workload for "schedfarm workload generate"
// (--jobs sets the number of projects):
//
//	{"type":"platform","capacities":[M_1, …],"params":{…}}
//	{"type":"project", id, arrival, jobs[{index, service, req[]}]}…
func writeLines(raw map[string]any, rng *rand.Rand, emit func(any) error) error {
	raw = maps.Clone(raw)
	if j, ok := raw["jobs"]; ok {
		raw["projects"] = j
		delete(raw, "jobs")
	}
	w, err := NewProjects(raw, rng)
	if err != nil {
		return err
	}
	params := map[string]any{}
	for _, p := range w.Params {
		params[p.Name] = p.Value
	}
	if err := emit(map[string]any{"type": "platform", "capacities": w.Capacities, "params": params}); err != nil {
		return err
	}
	i := 0
	return models.EmitAll(func() (seed004.Project, error) {
		if i == len(w.Projects) {
			return seed004.Project{}, io.EOF
		}
		i++
		return w.Projects[i-1], nil
	}, func(r seed004.Project) any {
		return struct {
			Type string `json:"type"`
			seed004.Project
		}{"project", r}
	}, emit)
}

// generatorParams are the seed004 generator's parameters of decoded model
// values.
func generatorParams(v param.Values) seed004.Params {
	return seed004.Params{
		Projects: v.Int("projects"), MeanInterarrival: v.Float("interarrival"),
		JobsMean: v.Float("jobs_mean"), JobsSD: v.Float("jobs_sd"),
		ServiceMean: v.Float("service_mean"), RequirementMean: v.Float("requirement_mean"),
		Types: v.Int("types"), CapacityMin: v.Int("capacity_min"), CapacityMax: v.Int("capacity_max"),
		HighPriority: v.Float("high_priority"),
	}
}
