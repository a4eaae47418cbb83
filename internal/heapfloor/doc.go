// Package heapfloor keeps a floor under the garbage collector's heap goal
// for the lifetime of a process.
//
// With GOGC=100 the collector runs each time the heap doubles from what
// the last collection left live. A farm process (run, tune, reproduce,
// worker, coordinator) with instant cells keeps a live heap of a few megabytes and
// allocates tens of kilobytes a cell (NATS messages, JSON, results), so it
// collects every few hundred cells and the collector becomes a tenth of its
// CPU (docs/performance-log.md, "A floor under the heap goal"). Go offers no
// minimum heap: a memory limit only makes collections more frequent, and
// GOGC=off with a limit collects continuously once the live heap nears it,
// which the big seed-000 cells would. [Keep] instead raises GOGC's
// percentage after each collection just enough that the next goal is at
// least the floor, and leaves it at the percentage it started with once the
// live heap is large enough to reach the floor at that percentage: a small
// heap collects at the floor, a large one exactly as before. [Farm] is the
// floor the farm's processes keep; [Stop] ends a floor (benchmarks that
// measure the farm with and without it in one process).
package heapfloor
