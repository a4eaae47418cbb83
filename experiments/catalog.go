package experiments

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
	// jobs on one processor pool) or OutputProjects (multi-resource
	// projects with their own platform); "" when the model is unknown.
	ModelOutput(name string) string
	// CheckModel reports whether the named model accepts params. Errors
	// about one parameter may be *ParamError (several joined with
	// errors.Join): spec validation then reports each at that parameter's
	// path.
	CheckModel(name string, params map[string]any) error
	// MetricNames lists the metric names a cell of a workload with the given
	// output (OutputSWF or OutputProjects) can produce; nil means the list is
	// not known and "metrics:" entries are checked for form only.
	MetricNames(output string) []string
}

// Workload outputs: what the jobs of a spec look like. A trace is always
// OutputSWF; a generator's output is its model's (Catalog.ModelOutput).
const (
	OutputSWF      = "swf"
	OutputProjects = "projects"
)

// ParamError is a Catalog error about one named parameter. Spec validation
// reports it at the parameter's path, e.g. workload.generator.est_bins.
type ParamError struct {
	// Param is the parameter's name.
	Param string
	// Err says what is wrong and what would be accepted.
	Err error
}

// Error returns Err's message.
func (e *ParamError) Error() string { return e.Err.Error() }

// Unwrap returns Err.
func (e *ParamError) Unwrap() error { return e.Err }
