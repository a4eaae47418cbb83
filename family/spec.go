package family

// Field is a field of an experiment spec's workload section that a family
// defines (workload.cpu_usage, …): spec validation checks it with Check
// and reports Accepted when it fails.
type Field struct {
	// Name is the full dotted name, e.g. "workload.cpu_usage".
	Name string
	// Kind is the value's kind: "int" (int64), "float" (float64),
	// "string" or "bool" — experiments.KindInt, … .
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
