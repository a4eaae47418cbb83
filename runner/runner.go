package runner

import (
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"sort"
	"sync"

	"github.com/schedfarm/schedfarm/families"
	"github.com/schedfarm/schedfarm/family"
	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/strategies"
	"github.com/schedfarm/schedfarm/workload"
	"github.com/schedfarm/schedfarm/workload/swf"
	"github.com/schedfarm/schedfarm/workload/tsafrir05"
)

// Config describes one simulation run.
type Config struct {
	// Trace is an SWF file (plain or gzip). Exactly one of Trace and Source
	// is set.
	Trace string
	// Source streams SWF records, e.g. from a generator.
	Source workload.Source
	// Procs is the machine size; 0 takes it from the trace header
	// (MaxProcs, then MaxNodes) or else the largest job.
	Procs int
	// Scheduler is a registry name; SchedulerParams its parameters.
	Scheduler       string
	SchedulerParams map[string]any
	// Registry to build the scheduler from (a plugin's); nil means the
	// runner's catalog (Runner.Catalog().Schedulers()).
	Registry *strategies.Registry
	// Estimates is "user", "exact" or "pyss"; Overrun "kill" or "extend".
	Estimates string
	Overrun   string
	// Events is how an instant's events reach the scheduler: "instant"
	// (default: completions first, one pass per instant) or "pyss" (pyss's
	// order: arrivals first, a pass after every arrival and completion;
	// sim.Options.PerEvent).
	Events string
	// UserEstimates, when "tsafrir05" (UserEstimatesTsafrir), replaces the
	// requested time (field 9) of every simulated job by a modelled user
	// runtime estimate before the run (see ModelledEstimates); "" or "none"
	// leaves field 9 as it is. It needs Estimates "user".
	UserEstimates string
	// MaxEstimate is the model's Tmax in seconds (0: automatic, the rule of
	// models.AssignEstimates); EstBins its user-supplied bins (the
	// sec=percent list est_bins). Only with UserEstimates.
	MaxEstimate int
	EstBins     []tsafrir05.UserPercent
	// Load is a target offered load reached by scaling interarrival times;
	// 0 leaves the workload as it is.
	Load float64
	// Gamma is the bounded-slowdown threshold (default sim.DefaultGamma).
	Gamma float64
	// WarmupJobs excludes the first jobs from the per-job aggregates.
	WarmupJobs int
	// MaxJobs keeps only the first jobs of the workload (0: all).
	MaxJobs int
	// Lenient skips malformed SWF lines (counted) instead of failing.
	Lenient bool
	// FamilyFields are the values of the workload fields the families
	// define (family.SpecChecker: the VM tiers' workload.cpu_usage,
	// cpu_estimate and cpu_error), by full name, each of its field's kind
	// (float64 for a float, …). Every run checks them
	// (families.Catalog.CheckWorkloadFields); a scheduler whose entry
	// prepares its runs (strategies.Entry.Prepare) reads them.
	FamilyFields map[string]any
	// Seed feeds anything random in the run; the classic schedulers use
	// none. Modelled estimates (UserEstimates) draw from their own stream,
	// PCG(Seed, EstimatesStream).
	Seed uint64
	// Wrap, if set, wraps the scheduler before the run (instrumentation,
	// test harnesses). A one-shot run whose piped read gives up (runPiped)
	// calls it again for the run it then makes the usual way.
	Wrap func(sim.Scheduler) sim.Scheduler
}

// Runner runs simulations with the schedulers, models and platforms of
// one family catalog: an SWF run (Run), or a cell of any kind (RunCell).
// It holds no other state; one Runner serves any number of goroutines.
type Runner struct {
	cat       *families.Catalog
	noCache   bool // read every trace from its file (WithoutTraceCache)
	noRecords bool // leave Result.Records nil (WithoutRecords)
}

// New returns a runner of the catalog's families.
func New(cat *families.Catalog) *Runner { return &Runner{cat: cat} }

