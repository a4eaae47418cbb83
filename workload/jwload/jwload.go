package jwload

import (
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"sort"

	"github.com/schedfarm/schedfarm/workload"
	"github.com/schedfarm/schedfarm/workload/internal/dist"
)

// Range is a size range with its share of jobs in percent.
type Range struct {
	Lo, Hi int     // inclusive size bounds; Hi 0 means "up to Procs"
	Share  float64 // percent of jobs
}

// Table1Ranges are Jann's ten size ranges with seed 000's Table 1 shares;
// the >128 share (0.7%) is split 2:1 between 129–256 and 257–P by width (on
// 320 processors).
func Table1Ranges() []Range {
	return []Range{
		{1, 1, 40.8}, {2, 2, 7.4}, {3, 4, 12.2}, {5, 8, 10.9}, {9, 16, 13.6},
		{17, 32, 7.9}, {33, 64, 5.2}, {65, 128, 1.4}, {129, 256, 0.7 * 2 / 3}, {257, 0, 0.7 / 3},
	}
}

// HyperErlang is a hyper-Erlang distribution of common order: with
// probability P an Erlang(Order) of mean Mean1, otherwise an Erlang(Order) of
// mean Mean2 (stage rates Order/Mean1 and Order/Mean2, spec §1.3).
type HyperErlang struct {
	P            float64
	Mean1, Mean2 float64
	Order        int
}

// Mean is P·Mean1 + (1−P)·Mean2.
func (h HyperErlang) Mean() float64 { return h.P*h.Mean1 + (1-h.P)*h.Mean2 }

// CV is the coefficient of variation.
func (h HyperErlang) CV() float64 {
	n := float64(h.Order)
	return dist.HyperErlangCV(h.P, n/h.Mean1, n/h.Mean2, h.Order)
}

// Balanced returns the hyper-Erlang of the given mean, coefficient of
// variation and order whose branches have balanced means (P·Mean1 =
// (1−P)·Mean2). CV² must be ≥ 1/order.
func Balanced(mean, cv float64, order int) HyperErlang {
	n := float64(order)
	pq := (n + 1) / (4 * n * (cv*cv + 1))
	p := 0.5 * (1 + math.Sqrt(math.Max(0, 1-4*pq)))
	return HyperErlang{P: p, Mean1: mean / (2 * p), Mean2: mean / (2 * (1 - p)), Order: order}
}

// WithShortBranch returns the hyper-Erlang of the given mean whose first
// branch has probability p and mean short; the second branch's mean follows
// (it must exceed short).
func WithShortBranch(mean, p, short float64, order int) HyperErlang {
	return HyperErlang{P: p, Mean1: short, Mean2: (mean - p*short) / (1 - p), Order: order}
}

func (h HyperErlang) validate(name string) []error {
	var errs []error
	if !(h.P >= 0 && h.P <= 1) {
		errs = append(errs, fmt.Errorf("jwload: %s.P = %g, want a probability in [0, 1]", name, h.P))
	}
	if !(h.Mean1 > 0) || math.IsInf(h.Mean1, 0) || !(h.Mean2 > 0) || math.IsInf(h.Mean2, 0) {
		errs = append(errs, fmt.Errorf("jwload: %s.Mean1/Mean2 = %g/%g, want finite values > 0 (a short branch must be shorter than the mean)", name, h.Mean1, h.Mean2))
	}
	if h.Order < 1 || h.Order > 50 {
		errs = append(errs, fmt.Errorf("jwload: %s.Order = %d, want 1..50", name, h.Order))
	}
	return errs
}

// draw samples h with both branch means multiplied by scale.
func (h HyperErlang) draw(rng *rand.Rand, scale float64) float64 {
	n := float64(h.Order)
	return dist.HyperErlang(rng, h.P, n/(h.Mean1*scale), n/(h.Mean2*scale), h.Order)
}

// Params configure a Generator. Start from Default.
type Params struct {
	Jobs  int // number of jobs (≥ 1)
	Procs int // machine size P; ranges above P are dropped, the last ends at P
	// Ranges and their job shares.
	Ranges []Range
	// SizeExponent a: within a range P(n) ∝ n^−a (0 = uniform).
	SizeExponent float64
	// Runtime is the service-time distribution of every range.
	Runtime HyperErlang
	// Interarrival is the interarrival distribution scaled to the overall
	// mean time between jobs; range r's stream uses it stretched by
	// 1/share_r. Its mean is replaced when TargetLoad > 0.
	Interarrival HyperErlang
	// TargetLoad, when > 0, sets the overall mean interarrival from the
	// analytic offered load on Procs processors.
	TargetLoad float64
}

// Default returns the calibrated model for seed 000's machine (320
// processors, 100,000 jobs) with the CTC arrival rate. Runtimes: 45% from
// an exponential of mean 600 s, the rest from one whose mean makes the
// overall mean 11267.0 s (≈ 20000 s; CV ≈ 1.57) — assumed shapes that leave
// enough short jobs for the Tsafrir estimate model to be feasible.
// Interarrivals: balanced hyper-exponential, CV 2.
func Default() Params {
	return Params{
		Jobs: 100000, Procs: 320, Ranges: Table1Ranges(), SizeExponent: 0.7645,
		Runtime:      WithShortBranch(11267.0, 0.45, 600, 1),
		Interarrival: Balanced(391.4, 2.0, 1),
	}
}

