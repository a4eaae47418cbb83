// Package strategies holds the scheduler registry's types: every scheduler
// schedfarm can run is an Entry (name, one-line description, typed
// parameters, factory), and a Registry looks them up by name and checks
// their parameters. The scheduler interface itself is sim.Scheduler (the
// engine's contract). The concrete schedulers live in their families
// (families/<name>/, each contributing its entries through
// family.Family.Schedulers), and families.Schedulers builds the registry of
// them all. An entry that needs more than dedicated processors on an SWF
// run (VM tiers per processor, per-process CPU usage: seeds 000 and 003)
// prepares the run itself (Entry.Prepare, RunSetup).
//
// A registry is built by a function, never by init(), so a test or a plugin
// host can build its own: strategies/plugin runs external scheduler
// executables (go-plugin, gRPC) and gives each a registry Entry. Duplicate
// names are an error at build time; an unknown name is an error listing the
// known ones. The shared invariant suite is strategies/strategytest.
package strategies
