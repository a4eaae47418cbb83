package stms

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/schedfarm/schedfarm/ga"
	"github.com/schedfarm/schedfarm/sim"
)

// Scheme is one of the paper's four migration schemes.
type Scheme int

// The schemes of §3.
const (
	STMS   Scheme = iota // state-tracking migration only
	IRSTMS               // + immediate restart for single-resource jobs
	GBSTMS               // + greedy backfilling (WSEPT, Condition 2)
	SPSTMS               // + selective preemption (PP, PF, c)
)

// String returns the registry name (schemes).
func (s Scheme) String() string { return schemes[s].name }

// SchemeOf parses a registry name.
func SchemeOf(name string) (Scheme, bool) {
	for i, row := range schemes {
		if row.name == name {
			return Scheme(i), true
		}
	}
	return 0, false
}

// Names lists the schemes' registry names in the paper's order.
func Names() []string {
	out := make([]string, len(schemes))
	for i, row := range schemes {
		out[i] = row.name
	}
	return out
}

// Dispatch is how a resource runs the jobs mapped to it.
type Dispatch int

// The dispatch modes.
const (
	// Timetable: a mapped job starts at its planned start (the end of the
	// α·PET slots planned before it on its resource) or, if its resource is
	// still busy then, when the resource frees; a job that ends early leaves
	// its resource idle until the next planned start — the voids of Problem 2
	// that GBS fills and IRS restarts use (§2.3.2, §3).
	Timetable Dispatch = iota
	// Eager: a resource starts its next mapped job as soon as it is free;
	// voids are only the idle time before the next cycle.
	Eager
)

var dispatchNames = [...]string{"timetable", "eager"}

// String returns the mode's name.
func (d Dispatch) String() string { return dispatchNames[d] }

// DispatchOf parses a mode's name.
func DispatchOf(name string) (Dispatch, bool) {
	i := slices.Index(dispatchNames[:], name)
	return Dispatch(i), i >= 0
}

// DispatchNames lists the modes.
func DispatchNames() []string { return slices.Clone(dispatchNames[:]) }

// Config configures a Scheduler. Start from DefaultConfig.
type Config struct {
	Scheme Scheme
	// Dispatch is how resources run their mapped jobs.
	Dispatch Dispatch
	Model
	// Alpha is the overestimation factor α (Table 2: 1.75): planned
	// runtimes are α·PET, and Condition 1 requires PET ≤ α·(deadline −
	// submit).
	Alpha float64
	// Interval is the scheduling interval in seconds (Table 2: 1 h).
	Interval float64
	// Batch is the mGA batch size (Table 2: 50).
	Batch int
	// C is SPS's preemption coefficient c (Table 2: 2.5) and Slot how
	// often (seconds) a waiting contender's PF is compared again.
	C, Slot float64
	// MaxChain bounds the resources of one job's chain (primary +
	// backups).
	MaxChain int
	// MaxRestarts bounds IRS restarts of one job; after that it migrates.
	MaxRestarts int
	// IRSFill is how IR-STMS's IRS-ruled jobs fill voids (voids.go).
	IRSFill IRSFill
	// GA holds the mGA settings (Jobs and Resources are set per batch).
	GA ga.Config
	// CapacityUtil weighs each resource's planned busy time by its speed in
	// the mGA's utilisation objective (the share of the platform's flops
	// busy); false counts resource-seconds, which rewards slow resources.
	CapacityUtil bool
	// FailureSeed seeds the per-job failure streams: job i draws its
	// failure times from PCG(mix(FailureSeed[0], i), FailureSeed[1]).
	FailureSeed [2]uint64
}

// DefaultConfig returns Table 2's settings for a scheme.
func DefaultConfig(s Scheme) Config {
	g := ga.Default(1, 1)
	return Config{Scheme: s, Model: Model{TraceInterval: 600, TraceOverhead: 6, TransferFactor: 1},
		Alpha: 1.75, Interval: 3600, Batch: 50, C: 2.5, Slot: 300,
		MaxChain: 3, MaxRestarts: 20, GA: g}
}