// Validate reports every invalid field.
func (p Params) Validate() error {
	var errs []error
	if p.Jobs < 1 {
		errs = append(errs, fmt.Errorf("jwload: Jobs = %d, want ≥ 1", p.Jobs))
	}
	if p.Procs < 1 || p.Procs > 1<<24 {
		errs = append(errs, fmt.Errorf("jwload: Procs = %d, want 1..16777216", p.Procs))
	}
	sum := 0.0
	for i, r := range p.Ranges {
		if r.Lo < 1 || (r.Hi != 0 && r.Hi < r.Lo) || !(r.Share >= 0) {
			errs = append(errs, fmt.Errorf("jwload: Ranges[%d] = %+v, want 1 ≤ Lo ≤ Hi (or Hi 0) and Share ≥ 0", i, r))
			continue
		}
		if r.Lo <= p.Procs {
			sum += r.Share
		}
	}
	if !(sum > 0) {
		errs = append(errs, fmt.Errorf("jwload: Ranges: no positive share within Procs = %d", p.Procs))
	}
	if !(p.SizeExponent >= 0 && p.SizeExponent <= 10) {
		errs = append(errs, fmt.Errorf("jwload: SizeExponent = %g, want in [0, 10]", p.SizeExponent))
	}
	errs = append(errs, p.Runtime.validate("Runtime")...)
	errs = append(errs, p.Interarrival.validate("Interarrival")...)
	if !(p.TargetLoad >= 0) || math.IsInf(p.TargetLoad, 0) {
		errs = append(errs, fmt.Errorf("jwload: TargetLoad = %g, want 0 (off) or a finite value > 0", p.TargetLoad))
	}
	return errors.Join(errs...)
}

// bounds of range i on this machine: bounds and normalised share; ok false when
// the range lies above Procs.
func (p Params) bounds(i int) (lo, hi int, ok bool) {
	r := p.Ranges[i]
	lo, hi = r.Lo, r.Hi
	if hi == 0 || hi > p.Procs {
		hi = p.Procs
	}
	if i == len(p.Ranges)-1 && p.Procs > hi {
		hi = p.Procs
	}
	return lo, hi, lo <= p.Procs && r.Share > 0
}

func (p Params) shares() []float64 {
	s := make([]float64, len(p.Ranges))
	t := 0.0
	for i, r := range p.Ranges {
		if _, _, ok := p.bounds(i); ok {
			s[i] = r.Share
			t += r.Share
		}
	}
	for i := range s {
		s[i] /= t
	}
	return s
}

// rangePMF is P(n | range i) ∝ n^−a over the range, index n−lo.
func (p Params) rangePMF(i int) []float64 {
	lo, hi, _ := p.bounds(i)
	return dist.PowerPMF(lo, hi, p.SizeExponent)
}

// MeanSize is the analytic mean job size.
func (p Params) MeanSize() float64 {
	m := 0.0
	for i, s := range p.shares() {
		if s == 0 {
			continue
		}
		lo, _, _ := p.bounds(i)
		for k, q := range p.rangePMF(i) {
			m += s * q * float64(lo+k)
		}
	}
	return m
}

// MeanInterarrival is the overall mean time between jobs in effect.
func (p Params) MeanInterarrival() float64 {
	if p.TargetLoad > 0 {
		return p.MeanSize() * p.Runtime.Mean() / (float64(p.Procs) * p.TargetLoad)
	}
	return p.Interarrival.Mean()
}

// Load is the analytic offered load on Procs processors.
func (p Params) Load() float64 {
	return p.MeanSize() * p.Runtime.Mean() / (float64(p.Procs) * p.MeanInterarrival())
}

// Generator streams JWload jobs. It implements workload.Source.
type Generator struct {
	p      Params
	rng    *rand.Rand
	live   []int       // indexes of ranges in use
	cdf    [][]float64 // per live range
	lo     []int
	iaMean []float64 // per live range: scale applied to Interarrival
	next   []float64
	n      int
}

// New validates p and returns a generator drawing from rng.
func New(p Params, rng *rand.Rand) (*Generator, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if rng == nil {
		return nil, errors.New("jwload: nil *rand.Rand")
	}
	g := &Generator{p: p, rng: rng}
	stretch := p.MeanInterarrival() / p.Interarrival.Mean()
	for i, s := range p.shares() {
		if s == 0 {
			continue
		}
		lo, _, _ := p.bounds(i)
		pmf := p.rangePMF(i)
		c := make([]float64, len(pmf))
		acc := 0.0
		for k, q := range pmf {
			acc += q
			c[k] = acc
		}
		c[len(c)-1] = 1
		g.live = append(g.live, i)
		g.cdf = append(g.cdf, c)
		g.lo = append(g.lo, lo)
		g.iaMean = append(g.iaMean, stretch/s)
	}
	for k := range g.live {
		g.next = append(g.next, p.Interarrival.draw(rng, g.iaMean[k]))
	}
	return g, nil
}

// Next returns the next job in submit order, or io.EOF after Jobs jobs.
func (g *Generator) Next() (workload.Job, error) {
	if g.n >= g.p.Jobs {
		return workload.Job{}, io.EOF
	}
	k := 0
	for i := range g.next {
		if g.next[i] < g.next[k] {
			k = i
		}
	}
	t := g.next[k]
	g.next[k] += g.p.Interarrival.draw(g.rng, g.iaMean[k])
	size := g.lo[k] + sort.SearchFloat64s(g.cdf[k], g.rng.Float64())
	rt := math.Max(1, math.Round(g.p.Runtime.draw(g.rng, 1)))
	g.n++
	j := workload.NewJob()
	j.ID = int64(g.n)
	j.Submit = math.Floor(t)
	j.RunTime = rt
	j.AllocProcs = int64(size)
	j.ReqProcs = int64(size)
	j.Status = 1
	return j, nil
}
