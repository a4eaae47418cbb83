package seed004

import (
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"

	"github.com/schedfarm/schedfarm/workload/internal/dist"
)

// Params configure a Generator. Start from Default.
type Params struct {
	Projects         int     // number of projects (≥ 1); the paper stops after 1000 completions
	MeanInterarrival float64 // mean time between project arrivals (paper: 10 … 160)
	JobsMean         float64 // mean of the Normal number of jobs per project (5.0)
	JobsSD           float64 // its standard deviation (2.0)
	ServiceMean      float64 // mean exponential service time (500.0)
	RequirementMean  float64 // mean of the exponential per-type requirement (2.0)
	Types            int     // number of resource types N (5)
	CapacityMin      int     // capacity range, inclusive (20)
	CapacityMax      int     // (40)
	// HighPriority is the fraction of projects with priority pi = 1 (the
	// others get 0); Figures 11–12 use 1/5. Each project draws its class
	// from a stream of its own, so the projects themselves do not depend on
	// this fraction, and raising it only turns more projects high-priority.
	HighPriority float64
}

// Default returns Table 6's parameters with a mean interarrival of 40.
func Default() Params {
	return Params{Projects: 1000, MeanInterarrival: 40, JobsMean: 5, JobsSD: 2,
		ServiceMean: 500, RequirementMean: 2, Types: 5, CapacityMin: 20, CapacityMax: 40}
}

// Validate reports every invalid field.
func (p Params) Validate() error {
	var errs []error
	bad := func(f string, v any, want string) {
		errs = append(errs, fmt.Errorf("seed004: %s = %v, want %s", f, v, want))
	}
	pos := func(f string, v float64) {
		if !(v > 0) || math.IsInf(v, 0) {
			bad(f, v, "a finite value > 0")
		}
	}
	if p.Projects < 1 {
		bad("Projects", p.Projects, "≥ 1")
	}
	pos("MeanInterarrival", p.MeanInterarrival)
	pos("JobsMean", p.JobsMean)
	if !(p.JobsSD >= 0) || math.IsInf(p.JobsSD, 0) {
		bad("JobsSD", p.JobsSD, "a finite value ≥ 0")
	}
	pos("ServiceMean", p.ServiceMean)
	pos("RequirementMean", p.RequirementMean)
	if p.Types < 1 || p.Types > 1000 {
		bad("Types", p.Types, "1..1000")
	}
	if p.CapacityMin < 1 {
		bad("CapacityMin", p.CapacityMin, "≥ 1")
	}
	if p.CapacityMax < p.CapacityMin {
		bad("CapacityMax", p.CapacityMax, fmt.Sprintf("≥ CapacityMin (%d)", p.CapacityMin))
	}
	if !(p.HighPriority >= 0 && p.HighPriority <= 1) {
		bad("HighPriority", p.HighPriority, "a fraction in [0, 1]")
	}
	return errors.Join(errs...)
}

// Job is one job of a project.
type Job struct {
	Index   int     `json:"index"`   // 1-based within the project
	Service float64 `json:"service"` // service time te
	Req     []int   `json:"req"`     // requirement q per resource type, 0 ≤ q ≤ capacity
}

// Project is one project and its jobs.
type Project struct {
	ID      int     `json:"id"`      // 1-based, in arrival order
	Arrival float64 `json:"arrival"` // arrival time ta
	// Priority is pi_u: 1 for a high-priority project, 0 otherwise.
	Priority float64 `json:"priority"`
	Jobs     []Job   `json:"jobs"`
}

// Generator streams projects. Capacities are drawn when it is created.
type Generator struct {
	p    Params
	rng  *rand.Rand
	prio *rand.Rand // priority classes, apart from rng
	caps []int
	t    float64
	n    int
}

// New validates p, draws the capacities and returns the generator.
func New(p Params, rng *rand.Rand) (*Generator, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if rng == nil {
		return nil, errors.New("seed004: nil *rand.Rand")
	}
	g := &Generator{p: p, rng: rng, caps: make([]int, p.Types)}
	for i := range g.caps {
		g.caps[i] = p.CapacityMin + rng.IntN(p.CapacityMax-p.CapacityMin+1)
	}
	g.prio = rand.New(rand.NewPCG(rng.Uint64(), rng.Uint64()))
	return g, nil
}

// Capacities returns the capacity M_i of each resource type.
func (g *Generator) Capacities() []int { return append([]int(nil), g.caps...) }

// Next returns the next project, or io.EOF after Params.Projects.
func (g *Generator) Next() (Project, error) {
	if g.n >= g.p.Projects {
		return Project{}, io.EOF
	}
	g.n++
	g.t += dist.Exp(g.rng, g.p.MeanInterarrival)
	nj := max(1, int(g.p.JobsMean+g.p.JobsSD*g.rng.NormFloat64()))
	pr := Project{ID: g.n, Arrival: g.t, Jobs: make([]Job, nj)}
	if g.prio.Float64() < g.p.HighPriority {
		pr.Priority = 1
	}
	for v := range pr.Jobs {
		j := Job{Index: v + 1, Service: dist.Exp(g.rng, g.p.ServiceMean), Req: make([]int, len(g.caps))}
		for i, c := range g.caps {
			j.Req[i] = min(c, int(dist.Exp(g.rng, g.p.RequirementMean)))
		}
		pr.Jobs[v] = j
	}
	return pr, nil
}