// WithoutTraceCache returns a runner that reads each trace straight from its
// file instead of through the process's trace cache. The results are the
// same; a process that simulates one trace once (`schedfarm sim`) saves the
// cache's work, which only pays when a trace is simulated again: hashing
// the file twice (to find it, then to check what was parsed) and copying
// every record out of the shared parse.
func (r *Runner) WithoutTraceCache() *Runner {
	c := *r
	c.noCache = true
	return &c
}

// WithoutRecords returns a runner whose SWF runs leave Result.Records nil,
// so that WriteSchedule and ScheduleRecord cannot be used; the jobs,
// summary and metrics are the same. A one-shot run that reads its trace
// while it simulates (WithoutTraceCache, runPiped) then parses each piece
// of the file into one reused buffer instead of keeping every record
// (swf.ReadPiecesOnce): for KTH-SP2, 4 MB and about a thousand page
// faults less, which `schedfarm sim` without --schedule saves.
func (r *Runner) WithoutRecords() *Runner {
	c := *r
	c.noRecords = true
	return &c
}

// Catalog returns the runner's family catalog.
func (r *Runner) Catalog() *families.Catalog { return r.cat }

// withDefaults fills unset fields and checks the rest.
func (c Config) withDefaults(cat *families.Catalog) (Config, error) {
	if c.Estimates == "" {
		c.Estimates = EstimatesUser
	}
	if c.Overrun == "" {
		c.Overrun = OverrunKill
	}
	if c.Events == "" {
		c.Events = EventsInstant
	}
	if c.Registry == nil {
		c.Registry = cat.Schedulers()
	}
	var errs []error
	if err := checkModes(c.Estimates, c.Overrun); err != nil {
		errs = append(errs, err)
	}
	if c.Events != EventsInstant && c.Events != EventsPyss {
		errs = append(errs, fmt.Errorf("events %q; accepted: %s (one pass per instant, completions first) or %s (pyss's order: arrivals first, a pass after every event)", c.Events, EventsInstant, EventsPyss))
	}
	if (c.Trace == "") == (c.Source == nil) {
		errs = append(errs, errors.New("workload: give exactly one of a trace file or a job source"))
	}
	if c.Procs < 0 {
		errs = append(errs, fmt.Errorf("procs %d; accepted: > 0, or 0 for the trace's machine size", c.Procs))
	}
	if c.Load < 0 {
		errs = append(errs, fmt.Errorf("load %g; accepted: > 0, or 0 to keep the workload's load", c.Load))
	}
	if c.Gamma < 0 || c.WarmupJobs < 0 || c.MaxJobs < 0 {
		errs = append(errs, fmt.Errorf("gamma %g, warm-up %d, max jobs %d; accepted: ≥ 0", c.Gamma, c.WarmupJobs, c.MaxJobs))
	}
	if err := c.checkUserEstimates(); err != nil {
		errs = append(errs, err)
	}
	if c.Scheduler == "" {
		c.Scheduler = "easy"
	}
	if err := c.Registry.Check(c.Scheduler, c.SchedulerParams); err != nil {
		errs = append(errs, err)
	} else if e, _ := c.Registry.Lookup(c.Scheduler); e.Platform != "" {
		errs = append(errs, fmt.Errorf("scheduler %s runs %s workloads only (its family's own platform), not an SWF run", e.Name, e.Platform))
	}
	if err := cat.CheckWorkloadFields(c.FamilyFields); err != nil {
		errs = append(errs, err)
	}
	return c, errors.Join(errs...)
}

