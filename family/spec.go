package family

// Field is a field of an experiment spec's workload section that a family
// defines (workload.cpu_usage, …): spec validation checks it with Check
// and reports Accepted when it fails.
type Field struct {
	// Name is the full dotted name, e.g. "workload.cpu_usage".
	Name string
	// Kind is the value's kind: "int" (int64), "float" (float64),
	// "string" or "bool" — param.Int.String(), … .
	Kind string
	// Accepted says what values are accepted.
	Accepted string
	// Check returns "" when v (of Kind's Go type) is acceptable, else what
	// is wrong with it; nil accepts every value of the kind.
	Check func(v any) string
}

// SpecChecker is implemented by a family that adds fields to the workload
// section of experiment specs; each family validates its own fields.
type SpecChecker interface {
	SpecFields() []Field
}

// FieldsChecker is implemented by a SpecChecker whose fields must also be
// checked together (seed 000: cpu_error only with cpu_estimate noisy). The
// runner calls it on every SWF run, whatever the scheduler, so that a run
// given inconsistent fields fails rather than ignoring them; values are
// the run's fields by full name (all families', absent when not given),
// each of its Field.Kind. A family with FieldsChecker does all the checks
// of its fields there; without it the runner applies each Field.Check.
type FieldsChecker interface {
	CheckFields(values map[string]any) error
}
