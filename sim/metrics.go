package sim

import (
	"math"
	"sync"
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
	// Concurrent computes the two slowdowns' distributions on a second
	// goroutine, in a buffer of their own, while the calling one computes
	// wait and response: the same Summary, sooner, for a process with a
	// core to spare (one simulation, `schedfarm sim`). A sweep's cells
	// already keep every core busy, and leave it unset. Runs of fewer than
	// concurrentMinJobs jobs are summarised on one goroutine.
	Concurrent bool
}

// concurrentMinJobs is the least run Summarize splits (Concurrent): below
// it a goroutine and a second buffer cost about what they save.
const concurrentMinJobs = 8192

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
	// Migrations, Restarts and Swaps total the jobs' relocations on a
	// tiered platform (Job.Migrations, Job.Restarts, Job.Swaps).
	Migrations, Restarts, Swaps int

	Wait     Dist // start − submit
	Response Dist // end − submit
	Slowdown Dist // response / max(run, tiny)
	BSLD     Dist // max(1, response / max(run, Γ))

	Utilization float64 // used processor-seconds / (capacity × makespan), first pool
	Makespan    Time    // last end − first submit
}

// BoundedSlowdown returns max(1, (wait+run)/max(run, gamma)).
func BoundedSlowdown(wait, run, gamma Time) float64 {
	return max(1, (wait+run)/max(run, gamma))
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
	slowdowns := func(buf []float64) {
		s.Slowdown = dist(measured(jobs, o.WarmupJobs, gamma, measureSlowdown, buf))
		s.BSLD = dist(measured(jobs, o.WarmupJobs, gamma, measureBSLD, buf))
	}
	var done chan struct{}
	if o.Concurrent && len(jobs) >= concurrentMinJobs {
		// The slowdowns on a second goroutine, in a buffer of its own, from
		// now on. Each goroutine writes its own fields of s; the channel
		// orders the second's writes before the return.
		done = make(chan struct{})
		go func() {
			defer close(done)
			bq, buf := takeDistBuf(len(jobs))
			defer distBufs.Put(bq)
			slowdowns(buf)
		}()
	}
	first, last := math.Inf(1), math.Inf(-1)
	used := 0.0
	for _, j := range jobs {
		first = min(first, j.Submit)
		last = max(last, j.end)
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
		s.Migrations += int(j.moves)
		s.Restarts += int(j.restarts)
		s.Swaps += int(j.swaps)
		if j.stretched {
			// Slowed or relocated on a tiered platform: the processors
			// were busy for the dedicated-processor time served.
			used += float64(j.Demand[0]) * j.done
		} else {
			used += float64(j.Demand[0]) * (j.end - j.start)
		}
	}
	// The distributions one after another in one buffer of a value per job
	// (dist reorders it in place): a one-shot run touches a quarter of the
	// fresh memory four buffers took (docs/performance-log.md, "Ninth
	// session"); Concurrent adds a second for the slowdowns.
	bp, buf := takeDistBuf(len(jobs))
	defer distBufs.Put(bp)
	wait := measured(jobs, o.WarmupJobs, gamma, measureWait, buf)
	s.Measured = len(wait)
	s.Wait = dist(wait)
	s.Response = dist(measured(jobs, o.WarmupJobs, gamma, measureResponse, buf))
	if done != nil {
		<-done
	} else {
		slowdowns(buf)
	}
	if last > first {
		s.Makespan = last - first
		s.Utilization = used / (float64(p.Pools[0].Capacity) * s.Makespan)
	}
	return s
}

// The per-job values Summarize takes the distributions of.
const (
	measureWait = iota
	measureResponse
	measureSlowdown
	measureBSLD
)

// measured returns out with, for every job the aggregates measure (ended,
// not rejected, at index warmup or later), in order, its wait, response,
// slowdown or bounded slowdown (which: measureWait, …). A job slowed or
// relocated on a tiered platform divides its response by the
// dedicated-processor time it was served.
func measured(jobs []*Job, warmup int, gamma float64, which int, out []float64) []float64 {
	out = out[:0]
	for i, j := range jobs {
		if (j.state != Finished && j.state != Killed) || i < warmup {
			continue
		}
		w := j.start - j.Submit
		if j.stretched {
			r := j.end - j.Submit
			switch which {
			case measureWait:
				out = append(out, w)
			case measureResponse:
				out = append(out, r)
			case measureSlowdown:
				div := j.done
				if div <= 0 {
					div = 1 // as Slowdown does for a zero-length run
				}
				out = append(out, r/div)
			default:
				out = append(out, max(1, r/max(j.done, gamma)))
			}
			continue
		}
		run := j.end - j.start
		switch which {
		case measureWait:
			out = append(out, w)
		case measureResponse:
			out = append(out, w+run)
		case measureSlowdown:
			out = append(out, Slowdown(w, run))
		default:
			out = append(out, BoundedSlowdown(w, run, gamma))
		}
	}
	return out
}

// distBufs recycles Summarize's scratch space between runs.
var distBufs = sync.Pool{New: func() any { return new([]float64) }}

// takeDistBuf takes a buffer from distBufs, grown to hold n values, and
// returns it (for distBufs.Put) with an empty slice of room n in it.
func takeDistBuf(n int) (*[]float64, []float64) {
	bp := distBufs.Get().(*[]float64)
	if cap(*bp) < n {
		*bp = make([]float64, n)
	}
	return bp, (*bp)[:0:n]
}

// dist summarises xs, reordering it in place. The median and p95 use the
// nearest-rank method; they are found by selection, not a full sort.
func dist(xs []float64) Dist {
	if len(xs) == 0 {
		return Dist{}
	}
	sum, hi := 0.0, math.Inf(-1)
	for _, x := range xs {
		sum += x
		hi = max(hi, x)
	}
	k95 := rankIndex(len(xs), 0.95)
	p95 := selectNth(xs, k95)
	// Everything before k95 is now ≤ p95, so the median is selected there.
	med := selectNth(xs[:k95+1], rankIndex(len(xs), 0.5))
	return Dist{Mean: sum / float64(len(xs)), Median: med, P95: p95, Max: hi}
}

// rankIndex is the 0-based index of the nearest-rank q-quantile of n sorted
// values: the smallest value with at least q of the values at or below it.
func rankIndex(n int, q float64) int {
	k := int(math.Ceil(q*float64(n))) - 1
	if k < 0 {
		k = 0
	}
	return k
}

// selectNth reorders xs so that xs[k] is the value a sort would put there,
// with no larger value before it and no smaller after it, and returns it
// (Hoare's selection with a median-of-three pivot; deterministic).
func selectNth(xs []float64, k int) float64 {
	lo, hi := 0, len(xs)-1
	for lo < hi {
		mid := lo + (hi-lo)/2
		if xs[mid] < xs[lo] {
			xs[mid], xs[lo] = xs[lo], xs[mid]
		}
		if xs[hi] < xs[lo] {
			xs[hi], xs[lo] = xs[lo], xs[hi]
		}
		if xs[hi] < xs[mid] {
			xs[hi], xs[mid] = xs[mid], xs[hi]
		}
		pivot := xs[mid]
		i, j := lo, hi
		for i <= j {
			for xs[i] < pivot {
				i++
			}
			for xs[j] > pivot {
				j--
			}
			if i <= j {
				xs[i], xs[j] = xs[j], xs[i]
				i++
				j--
			}
		}
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return xs[k]
		}
	}
	return xs[k]
}