// Result is the outcome of one run.
type Result struct {
	Config      Config
	Platform    sim.Platform
	ProcsSource string // "flag", "MaxProcs", "MaxNodes" or "largest job"
	Header      swf.Header
	// Jobs are the simulated jobs in submit order; Records the SWF records
	// they came from (same order).
	Jobs    []*sim.Job
	Records []workload.Job
	Summary sim.Summary
	Adjust  Adjustments
	// Estimates describes the modelled user estimates (Config.UserEstimates);
	// the zero value when there are none.
	Estimates ModelledEstimates
	// SkippedLines counts malformed lines skipped in lenient mode.
	SkippedLines int
	// LoadFactor is the interarrival factor applied (1 when none);
	// OfferedLoad the offered load of the simulated workload.
	LoadFactor  float64
	OfferedLoad float64
	// Stats counts the engine's events and passes.
	Stats sim.Stats
	// Extra are the scheduler's own metrics (family.MetricReporter, e.g.
	// CMBF's suspensions), appended by Metrics after the runner's; nil for
	// a scheduler without any.
	Extra []family.Metric

	bufs *buffers // the memory of Jobs and Records, until Release
}

// Release hands the memory of the run's jobs and records to later runs in
// this process, which reuse it instead of allocating afresh, so that a
// worker running cell after cell keeps the garbage collector (and the
// page faults of fresh memory) out of the way. After Release, Jobs and
// Records are nil and no *sim.Job taken from them may be used: a later run
// overwrites it. Calling Release is optional; a Result never released is
// collected as usual.
func (r *Result) Release() {
	if r.bufs == nil {
		return
	}
	r.Jobs, r.Records = nil, nil
	putBuffers(r.bufs)
	r.bufs = nil
}

// buffers are a run's large allocations, recycled through freeBuffers by
// Result.Release.
type buffers struct {
	records []workload.Job
	jobs    []sim.Job // the simulated jobs are carved from here
	demand  []int     // and their Demand slices from here
	list    []*sim.Job
}

// freeBuffers keeps released buffers for the next runs, one per core (as
// many as a process runs cells at once). A sync.Pool would drop them at
// every second collection, and a cell of 200,000 jobs collects several
// times, so each such cell allocated its records and job slabs anew, and
// the kernel zeroed and mapped them page by page again.
var freeBuffers = make(chan *buffers, runtime.GOMAXPROCS(0))

// getBuffers returns released buffers, or new ones if none are kept.
func getBuffers() *buffers {
	select {
	case b := <-freeBuffers:
		return b
	default:
		return new(buffers)
	}
}

// putBuffers keeps b for a later run, or lets the collector have it when
// as many are kept as there are cores.
func putBuffers(b *buffers) {
	select {
	case freeBuffers <- b:
	default:
	}
}

