// Package plugin runs external schedulers: executables that schedfarm
// starts as child processes and drives over gRPC with HashiCorp
// go-plugin's handshake, so a scheduler can be written in any language
// with gRPC. The protocol is schedulerpb/scheduler.proto, documented in
// that one file; package sdk makes a Go plugin a page of code.
//
// # Lifecycle
//
// Hash identifies a plugin binary by its SHA-256; the hash enters the
// identity of every experiment cell that runs it, and Binary.Verify
// refuses to run a file whose content differs from the one a cell was
// made for. Open starts the plugin, reads its description (name,
// parameters, pass mode) and keeps that process for the first run;
// Plugin.Entry is a strategies.Entry whose factory builds a Scheduler,
// which runs one simulation in one process (a fresh one per run after the
// first: no state can leak from one cell into the next, and a crash ends
// only its own cell). Scheduler.Close, which the runner calls when the
// simulation ends, kills the process.
//
// # What is checked
//
// Nothing a plugin answers is trusted. Every decision is checked against
// the simulation before it is applied: an unknown job id (one the plugin
// was not told about: not submitted yet, or none at all), a job that is not
// waiting (already started, ended or rejected), a start that does not fit
// in the free units (oversubscription), processors that are out of range,
// repeated or busy (for plugins that place processors), reservations and
// wake-ups that are not finite or lie in the past. The first bad decision
// aborts the simulation (sim.Cluster.Abort) with an *Error naming the
// plugin, its binary, the pass time and the decision. A plugin that does
// not complete the handshake, announces another protocol version, crashes,
// returns an error or does not answer within the per-pass timeout
// (Options.PassTimeout) fails the same way, and the error carries the last
// lines of its stderr. The host process is never at risk: the plugin runs
// in its own process and is killed.
//
// # Cost
//
// One bidirectional stream per run; a pass is one message each way
// carrying only the changes since the previous pass (arrivals, ends, the
// time) plus a few bytes of state for the plugin's own consistency check.
// A plugin whose decisions depend only on the current state (FCFS, EASY)
// can ask for PASS_MODE_WHEN_STARTABLE: passes at which no waiting job
// fits are then not sent, and their changes travel with the next one.
//
// # Scope
//
// A plugin schedules rigid jobs on dedicated resource pools: the classic
// machine of P identical processors (with runtime estimates), or several
// typed pools. Platforms with VM tiers (seed 000) and the families that
// bring their own platform (seeds 001, 002, 004's projects) are not
// offered to plugins.
package plugin
