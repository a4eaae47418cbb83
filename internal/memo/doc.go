// Package memo is a process's memory of values that are costly to compute
// and the same whenever their key is: a least-recently-used cache bounded
// by the bytes its values hold, which computes each key's value once even
// when several goroutines ask for it at the same time.
//
// The runner keeps the workloads its cells' generator models made with it,
// and the consolidation family the CPU usages its runs drew; in both, the
// cells of one grid point and replication share the value (common random
// numbers). A value is shared by every caller and must not be modified.
package memo
