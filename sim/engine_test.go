package sim

import (
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"
)

func TestQueueOrder(t *testing.T) {
	var q Queue
	in := []*Event{
		{At: 5, Class: ClassArrival},
		{At: 5, Class: ClassPass},
		{At: 5, Class: ClassEnd},
		{At: 1, Class: ClassPass},
		{At: 5, Class: ClassArrival}, // same time and class: after the first arrival
		{At: 5, Class: ClassTimer},
		{At: 5, Class: ClassFailure},
	}
	for _, e := range in {
		q.Push(e)
	}
	want := []*Event{in[3], in[2], in[6], in[0], in[4], in[5], in[1]}
	for i, w := range want {
		if got := q.Pop(); got != w {
			t.Fatalf("pop %d: got %v@%g, want %v@%g", i, got.Class, got.At, w.Class, w.At)
		}
	}
	if q.Pop() != nil {
		t.Fatal("queue not empty")
	}
}

func TestQueueCancel(t *testing.T) {
	var q Queue
	evs := make([]*Event, 50)
	for i := range evs {
		evs[i] = &Event{At: float64((i * 37) % 50)}
		q.Push(evs[i])
	}
	for i := 0; i < 50; i += 3 {
		if !q.Cancel(evs[i]) {
			t.Fatalf("cancel %d failed", i)
		}
		if q.Cancel(evs[i]) {
			t.Fatalf("cancel %d twice succeeded", i)
		}
	}
	last := -1.0
	n := 0
	for e := q.Pop(); e != nil; e = q.Pop() {
		if e.At < last {
			t.Fatalf("out of order after cancels: %g after %g", e.At, last)
		}
		last = e.At
		n++
	}
	if n != 50-17 {
		t.Fatalf("popped %d, want %d", n, 50-17)
	}
}

// greedy starts every queued job that fits, in arrival order; it may change
// rates through hooks.
type greedy struct {
	queue  []*Job
	onPass func(c *Cluster, ch Changes)
}

func (g *greedy) Pass(c *Cluster, ch Changes) {
	if g.onPass != nil {
		g.onPass(c, ch)
	}
	g.queue = append(g.queue, ch.Arrived...)
	k := 0
	for _, j := range g.queue {
		if c.Fits(j) {
			c.Start(j)
			continue
		}
		g.queue[k] = j
		k++
	}
	g.queue = g.queue[:k]
}

func TestRateChangeMovesCompletion(t *testing.T) {
	// Job 1 needs 10 s of work. From t=4 it runs at half speed (a
	// background VM, say): 4 s done, 6 s left at rate 0.5 → ends at 16.
	// Job 2 arrives at 4 and triggers the change; at 8 the rate goes back
	// to 1 (2 s of work done at half speed, 4 s left) → ends at 12.
	j1 := NewJob(1, 0, []int{1}, 10, 10, 0)
	j2 := NewJob(2, 4, []int{1}, 4, 4, 0)
	g := &greedy{}
	g.onPass = func(c *Cluster, ch Changes) {
		switch c.Now() {
		case 4:
			if err := c.SetRate(j1, 0.5); err != nil {
				t.Fatal(err)
			}
			c.WakeAt(8)
		case 8:
			if err := c.SetRate(j1, 1); err != nil {
				t.Fatal(err)
			}
		}
	}
	jobs, _, err := Run(Processors(2), g, NewSliceStream([]*Job{j1, j2}), nil)
	if err != nil {
		t.Fatal(err)
	}
	if jobs[0].State() != Finished || jobs[0].End() != 12 {
		t.Errorf("job 1: %s at %g, want finished at 12", jobs[0].State(), jobs[0].End())
	}
	if jobs[1].End() != 8 {
		t.Errorf("job 2 ends at %g, want 8", jobs[1].End())
	}
}