// Run performs one simulation of an SWF workload.
func (r *Runner) Run(cfg Config) (*Result, error) {
	cfg, err := cfg.withDefaults(r.cat)
	if err != nil {
		return nil, err
	}
	if e, err := cfg.Registry.Lookup(cfg.Scheduler); err == nil && r.pipes(cfg, e) {
		if res, ok := r.runPiped(cfg, !r.noRecords); ok {
			return res, nil
		}
	}
	b := getBuffers()
	res := &Result{Config: cfg, LoadFactor: 1}
	records, err := readRecords(cfg, res, b.records[:0], !r.noCache)
	if err != nil {
		putBuffers(b)
		return nil, err
	}
	b.records = records
	res.bufs = b
	procs, err := machineSize(cfg, res, records)
	if err != nil {
		return nil, err
	}
	res.Platform = sim.Processors(procs)
	if cfg.modelledEstimates() {
		// On the records kept by MaxJobs, in this run's own copy (the
		// cached trace is not touched). Before the load scaling, which
		// moves submit times only (the estimates do not depend on them),
		// so that the load factor counts the runtimes capped to Tmax.
		if res.Estimates, err = assignEstimates(cfg, records); err != nil {
			return nil, err
		}
	}
	if cfg.Load > 0 {
		factor, _, err := workload.LoadFactor(records, procs, cfg.Load)
		if err != nil {
			return nil, fmt.Errorf("load %g: %w", cfg.Load, err)
		}
		// records is this run's own copy (readRecords): scale it in place.
		if err := workload.ScaleSubmits(records, factor); err != nil {
			return nil, err
		}
		res.LoadFactor = factor
	}
	n := len(records)
	if cap(b.jobs) < n {
		b.jobs, b.demand = make([]sim.Job, n), make([]int, n)
	}
	if cap(b.list) < n {
		b.list = make([]*sim.Job, 0, n)
	}
	parts := 1
	if r.noCache && cfg.Trace != "" {
		// A one-shot run of a trace file (cells of a sweep already keep
		// every core busy).
		parts = min(runtime.GOMAXPROCS(0), n/convertPartMin)
	}
	jobs, kept, adj := convertRecords(cfg, procs, records, b.jobs[:n], b.demand[:n], b.list[:0], parts)
	if adj.PyssOneSecond > 0 {
		// pyss submits its problem records at 1 s at the earliest, which
		// may move one behind later records: restore submit order (stable,
		// as pyss's event queue keeps the file order of equal times).
		sortBySubmit(jobs, kept)
	}
	res.Records = kept
	if r.noRecords {
		res.Records = nil // the buffers keep them for the next run
	}
	res.Adjust = adj
	res.OfferedLoad = offeredLoad(jobs, procs)
	entry, err := cfg.Registry.Lookup(cfg.Scheduler)
	if err != nil {
		return nil, err
	}
	if err := prepare(cfg, entry, &res.Platform, jobs); err != nil {
		return nil, err
	}
	sched, reporter, closeSched, err := newScheduler(cfg, res.Platform)
	if err != nil {
		return nil, err
	}
	defer closeSched()
	res.Jobs, res.Stats, err = sim.RunWith(res.Platform, sched, sim.NewSliceStream(jobs), nil, sim.Options{PerEvent: cfg.Events == EventsPyss})
	if err != nil {
		return res, fmt.Errorf("%s: %w", cfg.Scheduler, err)
	}
	res.summarize(reporter, r.noCache)
	return res, nil
}

// newScheduler builds cfg's scheduler for plat, wrapped by cfg.Wrap, with
// the scheduler's own metric reporter (taken before Wrap hides it) and the
// function to call after the run: an external scheduler (a plugin process)
// ends with its run.
func newScheduler(cfg Config, plat sim.Platform) (sim.Scheduler, family.MetricReporter, func(), error) {
	sched, err := cfg.Registry.New(cfg.Scheduler, plat, cfg.SchedulerParams)
	if err != nil {
		return nil, nil, nil, err
	}
	done := func() {}
	if c, ok := sched.(io.Closer); ok {
		done = func() { c.Close() }
	}
	reporter, _ := sched.(family.MetricReporter)
	if cfg.Wrap != nil {
		sched = cfg.Wrap(sched)
	}
	return sched, reporter, done, nil
}

// summarize adds, to a finished run, the scheduler's own metrics (reporter
// may be nil) and the aggregates of its jobs. concurrent says the run is
// its process's only one (WithoutTraceCache), so that the aggregates may
// take a second core (sim.MetricOptions.Concurrent).
func (res *Result) summarize(reporter family.MetricReporter, concurrent bool) {
	if reporter != nil {
		res.Extra = reporter.ExtraMetrics()
	}
	res.Summary = sim.Summarize(res.Jobs, res.Platform, sim.MetricOptions{
		Gamma: res.Config.Gamma, WarmupJobs: res.Config.WarmupJobs,
		// A one-shot run has the other cores to itself once it is
		// simulated (cells of a sweep already keep every core busy).
		Concurrent: concurrent && runtime.GOMAXPROCS(0) > 1,
	})
}

// convertPartMin is the least number of records a goroutine of
// convertRecords is given: below it a goroutine costs more than it saves.
const convertPartMin = 8192

