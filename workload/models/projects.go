package models

import (
	"fmt"
	"github.com/schedfarm/schedfarm/param"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/schedfarm/schedfarm/workload/seed004"
)

// Output is what a model generates, named as specs and result files name
// it. A family whose platform is new declares an Output of its own.
type Output string

const (
	// SWF models yield rigid jobs for one processor pool, as a
	// workload.Source (New).
	SWF Output = "swf"
	// Projects models yield multi-resource projects together with the
	// resource capacities they were drawn for (NewProjects).
	Projects Output = "projects"
	// Cloud models (seed 001) yield VMs with memory, processing ability and
	// bandwidth, and parallel jobs with per-task demands and deadlines; the
	// family builds them from the decoded values.
	Cloud Output = "cloud"
	// Grid models (seed 002) yield failing heterogeneous resources and jobs
	// with sizes, data and deadlines; the family builds them from the
	// decoded values.
	Grid Output = "grid"
)

// String names the output as specs and result files do.
func (o Output) String() string { return string(o) }

// OutputOf reports what the named model generates; false if it is unknown.
func (r *Registry) OutputOf(name string) (Output, bool) {
	m, ok := r.find(name)
	return m.Output, ok
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
func (r *Registry) NewProjects(name string, params map[string]any, rng *rand.Rand) (ProjectWorkload, error) {
	m, ok := r.find(name)
	switch {
	case !ok:
		return ProjectWorkload{}, fmt.Errorf("workload model %q unknown (known: %s)", name, strings.Join(r.Names(), ", "))
	case m.Output != Projects || m.Projects == nil:
		return ProjectWorkload{}, fmt.Errorf("workload model %q generates %s workloads, not projects", name, m.Output)
	case rng == nil:
		return ProjectWorkload{}, fmt.Errorf("%s: nil *rand.Rand", name)
	}
	v, err := param.Decode(name, m.Params, params)
	if err != nil {
		return ProjectWorkload{}, err
	}
	w, err := m.Projects(v, rand.New(rand.NewPCG(rng.Uint64(), rng.Uint64())))
	if err != nil {
		return ProjectWorkload{}, err
	}
	w.Model = name
	for _, s := range m.Params {
		w.Params = append(w.Params, Param{s.Name, v[s.Name]})
	}
	slices.SortFunc(w.Params, func(a, b Param) int { return strings.Compare(a.Name, b.Name) })
	return w, nil
}
