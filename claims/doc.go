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
// # Verdicts: the rule and its error rates
//
// A claim is judged from all its points (every check's, under one
// combination of its split values) at error level α = 0.05 (Rule.Alpha),
// with the tests of package stats on the paired per-replication samples
// (Student t, n − 1 degrees of freedom). With L looks (the sequential
// design below) every test runs at α′ = α/L.
//
//	above/below  a point holds when the one-sided t test of the claimed
//	             side rejects at α′ (the interval mean ± t(1−α′)·s/√n lies
//	             on that side: the report shows that interval)
//	within       a point holds when both one-sided tests of the band's
//	             edges reject at α′ (TOST: the same interval lies inside the
//	             band); a mean inside the band with a wide interval does not
//	             hold. "No change" and "roughly the same" claims are bands
//	             around 0 whose width is the practical difference the claim
//	             tolerates, written with the claim.
//	opposite     a point is decided against the claim only on a decided
//	             opposite: the one-sided test of the other side (for a band:
//	             outside it, α′/2 per edge), with Holm's step-down procedure
//	             at α′ over all the claim's points.
//
// The claim holds when every point holds (an intersection-union test: a
// false "holds" needs the one false point's test to err, probability ≤ α′);
// it does not hold when Holm decides any point against it (family-wise: a
// false "does not hold" has probability ≤ α′ however many points); it is
// inconclusive otherwise, and each undecided point's Need is the
// replications at which its test would decide with 80% power at the
// observed mean and spread. A claim about an average over an axis is one
// pooled point (Along with Stat "mean"), not a claim at every point.
// Checks with SelfCheck are ours (calibration, sanity): judged alike,
// reported apart, never counted among the paper's claims.
//
// The rates are proved by simulation (errorrate_test.go, 4,000 synthetic
// claims per scenario, normal paired differences, n = 5, go test -run
// ErrorRates -v): with no effect at any of 30 points, a false "does not
// hold" in 5.0% (the previous rule, one 95% interval off its side at any
// point: 54%); with the claimed effect at 29 points and none at one, a
// false "holds" in 5.75% (the simulation's limit for a true 5% is 6.0%); a
// band whose true mean lies on its edge, with a wide interval, holds in
// 1.3% (the previous rule, the mean in the band: 49%); just inside, a
// false "does not hold" in 2.2%. The power is what the IUT gives: 30
// points with an effect of 3 s.d. hold in 99.5%, of 1.5 s.d. in 0.95%
// (each point must be decided); an opposite effect of 3 s.d. at one point
// of 30 is found in 67%. The sequential design keeps the rates (2,000
// runs a scenario, looks at 3, 6 and 12 replications): a false "does not
// hold" in 4.5% with no effect at 30 points, a false "holds" in 3.0% with
// one null point among 30.
//
// # Replications until decided
//
// A spec's Schedule (claims file specs[].replications: {min, max}) sets
// the looks: min, 2·min, 4·min, …, max replications. After a look, Wants
// lists the cells of every undecided point of every undecided claim at
// the first look reaching its Need (capped at max); reproduce runs them
// as the spec's more_replications (new replication indices: the same
// common random numbers, only the new cells published) and judges again,
// until every claim is decided or its points reach the cap. The number of
// looks is fixed by the schedule before any result is seen, so dividing α
// among them bounds the error over the whole procedure (Bonferroni over
// looks; each point is judged at most L times). The report gives, per
// claim, the replications used and, where the cap stopped it, the
// estimated need.
//
// # Readings
//
// Readings declares the places where the paper admits several readings:
// the cell parameter that selects one, the paper's words, the default and
// why, and the reading least favourable to the paper where one is known.
// A claim split by such a parameter gets a verdict per reading; the report
// shows them side by side and counts the paper's claims under the default
// (Verdicts.Headline) and per other reading (ByReading). A claim's Cause,
// written after the results, gives the documented cause where it does not
// hold.
package claims