// convertRecords converts records into simulation jobs carved from store
// and demand (one slot per record), appended to list in record order, and
// returns them with the records kept (records compacted in place) and the
// counts of what the estimate semantics changed. With parts > 1 the records
// are converted in that many consecutive stretches at once, each on its own
// goroutine with its own stretch of store and demand: a record's conversion
// depends on the record, the modes and the machine size only, so the jobs,
// their order and the counts are the same as with one stretch.
func convertRecords(cfg Config, procs int, records []workload.Job, store []sim.Job, demand []int, list []*sim.Job, parts int) ([]*sim.Job, []workload.Job, Adjustments) {
	n := len(records)
	parts = max(1, min(parts, n))
	convs := make([]converter, parts)
	lists := make([][]*sim.Job, parts) // part k's jobs, in list[lo:hi] of its records
	dropped := make([][]int, parts)    // the indices of the records part k dropped
	one := func(k int) {
		lo, hi := k*n/parts, (k+1)*n/parts
		c := &convs[k]
		*c = converter{mode: cfg.Estimates, overrun: cfg.Overrun, procs: procs, store: store[lo:hi], demand: demand[lo:hi]}
		l := list[lo:lo:hi]
		for i := lo; i < hi; i++ {
			if j := c.convert(&records[i]); j != nil {
				l = append(l, j)
			} else {
				dropped[k] = append(dropped[k], i)
			}
		}
		clear(c.store) // slots of dropped records: no stale pointers from an earlier run
		lists[k] = l
	}
	var wg sync.WaitGroup
	for k := 1; k < parts; k++ {
		wg.Go(func() { one(k) })
	}
	one(0)
	wg.Wait()
	jobs := lists[0]
	adj := convs[0].adj
	for k := 1; k < parts; k++ {
		jobs = append(jobs, lists[k]...) // moves down within list, never up
		adj = adj.plus(convs[k].adj)
	}
	kept := records
	if len(jobs) < n {
		kept = records[:0]
		next := 0 // of the dropped records, in order
		all := slices.Concat(dropped...)
		for i := range records {
			if next < len(all) && all[next] == i {
				next++
				continue
			}
			kept = append(kept, records[i])
		}
	}
	return jobs, kept, adj
}

// sortBySubmit stably sorts jobs by submit time, permuting recs alike. Only
// the shortest stretch that is out of order is sorted (pyss's 1-second
// records move jobs submitted before 1 s, near the start of a trace): the
// jobs before it are no later than any in it and the jobs after it no
// earlier, so the result is the stable sort of the whole list.
func sortBySubmit(jobs []*sim.Job, recs []workload.Job) {
	lo, hi := unsortedWindow(jobs)
	if hi-lo < 2 {
		return
	}
	idx := make([]int, hi-lo)
	for i := range idx {
		idx[i] = lo + i
	}
	sort.SliceStable(idx, func(a, b int) bool { return jobs[idx[a]].Submit < jobs[idx[b]].Submit })
	j2, r2 := slices.Clone(jobs[lo:hi]), slices.Clone(recs[lo:hi])
	for i, k := range idx {
		jobs[lo+i], recs[lo+i] = j2[k-lo], r2[k-lo]
	}
}

// unsortedWindow returns the shortest [lo, hi) whose stable sort by submit
// time sorts all of jobs (lo == hi when they are sorted already).
func unsortedWindow(jobs []*sim.Job) (lo, hi int) {
	n := len(jobs)
	lo = 0
	for lo+1 < n && jobs[lo].Submit <= jobs[lo+1].Submit {
		lo++
	}
	if lo+1 >= n {
		return 0, 0
	}
	hi = n - 1
	for jobs[hi-1].Submit <= jobs[hi].Submit {
		hi--
	}
	least, most := jobs[lo].Submit, jobs[lo].Submit
	for _, j := range jobs[lo : hi+1] {
		least, most = min(least, j.Submit), max(most, j.Submit)
	}
	// Widen over the neighbours that must move: a strictly later job
	// before the stretch, a strictly earlier one after it (equal ones
	// keep their places, as a stable sort leaves them).
	for lo > 0 && jobs[lo-1].Submit > least {
		lo--
	}
	for hi+1 < n && jobs[hi+1].Submit < most {
		hi++
	}
	return lo, hi + 1
}

