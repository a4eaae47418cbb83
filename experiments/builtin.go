package experiments

import (
	"errors"
	"fmt"
	"github.com/schedfarm/schedfarm/param"
	"strings"

	"github.com/schedfarm/schedfarm/families"
	"github.com/schedfarm/schedfarm/runner"
	"github.com/schedfarm/schedfarm/strategies"
	"github.com/schedfarm/schedfarm/workload/models"
)

// builtinCatalog is the production Catalog: schedulers from the strategies
// registry.
type builtinCatalog struct {
	reg    *strategies.Registry
	models *models.Registry
}

// BuiltinCatalog returns the catalog of everything shipped with schedfarm:
// the schedulers of families.Schedulers(), the generator models of
// workload/models and the metrics of the runner.
func BuiltinCatalog() Catalog {
	return builtinCatalog{reg: families.Schedulers(), models: families.Models()}
}

// SchedulerNames lists the registered schedulers.
func (c builtinCatalog) SchedulerNames() []string { return c.reg.Names() }

// CheckScheduler validates params with the registry, without building.
func (c builtinCatalog) CheckScheduler(name string, params map[string]any) error {
	return c.reg.Check(name, params)
}

// ModelNames lists the generator models (families.Models).
func (c builtinCatalog) ModelNames() []string { return c.models.Names() }

// CheckModel checks params against the model's documented parameters
// (name, kind, range, choices, free-form syntax such as est_bins) and then
// their combinations (models.Check: est_bins needs estimates tsafrir05, …)
// without generating the workload; checks that need the generated jobs
// happen when a cell runs. Errors about one parameter are *ParamError.
func (c builtinCatalog) CheckModel(name string, params map[string]any) error {
	m, ok := c.models.Model(name)
	if !ok {
		return fmt.Errorf("unknown model %q; known: %s", name, strings.Join(c.models.Names(), ", "))
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
	for _, e := range unjoin(c.models.Check(name, params)) {
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

// ModelOutput reports the output of a workload/models model.
func (c builtinCatalog) ModelOutput(name string) string {
	o, ok := c.models.OutputOf(name)
	if !ok {
		return ""
	}
	return o.String()
}

// ModelSchedulers lists the scheduler family of a model with its own
// platform (runner.ModelSchedulers); nil for the others.
func (c builtinCatalog) ModelSchedulers(model string) []string {
	return runner.ModelSchedulers(model)
}

// CheckModelScheduler checks a scheduler of a model's family.
func (c builtinCatalog) CheckModelScheduler(model, name string, params map[string]any) error {
	return runner.CheckModelScheduler(model, name, params)
}

// MetricNames lists the metrics of runner.Result.Metrics (SWF workloads:
// those of every scheduler, then the extra ones some schedulers report,
// families.ExtraMetricNames) or those of the family whose platform runs
// the output's cells (runner.ModelMetricNames: cloud, grid, projects).
func (c builtinCatalog) MetricNames(output string) []string {
	if names := runner.ModelMetricNames(output); names != nil {
		return names
	}
	return append(runner.MetricNames(), families.ExtraMetricNames()...)
}
