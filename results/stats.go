package results

import (
	"math"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// Stat summarises one metric over the replications of one group.
type Stat struct {
	N    int     // number of values
	Mean float64 // sample mean
	SD   float64 // sample standard deviation (n−1 denominator); NaN for N < 2
	// HalfWidth is the half-width of the two-sided confidence interval of
	// the mean: t(1−α/2, N−1)·SD/√N. It is NaN for N < 2 and 0 when every
	// value is equal.
	HalfWidth float64
}

// Low and High return the interval's ends.
func (s Stat) Low() float64 { return s.Mean - s.HalfWidth }

// High returns the upper end of the confidence interval.
func (s Stat) High() float64 { return s.Mean + s.HalfWidth }

// MeanCI returns the mean of xs and its confidence interval at level (e.g.
// 0.95) from Student's t distribution with len(xs)−1 degrees of freedom.
func MeanCI(xs []float64, level float64) Stat {
	s := Stat{N: len(xs), Mean: math.NaN(), SD: math.NaN(), HalfWidth: math.NaN()}
	switch len(xs) {
	case 0:
		return s
	case 1:
		s.Mean = xs[0]
		return s
	}
	s.Mean, s.SD = stat.MeanStdDev(xs, nil)
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(len(xs) - 1)}.Quantile(1 - (1-level)/2)
	s.HalfWidth = t * s.SD / math.Sqrt(float64(len(xs)))
	return s
}
