package families

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/schedfarm/schedfarm/family"
	"github.com/schedfarm/schedfarm/param"
	"github.com/schedfarm/schedfarm/strategies"
	"github.com/schedfarm/schedfarm/workload/models"
)

// Catalog is the family catalog: a list of families and what the rest of
// schedfarm derives from it, computed once by New — one scheduler registry
// (every family's entries, the engine's and those of the families' own
// platforms), one model registry (the shared SWF models and every family's
// own), the runners of the families' own platforms, and the families'
// workload fields. It is a value: whoever needs it is given it.
type Catalog struct {
	fams       []family.Family
	schedulers *strategies.Registry
	owner      map[string]family.Family // scheduler name → its family
	models     *models.Registry
	platforms  []family.PlatformRunner
	fields     []param.Spec
	checkers   []fieldChecker
	extra      []string
}

// fieldChecker is one family's fields and how they are checked.
type fieldChecker struct {
	fields   []param.Spec
	together family.FieldsChecker // nil: each field's own checks
}

// New builds the catalog of fams. A scheduler, model, output or workload
// field declared twice is an error.
func New(fams ...family.Family) (*Catalog, error) {
	c := &Catalog{fams: slices.Clone(fams), owner: map[string]family.Family{}}
	var entries []strategies.Entry
	var own []models.Model
	var errs []error
	for _, f := range fams {
		for _, e := range f.Schedulers() {
			entries = append(entries, e)
			c.owner[e.Name] = f
		}
		if mo, ok := f.(family.ModelOwner); ok {
			own = append(own, mo.Models()...)
		}
		if pr, ok := f.(family.PlatformRunner); ok {
			if _, dup := c.PlatformRunner(pr.Output()); dup {
				errs = append(errs, fmt.Errorf("families: output %q has two platform runners", pr.Output()))
			}
			c.platforms = append(c.platforms, pr)
		}
		if sc, ok := f.(family.SpecChecker); ok {
			fc := fieldChecker{fields: sc.SpecFields()}
			fc.together, _ = f.(family.FieldsChecker)
			for _, fd := range fc.fields {
				if _, dup := c.WorkloadField(fd.Name); dup {
					errs = append(errs, fmt.Errorf("families: workload field %q declared twice", fd.Name))
				}
				c.fields = append(c.fields, fd)
			}
			c.checkers = append(c.checkers, fc)
		}
		if mn, ok := f.(family.MetricNamer); ok {
			c.extra = append(c.extra, mn.ExtraMetricNames()...)
		}
	}
	var err error
	if c.schedulers, err = strategies.NewRegistry(slices.Clip(entries)...); err != nil {
		errs = append(errs, err)
	}
	if c.models, err = models.NewRegistry(own...); err != nil {
		errs = append(errs, err)
	}
	return c, errors.Join(errs...)
}

// Families returns the families in catalog order.
func (c *Catalog) Families() []family.Family { return slices.Clone(c.fams) }

// Schedulers returns the registry of every scheduler of every family.
func (c *Catalog) Schedulers() *strategies.Registry { return c.schedulers }

// EngineSchedulers lists, sorted, the schedulers of the engine's shared
// platforms (strategies.Entry.Platform ""): those an SWF workload runs.
func (c *Catalog) EngineSchedulers() []string {
	var out []string
	for _, name := range c.schedulers.Names() {
		if e, _ := c.schedulers.Lookup(name); e.Platform == "" {
			out = append(out, name)
		}
	}
	return out
}

// Models returns the registry of the workload generator models.
func (c *Catalog) Models() *models.Registry { return c.models }

// PlatformRunner returns the family whose own platform runs cells of
// output o, if any.
func (c *Catalog) PlatformRunner(o models.Output) (family.PlatformRunner, bool) {
	for _, pr := range c.platforms {
		if pr.Output() == o {
			return pr, true
		}
	}
	return nil, false
}

