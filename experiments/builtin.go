package experiments

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
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
	specs := c.models.Specs(name)
	if specs == nil {
		return fmt.Errorf("unknown model %q; known: %s", name, strings.Join(c.models.Names(), ", "))
	}
	byName := map[string]models.ParamSpec{}
	var known []string
	for _, s := range specs {
		byName[s.Name] = s
		known = append(known, s.Name)
	}
	sort.Strings(known)
	var errs []error
	for _, k := range sortedKeys(params) {
		s, ok := byName[k]
		if !ok {
			errs = append(errs, &ParamError{Param: k, Err: fmt.Errorf("unknown parameter %q; accepted: %s", k, strings.Join(known, ", "))})
			continue
		}
		if str, ok := params[k].(string); ok && s.Kind == models.String && s.Check != nil && len(s.Choices) == 0 {
			if err := s.Check(str); err != nil {
				errs = append(errs, &ParamError{Param: k, Err: fmt.Errorf("parameter %s = %s: %v; accepted: %s", k, formatValue(params[k]), err, s.Range())})
			}
			continue
		}
		if !modelValueOK(s, params[k]) {
			errs = append(errs, &ParamError{Param: k, Err: fmt.Errorf("parameter %s = %s; accepted: %s", k, formatValue(params[k]), s.Range())})
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

func modelValueOK(s models.ParamSpec, v any) bool {
	switch s.Kind {
	case models.Bool:
		_, ok := v.(bool)
		return ok
	case models.String:
		str, ok := v.(string)
		if ok && s.Check != nil && len(s.Choices) == 0 {
			return s.Check(str) == nil
		}
		return ok && slices.Contains(s.Choices, str)
	}
	var f float64
	switch x := v.(type) {
	case int64:
		f = float64(x)
	case float64:
		f = x
	default:
		return false
	}
	if s.Kind == models.Int && f != math.Trunc(f) {
		return false
	}
	return (s.ZeroOK && f == 0) || (f >= s.Min && f <= s.Max)
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