// Validate reports every bad field with what is accepted.
func (c Config) Validate() error {
	var errs []error
	bad := func(f string, v any, want string) {
		errs = append(errs, fmt.Errorf("stms: %s = %v; accepted: %s", f, v, want))
	}
	pos := func(f string, v float64) {
		if !(v > 0) || math.IsInf(v, 0) {
			bad(f, v, "a finite number > 0")
		}
	}
	if c.Scheme < STMS || c.Scheme > SPSTMS {
		bad("Scheme", int(c.Scheme), "stms, ir-stms, gb-stms or sp-stms")
	}
	if !(c.Alpha >= 1) || math.IsInf(c.Alpha, 0) {
		bad("Alpha", c.Alpha, "a finite number ≥ 1")
	}
	pos("Interval", c.Interval)
	pos("Slot", c.Slot)
	if !(c.C > 0) || math.IsInf(c.C, 0) {
		bad("C", c.C, "a finite number > 0")
	}
	if c.Batch < 2 {
		bad("Batch", c.Batch, "an integer ≥ 2")
	}
	if c.MaxChain < 1 {
		bad("MaxChain", c.MaxChain, "an integer ≥ 1")
	}
	if c.MaxRestarts < 0 {
		bad("MaxRestarts", c.MaxRestarts, "an integer ≥ 0")
	}
	if !(c.TraceInterval >= 0) || !(c.TraceOverhead >= 0) || math.IsInf(c.TraceInterval+c.TraceOverhead, 0) {
		bad("TraceInterval/TraceOverhead", fmt.Sprintf("%g/%g", c.TraceInterval, c.TraceOverhead), "finite numbers ≥ 0")
	}
	if !(c.MigrationCost >= 0) || math.IsInf(c.MigrationCost, 0) {
		bad("MigrationCost", c.MigrationCost, "a finite number of seconds ≥ 0")
	}
	if !(c.TransferFactor >= 0) || math.IsInf(c.TransferFactor, 0) {
		bad("TransferFactor", c.TransferFactor, "a finite number ≥ 0")
	}
	if c.Dispatch != Timetable && c.Dispatch != Eager {
		bad("Dispatch", int(c.Dispatch), "timetable or eager")
	}
	if c.IRSFill != FillVoids && c.IRSFill != FillRestart {
		bad("IRSFill", int(c.IRSFill), "voids or restart")
	}
	g := c.GA
	g.Jobs, g.Resources = c.Batch, 1
	if err := g.Validate(); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

type phase uint8

const (
	pReady   phase = iota // in the ready queue
	pQueued               // in a resource's local queue
	pRunning              // running
	pTransit              // migrating (data transfer)
	pDone
)

// jstate is the scheduler's record of one job.
type jstate struct {
	sj *sim.Job
	// GB-STMS's backfill reads these of every ready job (backfill, through
	// its copy gbReady): the job's column index in gbPET (its ID − 1) and
	// the weight its PET is multiplied by, max(deadline − submit, 1e-9).
	gbIdx int
	gbW   float64
	a     Job
	chain []int     // resources: primary, then backups
	slots []float64 // reserved start of each chain stage (planner.slots)
	next  int       // next backup in chain
	irs   bool      // restarted in place after a failure
	// irsSlot is α × eq. 4 on its primary for an IRS-ruled job of IR-STMS:
	// its planned slot, and what must fit a void it fills (fillIRS).
	irsSlot float64
	res     int // resource it is queued on, runs on or moves to
	ph      phase

	started    bool
	firstStart float64
	planned    float64 // timetable: planned start on its primary resource
	runFrom    float64
	rate       float64
	failAt     float64
	arrive     float64 // end of a transfer
	fallback   bool    // migrating beyond its chain: no slot reserved for it
	contender  bool    // SPS: a migrant or preempted job at the head of a queue
	checkAt    float64 // SPS: next PF comparison
	race       race    // SPS: its race with the job running where it waits
	group      int     // dispatch group (batch) for IJF
	backfilled bool
	rng        *rand.Rand

	failures, migrations, restarts, preempted int
}

// rstate is one resource's timeline.
type rstate struct {
	run     *jstate
	queue   []*jstate
	busy    float64
	lastEnd float64
	used    bool
}

// Counters are what the scheduler did in a run.
type Counters struct {
	Failures, Migrations, Restarts, Preemptions, Backfilled int
	// VoidFills counts IRS-ruled jobs IR-STMS started early in a void
	// (reading FillVoids).
	VoidFills int
	// Fallbacks counts migrations whose job had no backup left in its chain
	// and went to the resource expected to finish it first.
	Fallbacks int
	// Batches counts mGA batches, Windows Min-Min (sliding-window) groups,
	// Cycles scheduling cycles.
	Batches, Windows, Cycles int
	// Condition1 counts committed jobs whose PET exceeds α × their
	// demanded flow time.
	Condition1 int
	// TransferTime is the total migration delay, seconds.
	TransferTime float64
	// PlanGain sums, over mGA batches, the relative reduction of the
	// planned makespan of the mGA's mapping against its Min-Min template.
	PlanGain float64
}

// Scheduler is the batch-mode STMS scheduler of one scheme (sim.Scheduler).
// Build it with New; it simulates one run.
type Scheduler struct {
	cfg   Config
	res   []Resource
	rs    []rstate
	jobs  []jstate // by sim job ID − 1
	ready []*jstate
	trans []*jstate
	gaRng *rand.Rand

	nextCycle float64
	groups    int
	cnt       Counters
	// voidFillSeen: under FillRestart, a pass came where FillVoids would
	// have filled a void (probeVoidFill).
	voidFillSeen bool
	eff          float64
	scratch      []Stage
	one          [1]Resource
	plan         *planner
	// gbPET[r·len(jobs) + i] is α × eq. 4 of job ID i+1 on resource r (a
	// column per resource, which backfill scans), filled
	// on arrival under GBS (its backfill check reads it for every ready job
	// on every idle resource, every pass).
	gbPET []float64
	// gbReady: backfill's copy of the ready jobs' gbIdx and gbW.
	gbReady []gbReady
	// failHook, when set (tests), replaces the failure draw: the delay
	// before job id fails on resource r.
	failHook func(id int64, r int) float64
	// mapHook, when set (tests), replaces the mapping of every batch or
	// window: the order and chains of the loaded batch's jobs.
	mapHook func(p *planner) (order []int, chains [][]int)
	// batchHook, when set (benchmarks), sees every mGA batch before it is
	// mapped: the planner loaded with the batch and the expected free times.
	batchHook func(p *planner, free []float64)
}

// New returns a scheduler for resources res and jobs whose attributes are
// attrs[i] for the sim.Job with ID i+1. The platform must be one pool with
// len(res) units. gaRng drives the mGA.
func New(cfg Config, res []Resource, attrs []Job, gaRng *rand.Rand) (*Scheduler, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if len(res) == 0 || gaRng == nil {
		return nil, errors.New("stms: no resources or nil *rand.Rand")
	}
	for i, r := range res {
		if !(r.Speed > 0) || !(r.Bandwidth > 0) || !(r.Lambda >= 0) || math.IsNaN(r.RAL) {
			return nil, fmt.Errorf("stms: resource %d = %+v; accepted: speed and bandwidth > 0, λ ≥ 0", i, r)
		}
	}
	for i, a := range attrs {
		if !(a.Size > 0) || math.IsInf(a.Size, 0) || !(a.Data >= 0) || math.IsNaN(a.SDV) || math.IsNaN(a.Deadline) {
			return nil, fmt.Errorf("stms: job %d = %+v; accepted: size > 0 and finite, data ≥ 0", i+1, a)
		}
	}
	if cfg.FallbackBandwidth == 0 {
		for _, r := range res {
			cfg.FallbackBandwidth += r.Bandwidth / float64(len(res))
		}
	}
	s := &Scheduler{cfg: cfg, res: res, rs: make([]rstate, len(res)), jobs: make([]jstate, len(attrs)), gaRng: gaRng, eff: cfg.Efficiency()}
	for i := range s.jobs {
		s.jobs[i] = jstate{a: attrs[i], res: -1, failAt: math.Inf(1)}
	}
	s.nextCycle = cfg.Interval
	s.plan = newPlanner(s)
	return s, nil
}

// Platform returns the platform New expects: one pool "resources" with one
// unit per resource.
func Platform(resources int) sim.Platform {
	return sim.Platform{Pools: []sim.Pool{{Name: "resources", Capacity: resources}}}
}

func (s *Scheduler) state(j *sim.Job) *jstate {
	i := int(j.ID) - 1
	if i < 0 || i >= len(s.jobs) {
		panic(fmt.Sprintf("stms: job ID %d outside 1..%d (the attribute table)", j.ID, len(s.jobs)))
	}
	js := &s.jobs[i]
	js.sj = j
	return js
}

// Pass implements sim.Scheduler. Order at one instant: ends, arrivals,
// failures, transfers completed, SPS re-checks, the scheduling cycle, the
// dispatch of local queues, then greedy backfilling.
//
// Cycles fall every Interval while anything is waiting, running or moving
// (a pass is asked for at each); a cycle with nothing ready maps nothing.
// A cycle also runs at once when a whole batch is ready and nothing runs,
// waits or moves (the first batch of a run), and a job that arrives after
// the system went idle past a cycle time is mapped at once.
func (s *Scheduler) Pass(c *sim.Cluster, ch sim.Changes) {
	now := c.Now()
	for _, j := range ch.Ended {
		js := s.state(j)
		r := &s.rs[js.res]
		r.busy += now - js.runFrom
		r.lastEnd = now
		r.run = nil
		js.ph = pDone
	}
	for _, j := range ch.Arrived {
		js := s.state(j)
		js.ph = pReady
		s.ready = append(s.ready, js)
		if s.cfg.Scheme == GBSTMS {
			s.cacheIRS(js)
		}
	}
	for i := range s.rs {
		if r := &s.rs[i]; r.run != nil && r.run.failAt <= now {
			s.fail(c, i)
		}
	}
	s.transfers(c)
	if s.cfg.Scheme == SPSTMS {
		s.recheck(c)
	}
	switch {
	case now >= s.nextCycle && len(s.ready) > 0,
		len(s.ready) >= s.cfg.Batch && s.idle():
		s.cycle(c)
	case now >= s.nextCycle: // nothing to map: the cycle passes
		for s.nextCycle <= now {
			s.nextCycle += s.cfg.Interval
		}
	}
	s.dispatch(c)
	switch {
	case s.cfg.Scheme == GBSTMS:
		s.backfill(c)
	case s.cfg.Scheme == IRSTMS && s.cfg.IRSFill == FillVoids:
		s.fillIRS(c)
	case s.cfg.Scheme == IRSTMS:
		s.probeVoidFill(now)
	}
	if len(s.ready) > 0 || !s.idle() {
		c.WakeAt(s.nextCycle)
	}
}

// idle reports whether nothing runs, waits at a resource or moves.
func (s *Scheduler) idle() bool {
	for i := range s.rs {
		if s.rs[i].run != nil || len(s.rs[i].queue) > 0 {
			return false
		}
	}
	return len(s.trans) == 0
}

// failDelay draws when job js would fail on resource r (seconds from now),
// +Inf when it cannot.
func (s *Scheduler) failDelay(js *jstate, r int) float64 {
	if s.failHook != nil {
		return s.failHook(js.sj.ID, r)
	}
	h := Hazard(js.a, s.res[r])
	if h <= 0 {
		return math.Inf(1)
	}
	if js.rng == nil {
		id := uint64(js.sj.ID)
		js.rng = rand.New(rand.NewPCG(mix(s.cfg.FailureSeed[0]^mix(id)), s.cfg.FailureSeed[1]))
	}
	return js.rng.ExpFloat64() / h
}

// mix is splitmix64's finaliser.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// startOn runs js on resource r now (fresh, resumed or restarted state
// kept by the engine) at the resource's speed, and draws its failure.
func (s *Scheduler) startOn(c *sim.Cluster, js *jstate, r int) {
	now := c.Now()
	rs := &s.rs[r]
	rs.run, rs.used = js, true
	js.res, js.ph, js.runFrom, js.contender = r, pRunning, now, false
	var err error
	if !js.started {
		err = c.Start(js.sj)
		js.started, js.firstStart = true, now
	} else {
		err = c.Resume(js.sj)
	}
	if err != nil {
		return // the engine stops the run with this error
	}
	s.setRate(c, js, r)
}

func (s *Scheduler) setRate(c *sim.Cluster, js *jstate, r int) {
	now := c.Now()
	js.rate = s.res[r].Speed
	if !js.irs {
		js.rate *= s.eff // state traces cost time
	}
	if c.SetRate(js.sj, js.rate) != nil {
		return
	}
	end := now + c.Remaining(js.sj)/js.rate
	js.failAt = math.Inf(1)
	if d := s.failDelay(js, r); now+d < end && now+d > now {
		js.failAt = now + d
		c.WakeAt(js.failAt)
	}
}

// estimateFloor is the share of its estimated size a job that has run past
// its estimate is still expected to need.
const estimateFloor = 0.1

// remEst returns the work js is expected to have left, in Mflops: its
// estimated size less the work its state traces recorded (the engine's
// progress), at least estimateFloor of the estimate when it has run past
// it. The scheduler never sees the actual size.
func (s *Scheduler) remEst(c *sim.Cluster, js *jstate) float64 {
	if !js.started {
		return js.a.Size
	}
	done := (js.sj.Work() - c.Remaining(js.sj)) / 1e6
	return math.Max(js.a.Size-done, estimateFloor*js.a.Size)
}

// petOn is the PET of size Mflops of js on resource r as one stage: eq. 4
// for a job restarted in place (IRS), eqs. 2–3 for a migratable job.
func (s *Scheduler) petOn(js *jstate, size float64, r int) float64 {
	if js.irs {
		return PETIRS(js.a, size, s.res[r])
	}
	s.one[0] = s.res[r]
	var pet float64
	pet, s.scratch = s.cfg.PETChain(js.a, size, s.one[:], s.scratch)
	return pet
}

// remaining returns the expected remaining time of js on resource r: the
// PET of its expected remaining work there.
func (s *Scheduler) remaining(c *sim.Cluster, js *jstate, r int) float64 {
	return s.petOn(js, s.remEst(c, js), r)
}

// due reports whether the head of a local queue may start now: a
// contender always, a mapped job when the dispatch is eager or its planned
// start has come.
func (s *Scheduler) due(js *jstate, now float64) bool {
	return js.contender || s.cfg.Dispatch == Eager || js.planned <= now
}

// dispatch starts the head of every idle resource's local queue when it is
// due, and asks for a pass at its planned start otherwise.
func (s *Scheduler) dispatch(c *sim.Cluster) {
	now := c.Now()
	for r := range s.rs {
		rs := &s.rs[r]
		if rs.run != nil || len(rs.queue) == 0 {
			continue
		}
		js := rs.queue[0]
		if !s.due(js, now) {
			c.WakeAt(js.planned)
			continue
		}
		rs.queue = rs.queue[1:]
		s.startOn(c, js, r)
	}
}

// Counters returns what the scheduler did so far.
func (s *Scheduler) Counters() Counters { return s.cnt }