// PlatformOf returns the family whose own platform runs the named model's
// cells; false for an unknown model or one of SWF jobs.
func (c *Catalog) PlatformOf(model string) (family.PlatformRunner, bool) {
	o, ok := c.models.OutputOf(model)
	if !ok {
		return nil, false
	}
	return c.PlatformRunner(o)
}

// PlatformSchedulers lists the schedulers that run cells of pr's platform,
// in the family's order: the family's own.
func (c *Catalog) PlatformSchedulers(pr family.PlatformRunner) []string {
	var out []string
	for _, f := range c.fams {
		if p, ok := f.(family.PlatformRunner); !ok || p.Output() != pr.Output() {
			continue
		}
		for _, e := range f.Schedulers() {
			out = append(out, e.Name)
		}
	}
	return out
}

// CheckPlatformScheduler reports whether scheduler (with params) runs the
// cells of pr's platform, naming what would be accepted.
func (c *Catalog) CheckPlatformScheduler(pr family.PlatformRunner, scheduler string, params map[string]any) error {
	names := c.PlatformSchedulers(pr)
	if !slices.Contains(names, scheduler) {
		return fmt.Errorf("scheduler %q does not run %s workloads; accepted: %s", scheduler, pr.Output(), strings.Join(names, ", "))
	}
	return c.schedulers.Check(scheduler, params)
}

// ExtraMetricNames lists the metrics the families' schedulers report
// beyond the runner's own (family.MetricNamer), in family order.
func (c *Catalog) ExtraMetricNames() []string { return slices.Clone(c.extra) }

// Outputs lists the outputs of the models, sorted.
func (c *Catalog) Outputs() []models.Output {
	seen := map[models.Output]bool{}
	for _, m := range c.models.Names() {
		if o, ok := c.models.OutputOf(m); ok {
			seen[o] = true
		}
	}
	return slices.Sorted(maps.Keys(seen))
}

// WorkloadFields lists the workload fields the families add to experiment
// specs (family.SpecChecker), in family order, each by its full name.
func (c *Catalog) WorkloadFields() []param.Spec { return slices.Clone(c.fields) }

// WorkloadField returns the families' workload field of that full name
// ("workload.cpu_usage").
func (c *Catalog) WorkloadField(name string) (param.Spec, bool) { return param.Find(c.fields, name) }

// CheckWorkloadFields checks a run's values of the families' workload
// fields, by full name: every name must be a field of a family and every
// value of its kind; then each family checks its own, together
// (family.FieldsChecker) or one by one (the spec's checks). It reports
// every problem.
func (c *Catalog) CheckWorkloadFields(values map[string]any) error {
	var errs []error
	for _, name := range slices.Sorted(maps.Keys(values)) {
		fd, ok := c.WorkloadField(name)
		if !ok {
			errs = append(errs, fmt.Errorf("unknown workload field %q; accepted: %s", name, strings.Join(c.fieldNames(), ", ")))
			continue
		}
		if k, ok := param.KindOf(values[name]); !ok || k != fd.Kind {
			errs = append(errs, fmt.Errorf("%s: value %v (%T); accepted: %s (%s)", name, values[name], values[name], fd.Accepted(), fd.Kind))
		}
	}
	if len(errs) > 0 {
		return errors.Join(errs...) // the families' checks assume known fields of their kinds
	}
	for _, fc := range c.checkers {
		if fc.together != nil {
			if err := fc.together.CheckFields(values); err != nil {
				errs = append(errs, err)
			}
			continue
		}
		for _, fd := range fc.fields {
			if v, given := values[fd.Name]; given {
				if _, err := fd.Value(v); err != nil {
					errs = append(errs, fmt.Errorf("%s %v: %v; accepted: %s", fd.Name, v, err, fd.Accepted()))
				}
			}
		}
	}
	return errors.Join(errs...)
}

func (c *Catalog) fieldNames() []string {
	var names []string
	for _, fd := range c.fields {
		names = append(names, fd.Name)
	}
	return names
}