func TestSuspendedJobWithLimitIsKilled(t *testing.T) {
	// A job suspended at rate 0 never finishes its work; its wall-clock
	// limit still ends it.
	j := NewJob(1, 0, []int{1}, 5, 5, 7)
	g := &greedy{}
	g.onPass = func(c *Cluster, ch Changes) {
		if c.Now() == 2 {
			c.SetRate(j, 0)
		}
		if c.Now() == 0 {
			c.WakeAt(2)
		}
	}
	jobs, _, err := Run(Processors(1), g, NewSliceStream([]*Job{j}), nil)
	if err != nil {
		t.Fatal(err)
	}
	if jobs[0].State() != Killed || jobs[0].End() != 7 {
		t.Errorf("job: %s at %g, want killed at 7", jobs[0].State(), jobs[0].End())
	}
}

// idle never starts anything.
type idle struct{}

func (idle) Pass(*Cluster, Changes) {}

func TestStuckSchedulerIsAnErrorNotAHang(t *testing.T) {
	_, _, err := Run(Processors(2), idle{}, NewSliceStream([]*Job{NewJob(7, 0, []int{1}, 1, 1, 0)}), nil)
	if err == nil || !strings.Contains(err.Error(), "left 1 jobs waiting") || !strings.Contains(err.Error(), "[7]") {
		t.Fatalf("got %v", err)
	}
}

// overbook starts every job regardless of space.
type overbook struct{}

func (overbook) Pass(c *Cluster, ch Changes) {
	for _, j := range ch.Arrived {
		c.Start(j)
	}
}

func TestOversubscriptionIsRefused(t *testing.T) {
	jobs := []*Job{NewJob(1, 0, []int{2}, 5, 5, 0), NewJob(2, 0, []int{1}, 5, 5, 0)}
	_, _, err := Run(Processors(2), overbook{}, NewSliceStream(jobs), nil)
	if err == nil || !strings.Contains(err.Error(), "started job 2 needing [1] with only [0] free") {
		t.Fatalf("got %v", err)
	}
}

func TestOutOfOrderInputIsAnError(t *testing.T) {
	jobs := []*Job{NewJob(1, 5, []int{1}, 1, 1, 0), NewJob(2, 3, []int{1}, 1, 1, 0)}
	_, _, err := Run(Processors(2), &greedy{}, NewSliceStream(jobs), nil)
	if err == nil || !strings.Contains(err.Error(), "job 2 submitted at 3, before the previous job (5)") {
		t.Fatalf("got %v", err)
	}
}

func TestLifecycleAndObserver(t *testing.T) {
	var seen []State
	obs := func(j *Job) { seen = append(seen, j.State()) }
	jobs := []*Job{
		NewJob(1, 0, []int{1}, 3, 3, 0),
		NewJob(2, 0, []int{3}, 3, 3, 0), // wider than the machine
		NewJob(3, 1, []int{1}, 1, 2, 1), // killed at its limit
	}
	out, _, err := Run(Processors(2), &greedy{}, NewSliceStream(jobs), obs)
	if err != nil {
		t.Fatal(err)
	}
	wantStates := []State{Finished, Rejected, Killed}
	for i, j := range out {
		if j.State() != wantStates[i] {
			t.Errorf("job %d: %s, want %s", j.ID, j.State(), wantStates[i])
		}
	}
	if len(seen) != 3 {
		t.Errorf("observer saw %d ends, want 3", len(seen))
	}
	if !strings.Contains(out[1].Reason(), "needs 3 procs, the platform has 2") {
		t.Errorf("reject reason %q", out[1].Reason())
	}
}

func TestKillReason(t *testing.T) {
	j := NewJob(3, 0, []int{1}, 1, 2.5, 1.5)
	if _, _, err := Run(Processors(1), &greedy{}, NewSliceStream([]*Job{j}), nil); err != nil {
		t.Fatal(err)
	}
	if want := "reached its limit of 1.5 s after 1.5 s of 2.5 s of work"; j.State() != Killed || j.Reason() != want {
		t.Errorf("%s, %q; want killed, %q", j.State(), j.Reason(), want)
	}
}

