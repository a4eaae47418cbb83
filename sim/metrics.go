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
		s.Slowdown = measured(jobs, o.WarmupJobs, gamma, measureSlowdown, buf).dist()
		s.BSLD = measured(jobs, o.WarmupJobs, gamma, measureBSLD, buf).dist()
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
	s.Measured = len(wait.xs) + wait.atFloor
	s.Wait = wait.dist()
	s.Response = measured(jobs, o.WarmupJobs, gamma, measureResponse, buf).dist()
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

// noFloor is the floor of a quantity with none (response): no value equals it.
var noFloor = math.Inf(-1)

// values is one quantity of the jobs Summarize measures, as measured leaves
// it for dist: the values other than floor in xs (job order), how many
// values equal floor (atFloor), and the sum and maximum of all of them, the
// sum taken in job order. A wait is 0 and a slowdown or bounded slowdown 1
// for every job that started at its submission (on KTH-SP2 under EASY more
// than half of them), so they are counted, not stored, and the median and
// p95 are selected among the others (docs/performance-log.md, "Fifty-fourth
// session").
type values struct {
	xs      []float64
	floor   float64
	atFloor int
	sum, hi float64
	lo      float64 // the least value, at the floor or not (+Inf if none)
}

// measured returns, for every job the aggregates measure (ended, not
// rejected, at index warmup or later), in order, its wait, response,
// slowdown or bounded slowdown (which: measureWait, …), the values other
// than the quantity's floor (0 for a wait, 1 for the slowdowns) in out's
// room, which must hold a value for every job. A job slowed or relocated
// on a tiered platform divides its response by the dedicated-processor
// time it was served.
func measured(jobs []*Job, warmup int, gamma float64, which int, out []float64) values {
	floor := 1.0
	switch which {
	case measureWait:
		floor = 0
	case measureResponse:
		floor = noFloor
	}
	out = out[:cap(out)] // room for every job; out[:k] the values kept so far
	k, count := 0, 0
	sum, hi, lo := 0.0, math.Inf(-1), math.Inf(1)
	for i, j := range jobs {
		if (j.state != Finished && j.state != Killed) || i < warmup {
			continue
		}
		w := j.start - j.Submit
		var v float64
		if j.stretched {
			r := j.end - j.Submit
			switch which {
			case measureWait:
				v = w
			case measureResponse:
				v = r
			case measureSlowdown:
				div := j.done
				if div <= 0 {
					div = 1 // as Slowdown does for a zero-length run
				}
				v = r / div
			default:
				v = max(1, r/max(j.done, gamma))
			}
		} else {
			run := j.end - j.start
			switch which {
			case measureWait:
				v = w
			case measureResponse:
				v = w + run
			case measureSlowdown:
				v = Slowdown(w, run)
			default:
				v = BoundedSlowdown(w, run, gamma)
			}
		}
		sum += v
		hi, lo = max(hi, v), min(lo, v)
		count++
		// Kept unless at the floor, without a branch: on KTH-SP2 about
		// half the values are, in no order a predictor could learn.
		out[k] = v
		keep := 0
		if v != floor {
			keep = 1
		}
		k += keep
	}
	return values{xs: out[:k], floor: floor, atFloor: count - k, sum: sum, hi: hi, lo: lo}
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

// dist summarises v, reordering v.xs in place. The median and p95 use the
// nearest-rank method; they are found by selection, not a full sort. The
// values at the floor are its least ones unless a value below it was
// measured (a tiered job's slowdown can be under 1), in which case they are
// put back among the others first.
func (v values) dist() Dist {
	n := len(v.xs) + v.atFloor
	if n == 0 {
		return Dist{}
	}
	xs, c := v.xs, v.atFloor
	if c > 0 && v.lo < v.floor {
		for range c {
			xs = append(xs, v.floor)
		}
		c = 0
	}
	// Sorted, the values are c copies of the floor, then xs sorted.
	d := Dist{Mean: v.sum / float64(n), Median: v.floor, P95: v.floor, Max: v.hi}
	k95, k50 := rankIndex(n, 0.95), rankIndex(n, 0.5)
	if k95 >= c {
		d.P95 = selectNth(xs, k95-c)
		// Everything before k95 is now ≤ p95, so the median is selected there.
		if k50 >= c {
			d.Median = selectNth(xs[:k95-c+1], k50-c)
		}
	}
	return d
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
// with no larger value before it and no smaller after it, and returns it.
//
// It is Floyd and Rivest's SELECT (CACM 18(3), 1975, Algorithm 489): on a
// stretch longer than fr600 it first selects the k-th value's rank within a
// sample of about n^(2/3) values around k, so that the pivot lies just
// below or above the value sought and one partition leaves a stretch of
// o(n) values; about n + min(k, n−k) comparisons on average, against 2n to
// 3.4n for Hoare's selection with a median-of-three pivot, which was used
// before (docs/performance-log.md, "Fifty-fourth session"). The sample is
// the stretch's own values around k, so the reordering is deterministic.
func selectNth(xs []float64, k int) float64 {
	selectRange(xs, 0, len(xs)-1, k)
	return xs[k]
}

// fr600 is the stretch above which SELECT narrows the range on a sample
// first (the constant of Algorithm 489).
const fr600 = 600

// selectRange is SELECT on xs[left..right], both ends included.
func selectRange(xs []float64, left, right, k int) {
	for right > left {
		if right-left > fr600 {
			// Narrow to the sample's range around k, chosen so that the
			// k-th value falls within it with high probability.
			n := float64(right - left + 1)
			i := float64(k - left + 1)
			z := math.Log(n)
			s := 0.5 * math.Exp(2*z/3)
			sd := 0.5 * math.Sqrt(z*s*(n-s)/n)
			if i < n/2 {
				sd = -sd
			}
			newLeft := max(left, int(float64(k)-i*s/n+sd))
			newRight := min(right, int(float64(k)+(n-i)*s/n+sd))
			selectRange(xs, newLeft, newRight, k)
		}
		// Partition xs[left..right] about t = xs[k].
		t := xs[k]
		i, j := left, right
		xs[left], xs[k] = xs[k], xs[left]
		if xs[right] > t {
			xs[right], xs[left] = xs[left], xs[right]
		}
		for i < j {
			xs[i], xs[j] = xs[j], xs[i]
			i++
			j--
			for xs[i] < t {
				i++
			}
			for xs[j] > t {
				j--
			}
		}
		if xs[left] == t {
			xs[left], xs[j] = xs[j], xs[left]
		} else {
			j++
			xs[j], xs[right] = xs[right], xs[j]
		}
		// Now xs[j] = t, nothing larger before it, nothing smaller after.
		if j <= k {
			left = j + 1
		}
		if k <= j {
			right = j - 1
		}
	}
}
