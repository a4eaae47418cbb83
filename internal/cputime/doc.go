// Package cputime reads the CPU time this process has used, for benchmarks
// that report CPU per operation beside wall time (a farm's tuner, broker and
// worker share one process in them, so wall time on a loaded machine says
// little). It reports 0 where the platform has no getrusage.
package cputime
