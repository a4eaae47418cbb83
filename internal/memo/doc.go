// Package memo is a process's memory of values that are costly to compute
// and the same whenever their key is: a least-recently-used cache bounded
// by the bytes its values hold, which computes each key's value once even
// when several goroutines ask for it at the same time.
//
// The runner keeps the workloads its cells' generator models made with it,
// the consolidation family the CPU usages its runs drew, and the STMS
// family each grid point's STMS run, its STMS cell and the other schemes'
// eq. 12 baseline (bounded by count: each weighs 1); in all three, the
// cells of one grid point and replication share the value (common random
// numbers). A value is shared by every caller and must not be modified.
// A computation that fails or panics is not kept, and the callers waiting
// for it get its error (for a panic, one naming it; the panic itself goes
// on in the caller that computed).
package memo