// traceCache holds the traces this process has parsed, so that the cells of
// a sweep over one trace parse it once per process rather than once per
// cell (see swf.Cache: a file is recognised by its path, size, modification
// time and content hash, so an edited trace is read again).
var traceCache = swf.NewCache(TraceCacheBytes)

// TraceCacheBytes bounds the memory the parsed traces kept between runs
// occupy (about 150 bytes per job: KTH-SP2's 28,489 jobs take 4 MB).
const TraceCacheBytes = 256 << 20

// readRecords appends the workload's SWF records (up to MaxJobs) to dst,
// which is the caller's own to modify; through the process's trace cache
// when cached is set.
func readRecords(cfg Config, res *Result, dst []workload.Job, cached bool) ([]workload.Job, error) {
	if cfg.Trace != "" && traceCache != nil && cached {
		if t, ok := traceCache.Load(cfg.Trace, swf.Options{Lenient: cfg.Lenient}); ok {
			res.Header = t.Header()
			shared, skipped := t.Read(cfg.MaxJobs)
			res.SkippedLines = skipped
			return append(dst, shared...), nil
		}
		// Not cacheable (unreadable or malformed): the reader below
		// reports why, exactly as without a cache.
	}
	if cfg.Trace != "" && !cached && cfg.MaxJobs == 0 {
		// A one-shot run of a plain trace: parsed in parts on every
		// core when that gives what the reader below gives.
		if hdr, jobs, ok := swf.ReadParts(cfg.Trace, swf.Options{Lenient: cfg.Lenient}); ok {
			res.Header = hdr
			if cap(dst) < len(jobs) {
				return jobs, nil
			}
			return append(dst, jobs...), nil
		}
	}
	src := cfg.Source
	if cfg.Trace != "" {
		r, err := swf.Open(cfg.Trace, swf.Options{Lenient: cfg.Lenient})
		if err != nil {
			return nil, err
		}
		defer r.Close()
		res.Header = r.Header()
		defer func() { res.SkippedLines = r.SkipCount() }()
		src = r
	}
	records := dst
	if n, ok := src.(interface{ Len() int }); ok && n.Len() > cap(dst) {
		records = make([]workload.Job, 0, n.Len())
	} else if n := res.Header.MaxJobs(); n > int64(cap(dst)) && n < 1<<24 {
		records = make([]workload.Job, 0, n)
	}
	for cfg.MaxJobs == 0 || len(records) < cfg.MaxJobs {
		j, err := src.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		records = append(records, j)
	}
	return records, nil
}

// machineSize picks the platform size: the flag, else the header, else the
// largest job.
func machineSize(cfg Config, res *Result, records []workload.Job) (int, error) {
	if cfg.Procs > 0 {
		res.ProcsSource = "flag"
		return cfg.Procs, nil
	}
	var largest int64
	for i := range records {
		if p := records[i].Procs(); p > largest {
			largest = p
		}
	}
	size, source := swf.MachineSize(res.Header, largest)
	if size <= 0 {
		return 0, errors.New("machine size unknown: the trace has no MaxProcs/MaxNodes header and no job with a processor count; give --procs")
	}
	res.ProcsSource = source
	return int(size), nil
}

// offeredLoad is Σ procs·work / (P · submit span) of the simulated jobs.
func offeredLoad(jobs []*sim.Job, procs int) float64 {
	if len(jobs) < 2 {
		return 0
	}
	span := jobs[len(jobs)-1].Submit - jobs[0].Submit
	if span <= 0 {
		return 0
	}
	w := 0.0
	for _, j := range jobs {
		w += float64(j.Procs()) * j.Work()
	}
	return w / (float64(procs) * span)
}
