package stats

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// MaxNeed caps what Need returns: beyond it the answer is "more than a
// sweep can afford", and Need returns MaxNeed.
const MaxNeed = 100000

// Need returns the number of values at which a one-sided t test at level
// alpha rejects with probability 1 − beta when the true mean lies d away
// from the hypothesis's boundary at standard deviation sd: the smallest
// n ≥ 2 with (t_{1−α,n−1} + t_{1−β,n−1})·sd/√n ≤ d. It returns 0 when
// d ≤ 0 or sd is not a number (no finite n will do) and 2 when sd is 0.
func Need(d, sd, alpha, beta float64) int {
	if !(d > 0) || math.IsNaN(sd) || math.IsInf(sd, 0) {
		return 0
	}
	if sd == 0 {
		return 2
	}
	unit := distuv.UnitNormal
	z := unit.Quantile(1-alpha) + unit.Quantile(1-beta)
	est := math.Ceil(math.Pow(z*sd/d, 2))
	if est >= MaxNeed {
		return MaxNeed
	}
	short := func(n int) bool { // does n fall short of the power wanted?
		df := float64(n - 1)
		return (tQuantile(1-alpha, df)+tQuantile(1-beta, df))*sd/math.Sqrt(float64(n)) > d
	}
	// The t quantiles exceed the normal ones, so the answer is at least
	// the normal estimate; it is found by bisection, the criterion being
	// monotone in n.
	lo := max(2, int(est))
	if !short(lo) {
		return lo
	}
	hi := lo
	for short(hi) {
		if hi >= MaxNeed {
			return MaxNeed
		}
		lo, hi = hi, min(2*hi, MaxNeed)
	}
	for hi-lo > 1 { // short(lo), !short(hi)
		mid := (lo + hi) / 2
		if short(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return hi
}
