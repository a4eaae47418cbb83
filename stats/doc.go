// Package stats holds the statistical tests behind schedfarm's verdicts:
// one-sample tests on paired differences (Student t), equivalence by two
// one-sided tests (TOST), score intervals for proportions and their
// differences, Holm's step-down control of the family-wise error rate,
// and the sample size a test needs. It is small numerics in the
// manner of gonum/stat, which it builds on; it knows nothing of claims,
// cells or schedulers.
//
// # The tests
//
// A Sample summarises n paired differences d_1 … d_n (the replications of
// one grid point, A − B under common random numbers): mean d̄, standard
// deviation s, standard error s/√n. Every p-value is from Student's t with
// n − 1 degrees of freedom, T = (d̄ − x₀)/(s/√n):
//
//	Greater(x₀)   H₀: μ ≤ x₀ against μ > x₀     p = P(T_{n−1} ≥ t)
//	Less(x₀)      H₀: μ ≥ x₀ against μ < x₀     p = P(T_{n−1} ≤ t)
//	Within(a, b)  H₀: μ ∉ (a, b) against μ ∈ (a, b), two one-sided tests
//	              (Schuirmann 1987): p = max(Greater(a), Less(b)); it is
//	              ≤ α exactly when the two-sided (1 − 2α) interval lies
//	              inside (a, b)
//	Outside(a, b) H₀: μ ∈ [a, b] against μ ∉ [a, b]:
//	              p = min(1, 2·min(Less(a), Greater(b)))
//
// With fewer than two values no test can reject: every p-value is 1. With
// s = 0 (every difference equal, as when two schedulers behave alike on
// every replication) the distribution is degenerate: p is 0 when d̄ lies
// strictly on the alternative's side and 1 otherwise.
//
// # Several points
//
// Holm (1979) rejects, among m hypotheses with p-values p_(1) ≤ … ≤ p_(m),
// the first k where p_(i) ≤ α/(m − i + 1) for every i ≤ k: the probability
// of rejecting any true hypothesis is at most α whatever their dependence.
//
// # Proportions
//
// Wilson returns the score interval of one binomial proportion and
// NewcombeDiff the hybrid score interval of a difference of two independent
// ones (Newcombe 1998, method 10), by which a non-inferiority margin on two
// success rates is judged (the tuner's racing measurements, docs/tuning.md).
//
// # Sample size
//
// Need returns the smallest n at which a one-sided t test at level α has
// power 1 − β against a true distance d at standard deviation s:
// n ≥ ((t_{1−α,n−1} + t_{1−β,n−1})·s/d)², solved by iteration from the
// normal approximation.
package stats
