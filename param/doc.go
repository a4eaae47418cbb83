// Package param is schedfarm's one parameter model: a Spec declares a
// typed parameter — its kind (int, float, string, bool), the values it
// accepts (a range, words, choices, a check), its default, what it means
// and its unit — and Decode turns given values (from YAML, JSON, the
// command line) into typed Values, reporting every unknown name and bad
// value as an *Error that names the parameter and what would be accepted.
//
// Every layer declares its parameters this way: the schedulers
// (strategies.Entry.Params), the workload models (models.Model.Params),
// the families' workload fields (family.SpecChecker), the spec's own
// platform and workload fields (runner.Params, one table that spec
// validation, a cell's decoding and the worker's re-check share), the
// tuner's algorithm settings, and a plugin's declared parameters. The
// units declared here are the units of the results glossary
// (results.Describe) for the parameter columns.
//
// The package imports nothing of schedfarm but internal/numeric.
package param
