package dist

import (
	"math"
	"math/rand/v2"
)

// Uniform returns a draw from [lo, hi).
func Uniform(r *rand.Rand, lo, hi float64) float64 {
	return lo + r.Float64()*(hi-lo)
}

// Exp returns an exponential draw with the given mean.
func Exp(r *rand.Rand, mean float64) float64 {
	return -mean * math.Log(1-r.Float64())
}

// TwoStageUniform draws v = U; if v ≤ prob it returns Uniform[low, med),
// otherwise Uniform[med, hi) (spec §1.3). It always consumes two uniforms.
func TwoStageUniform(r *rand.Rand, low, med, hi, prob float64) float64 {
	if r.Float64() <= prob {
		return r.Float64()*(med-low) + low
	}
	return r.Float64()*(hi-med) + med
}

// Gamma draws from Gamma(shape a, scale b) with the Marsaglia–Tsang method
// (exact for every a > 0).
func Gamma(r *rand.Rand, a, b float64) float64 {
	if a < 1 {
		// Boost: Gamma(a) = Gamma(a+1) · U^(1/a).
		u := r.Float64()
		for u == 0 {
			u = r.Float64()
		}
		return Gamma(r, a+1, b) * math.Pow(u, 1/a)
	}
	d := a - 1.0/3
	c := 1 / math.Sqrt(9*d)
	for {
		x := r.NormFloat64()
		v := 1 + c*x
		if v <= 0 {
			continue
		}
		v = v * v * v
		u := r.Float64()
		if u < 1-0.0331*x*x*x*x {
			return d * v * b
		}
		if u > 0 && math.Log(u) < 0.5*x*x+d*(1-v+math.Log(v)) {
			return d * v * b
		}
	}
}

// GammaJain draws from Gamma(shape a, scale b) with Jain's method as used by
// the PWA reference programs (spec §1.2): the sum of ⌊a⌋ exponentials plus
// b·X·Y with X ~ Beta(δ, 1−δ) by Jöhnk's method and Y ~ Exp(1). With a
// Drand48 source it reproduces the C programs' draws.
func GammaJain(r *rand.Rand, a, b float64) float64 {
	k := math.Floor(a)
	res := 0.0
	if a >= 1 {
		s := 0.0
		for i := 0; i < int(k); i++ {
			s -= math.Log(r.Float64())
		}
		res = b * s
	}
	delta := a - k
	if delta > 0 {
		var x, y float64
		for {
			u1 := r.Float64()
			u2 := r.Float64()
			x = math.Pow(u1, 1/delta)
			y = math.Pow(u2, 1/(1-delta))
			if x+y <= 1 {
				break
			}
		}
		bx := x / (x + y)
		ey := -math.Log(r.Float64())
		res += b * bx * ey
	}
	return res
}

// HyperErlang draws from a hyper-Erlang distribution of common order n: with
// probability p the sum of n Exp(rate l1), otherwise the sum of n Exp(rate
// l2) (spec §1.3). Its mean is n·(p/l1 + (1−p)/l2).
func HyperErlang(r *rand.Rand, p, l1, l2 float64, n int) float64 {
	l := l2
	if r.Float64() < p {
		l = l1
	}
	s := 0.0
	for i := 0; i < n; i++ {
		s -= math.Log(1 - r.Float64())
	}
	return s / l
}

// HyperErlangMean is the mean n·(p/l1 + (1−p)/l2).
func HyperErlangMean(p, l1, l2 float64, n int) float64 {
	return float64(n) * (p/l1 + (1-p)/l2)
}

// HyperErlangCV is the coefficient of variation of the hyper-Erlang
// distribution (p, l1, l2, n).
func HyperErlangCV(p, l1, l2 float64, n int) float64 {
	nf := float64(n)
	m := nf * (p/l1 + (1-p)/l2)
	// E[X²] of an Erlang(n, λ) is n(n+1)/λ².
	m2 := nf * (nf + 1) * (p/(l1*l1) + (1-p)/(l2*l2))
	return math.Sqrt(m2-m*m) / m
}

// GammaCDF is the regularized lower incomplete gamma P(a, x/b): the CDF at x
// of Gamma(shape a, scale b). It uses the series for x/b < a+1 and the
// continued fraction otherwise (tolerance 1e-10, at most 1000 iterations,
// spec §1.2).
func GammaCDF(x, a, b float64) float64 {
	if x <= 0 {
		return 0
	}
	z := x / b
	lg, _ := math.Lgamma(a)
	if z < a+1 {
		ap := a
		sum := 1 / a
		del := sum
		for i := 0; i < 1000; i++ {
			ap++
			del *= z / ap
			sum += del
			if math.Abs(del) < math.Abs(sum)*1e-10 {
				break
			}
		}
		return sum * math.Exp(-z+a*math.Log(z)-lg)
	}
	// Modified Lentz continued fraction for Q(a, z).
	const tiny = 1e-300
	bb := z + 1 - a
	c := 1 / tiny
	d := 1 / bb
	h := d
	for i := 1; i <= 1000; i++ {
		an := -float64(i) * (float64(i) - a)
		bb += 2
		d = an*d + bb
		if math.Abs(d) < tiny {
			d = tiny
		}
		c = bb + an/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		d = 1 / d
		del := d * c
		h *= del
		if math.Abs(del-1) < 1e-10 {
			break
		}
	}
	return 1 - math.Exp(-z+a*math.Log(z)-lg)*h
}

// ExpOfGammaMean returns E[e^G; G ≤ t] for G ~ Gamma(a, b) with b < 1, using
// the identity (1−b)^(−a) · F(t; a, b/(1−b)) (spec §3.8).
func ExpOfGammaMean(a, b, t float64) float64 {
	return math.Pow(1-b, -a) * GammaCDF(t, a, b/(1-b))
}

// Drand48 is a rand.Source reproducing POSIX drand48 (spec §1.1): 48-bit
// state X, X ← (0x5DEECE66D·X + 0xB) mod 2^48. Uint64 returns X<<5 after the
// step, so rand.New(d).Float64() equals drand48() exactly.
type Drand48 struct {
	x uint64
}

// NewDrand48 returns a source seeded as srand48(seed).
func NewDrand48(seed int64) *Drand48 {
	return &Drand48{x: (uint64(seed)&0xFFFFFFFF)<<16 | 0x330E}
}

// Uint64 advances the generator and returns the 48-bit state shifted left by
// five bits.
func (d *Drand48) Uint64() uint64 {
	d.x = (0x5DEECE66D*d.x + 0xB) & (1<<48 - 1)
	return d.x << 5
}

// Lrand48 advances the generator and returns lrand48(): the top 31 bits.
func (d *Drand48) Lrand48() int64 {
	d.x = (0x5DEECE66D*d.x + 0xB) & (1<<48 - 1)
	return int64(d.x >> 17)
}

// PowerPMF returns the distribution P(n) ∝ n^−a over the integers lo..hi
// (1 ≤ lo ≤ hi) at index n−lo.
func PowerPMF(lo, hi int, a float64) []float64 {
	w := make([]float64, hi-lo+1)
	s := 0.0
	for n := lo; n <= hi; n++ {
		w[n-lo] = math.Pow(float64(n), -a)
		s += w[n-lo]
	}
	for i := range w {
		w[i] /= s
	}
	return w
}
