package strategies

import (
	"fmt"
	"sort"
	"strings"

	"github.com/schedfarm/schedfarm/param"
	"github.com/schedfarm/schedfarm/sim"
)

// Factory builds a fresh scheduler for one simulation (Build: its
// platform, its parameters already checked against the entry's, and the
// world of a family's own platform).
type Factory func(b Build) (sim.Scheduler, error)

// Build is what a Factory builds a scheduler for.
type Build struct {
	// Platform is the machine the engine runs: dedicated processors, VM
	// tiers or typed pools — for a family's own platform, the pools in
	// which the engine counts its units.
	Platform sim.Platform
	// Params are the scheduler's parameters, defaults filled in.
	Params param.Values
	// World is the rest of a family's own platform (Entry.Platform), of
	// that family's type: the cloud's VMs and jobs, the grid's failing
	// resources. nil on the engine's shared platforms.
	World any
}

// Entry describes one registered scheduler. Every family adds its
// schedulers the same way: one Entry each (in the file of the scheduler),
// listed by its family.Family.Schedulers; the registry, spec validation,
// the CLI and the shared invariant suite take them from there.
type Entry struct {
	Name    string
	Summary string       // one line
	Params  []param.Spec // accepted parameters; others are errors
	New     Factory
	// Platform is "" for a scheduler of the engine's shared platforms
	// (processors, VM tiers, typed pools: it runs SWF workloads), or the
	// output of the family's own platform it runs on ("cloud", "grid"):
	// its Factory then needs Build.World, and only that platform's cells
	// run it.
	Platform string
	// Tiers is the number of VM tiers per processor the scheduler needs
	// (sim.Platform.Tiers); 0 means a dedicated machine. The shared
	// invariant suite runs such a scheduler on tiered platforms; an SWF
	// run gets its tiers from Prepare.
	Tiers int
	// Prepare, when set, readies an SWF run for the scheduler before it
	// is built (RunSetup): the platform it needs (VM tiers and their
	// sharing model) and what its family's workload gives the jobs
	// (per-process CPU usage). Without it the run is dedicated processors
	// and the jobs as read.
	Prepare func(r *RunSetup) error
	// Preemptive marks a scheduler that suspends and resumes jobs: the
	// shared invariant suite then checks occupancy after every pass rather
	// than over each job's first start and last end.
	Preemptive bool
	// Validate, when set, checks combinations of parameters once each is
	// valid on its own (e.g. weights that must sum to 1), naming them and
	// what is accepted.
	Validate func(param.Values) error
}

// Registry maps scheduler names to entries.
type Registry struct {
	entries []Entry
	index   map[string]int
}

// NewRegistry builds a registry from entries. Names must be unique and
// non-empty.
func NewRegistry(entries ...Entry) (*Registry, error) {
	r := &Registry{index: make(map[string]int, len(entries))}
	for _, e := range entries {
		if e.Name == "" || e.New == nil {
			return nil, fmt.Errorf("strategies: entry %q has no name or no factory", e.Name)
		}
		if _, dup := r.index[e.Name]; dup {
			return nil, fmt.Errorf("strategies: scheduler %q registered twice; registered so far: %s", e.Name, strings.Join(r.Names(), ", "))
		}
		r.index[e.Name] = len(r.entries)
		r.entries = append(r.entries, e)
	}
	return r, nil
}

// Names returns the registered names in sorted order.
func (r *Registry) Names() []string {
	names := make([]string, 0, len(r.entries))
	for _, e := range r.entries {
		names = append(names, e.Name)
	}
	sort.Strings(names)
	return names
}

// Lookup returns the entry for name, or an error listing the known names.
func (r *Registry) Lookup(name string) (Entry, error) {
	i, ok := r.index[name]
	if !ok {
		return Entry{}, fmt.Errorf("unknown scheduler %q; known: %s", name, strings.Join(r.Names(), ", "))
	}
	return r.entries[i], nil
}

// Describe returns the one-line summary of name ("" if unknown).
func (r *Registry) Describe(name string) string {
	e, err := r.Lookup(name)
	if err != nil {
		return ""
	}
	return e.Summary
}

// Check validates params for scheduler name without building it, reporting
// every bad parameter at once.
func (r *Registry) Check(name string, params map[string]any) error {
	e, err := r.Lookup(name)
	if err != nil {
		return err
	}
	_, err = resolve(e, params)
	return err
}

// Resolve returns the parameters of scheduler name with defaults filled in,
// reporting every bad parameter at once.
func (r *Registry) Resolve(name string, params map[string]any) (param.Values, error) {
	e, err := r.Lookup(name)
	if err != nil {
		return nil, err
	}
	return resolve(e, params)
}

// New builds scheduler name for platform p with params (nil for defaults).
func (r *Registry) New(name string, p sim.Platform, params map[string]any) (sim.Scheduler, error) {
	return r.NewOn(name, p, nil, params)
}

// NewOn builds scheduler name for a family's own platform: p counts its
// units, world is the rest of it (Build.World).
func (r *Registry) NewOn(name string, p sim.Platform, world any, params map[string]any) (sim.Scheduler, error) {
	e, err := r.Lookup(name)
	if err != nil {
		return nil, err
	}
	ps, err := resolve(e, params)
	if err != nil {
		return nil, err
	}
	return e.New(Build{Platform: p, Params: ps, World: world})
}

// Entries returns the entries in registration order.
func (r *Registry) Entries() []Entry { return append([]Entry(nil), r.entries...) }
