package twotier

import (
	"github.com/schedfarm/schedfarm/param"
	"io"
	"maps"
	"math/rand/v2"

	"github.com/schedfarm/schedfarm/workload/models"
	"github.com/schedfarm/schedfarm/workload/seed004"
)

// WorkloadModel is the seed004 workload generator model (Table 6): projects of
// jobs on N resource types with capacities, for the family's schedulers.
func WorkloadModel() models.Model {
	d := seed004.Default()
	return models.Model{
		Name:    "seed004",
		Summary: "seed 004 two-tier projects (Table 6): exponential project arrivals, ⌊Normal(5, 2)⌋ jobs per project, Exp(500) service, ⌊Exp(2)⌋ per-type requirements, 5 types with capacities U[20, 40]",
		Output:  models.Projects,
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
		Projects: func(v param.Values, rng *rand.Rand) (models.ProjectWorkload, error) {
			p := generatorParams(v)
			g, err := seed004.New(p, rng)
			if err != nil {
				return models.ProjectWorkload{}, err
			}
			w := models.ProjectWorkload{Capacities: g.Capacities(), Projects: make([]seed004.Project, 0, p.Projects)}
			for {
				pr, err := g.Next()
				if err == io.EOF {
					return w, nil
				}
				if err != nil {
					return models.ProjectWorkload{}, err
				}
				w.Projects = append(w.Projects, pr)
			}
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
	reg, err := models.NewRegistry(WorkloadModel())
	if err != nil {
		return err
	}
	w, err := reg.NewProjects("seed004", raw, rng)
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