// keeper keeps every Changes it is given.
type keeper struct {
	greedy
	kept []Changes
}

func (k *keeper) Pass(c *Cluster, ch Changes) {
	k.kept = append(k.kept, ch)
	// A scheduler may append to the slices it was given.
	_ = append(ch.Arrived, nil)
	_ = append(ch.Ended, nil)
	k.greedy.Pass(c, ch)
}

func TestChangesMayBeKept(t *testing.T) {
	// Many passes, several jobs per instant, more jobs than a jobList
	// chunk: every slice a pass was given still holds what it held then.
	var jobs []*Job
	for i := range 3 * jobListChunk {
		jobs = append(jobs, NewJob(int64(i+1), float64(i/3), []int{1 + i%2}, 2, float64(1+i%4), 0))
	}
	k := &keeper{}
	var want []Changes
	k.onPass = func(c *Cluster, ch Changes) {
		want = append(want, Changes{Arrived: append([]*Job(nil), ch.Arrived...), Ended: append([]*Job(nil), ch.Ended...)})
	}
	if _, _, err := Run(Processors(4), k, NewSliceStream(jobs), nil); err != nil {
		t.Fatal(err)
	}
	arrived, ended := 0, 0
	for i, got := range k.kept {
		if !slices.Equal(got.Arrived, want[i].Arrived) || !slices.Equal(got.Ended, want[i].Ended) {
			t.Fatalf("pass %d: kept changes were overwritten", i)
		}
		arrived += len(got.Arrived)
		ended += len(got.Ended)
	}
	if arrived != len(jobs) || ended != len(jobs) {
		t.Errorf("%d arrivals and %d ends, want %d each", arrived, ended, len(jobs))
	}
}

func TestSummaryHandComputed(t *testing.T) {
	// Two jobs on 2 processors: A waits 0 and runs 20 s on 1 proc; B waits
	// 10 s and runs 5 s on 2 procs. Makespan 0..35 → wait mean 5; response
	// 20 and 15; bsld max(1, 20/20)=1 and max(1, 15/max(5,10))=1.5;
	// utilisation (20 + 10)/(2·35).
	a := NewJob(1, 0, []int{1}, 20, 20, 0)
	a.state, a.start, a.end = Finished, 0, 20
	b := NewJob(2, 20, []int{2}, 5, 5, 0)
	b.state, b.start, b.end = Finished, 30, 35
	s := Summarize([]*Job{a, b}, Processors(2), MetricOptions{})
	if s.Wait.Mean != 5 || s.Response.Mean != 17.5 || s.BSLD.Mean != 1.25 || s.BSLD.Max != 1.5 {
		t.Errorf("summary %+v", s)
	}
	if s.Makespan != 35 || s.Utilization != 30.0/70 {
		t.Errorf("makespan %g utilisation %g", s.Makespan, s.Utilization)
	}
	w := Summarize([]*Job{a, b}, Processors(2), MetricOptions{WarmupJobs: 1})
	if w.Measured != 1 || w.Wait.Mean != 10 {
		t.Errorf("warm-up: measured %d wait %g", w.Measured, w.Wait.Mean)
	}
}

