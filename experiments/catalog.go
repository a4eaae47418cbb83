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
	// CheckModel reports whether the named model accepts params.
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
