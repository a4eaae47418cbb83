package stats

import (
	"math"
	"sync"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// Sample summarises paired differences for the tests.
type Sample struct {
	N    int
	Mean float64
	// SD is the sample standard deviation (n − 1 denominator); NaN for N < 2.
	SD float64
}

// Summarize returns the summary of xs.
func Summarize(xs []float64) Sample {
	s := Sample{N: len(xs), Mean: math.NaN(), SD: math.NaN()}
	switch len(xs) {
	case 0:
	case 1:
		s.Mean = xs[0]
	default:
		s.Mean, s.SD = stat.MeanStdDev(xs, nil)
	}
	return s
}

// SE returns the standard error of the mean, s/√n (NaN for N < 2).
func (s Sample) SE() float64 {
	if s.N < 2 {
		return math.NaN()
	}
	return s.SD / math.Sqrt(float64(s.N))
}

// testable reports whether a t test can say anything: at least two values.
func (s Sample) testable() bool { return s.N >= 2 && !math.IsNaN(s.SD) }

// tDist returns Student's t with the sample's n − 1 degrees of freedom.
func (s Sample) tDist() distuv.StudentsT {
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(s.N - 1)}
}

// Greater returns the p-value of H₀: μ ≤ x0 against μ > x0.
func (s Sample) Greater(x0 float64) float64 {
	if !s.testable() {
		return 1
	}
	if s.SD == 0 {
		if s.Mean > x0 {
			return 0
		}
		return 1
	}
	t := (s.Mean - x0) / s.SE()
	return s.tDist().Survival(t)
}

// Less returns the p-value of H₀: μ ≥ x0 against μ < x0.
func (s Sample) Less(x0 float64) float64 {
	if !s.testable() {
		return 1
	}
	if s.SD == 0 {
		if s.Mean < x0 {
			return 0
		}
		return 1
	}
	t := (s.Mean - x0) / s.SE()
	return s.tDist().CDF(t)
}

// Within returns the equivalence p-value (two one-sided tests) of
// H₀: μ ≤ lo or μ ≥ hi against lo < μ < hi.
func (s Sample) Within(lo, hi float64) float64 {
	p, _ := s.Band(lo, hi)
	return p
}

// Band returns Within(lo, hi) and Outside(lo, hi) from two evaluations of
// the t distribution.
func (s Sample) Band(lo, hi float64) (within, outside float64) {
	gLo, lLo := s.Sides(lo)
	gHi, lHi := s.Sides(hi)
	return math.Max(gLo, lHi), math.Min(1, 2*math.Min(lLo, gHi))
}

// Outside returns the p-value of H₀: lo ≤ μ ≤ hi against μ < lo or μ > hi
// (each side at half the level).
func (s Sample) Outside(lo, hi float64) float64 {
	_, p := s.Band(lo, hi)
	return p
}

// HalfWidth returns the half-width of the two-sided interval at level
// 1 − 2α around the mean, t_{1−α,n−1}·s/√n: the interval whose lying on
// one side of x₀ is the one-sided test at level α (NaN for N < 2).
func (s Sample) HalfWidth(alpha float64) float64 {
	if !s.testable() {
		return math.NaN()
	}
	if s.SD == 0 {
		return 0
	}
	return tQuantile(1-alpha, float64(s.N-1)) * s.SE()
}

// tQuantile returns the p-quantile of Student's t with df degrees of
// freedom, memoised: the judge asks for the same few levels and degrees
// of freedom again and again.
func tQuantile(p, df float64) float64 {
	key := [2]float64{p, df}
	if q, ok := quantiles.Load(key); ok {
		return q.(float64)
	}
	q := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.Quantile(p)
	quantiles.Store(key, q)
	return q
}

var quantiles sync.Map

// Sides returns Greater(x0) and Less(x0) from one evaluation of the t
// distribution.
func (s Sample) Sides(x0 float64) (greater, less float64) {
	if !s.testable() || s.SD == 0 {
		return s.Greater(x0), s.Less(x0)
	}
	g := s.tDist().Survival((s.Mean - x0) / s.SE())
	return g, 1 - g
}
