package experiments

import (
	"errors"
	"fmt"
	"strings"

	"github.com/schedfarm/schedfarm/families"
	"github.com/schedfarm/schedfarm/param"
	"github.com/schedfarm/schedfarm/runner"
	"github.com/schedfarm/schedfarm/workload/models"
)

// familyCatalog is the production Catalog: everything a family catalog
// holds (its schedulers, models, platforms, workload fields) and the
// runner's metrics.
type familyCatalog struct {
	cat *families.Catalog
}

// NewCatalog returns the Catalog of a family catalog (families.Builtin()
// for everything shipped with schedfarm, built once by the caller).
func NewCatalog(cat *families.Catalog) Catalog { return familyCatalog{cat: cat} }

var (
	_ Catalog       = familyCatalog{}
	_ FamilyCatalog = familyCatalog{}
	_ PluginCatalog = familyCatalog{}
)

// SchedulerNames lists the schedulers of SWF workloads: those of the
// engine's shared platforms.
func (c familyCatalog) SchedulerNames() []string { return c.cat.EngineSchedulers() }

// CheckScheduler validates params with the registry, without building.
func (c familyCatalog) CheckScheduler(name string, params map[string]any) error {
	return c.cat.Schedulers().Check(name, params)
}

// ModelNames lists the generator models.
func (c familyCatalog) ModelNames() []string { return c.cat.Models().Names() }

// CheckModel checks params against the model's declared parameters
// (param.DecodeTyped: name, kind, range, choices, free-form syntax such as
// est_bins; a spec's "300" is no number) and then their combinations
// (models.Check: est_bins needs estimates tsafrir05, …) without generating
// the workload; checks that need the generated jobs happen when a cell
// runs. Errors about one parameter are *ParamError.
func (c familyCatalog) CheckModel(name string, params map[string]any) error {
	m, ok := c.cat.Models().Model(name)
	if !ok {
		return fmt.Errorf("unknown model %q; known: %s", name, strings.Join(c.cat.Models().Names(), ", "))
	}
	var errs []error
	if _, err := param.DecodeTyped(name, m.Params, params); err != nil {
		for _, e := range unjoin(err) {
			if pe, ok := e.(*param.Error); ok {
				e = &ParamError{Param: pe.Param, Err: errors.New(pe.Detail())}
			}
			errs = append(errs, e)
		}
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	for _, e := range unjoin(c.cat.Models().Check(name, params)) {
		var pe *models.ParamError
		if errors.As(e, &pe) {
			e = &ParamError{Param: pe.Param, Err: fmt.Errorf("parameter %s %s", pe.Param, pe.Msg), Combination: true}
		}
		errs = append(errs, e)
	}
	return errors.Join(errs...)
}

// unjoin splits an errors.Join error into its parts (nil: none).
func unjoin(err error) []error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

// ModelOutput reports the output of a model.
func (c familyCatalog) ModelOutput(name string) string {
	o, ok := c.cat.Models().OutputOf(name)
	if !ok {
		return ""
	}
	return o.String()
}

// ModelSchedulers lists the schedulers of the family whose own platform
// runs the model's cells; nil for the others.
func (c familyCatalog) ModelSchedulers(model string) []string {
	if pr, ok := c.cat.PlatformOf(model); ok {
		return c.cat.PlatformSchedulers(pr)
	}
	return nil
}

// CheckModelScheduler checks a scheduler of the model's family.
func (c familyCatalog) CheckModelScheduler(model, name string, params map[string]any) error {
	pr, ok := c.cat.PlatformOf(model)
	if !ok {
		return fmt.Errorf("workload model %q does not bring its own platform", model)
	}
	return c.cat.CheckPlatformScheduler(pr, name, params)
}

// MetricNames lists the metrics of runner.Result.Metrics (SWF workloads:
// those of every scheduler, then the extra ones some schedulers report)
// or those of the family whose platform runs the output's cells (cloud,
// grid, projects).
func (c familyCatalog) MetricNames(output string) []string {
	if pr, ok := c.cat.PlatformRunner(models.Output(output)); ok {
		return pr.MetricNames()
	}
	return append(runner.MetricNames(), c.cat.ExtraMetricNames()...)
}

// WorkloadFields lists the families' workload fields.
func (c familyCatalog) WorkloadFields() []param.Spec { return c.cat.WorkloadFields() }
