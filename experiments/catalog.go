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
	// CheckModel reports whether the named model accepts params.
	CheckModel(name string, params map[string]any) error
	// MetricNames lists the metric names a cell can produce; nil means the
	// list is not known and "metrics:" entries are checked for form only.
	MetricNames() []string
}
