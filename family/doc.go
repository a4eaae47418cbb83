// Package family defines what a paper family is to the rest of schedfarm:
// the Family interface (name, one-line doc, scheduler registry entries) and
// the optional capabilities a family may add — workload models of its own
// (ModelOwner), a platform of its own with the glue that turns a cell into
// a run (PlatformRunner), checks of its spec fields (SpecChecker, and
// FieldsChecker for checks of several together), the workloads the shared
// invariant suite runs its schedulers on (SuiteProvider) and metrics of
// its schedulers' own (MetricReporter, MetricNamer). A scheduler that needs
// its SWF runs prepared (VM tiers, per-process CPU usage) says so in its
// registry entry (strategies.Entry.Prepare).
//
// The families themselves live in families/<name>/, one folder each, and
// are listed with one line each in families.List; families.Catalog is the
// value built from that list once and passed to the runner, spec
// validation, the worker and the results glossary. The engine (sim), the
// farm (coordinator, worker, broker), experiments and results know families
// only through this package and that value. Each family states the
// capabilities it has with compile-time checks (var _ family.X = fam{}).
// The shared invariant suite over them is family/familytest.
package family
