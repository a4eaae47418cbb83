// Package strategies holds the scheduler registry: every scheduler schedfarm
// can run, by name, with a one-line description and its parameters. The
// scheduler interface itself is sim.Scheduler (the engine's contract);
// concrete families live in sub-packages (classic, twotier, consolidation)
// and know nothing of the registry. An entry that needs VM tiers per
// processor (Entry.Tiers: seed 000's keasy, reasy, measy) gets a tiered
// platform from the runner.
//
// The registry is built by a function (Builtin), never by init(), so a test
// or a plugin host can build its own: strategies/plugin runs external
// scheduler executables (go-plugin, gRPC) and gives each a registry Entry. Duplicate names are an error at build
// time; an unknown name is an error listing the known ones.
package strategies
