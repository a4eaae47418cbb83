package experiments

import (
	"github.com/schedfarm/schedfarm/runner"
	"github.com/schedfarm/schedfarm/strategies"
)

// builtinCatalog is the production Catalog: schedulers from the strategies
// registry.
type builtinCatalog struct {
	reg *strategies.Registry
}

// BuiltinCatalog returns the catalog of everything shipped with schedfarm:
// the schedulers of strategies.Builtin() and the metrics of the runner.
//
// Workload generator models are not listed yet: the model registry
// (package workload/models) has not landed, so specs must use the trace form
// of the workload until it does.
func BuiltinCatalog() Catalog {
	return builtinCatalog{reg: strategies.Builtin()}
}

// SchedulerNames lists the registered schedulers.
func (c builtinCatalog) SchedulerNames() []string { return c.reg.Names() }

// CheckScheduler validates params with the registry, without building.
func (c builtinCatalog) CheckScheduler(name string, params map[string]any) error {
	return c.reg.Check(name, params)
}

// ModelNames lists the generator models (none until workload/models lands).
func (c builtinCatalog) ModelNames() []string { return nil }

// CheckModel rejects every model until workload/models lands.
func (c builtinCatalog) CheckModel(name string, params map[string]any) error {
	return errUnknownModel(name)
}

// MetricNames lists the metrics of runner.Result.Metrics.
func (c builtinCatalog) MetricNames() []string { return runner.MetricNames() }

type errUnknownModel string

func (e errUnknownModel) Error() string {
	return "unknown model " + string(e) + "; no generator models are registered yet"
}
