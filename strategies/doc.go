// Package strategies holds the scheduler registry: every scheduler schedfarm
// can run, by name, with a one-line description and its parameters. The
// scheduler interface itself is sim.Scheduler (the engine's contract);
// concrete families live in sub-packages (classic, …) and know nothing of
// the registry.
//
// The registry is built by a function (Builtin), never by init(), so a test
// or a plugin host can build its own. Duplicate names are an error at build
// time; an unknown name is an error listing the known ones.
package strategies
