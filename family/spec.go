package family

import "github.com/schedfarm/schedfarm/param"

// SpecChecker is implemented by a family that adds fields to the workload
// section of experiment specs (seed 000's workload.cpu_usage, …): each a
// param.Spec with its full dotted name ("workload.cpu_usage"), its kind,
// what it accepts (Form, Check), its doc and unit. Spec validation, a
// cell's decoding (runner.Config.FamilyFields), the worker's re-check, the
// sim command's flags and the results glossary take them from there.
type SpecChecker interface {
	SpecFields() []param.Spec
}

// FieldsChecker is implemented by a SpecChecker whose fields must also be
// checked together (seed 000: cpu_error only with cpu_estimate noisy). The
// runner calls it on every SWF run, whatever the scheduler, so that a run
// given inconsistent fields fails rather than ignoring them; values are
// the run's fields by full name (all families', absent when not given),
// each of its spec's kind. A family with FieldsChecker does all the checks
// of its fields there; without it the catalog applies each spec's checks.
type FieldsChecker interface {
	CheckFields(values map[string]any) error
}
