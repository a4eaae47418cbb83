// Package claims holds the papers' claims as data and judges them against
// results: a claims file per paper (experiments/claims/*.yaml) lists the
// figure specs it reads and, for every claim, the paper's words and number,
// the comparison that tests it and the band accepted as "holds", with the
// reason for the band written before the results were looked at.
//
// # Checks
//
// A check compares records of one experiment, selected by scheduler and
// parameters (A and B), at every grid point of At (the cartesian product
// of the listed values):
//
//	diff    A − B per replication (schedulers of one grid point and
//	        replication share the jobs and random draws: a paired
//	        comparison)
//	ratio   A/B − 1 per replication
//	value   A
//
// and expects the mean above or below Than (0 by default) or within a band.
//
// A point parameter named "scheduler.<param>" (a spec axis
// "scheduler.<name>.<param>", which applies to that scheduler only) does
// not select among the records of schedulers whose cells lack it: they ran
// once for all its values (KEASY against MEASY at each migration cost).
//
// # Trends along an axis
//
// With Along naming a parameter of At, the values at its points (in At's
// order) are folded per replication into one by Stat: "slope" (the
// least-squares slope against the positions 0, 1, …, n−1, the change per
// step: "the gain grows as the interarrival time grows" is a ratio's
// slope below 0), "span" (last − first), "mean" (a paper's "on average
// over the loads"), "min" or "max". The folded values are judged like a
// point's, once per point of At's other parameters. A replication missing
// at any point along the axis is left out of the fold.
//
// # Verdicts
//
// Per point, over the replications, the mean and its 95% Student-t
// interval decide. Above/below: holds when the interval lies entirely on
// the claimed side, does not hold when it lies entirely on the other side,
// inconclusive otherwise (Need then estimates the replications that would
// decide it at the observed spread). Within a band: holds when the mean lies
// in it, does not hold when the interval lies entirely outside, inconclusive
// otherwise. A check holds when it holds at every point, does not hold when
// it fails at any; a claim likewise over its checks. A claim with Split is
// judged once per value of those parameters (e.g. two readings of the paper
// run side by side). A claim's Cause, written after the results, gives the
// documented cause where it does not hold; the Markdown table shows it.
package claims
