package lublin99

import (
	"math"

	"github.com/schedfarm/schedfarm/workload/internal/dist"
)

// Weights returns the 48 daily-cycle bucket weights of a type (spec §3.4):
// w[(i−1) mod 48] = F(i+0.5) − F(i−0.5) for i = 11..58, F the Gamma(ANum,
// BNum) CDF in bucket units, normalised to mean 1.
func Weights(t TypeParams) [Buckets]float64 {
	var w [Buckets]float64
	sum := 0.0
	for i := CyclicDayStart; i < CyclicDayStart+Buckets; i++ {
		v := dist.GammaCDF(float64(i)+0.5, t.ANum, t.BNum) - dist.GammaCDF(float64(i)-0.5, t.ANum, t.BNum)
		w[(i-1)%Buckets] = v
		sum += v
	}
	mean := sum / Buckets
	for i := range w {
		w[i] /= mean
	}
	return w
}

// MeanInterarrival is E[e^g | g ≤ 13] for g ~ Gamma(AArr·ARAR, BArr): the
// long-run mean interarrival of the type's stream in seconds, before any
// ArrivalScale.
func MeanInterarrival(t TypeParams) float64 {
	a := t.AArr * t.ARAR
	return dist.ExpOfGammaMean(a, t.BArr, TooMuchArrive) / dist.GammaCDF(TooMuchArrive, a, t.BArr)
}

// branchProb is p = PA·n + PB clipped to [0, 1].
func branchProb(t TypeParams, n int) float64 {
	return math.Min(1, math.Max(0, t.PA*float64(n)+t.PB))
}

// MeanRuntime is E[runtime | size n] before flooring: the mean of e^h for the
// hyper-gamma truncated at h ≤ 12.
func MeanRuntime(t TypeParams, n int) float64 {
	p := branchProb(t, n)
	e1 := dist.ExpOfGammaMean(t.A1, t.B1, TooMuchTime)
	e2 := dist.ExpOfGammaMean(t.A2, t.B2, TooMuchTime)
	f1 := dist.GammaCDF(TooMuchTime, t.A1, t.B1)
	f2 := dist.GammaCDF(TooMuchTime, t.A2, t.B2)
	return (p*e1 + (1-p)*e2) / (p*f1 + (1-p)*f2)
}

// sCDF is the CDF of the two-stage uniform log2-size variable s.
func sCDF(t TypeParams, x float64) float64 {
	switch {
	case x <= t.ULow:
		return 0
	case x < t.UMed:
		return t.UProb * (x - t.ULow) / (t.UMed - t.ULow)
	case x < t.UHi:
		return t.UProb + (1-t.UProb)*(x-t.UMed)/(t.UHi-t.UMed)
	default:
		return 1
	}
}

// rawSizePMF returns the size pmf without the guard: index n holds P(size=n)
// for n = 0..max, where max covers every size the sampler can produce.
func rawSizePMF(t TypeParams) []float64 {
	maxK := int(math.Floor(t.UHi + 0.5))
	maxN := int(math.Floor(math.Exp2(t.UHi) + 0.5))
	if 1<<max(maxK, 0) > maxN {
		maxN = 1 << max(maxK, 0)
	}
	pmf := make([]float64, maxN+1)
	pmf[1] += t.SerialProb
	// Power-of-two branch: size 2^k for s ∈ [k−0.5, k+0.5).
	for k := int(math.Floor(t.ULow + 0.5)); k <= maxK; k++ {
		pr := t.Pow2Prob * (sCDF(t, float64(k)+0.5) - sCDF(t, float64(k)-0.5))
		pmf[clampSize(math.Exp2(float64(k)))] += pr
	}
	// Other sizes: m = ⌊2^s + 0.5⌋, s ∈ [log2(m−0.5), log2(m+0.5)).
	rest := 1 - t.SerialProb - t.Pow2Prob
	for m := 0; m <= maxN; m++ {
		lo := math.Inf(-1)
		if m > 0 {
			lo = math.Log2(float64(m) - 0.5)
		}
		hi := math.Log2(float64(m) + 0.5)
		pmf[clampSize(float64(m))] += rest * (sCDF(t, hi) - sCDF(t, lo))
	}
	return pmf
}

// clampSize maps a sampled size below 1 (possible only on tiny machines) to 1.
func clampSize(x float64) int {
	if x < 1 {
		return 1
	}
	return int(x)
}

// SizePMF returns P(size = n) for n = 0..procs (index 0 is always 0) after
// the guard that redraws sizes above procs.
func SizePMF(t TypeParams, procs int) []float64 {
	raw := rawSizePMF(t)
	pmf := make([]float64, procs+1)
	sum := 0.0
	for n := 1; n < len(raw) && n <= procs; n++ {
		pmf[n] = raw[n]
		sum += raw[n]
	}
	for n := range pmf {
		pmf[n] /= sum
	}
	return pmf
}

// TypeMoments are analytic per-type expectations (spec §3.8).
type TypeMoments struct {
	MeanInterarrival float64 // E[e^g | g ≤ 13], seconds, before ArrivalScale
	MeanSize         float64 // E[size]
	MeanRuntime      float64 // E[runtime] before flooring
	MeanWork         float64 // E[size · runtime]
}

// Moments returns the analytic expectations of a type on procs processors
// (t already adapted to procs).
func Moments(t TypeParams, procs int) TypeMoments {
	pmf := SizePMF(t, procs)
	var m TypeMoments
	m.MeanInterarrival = MeanInterarrival(t)
	for n := 1; n < len(pmf); n++ {
		if pmf[n] == 0 {
			continue
		}
		r := MeanRuntime(t, n)
		m.MeanSize += pmf[n] * float64(n)
		m.MeanRuntime += pmf[n] * r
		m.MeanWork += pmf[n] * float64(n) * r
	}
	return m
}

// DefaultLoad is the analytic offered load on p.Procs processors at
// ArrivalScale 1: Σ_types rate·E[size·runtime] / P. For the published
// typed model on 128 processors it is 0.4005; typeless 0.7222.
func DefaultLoad(p Params) float64 {
	tp := p.effective()
	if !p.Typed {
		m := Moments(tp[Interactive], p.Procs)
		return m.MeanWork / m.MeanInterarrival / float64(p.Procs)
	}
	mb := Moments(tp[Batch], p.Procs)
	mi := Moments(tp[Interactive], p.Procs)
	return (mb.MeanWork/mb.MeanInterarrival + mi.MeanWork/mi.MeanInterarrival) / float64(p.Procs)
}

// Scale returns the ArrivalScale the generator uses for p: DefaultLoad /
// TargetLoad when TargetLoad > 0, else p.ArrivalScale.
func Scale(p Params) float64 {
	if p.TargetLoad > 0 {
		return DefaultLoad(p) / p.TargetLoad
	}
	return p.ArrivalScale
}
