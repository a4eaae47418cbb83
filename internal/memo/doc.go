// Package memo is a process's memory of values that are costly to compute
// and the same whenever their key is: a least-recently-used cache bounded
// by the bytes its values hold, which computes each key's value once even
// when several goroutines ask for it at the same time.
//
// The runner keeps the workloads its cells' generator models made with it,
// the consolidation family the CPU usages its runs drew, and the STMS
// family the STMS baselines of eq. 12 (bounded by count: each weighs 1);
// in all three, the cells of one grid point and replication share the
// value (common random numbers). A value is shared by every caller and must not be modified.
package memo
