package fwload

import (
	"container/heap"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"sort"

	"github.com/schedfarm/schedfarm/workload"
	"github.com/schedfarm/schedfarm/workload/internal/dist"
)

// SeedBins are the upper bounds of seed 000's Table 1 size bins: =1, =2,
// (2,4], (4,8], (8,16], (16,32], (32,64], (64,128], >128 (the last bin runs
// to the machine size).
var SeedBins = [9]int{1, 2, 4, 8, 16, 32, 64, 128, math.MaxInt32}

// Table1 are FWload's bin shares in percent (seed 000 Table 1).
var Table1 = [9]float64{17.8, 18.1, 14.9, 19.0, 10.6, 6.2, 5.2, 4.2, 4.0}

// Params configure a Generator. Start from Default.
type Params struct {
	Jobs  int // number of jobs (≥ 1)
	Procs int // machine size P (≥ 1); bins above P are dropped, the last bin ends at P
	// BinShares are the percentages of the SeedBins bins (renormalised).
	BinShares [9]float64
	// Pow2Share is the probability that a job of a bin takes the bin's power
	// of two (its upper bound; 256 for >128); otherwise the size is drawn ∝
	// n^−HarmonicOrder within the bin. Calibrated: 0.6887 → mean 23.4 on 320.
	Pow2Share     float64
	HarmonicOrder float64
	// Runtime: with probability p(n) = clip(LongProbBase + LongProbSlope·n)
	// Exp(long mean), else Exp(ShortMean); the long mean is chosen so that
	// the mean runtime is MeanRuntime.
	MeanRuntime   float64
	ShortMean     float64
	LongProbBase  float64
	LongProbSlope float64
	// Repeats: a job runs k times, P(k) ∝ k^−RepeatExponent, k ≤ MaxRepeats.
	// Each rerun is submitted ThinkTime (mean of an exponential; 0 = none)
	// after the previous run would end on an idle machine.
	MaxRepeats     int
	RepeatExponent float64
	ThinkTime      float64
	// MeanInterarrival is the mean time between job submissions (reruns
	// included); first runs arrive as a Poisson process. Ignored when
	// TargetLoad > 0.
	MeanInterarrival float64
	// TargetLoad, when > 0, sets MeanInterarrival from the analytic offered
	// load on Procs processors.
	TargetLoad float64
}

// Default returns the calibrated model for seed 000's machine (320
// processors, 200,000 jobs). MeanInterarrival 417 s gives an offered load of
// ≈0.70 (the model publishes no rate).
func Default() Params {
	return Params{
		Jobs: 200000, Procs: 320, BinShares: Table1,
		Pow2Share: 0.6887, HarmonicOrder: 1.5,
		MeanRuntime: 2606.6, ShortMean: 500, LongProbBase: 0.3, LongProbSlope: 0.002,
		MaxRepeats: 10, RepeatExponent: 2.5,
		MeanInterarrival: 417,
	}
}

