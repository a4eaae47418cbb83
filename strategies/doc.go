// Package strategies holds the scheduler registry's types: every scheduler
// schedfarm can run is an Entry (name, one-line description, typed
// parameters, factory), and a Registry looks them up by name and checks
// their parameters. The scheduler interface itself is sim.Scheduler (the
// engine's contract). The concrete schedulers live in their families
// (families/<name>/, each contributing its entries through
// family.Family.Schedulers), and the family catalog (families.Catalog)
// builds the registry of them all. Parameters are declared with the one
// parameter model, param.Spec, and decoded by param.Decode. An entry that
// needs more than dedicated processors on an SWF run (VM tiers per
// processor, per-process CPU usage: seeds 000 and 003) prepares the run
// itself (Entry.Prepare, RunSetup); an entry of a family's own platform
// (Entry.Platform: seed 001's cloud, seed 002's grid) is built for that
// platform's world (Build.World) and runs its cells only.
//
// A registry is built by a function, never by init(), so a test or a plugin
// host can build its own: strategies/plugin runs external scheduler
// executables (go-plugin, gRPC) and gives each a registry Entry. Duplicate
// names are an error at build time; an unknown name is an error listing the
// known ones. The shared invariant suite is strategies/strategytest.
package strategies
