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
// # User-supplied bins
//
// Params.UserBins are the reference driver's -b bins: (time, njobs) pairs, at
// most 20, that become head values with exactly their job counts
// (UserBinsFromPercents and ParseUserPercents give the driver's sec=percent
// form, njobs = int(N·percent/100)). They are merged as the specification
// says (§4.4 gen_head_bintim_merge, gen_head_binsiz, gen_head_binsiz_merge,
// gen_head_user_constraint and the reserved ranks of the pool algorithm;
// §4.6 user counts kept, only the other bins adjusted). Where the reference
// C++ would lose a bin, abort or divide by zero, this package does the
// following instead:
//
//   - A default head time that is itself a user time is never replaced by
//     another user time (the C++ can replace it and then silently drop that
//     user bin).
//   - 20 user bins need one at MaxEstimate (Tmax always keeps head slot 0);
//     Validate rejects 20 without it (the C++ would build 21 head values).
//     With 20 bins the bin at Tmax takes size slot 0 (otherwise the last bin
//     would find no slot, an assertion in the C++).
//   - User bins must hold at least one job each.
//   - Ties the C++ leaves to std::sort (user bins with equal njobs) go to the
//     smaller time first.
//   - When the reserved ranks leave the pool algorithm nothing to draw from,
//     the smallest free rank is taken (the C++ computes lrand48() % 0).
//   - When the user bins hold 89% of the jobs or more, the other head bins
//     get 0% and the head plus tail no longer sum to 100% (the C++ asserts
//     that in debug builds only); the equalisation of §4.6 still brings the
//     total to N.
//
// As in the C++, an explicit Bins (K) must be at least the total user job
// count: the reference code compares K with a job count.
package tsafrir05
