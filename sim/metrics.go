package sim

import (
	"math"
	"sort"
)

// DefaultGamma is the bounded-slowdown threshold Γ in seconds (Feitelson et
// al.; seed 000 §3.3 uses 10 s).
const DefaultGamma = 10.0

// MetricOptions select how aggregates are computed.
type MetricOptions struct {
	// Gamma is the bounded-slowdown threshold; 0 means DefaultGamma.
	Gamma float64
	// WarmupJobs excludes the first jobs (in submit order) from the per-job
	// aggregates; utilisation and makespan still cover the whole run.
	WarmupJobs int
}

// Dist summarises one per-job quantity.
type Dist struct {
	Mean, Median, P95, Max float64
}

// Summary holds the aggregate metrics of one simulation.
type Summary struct {
	Jobs       int // jobs in the input
	Measured   int // jobs that ran and count in the distributions (after warm-up)
	Finished   int
	Killed     int
	Rejected   int
	Backfilled int

	Wait     Dist // start − submit
	Response Dist // end − submit
	Slowdown Dist // response / max(run, tiny)
	BSLD     Dist // max(1, response / max(run, Γ))

	Utilization float64 // used processor-seconds / (capacity × makespan), first pool
	Makespan    Time    // last end − first submit
}

// BoundedSlowdown returns max(1, (wait+run)/max(run, gamma)).
func BoundedSlowdown(wait, run, gamma Time) float64 {
	return math.Max(1, (wait+run)/math.Max(run, gamma))
}

// Slowdown returns (wait+run)/run, with a run of 0 counted as one second so a
// zero-length job does not divide by zero.
func Slowdown(wait, run Time) float64 {
	if run <= 0 {
		run = 1
	}
	return (wait + run) / run
}

// Summarize computes the aggregates of jobs (in submit order, all ended) run
// on platform p.
func Summarize(jobs []*Job, p Platform, o MetricOptions) Summary {
	gamma := o.Gamma
	if gamma <= 0 {
		gamma = DefaultGamma
	}
	s := Summary{Jobs: len(jobs)}
	if len(jobs) == 0 {
		return s
	}
	n := len(jobs)
	wait := make([]float64, 0, n)
	resp := make([]float64, 0, n)
	sld := make([]float64, 0, n)
	bsld := make([]float64, 0, n)
	first, last := math.Inf(1), math.Inf(-1)
	used := 0.0
	for i, j := range jobs {
		first = math.Min(first, j.Submit)
		last = math.Max(last, j.end)
		switch j.state {
		case Finished:
			s.Finished++
		case Killed:
			s.Killed++
		case Rejected:
			s.Rejected++
			continue
		default:
			continue
		}
		if j.backfil {
			s.Backfilled++
		}
		run := j.end - j.start
		used += float64(j.Demand[0]) * run
		if i < o.WarmupJobs {
			continue
		}
		w := j.start - j.Submit
		wait = append(wait, w)
		resp = append(resp, w+run)
		sld = append(sld, Slowdown(w, run))
		bsld = append(bsld, BoundedSlowdown(w, run, gamma))
	}
	s.Measured = len(wait)
	s.Wait = dist(wait)
	s.Response = dist(resp)
	s.Slowdown = dist(sld)
	s.BSLD = dist(bsld)
	if last > first {
		s.Makespan = last - first
		s.Utilization = used / (float64(p.Pools[0].Capacity) * s.Makespan)
	}
	return s
}

// dist sorts xs in place and summarises it; the median and p95 use the
// nearest-rank method on the sorted values.
func dist(xs []float64) Dist {
	if len(xs) == 0 {
		return Dist{}
	}
	sum := 0.0
	for _, x := range xs {
		sum += x
	}
	sort.Float64s(xs)
	return Dist{
		Mean:   sum / float64(len(xs)),
		Median: rank(xs, 0.5),
		P95:    rank(xs, 0.95),
		Max:    xs[len(xs)-1],
	}
}

// rank returns the nearest-rank q-quantile of sorted xs: the smallest value
// with at least q of the values at or below it.
func rank(sorted []float64, q float64) float64 {
	k := int(math.Ceil(q*float64(len(sorted)))) - 1
	if k < 0 {
		k = 0
	}
	return sorted[k]
}