// Validate reports every invalid field.
func (p Params) Validate() error {
	var errs []error
	bad := func(f string, v any, want string) {
		errs = append(errs, fmt.Errorf("fwload: %s = %v, want %s", f, v, want))
	}
	if p.Jobs < 1 {
		bad("Jobs", p.Jobs, "≥ 1")
	}
	if p.Procs < 1 || p.Procs > 1<<24 {
		bad("Procs", p.Procs, "1..16777216")
	}
	sum := 0.0
	for i, s := range p.BinShares {
		if !(s >= 0) {
			bad(fmt.Sprintf("BinShares[%d]", i), s, "≥ 0")
		}
		if p.Procs >= 1 && binLo(i) <= p.Procs {
			sum += s
		}
	}
	if !(sum > 0) {
		bad("BinShares", p.BinShares, "a positive share in some bin within Procs")
	}
	if !(p.Pow2Share >= 0 && p.Pow2Share <= 1) {
		bad("Pow2Share", p.Pow2Share, "a probability in [0, 1]")
	}
	if !(p.HarmonicOrder >= 0 && p.HarmonicOrder <= 10) {
		bad("HarmonicOrder", p.HarmonicOrder, "in [0, 10]")
	}
	if !(p.ShortMean > 0) {
		bad("ShortMean", p.ShortMean, "> 0 seconds")
	}
	if !(p.MeanRuntime > p.ShortMean) {
		bad("MeanRuntime", p.MeanRuntime, fmt.Sprintf("> ShortMean (%g s)", p.ShortMean))
	}
	if !(p.LongProbBase >= 0 && p.LongProbBase <= 1) {
		bad("LongProbBase", p.LongProbBase, "a probability in [0, 1]")
	}
	if !(p.LongProbSlope >= 0 && p.LongProbSlope <= 1) {
		bad("LongProbSlope", p.LongProbSlope, "in [0, 1] per processor")
	}
	if p.MaxRepeats < 1 || p.MaxRepeats > 1000 {
		bad("MaxRepeats", p.MaxRepeats, "1..1000")
	}
	if !(p.RepeatExponent >= 0 && p.RepeatExponent <= 10) {
		bad("RepeatExponent", p.RepeatExponent, "in [0, 10]")
	}
	if !(p.ThinkTime >= 0) || math.IsInf(p.ThinkTime, 0) {
		bad("ThinkTime", p.ThinkTime, "a finite value ≥ 0 seconds")
	}
	if !(p.MeanInterarrival > 0) || math.IsInf(p.MeanInterarrival, 0) {
		bad("MeanInterarrival", p.MeanInterarrival, "a finite value > 0 seconds")
	}
	if !(p.TargetLoad >= 0) || math.IsInf(p.TargetLoad, 0) {
		bad("TargetLoad", p.TargetLoad, "0 (off) or a finite value > 0")
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	if p.longProb() <= 0 {
		return fmt.Errorf("fwload: LongProbBase/LongProbSlope = %g/%g give no long jobs, so MeanRuntime %g cannot exceed ShortMean; want a positive long-branch probability", p.LongProbBase, p.LongProbSlope, p.MeanRuntime)
	}
	return nil
}

func binLo(i int) int {
	if i == 0 {
		return 1
	}
	return SeedBins[i-1] + 1
}

// SizePMF returns P(size = n) for n = 0..Procs.
func (p Params) SizePMF() []float64 {
	pmf := make([]float64, p.Procs+1)
	total := 0.0
	for i, s := range p.BinShares {
		if binLo(i) > p.Procs || s <= 0 {
			continue
		}
		total += s
	}
	for i, s := range p.BinShares {
		lo, hi := binLo(i), min(SeedBins[i], p.Procs)
		if lo > p.Procs || s <= 0 {
			continue
		}
		share := s / total
		pow2 := 1 << (bitLen(hi) - 1) // largest power of two ≤ hi
		pw := p.Pow2Share
		if pow2 < lo {
			pw = 0
		}
		w := 0.0
		for n := lo; n <= hi; n++ {
			w += math.Pow(float64(n), -p.HarmonicOrder)
		}
		for n := lo; n <= hi; n++ {
			pmf[n] += share * (1 - pw) * math.Pow(float64(n), -p.HarmonicOrder) / w
		}
		pmf[pow2] += share * pw
	}
	return pmf
}

func bitLen(n int) int {
	b := 0
	for n > 0 {
		b++
		n >>= 1
	}
	return b
}

func (p Params) probLong(n int) float64 {
	return min(1, max(0, p.LongProbBase+p.LongProbSlope*float64(n)))
}

// longProb is E[p(n)] under the size pmf.
func (p Params) longProb() float64 {
	e := 0.0
	for n, q := range p.SizePMF() {
		if q > 0 {
			e += q * p.probLong(n)
		}
	}
	return e
}

// LongMean is the mean of the long runtime branch implied by MeanRuntime.
func (p Params) LongMean() float64 {
	return p.ShortMean + (p.MeanRuntime-p.ShortMean)/p.longProb()
}

// MeanSize is the analytic mean job size.
func (p Params) MeanSize() float64 {
	m := 0.0
	for n, q := range p.SizePMF() {
		m += float64(n) * q
	}
	return m
}

// MeanWork is the analytic E[size·runtime].
func (p Params) MeanWork() float64 {
	lm := p.LongMean()
	m := 0.0
	for n, q := range p.SizePMF() {
		if q > 0 {
			pl := p.probLong(n)
			m += q * float64(n) * (pl*lm + (1-pl)*p.ShortMean)
		}
	}
	return m
}

// repeatPMF returns P(k runs) for k = 1..MaxRepeats at index k−1.
func (p Params) repeatPMF() []float64 {
	return dist.PowerPMF(1, p.MaxRepeats, p.RepeatExponent)
}

// MeanRuns is the mean number of runs per job.
func (p Params) MeanRuns() float64 {
	m := 0.0
	for i, q := range p.repeatPMF() {
		m += float64(i+1) * q
	}
	return m
}

// Interarrival returns the mean time between submissions in effect: from
// TargetLoad when set, else MeanInterarrival.
func (p Params) Interarrival() float64 {
	if p.TargetLoad > 0 {
		return p.MeanWork() / (float64(p.Procs) * p.TargetLoad)
	}
	return p.MeanInterarrival
}

// Load is the analytic offered load on Procs processors.
func (p Params) Load() float64 {
	return p.MeanWork() / (float64(p.Procs) * p.Interarrival())
}

// pending is a rerun waiting for its submit time.
type pending struct {
	t       float64
	seq     uint64
	size    int
	runtime float64
	left    int // runs still to submit, this one included
	prev    int64
	think   float64
}

type pendingHeap []pending

func (h pendingHeap) Len() int { return len(h) }
func (h pendingHeap) Less(i, j int) bool {
	if h[i].t != h[j].t {
		return h[i].t < h[j].t
	}
	return h[i].seq < h[j].seq
}
func (h pendingHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *pendingHeap) Push(x any)   { *h = append(*h, x.(pending)) }
func (h *pendingHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// Generator streams FWload jobs. It implements workload.Source.
type Generator struct {
	p        Params
	rng      *rand.Rand
	sizeCDF  []float64
	repCDF   []float64
	longMean float64
	groupIA  float64
	nextT    float64
	heap     pendingHeap
	seq      uint64
	n        int
}

// New validates p and returns a generator drawing from rng.
func New(p Params, rng *rand.Rand) (*Generator, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if rng == nil {
		return nil, errors.New("fwload: nil *rand.Rand")
	}
	g := &Generator{p: p, rng: rng, longMean: p.LongMean()}
	g.sizeCDF = cumulative(p.SizePMF())
	g.repCDF = cumulative(p.repeatPMF())
	g.groupIA = p.Interarrival() * p.MeanRuns()
	g.nextT = dist.Exp(rng, g.groupIA)
	return g, nil
}

func cumulative(pmf []float64) []float64 {
	c := make([]float64, len(pmf))
	s := 0.0
	for i, q := range pmf {
		s += q
		c[i] = s
	}
	for i := range c {
		c[i] /= s
	}
	return c
}

func draw(rng *rand.Rand, cdf []float64) int {
	u := rng.Float64()
	i := sort.SearchFloat64s(cdf, u)
	if i >= len(cdf) {
		i = len(cdf) - 1
	}
	for cdf[i] == 0 || (i > 0 && cdf[i] == cdf[i-1]) { // skip zero-probability values
		i++
	}
	return i
}

// Next returns the next job in submit order, or io.EOF after Jobs jobs.
func (g *Generator) Next() (workload.Job, error) {
	if g.n >= g.p.Jobs {
		return workload.Job{}, io.EOF
	}
	var cur pending
	if len(g.heap) > 0 && g.heap[0].t <= g.nextT {
		cur = heap.Pop(&g.heap).(pending)
	} else {
		cur.t = g.nextT
		cur.size = draw(g.rng, g.sizeCDF)
		mean := g.p.ShortMean
		if g.rng.Float64() < g.p.probLong(cur.size) {
			mean = g.longMean
		}
		cur.runtime = max(1, math.Round(dist.Exp(g.rng, mean)))
		cur.left = draw(g.rng, g.repCDF) + 1
		cur.prev = workload.Unknown
		g.nextT += dist.Exp(g.rng, g.groupIA)
	}
	g.n++
	j := workload.NewJob()
	j.ID = int64(g.n)
	j.Submit = math.Floor(cur.t)
	j.RunTime = cur.runtime
	j.AllocProcs = int64(cur.size)
	j.ReqProcs = int64(cur.size)
	j.Status = 1
	if cur.prev != workload.Unknown {
		j.PrecedingJob = cur.prev
		j.ThinkTime = math.Round(cur.think)
	}
	if cur.left > 1 {
		think := 0.0
		if g.p.ThinkTime > 0 {
			think = dist.Exp(g.rng, g.p.ThinkTime)
		}
		g.seq++
		heap.Push(&g.heap, pending{t: cur.t + cur.runtime + think, seq: g.seq, size: cur.size, runtime: cur.runtime, left: cur.left - 1, prev: j.ID, think: think})
	}
	return j, nil
}