// TestSummaryMatchesPlainComputation compares Summarize with the plain
// computation, each distribution from its own list of the measured jobs'
// values, on random runs with finished, killed, rejected and unended jobs,
// jobs stretched on a tiered platform (their slowdowns divide by the time
// served) and a warm-up.
//
// Every other trial draws waits of 0 or 1 s, so that about half the jobs
// have a wait of 0 and slowdowns of 1 (measured's floors), and stretched
// jobs served longer than their response, whose slowdown is under the floor.
func TestSummaryMatchesPlainComputation(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 9))
	for trial := range 600 {
		n := 1 + rng.IntN(60)
		maxWait, maxDone := 50, 30
		if trial%2 == 1 {
			maxWait, maxDone = 2, 90
		}
		jobs := randomSummaryJobs(rng, n, maxWait, 40, maxDone)
		o := MetricOptions{Gamma: float64(rng.IntN(20)), WarmupJobs: rng.IntN(n + 1)}
		gamma := o.Gamma
		if gamma <= 0 {
			gamma = DefaultGamma
		}
		var wait, resp, sld, bsld []float64
		for i, j := range jobs {
			if (j.state != Finished && j.state != Killed) || i < o.WarmupJobs {
				continue
			}
			w, run, r := j.start-j.Submit, j.end-j.start, j.end-j.Submit
			wait, resp = append(wait, w), append(resp, r)
			if j.stretched {
				div := j.done
				if div <= 0 {
					div = 1
				}
				sld, bsld = append(sld, r/div), append(bsld, max(1, r/max(j.done, gamma)))
			} else {
				sld, bsld = append(sld, Slowdown(w, run)), append(bsld, BoundedSlowdown(w, run, gamma))
			}
		}
		got := Summarize(jobs, Processors(8), o)
		if got.Measured != len(wait) || got.Wait != plainDist(wait) || got.Response != plainDist(resp) || got.Slowdown != plainDist(sld) || got.BSLD != plainDist(bsld) {
			t.Fatalf("trial %d (%d jobs, warm-up %d): %+v; want measured %d, wait %+v, response %+v, slowdown %+v, bsld %+v",
				trial, n, o.WarmupJobs, got, len(wait), plainDist(wait), plainDist(resp), plainDist(sld), plainDist(bsld))
		}
	}
}

// plainDist is Dist by definition: the mean summed in the given order, the
// median and p95 by nearest rank in a sorted copy.
func plainDist(xs []float64) Dist {
	if len(xs) == 0 {
		return Dist{}
	}
	sum := 0.0
	for _, x := range xs {
		sum += x
	}
	sorted := append([]float64(nil), xs...)
	sort.Float64s(sorted)
	n := len(xs)
	return Dist{Mean: sum / float64(n), Median: sorted[rankIndex(n, 0.5)], P95: sorted[rankIndex(n, 0.95)], Max: sorted[n-1]}
}

// randomSummaryJobs returns n jobs submitted 3 s apart, each in a random end
// state (or still running), with a wait below maxWait, a run below maxRun and,
// for about a third of them, stretched with a served time below maxDone.
func randomSummaryJobs(rng *rand.Rand, n, maxWait, maxRun, maxDone int) []*Job {
	jobs := make([]*Job, n)
	for i := range jobs {
		j := NewJob(int64(i+1), float64(i*3), []int{1 + rng.IntN(4)}, 10, 10, 0)
		j.state = []State{Finished, Finished, Killed, Rejected, Running}[rng.IntN(5)]
		j.start = j.Submit + float64(rng.IntN(maxWait))
		j.end = j.start + float64(rng.IntN(maxRun))
		if rng.IntN(3) == 0 {
			j.stretched, j.done = true, float64(rng.IntN(maxDone))
		}
		jobs[i] = j
	}
	return jobs
}

// TestSummaryConcurrentIsTheSame checks that MetricOptions.Concurrent (the
// slowdowns' distributions on a second goroutine) gives the Summary the one
// goroutine gives, on runs long enough to be split and on one just short
// of it, with warm-ups, stretched jobs and every end state.
func TestSummaryConcurrentIsTheSame(t *testing.T) {
	rng := rand.New(rand.NewPCG(53, 1))
	for trial, n := range []int{concurrentMinJobs - 1, concurrentMinJobs, concurrentMinJobs + 1, 3 * concurrentMinJobs} {
		jobs := randomSummaryJobs(rng, n, 5000, 4000, 3000)
		o := MetricOptions{Gamma: float64(rng.IntN(20)), WarmupJobs: rng.IntN(n / 4)}
		want := Summarize(jobs, Processors(8), o)
		o.Concurrent = true
		for range 3 { // buffers reused from the pool as well as fresh ones
			if got := Summarize(jobs, Processors(8), o); got != want {
				t.Fatalf("trial %d (%d jobs): concurrent %+v; one goroutine %+v", trial, n, got, want)
			}
		}
	}
}

