package experiments

import (
	"github.com/schedfarm/schedfarm/param"
	"github.com/schedfarm/schedfarm/workload/models"
)

// Catalog tells spec validation which schedulers, workload models and metrics
// exist and which parameters they accept. The production catalog wraps the
// scheduler registry (package strategies) and the workload models (package
// workload/models); tests may pass a small one of their own.
type Catalog interface {
	// SchedulerNames lists the registered scheduler names.
	SchedulerNames() []string
	// CheckScheduler reports whether the named scheduler accepts params; the
	// error names the bad parameter and what would be accepted.
	CheckScheduler(name string, params map[string]any) error
	// ModelNames lists the workload generator models.
	ModelNames() []string
	// ModelOutput tells what the named model generates: OutputSWF (rigid
	// jobs on one processor pool), or the output of a family's own platform
	// ("projects", "cloud", "grid"); "" when the model is unknown.
	ModelOutput(name string) string
	// CheckModel reports whether the named model accepts params. Errors
	// about one parameter may be *ParamError (several joined with
	// errors.Join): spec validation then reports each at that parameter's
	// path.
	CheckModel(name string, params map[string]any) error
	// MetricNames lists the metric names a cell of a workload with the given
	// output (OutputSWF, or a family's own such as "projects") can produce;
	// nil means the list is not known and "metrics:" entries are checked
	// for form only.
	MetricNames(output string) []string
	// WorkloadFields lists the fields the families add to the workload
	// section (family.SpecChecker: seed 000's workload.cpu_usage, …), each
	// by its full name; nil for none.
	WorkloadFields() []param.Spec
}

// OutputSWF is the output of a trace and of the shared SWF models: rigid
// jobs on one processor pool. A generator's output is its model's
// (Catalog.ModelOutput); every other output is a family's own platform.
const OutputSWF = string(models.SWF)

// ownsPlatform reports whether a workload of this output brings its own
// platform, so the platform section and the SWF-only workload fields do
// not apply.
func ownsPlatform(output string) bool { return output != OutputSWF && output != "" }

// FamilyCatalog is implemented by catalogs that know workload models whose
// cells run a scheduler family of their own on the model's platform (seed
// 001's cloud, seed 002's grid) rather than the scheduler registry.
type FamilyCatalog interface {
	// ModelSchedulers lists the schedulers that run the model's workloads;
	// nil when the model's cells use the scheduler registry.
	ModelSchedulers(model string) []string
	// CheckModelScheduler reports whether the named scheduler runs the
	// model's workloads and accepts params.
	CheckModelScheduler(model, name string, params map[string]any) error
}

// ParamError is a Catalog error about one named parameter. Spec validation
// reports it at the parameter's path, e.g. workload.generator.est_bins.
type ParamError struct {
	// Param is the parameter's name.
	Param string
	// Err says what is wrong and what would be accepted.
	Err error
	// Combination marks a problem of several parameters together (e.g. a
	// minimum above its maximum), each valid on its own: with axes, such
	// problems are checked per grid point.
	Combination bool
}

// Error returns Err's message.
func (e *ParamError) Error() string { return e.Err.Error() }

// Unwrap returns Err.
func (e *ParamError) Unwrap() error { return e.Err }

// PluginCatalog is implemented by catalogs that can run scheduler plugins
// (schedulers: [{plugin: PATH, …}]). Spec validation starts each plugin
// once to learn its name and parameters and to hash it.
type PluginCatalog interface {
	// Plugin describes the plugin executable at path (absolute).
	Plugin(path string) (PluginInfo, error)
}

// PluginInfo is what spec validation learns from a plugin.
type PluginInfo struct {
	// SHA256 is the hex SHA-256 of the executable.
	SHA256 string
	// Name is the name the plugin gives itself.
	Name string
	// Check reports whether the plugin accepts params, naming each bad
	// one and what it accepts.
	Check func(params map[string]any) error
}
