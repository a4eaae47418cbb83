// Package tsafrir05 implements the Tsafrir, Etsion & Feitelson (2005) model of
// user runtime estimates (the Parallel Workloads Archive program
// m_tsafrir05): a modal histogram of K estimate values — about twenty round
// "head" values holding 89% of the jobs plus a power-law tail — assigned to
// existing jobs so that every estimate is at least the job's runtime.
//
// Reference: D. Tsafrir, Y. Etsion, D. G. Feitelson, "Modeling User Runtime
// Estimates", JSSPP 2005, LNCS 3834. Algorithm and constants follow the
// project's specification shared/specs/workload-models.md §4; K, the set of
// bin times and the multiset of bin counts are seed-independent and match the
// original C++ exactly (vectors A and B of the spec).
//
// User-supplied bins (the reference driver's -b option) are not supported.
package tsafrir05