// TestDistMatchesSortedNearestRank checks values.dist against plainDist on
// lists with many ties, for each floor from below every value to above
// some (then the values at the floor are not the least and go back among
// the others) and none.
func TestDistMatchesSortedNearestRank(t *testing.T) {
	for n := 1; n <= 60; n++ {
		for seed := 0; seed < 5; seed++ {
			xs := make([]float64, n)
			for i := range xs {
				xs[i] = float64((i*7919 + seed*104729) % 23) // many ties
			}
			for _, floor := range []float64{noFloor, -1, 0, 3, 11, 22} {
				v := values{floor: floor, hi: math.Inf(-1), lo: math.Inf(1)}
				for _, x := range xs {
					v.sum += x
					v.hi, v.lo = max(v.hi, x), min(v.lo, x)
					if x == floor {
						v.atFloor++
						continue
					}
					v.xs = append(v.xs, x)
				}
				v.xs = slices.Grow(v.xs, v.atFloor)
				if got, want := v.dist(), plainDist(xs); got != want {
					t.Fatalf("n=%d seed=%d floor %v: %+v, want %+v (values %v)", n, seed, floor, got, want, xs)
				}
			}
		}
	}
}

// TestSelectNthOnLongLists checks selectNth on lists long enough for
// Floyd and Rivest's sampling step (over fr600 values; at 250,000 the
// sample's own selection samples too): the k-th value of a sort, none larger
// before it and none smaller after it, for ranks at both ends, the middle
// and the 95th percentile, on random, tied, constant, sorted and reversed
// lists.
func TestSelectNthOnLongLists(t *testing.T) {
	rng := rand.New(rand.NewPCG(54, 1))
	shapes := map[string]func(i, n int) float64{
		"random":   func(int, int) float64 { return rng.Float64() * 1e6 },
		"ties":     func(int, int) float64 { return float64(rng.IntN(7)) },
		"constant": func(int, int) float64 { return 3 },
		"sorted":   func(i, _ int) float64 { return float64(i) },
		"reversed": func(i, n int) float64 { return float64(n - i) },
		"skewed": func(int, int) float64 { // mostly 0, a long tail
			if rng.IntN(2) == 0 {
				return 0
			}
			return math.Exp(rng.Float64() * 12)
		},
	}
	names := slices.Sorted(maps.Keys(shapes))
	for _, n := range []int{fr600, fr600 + 1, fr600 + 2, 1000, 4097, 30000, 250000} {
		for _, name := range names {
			xs := make([]float64, n)
			for i := range xs {
				xs[i] = shapes[name](i, n)
			}
			sorted := slices.Clone(xs)
			slices.Sort(sorted)
			for _, k := range []int{0, 1, n / 2, rankIndex(n, 0.5), rankIndex(n, 0.95), n - 2, n - 1, rng.IntN(n)} {
				ys := slices.Clone(xs)
				if got := selectNth(ys, k); got != sorted[k] || ys[k] != got {
					t.Fatalf("%s n=%d k=%d: %v (xs[k] %v), want %v", name, n, k, got, ys[k], sorted[k])
				}
				if slices.Max(ys[:k+1]) != ys[k] || slices.Min(ys[k:]) != ys[k] {
					t.Fatalf("%s n=%d k=%d: not partitioned about xs[k] = %v", name, n, k, ys[k])
				}
				if slices.Sort(ys); !slices.Equal(ys, sorted) {
					t.Fatalf("%s n=%d k=%d: the values changed", name, n, k)
				}
			}
		}
	}
}
