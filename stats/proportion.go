package stats

import "math"

// Wilson returns the Wilson (1927) score interval for a binomial proportion
// with x successes in n trials at the normal quantile z (1.96 for a
// two-sided 95% interval): the p for which |x/n − p| ≤ z·√(p(1−p)/n),
//
//	(x + z²/2)/(n + z²) ± z·√n/(n + z²)·√(p̂(1 − p̂) + z²/(4n)),  p̂ = x/n.
//
// Unlike Wald's p̂ ± z·√(p̂(1−p̂)/n) it stays inside [0, 1] and does not
// shrink to a point at x = 0 or x = n. It returns NaNs when n < 1 or x is
// outside [0, n].
func Wilson(x, n int, z float64) (lo, hi float64) {
	if n < 1 || x < 0 || x > n {
		return math.NaN(), math.NaN()
	}
	nf, z2 := float64(n), z*z
	p := float64(x) / nf
	mid := (float64(x) + z2/2) / (nf + z2)
	half := z * math.Sqrt(nf) / (nf + z2) * math.Sqrt(p*(1-p)+z2/(4*nf))
	return math.Max(0, mid-half), math.Min(1, mid+half)
}

// NewcombeDiff returns Newcombe's (1998, method 10) hybrid score interval
// for the difference p₁ − p₂ of two independent binomial proportions, x1
// of n1 and x2 of n2, at the normal quantile z: with (l_i, u_i) the Wilson
// interval of p̂_i and d = p̂₁ − p̂₂,
//
//	d − √((p̂₁ − l₁)² + (u₂ − p̂₂)²),  d + √((u₁ − p̂₁)² + (p̂₂ − l₂)²).
//
// Its coverage is close to nominal even near 0 and 1 and with a few tens of
// trials, where Wald's interval is too narrow. A one-sided test at level α
// of H₀: p₁ − p₂ ≤ −m (non-inferiority of arm 1 at margin m) rejects when
// the lower limit at z = z_{1−α} (1.645 for α = 0.05) is above −m.
func NewcombeDiff(x1, n1, x2, n2 int, z float64) (lo, hi float64) {
	l1, u1 := Wilson(x1, n1, z)
	l2, u2 := Wilson(x2, n2, z)
	p1, p2 := float64(x1)/float64(n1), float64(x2)/float64(n2)
	d := p1 - p2
	return d - math.Hypot(p1-l1, u2-p2), d + math.Hypot(u1-p1, p2-l2)
}
