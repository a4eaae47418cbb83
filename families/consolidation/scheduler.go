package consolidation

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/schedfarm/schedfarm/sim"
)

// Deploy is what a variant does with a background job that must move to
// the foreground on other processors (Algorithm 2).
type Deploy int

// The three variants of seed 000.
const (
	Kill    Deploy = iota // KEASY: kill and restart from scratch
	Reserve               // REASY: wait for its own foreground VMs
	Migrate               // MEASY: migrate, progress kept, at a cost
)

// String names the variant's scheduler.
func (d Deploy) String() string {
	return [...]string{"keasy", "reasy", "measy"}[d]
}

// DefaultThreshold is the foreground usage above which a background VM
// hosts no process (§2.1 point 3, §2.2.1 point 3).
const DefaultThreshold = 0.96

// Unknown is what the scheduler takes for the usage of a running process
// whose job came without a CPU-usage estimate (§3.5.1, Figs. 9–10: "the
// CPU usage estimation is not available at all"). §2.2.1 point 3's
// threshold and Algorithm 2's "processors in ascending order of their
// utilization" both read it. The readings are named in doc.go.
type Unknown int

// The readings of an unknown usage.
const (
	// UnknownObserved reads the processor's utilisation as observed: the
	// process's actual usage (the default; doc.go says why).
	UnknownObserved Unknown = iota
	// UnknownFull counts every unknown process as using 100%: a busy
	// foreground VM is at or above any threshold, so its background VM
	// takes no process.
	UnknownFull
	// UnknownIgnored drops the threshold (it cannot be evaluated) and
	// counts every unknown process the same in the utilisation order:
	// the behaviour before the readings were named.
	UnknownIgnored
)

// unknownNames are the parameter values of Unknown, in its order.
var unknownNames = [...]string{"observed", "full", "ignore"}

// String names the reading as the scheduler parameter unknown_usage does.
func (u Unknown) String() string {
	if u < 0 || int(u) >= len(unknownNames) {
		return fmt.Sprintf("Unknown(%d)", int(u))
	}
	return unknownNames[u]
}

// ParseUnknown returns the reading named s (a value of unknown_usage).
func ParseUnknown(s string) (Unknown, error) {
	for i, n := range unknownNames {
		if n == s {
			return Unknown(i), nil
		}
	}
	return 0, fmt.Errorf("unknown_usage %q; accepted: observed, full, ignore", s)
}

// PauseAt is where a migrating job pays MEASY's migration cost (§3: "a
// default cost of 20 seconds is configured in MEASY"; the paper says no
// more). The readings are named in doc.go.
type PauseAt int

// The readings of the migration cost.
const (
	// PauseAtTarget moves the job to its new foreground VMs at once, where
	// it makes no progress for the cost (Algorithm 2 inserts it into J_fg
	// at once): it holds the target's foreground VMs meanwhile.
	PauseAtTarget PauseAt = iota
	// PauseAtSource stops the job for the cost where it is, in its
	// background VMs, and moves it when the cost is paid, if enough
	// foreground VMs are idle then: the target's VMs stay free meanwhile.
	PauseAtSource
)

// pauseNames are the parameter values of PauseAt, in its order.
var pauseNames = [...]string{"target", "source"}

// String names the reading as the scheduler parameter migration_pause
// does.
func (a PauseAt) String() string {
	if a < 0 || int(a) >= len(pauseNames) {
		return fmt.Sprintf("PauseAt(%d)", int(a))
	}
	return pauseNames[a]
}

// ParsePauseAt returns the reading named s (a value of migration_pause).
func ParsePauseAt(s string) (PauseAt, error) {
	for i, n := range pauseNames {
		if n == s {
			return PauseAt(i), nil
		}
	}
	return 0, fmt.Errorf("migration_pause %q; accepted: target, source", s)
}

// DefaultMigrationCost is MEASY's migration cost in seconds (§3).
const DefaultMigrationCost = 20

// Config configures a Scheduler.
type Config struct {
	Deploy Deploy
	// Threshold is the foreground usage, in (0, 1], at or above which the
	// background VM of a processor accepts no process.
	Threshold float64
	// MigrationCost is the time a migrated job makes no progress (Migrate
	// only).
	MigrationCost sim.Time
	// Unknown is what a process without a usage estimate counts as (zero
	// value: UnknownObserved).
	Unknown Unknown
	// PauseAt is where a migration's cost is paid (Migrate only; zero
	// value: PauseAtTarget).
	PauseAt PauseAt
}

// Validate reports every bad field.
func (c Config) Validate() error {
	var bad []string
	if c.Deploy < Kill || c.Deploy > Migrate {
		bad = append(bad, fmt.Sprintf("deploy %d; accepted: Kill, Reserve or Migrate", c.Deploy))
	}
	if !(c.Threshold > 0 && c.Threshold <= 1) {
		bad = append(bad, fmt.Sprintf("threshold %g; accepted: in (0, 1]", c.Threshold))
	}
	if !(c.MigrationCost >= 0) || math.IsInf(c.MigrationCost, 1) {
		bad = append(bad, fmt.Sprintf("migration cost %g; accepted: finite and ≥ 0 seconds", c.MigrationCost))
	}
	if c.Unknown < UnknownObserved || c.Unknown > UnknownIgnored {
		bad = append(bad, fmt.Sprintf("unknown usage %d; accepted: UnknownObserved, UnknownFull or UnknownIgnored", c.Unknown))
	}
	if c.PauseAt < PauseAtTarget || c.PauseAt > PauseAtSource {
		bad = append(bad, fmt.Sprintf("migration pause %d; accepted: PauseAtTarget or PauseAtSource", c.PauseAt))
	}
	if len(bad) > 0 {
		return fmt.Errorf("consolidation: %v", bad)
	}
	return nil
}

// Scheduler is KEASY, REASY or MEASY on a two-tier platform.
type Scheduler struct {
	cfg   Config
	procs int
	// cands holds J_q ∪ J_bg in arrival order; fg the jobs in the
	// foreground, in the order of the last reservation.
	cands []listed
	fg    []fgJob
	fgSeq uint64
	// queued holds the waiting jobs of cands in Step 3's order: shortest
	// estimate first, then arrival order. Arrivals are inserted in place;
	// jobs that left the queue are dropped at Step 3.
	queued []listed
	// started holds the jobs place started since s.queued was last
	// compacted: the only way a waiting job leaves the queue.
	started []*sim.Job
	// candSizes and queuedSizes count the jobs of cands and queued by
	// processor count: Steps 2 and 3 stop when no job left in their list
	// could fit (sizes.go). passed is their scratch space.
	candSizes, queuedSizes sizeCounts
	passed                 []int
	// vms keeps, per tier, the idle VMs that may take a process in
	// eligible's order, up to date with the cluster's occupancy.
	vms vmLists
	// Scratch space reused between passes.
	picked, paired []int
	byUsage        []vm
	blockers       []*sim.Job
	avoid          []int
	// paying holds, for each background job migrating from its source
	// (PauseAtSource), the time its cost is paid; it stays stopped in its
	// background VMs until landPaid moves it.
	paying map[*sim.Job]sim.Time
}

// listed is a job of the candidate or the SJF list with the two numbers
// the passes' scans read, its processor count and estimate, copied beside
// it: a scan of the list (each pass walks it, some hundred jobs at load
// 0.9) then reads one array instead of following a pointer per job. Both
// numbers are fixed for the job's life; checkForgotten and checkQueued
// compare them with the job's.
type listed struct {
	job *sim.Job
	n   int
	est sim.Time
}

// listing returns j as a list entry.
func listing(j *sim.Job) listed {
	return listed{job: j, n: j.Demand[0], est: j.Estimate}
}

// fgJob is a job in the foreground: seq numbers the jobs in the order they
// went there; at is its expected termination as of the last reservation,
// key orderKey(at).
type fgJob struct {
	job *sim.Job
	seq uint64
	at  sim.Time
	key uint64
}

// before orders foreground jobs by expected termination, then seq.
func (f *fgJob) before(g *fgJob) bool {
	return f.key < g.key || f.key == g.key && f.seq < g.seq
}

// New returns a scheduler for platform p, which must have two tiers.
func New(p sim.Platform, cfg Config) (*Scheduler, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if p.Tiers != 2 {
		return nil, fmt.Errorf("%s needs a platform of two VM tiers per processor, got %d tier(s); accepted: platform tiers 2", cfg.Deploy, max(p.Tiers, 1))
	}
	return &Scheduler{cfg: cfg, procs: p.Pools[0].Capacity, paying: map[*sim.Job]sim.Time{}}, nil
}

// Pass runs Algorithm 1 (Algorithm 3 for REASY's reservation).
func (s *Scheduler) Pass(c *sim.Cluster, ch sim.Changes) {
	s.forget(ch.Ended)
	if s.vms.verify != nil {
		s.checkForgotten()
	}
	for _, j := range ch.Arrived {
		s.cands = append(s.cands, listing(j))
		s.candSizes.add(j.Demand[0], 1)
	}
	s.enqueue(ch.Arrived)
	s.landPaid(c)

	// Step 1: FCFS to the foreground.
	for i := 0; i < len(s.cands); {
		j := s.cands[i].job
		if s.cands[i].n > c.FreeIn(0) {
			break
		}
		if s.deploy(c, j) {
			s.toForeground(i)
			continue
		}
		i++
	}
	if len(s.cands) == 0 {
		return
	}

	// Step 2: reservation for the head, then backfill.
	// The reservation is computed at the first candidate that fits: no
	// action was taken before it, so it is the one of the loop's start,
	// and when none fits it is not needed.
	var (
		shadow   sim.Time
		extra    int
		avoid    []int
		reserved bool
	)
	// The scan stops when no candidate left needs at most the idle
	// foreground VMs (free0): left counts those not yet visited, or more
	// (sizes.go); passed holds the sizes of those visited and kept.
	// Only a deployment changes the idle VMs (it takes some): free0 is
	// read again after each attempt.
	now := c.Now()
	free0 := c.FreeIn(0)
	passed := s.passed[:0]
	left := fitting(&s.candSizes, len(s.cands), free0, passed)
	for i := 0; ; {
		if left <= 0 {
			if s.vms.verify != nil {
				s.checkNoneFits("candidate", s.cands[i:], free0)
			}
			break
		}
		for i < len(s.cands) && s.cands[i].n > free0 {
			i++
		}
		if i == len(s.cands) {
			break
		}
		nj, j := s.cands[i].n, s.cands[i].job
		if !reserved {
			reserved = true
			head := s.cands[0].job
			shadow, extra = s.reservation(c, head)
			// REASY's head in the background waits for the foreground
			// VMs of its own processors: its extra VMs are "the ones now
			// idle and no process of the job is running in their
			// background VMs" (§2.3.1), so a job backfilled on them (one
			// ending after T_S) must avoid its processors.
			if s.cfg.Deploy == Reserve && head.State() == sim.Running {
				_, avoid = c.Placement(head)
				avoid = append(s.avoid[:0], avoid...)
				s.avoid = avoid
			}
		}
		late := j.Estimate+now > shadow
		deployed := false
		if !late || nj <= extra {
			if late && avoid != nil && j.State() == sim.Queued {
				deployed = s.place(c, j, 0, s.eligibleAvoiding(c, nj, avoid))
			} else {
				deployed = s.deploy(c, j)
			}
			if late {
				extra -= nj
			}
		}
		if deployed {
			s.toForeground(i)
		} else {
			passed = append(passed, nj)
			i++
		}
		left--
		if f := c.FreeIn(0); f != free0 {
			free0, left = f, fitting(&s.candSizes, len(s.cands), f, passed)
		}
	}
	s.passed = passed

	// Step 3: SJF to the background.
	s.dropStarted()
	if s.vms.verify != nil {
		s.checkQueued()
	}
	// A job is placed when enough background VMs qualify; after a job
	// that is not, the loop ends if none qualifies. The number that
	// qualify (free, counted when first needed after each placement) is
	// at most the number idle, which tells most jobs they do not fit
	// without counting: their own check that none qualifies is made at
	// the next count, nothing having changed in between.
	//
	// The scan passes over the jobs that need more than bound VMs (the
	// idle ones, or those that qualify once counted) in a tight loop, and
	// stops when none left needs at most bound: left counts those not yet
	// visited, or more; passed holds the sizes of those visited (queued
	// keeps the jobs placed here until the next dropStarted).
	free, unchecked := -1, false
	bound := c.FreeIn(1)
	passed = s.passed[:0]
	left = fitting(&s.queuedSizes, len(s.queued), bound, passed)
	for qi := 0; ; {
		if left <= 0 {
			if s.vms.verify != nil {
				s.checkNoneFits("SJF", s.queued[qi:], bound)
			}
			break
		}
		from := qi
		for qi < len(s.queued) && s.queued[qi].n > bound {
			qi++
		}
		if qi > from {
			// Jobs that do not fit: none does when no VM is left;
			// while free is not counted, their check is the next count's.
			if bound == 0 {
				break // no background VM left for anyone
			}
			if free < 0 {
				unchecked = true
			}
		}
		if qi == len(s.queued) {
			break
		}
		j, n := s.queued[qi].job, s.queued[qi].n
		qi++
		passed = append(passed, n)
		left--
		if free < 0 {
			free = s.vms.count(s, c, 1)
			if unchecked && free == 0 {
				break
			}
		}
		if n <= free {
			if procs := s.eligible(c, 1, n); procs != nil {
				s.place(c, j, 1, procs)
				free, unchecked = -1, false
			}
		}
		if free == 0 {
			break // no background VM left for anyone
		}
		b := free
		if b < 0 {
			b = c.FreeIn(1)
		}
		if b != bound {
			bound, left = b, fitting(&s.queuedSizes, len(s.queued), b, passed)
		}
	}
	s.passed = passed
}

// checkForgotten records a job in a final state left in the candidate or
// foreground lists (forget skips the candidates when no ended job was
// among them).
func (s *Scheduler) checkForgotten() {
	s.vms.verify.checks++
	for _, e := range s.cands {
		if e.job.State().Final() {
			s.vms.verify.fail("job %d ended but is still a candidate", e.job.ID)
		}
		s.checkListed("candidate", e)
	}
	s.checkSizes("candidate", s.cands, &s.candSizes)
	for _, f := range s.fg {
		if f.job.State().Final() {
			s.vms.verify.fail("job %d ended but is still in the foreground list", f.job.ID)
		}
	}
}

// checkEnds compares the order of s.fg with the plain computation: the
// foreground jobs in the order they went there, stably sorted by expected
// termination.
func (s *Scheduler) checkEnds() {
	want := slices.Clone(s.fg)
	slices.SortFunc(want, func(a, b fgJob) int { return cmp.Compare(a.seq, b.seq) })
	slices.SortStableFunc(want, func(a, b fgJob) int { return cmp.Compare(a.at, b.at) })
	s.vms.verify.checks++
	for i := range want {
		if want[i].job != s.fg[i].job {
			s.vms.verify.fail("foreground jobs by end at position %d: job %d, sorted from scratch job %d", i, s.fg[i].job.ID, want[i].job.ID)
			return
		}
	}
}

// checkQueued compares s.queued with Step 3's order computed from scratch:
// the waiting candidates, in arrival order, stably sorted by estimate.
func (s *Scheduler) checkQueued() {
	var want []*sim.Job
	for _, e := range s.cands {
		if e.job.State() == sim.Queued {
			want = append(want, e.job)
		}
	}
	slices.SortStableFunc(want, func(a, b *sim.Job) int { return cmp.Compare(a.Estimate, b.Estimate) })
	s.vms.verify.checks++
	got := make([]*sim.Job, len(s.queued))
	for i, e := range s.queued {
		got[i] = e.job
		s.checkListed("SJF", e)
	}
	if !slices.Equal(got, want) {
		s.vms.verify.fail("SJF order %v, sorted from scratch %v", jobIDs(got), jobIDs(want))
	}
	s.checkSizes("SJF", s.queued, &s.queuedSizes)
}

// checkSizes records a count of sizes that is not that of list: for every
// size in the list and one past the largest, the jobs needing at most that
// many processors.
func (s *Scheduler) checkSizes(name string, list []listed, sizes *sizeCounts) {
	ns := make([]int, 0, len(list)+1)
	for _, e := range list {
		ns = append(ns, e.n)
	}
	slices.Sort(ns)
	if len(ns) > 0 {
		ns = append(ns, ns[len(ns)-1]+1)
	}
	for i, n := range ns {
		want := min(i+1, len(list))
		if i+1 < len(ns) && ns[i+1] == n {
			continue // the last of equal sizes counts them all
		}
		if got := sizes.atMost(n); got != want {
			s.vms.verify.fail("%s list: %d jobs need at most %d processors, counted %d", name, want, n, got)
			return
		}
	}
	if got := sizes.atMost(math.MaxInt32); got != len(list) {
		s.vms.verify.fail("%s list: %d jobs, counted %d", name, len(list), got)
	}
}

// checkNoneFits records a job of rest, the jobs a scan of Step 2 or 3 did
// not visit, that needs at most bound VMs: the scan stopped too soon.
func (s *Scheduler) checkNoneFits(name string, rest []listed, bound int) {
	s.vms.verify.checks++
	if len(rest) > 0 {
		s.vms.verify.stops++
	}
	for _, e := range rest {
		if e.n <= bound {
			s.vms.verify.fail("the %s scan stopped with job %d (%d processors) unvisited and %d VMs left", name, e.job.ID, e.n, bound)
			return
		}
	}
}

// checkListed records an entry of list whose copied numbers are not its
// job's.
func (s *Scheduler) checkListed(list string, e listed) {
	if e != listing(e.job) {
		s.vms.verify.fail("%s entry of job %d holds %d processors, estimate %v; the job: %d, %v", list, e.job.ID, e.n, e.est, e.job.Demand[0], e.job.Estimate)
	}
}

// jobIDs returns the IDs of jobs, in order (messages).
func jobIDs(jobs []*sim.Job) []int64 {
	ids := make([]int64, len(jobs))
	for i, j := range jobs {
		ids[i] = j.ID
	}
	return ids
}

// enqueue inserts arrivals (in arrival order, after every job already
// queued) into s.queued: after the jobs of equal or shorter estimate, which
// is where a stable sort by estimate of the waiting jobs in arrival order
// puts them.
func (s *Scheduler) enqueue(arrived []*sim.Job) {
	for _, j := range arrived {
		i, _ := slices.BinarySearchFunc(s.queued, j.Estimate, func(q listed, est sim.Time) int {
			if cmp.Compare(q.est, est) <= 0 {
				return -1
			}
			return 1
		})
		s.queued = slices.Insert(s.queued, i, listing(j))
		s.queuedSizes.add(j.Demand[0], 1)
	}
}

// dropStarted removes from s.queued the jobs place started since the last
// call. Each is found by its estimate (the list is sorted by it, equal
// estimates in arrival order); a few are cut out one by one, more are
// marked and the gaps closed in one pass.
func (s *Scheduler) dropStarted() {
	if len(s.started) == 0 {
		return
	}
	const oneByOne = 4
	marked := false
	for _, j := range s.started {
		i, _ := slices.BinarySearchFunc(s.queued, j.Estimate, func(q listed, est sim.Time) int {
			return cmp.Compare(q.est, est)
		})
		for ; i < len(s.queued) && s.queued[i].est == j.Estimate; i++ {
			if s.queued[i].job != j {
				continue
			}
			s.queuedSizes.add(s.queued[i].n, -1)
			if len(s.started) <= oneByOne {
				s.queued = slices.Delete(s.queued, i, i+1)
			} else {
				s.queued[i].job, marked = nil, true
			}
			break
		}
	}
	if marked {
		s.queued = slices.DeleteFunc(s.queued, func(e listed) bool { return e.job == nil })
	}
	clear(s.started)
	s.started = s.started[:0]
}

// forget drops ended jobs from the candidate and foreground lists.
func (s *Scheduler) forget(ended []*sim.Job) {
	if len(ended) == 0 {
		return
	}
	final := func(j *sim.Job) bool { return j.State().Final() }
	// Every ended job ran in the foreground (s.fg) or the background
	// (s.cands), and every job that ended earlier is gone from both: the
	// candidates need a look only when some ended job was not in s.fg.
	n := len(s.fg)
	s.fg = slices.DeleteFunc(s.fg, func(f fgJob) bool { return final(f.job) })
	if n-len(s.fg) < len(ended) {
		s.cands = slices.DeleteFunc(s.cands, func(e listed) bool {
			if final(e.job) {
				s.candSizes.add(e.n, -1)
				return true
			}
			return false
		})
	}
	if len(s.paying) > 0 {
		for _, j := range ended {
			delete(s.paying, j)
		}
	}
}

// toForeground moves candidate i to the foreground list.
func (s *Scheduler) toForeground(i int) {
	s.fg = append(s.fg, fgJob{job: s.cands[i].job, seq: s.fgSeq})
	s.fgSeq++
	s.candSizes.add(s.cands[i].n, -1)
	s.cands = slices.Delete(s.cands, i, i+1)
}

// deploy is Algorithm 2: it moves j to the foreground if the variant allows
// and reports whether it did. The caller has checked that enough
// foreground VMs are idle.
func (s *Scheduler) deploy(c *sim.Cluster, j *sim.Job) bool {
	if j.State() == sim.Queued {
		return s.place(c, j, 0, s.eligible(c, 0, j.Demand[0]))
	}
	if _, ok := s.paying[j]; ok {
		return false // migrating from its source: landPaid moves it
	}
	ownFree := s.ownFree(c, j)
	var err error
	switch {
	case ownFree:
		err = c.Relocate(j, 0, s.paired, sim.Relocation{})
	case s.cfg.Deploy == Kill:
		err = c.Relocate(j, 0, s.eligibleFor(c, j), sim.Relocation{Restart: true})
	case s.cfg.Deploy == Migrate && s.cfg.PauseAt == PauseAtSource && s.cfg.MigrationCost > 0:
		// Pay the cost where it stands; the foreground VMs stay free.
		until := c.Now() + s.cfg.MigrationCost
		if c.PauseInPlace(j, s.cfg.MigrationCost) != nil {
			return false
		}
		s.paying[j] = until
		c.WakeAt(until)
		return false
	case s.cfg.Deploy == Migrate:
		err = c.Relocate(j, 0, s.eligibleFor(c, j), sim.Relocation{Pause: s.cfg.MigrationCost})
	default:
		return false // REASY: only on its own processors
	}
	return err == nil
}

// ownFree reports whether the foreground VMs of all the processors of j
// (running in the background) are idle, and if so leaves those processors
// in s.paired.
func (s *Scheduler) ownFree(c *sim.Cluster, j *sim.Job) bool {
	_, own := c.Placement(j)
	for _, p := range own {
		if o, _ := c.Occupant(0, p); o != nil {
			return false
		}
	}
	s.paired = append(s.paired[:0], own...)
	return true
}

// landPaid ends the migrations paid at their source (PauseAtSource): every
// background job whose cost is paid moves to the foreground, in arrival
// order and ahead of Algorithm 1 (the decision to move it was taken when it
// began to pay), as soon as enough foreground VMs are idle; until then it
// stays stopped in its background VMs, its checkpoint ready.
func (s *Scheduler) landPaid(c *sim.Cluster) {
	if len(s.paying) == 0 {
		return
	}
	now := c.Now()
	// Every paying job is a candidate (it runs in the background): the
	// scan ends once it has met them all. A paying job is running (paused
	// in place), so a queued candidate is passed over without looking it
	// up (most candidates are queued where the scan is long).
	unmet, i := len(s.paying), 0
	for i < len(s.cands) && unmet > 0 {
		j := s.cands[i].job
		if j.State() != sim.Running {
			i++
			continue
		}
		until, ok := s.paying[j]
		if !ok {
			i++
			continue
		}
		unmet--
		if now < until {
			i++
			continue
		}
		if j.Demand[0] <= c.FreeIn(0) {
			var err error
			if s.ownFree(c, j) {
				err = c.Relocate(j, 0, s.paired, sim.Relocation{})
			} else {
				err = c.Relocate(j, 0, s.eligibleFor(c, j), sim.Relocation{})
			}
			if err != nil {
				return
			}
			delete(s.paying, j)
			s.toForeground(i)
			continue
		}
		if until == now && c.PauseInPlace(j, math.Inf(1)) != nil {
			return
		}
		i++
	}
	if s.vms.verify != nil {
		s.checkUnmet(s.cands[i:])
	}
}

// checkUnmet records a paying job among rest, the candidates landPaid's
// scan left unvisited once it had met every paying job.
func (s *Scheduler) checkUnmet(rest []listed) {
	s.vms.verify.checks++
	for _, e := range rest {
		if _, ok := s.paying[e.job]; ok {
			s.vms.verify.fail("landPaid stopped before paying job %d", e.job.ID)
		}
	}
}

// eligibleFor returns the foreground VMs a background job moves to, paired
// with its processes. Its own background processes still count in the
// utilisation order of their processors (Relocate frees them only when it
// moves the job).
func (s *Scheduler) eligibleFor(c *sim.Cluster, j *sim.Job) []int {
	procs := s.eligible(c, 0, j.Demand[0])
	if procs == nil {
		return nil
	}
	return s.pair(j, procs)
}

// place starts j (queued) in tier on procs, pairing processes with
// processors as Dispatch does.
func (s *Scheduler) place(c *sim.Cluster, j *sim.Job, tier int, procs []int) bool {
	if procs == nil {
		return false
	}
	err := c.StartOn(j, tier, s.pair(j, procs))
	if j.State() != sim.Queued {
		s.started = append(s.started, j)
	}
	return err == nil
}

// eligible returns n processors whose VM in tier is idle (for the
// background: and whose foreground usage is below the threshold), in
// ascending order of the usage estimate of their other VM (then by index);
// nil if fewer than n qualify. The slice is scratch space, valid until the
// next call.
func (s *Scheduler) eligible(c *sim.Cluster, tier, n int) []int {
	s.picked = s.vms.first(s, c, tier, n, nil, s.picked[:0])
	if len(s.picked) < n {
		return nil
	}
	return s.picked
}

// eligibleAvoiding is eligible for the foreground, skipping the processors
// in avoid (REASY's head's own): n idle foreground VMs in ascending order of
// utilisation, or nil if fewer than n qualify.
func (s *Scheduler) eligibleAvoiding(c *sim.Cluster, n int, avoid []int) []int {
	s.picked = s.vms.first(s, c, 0, n, avoid, s.picked[:0])
	if len(s.picked) < n {
		return nil
	}
	return s.picked
}

// vmKey reports whether the VM of tier on processor p may take a process
// (it is idle; for the background: its foreground's usage is below the
// threshold) and its sort key: the usage estimate of the process in the
// processor's other VM, 0 when that VM is idle.
func (s *Scheduler) vmKey(c *sim.Cluster, tier, p int) (util float64, ok bool) {
	if o, _ := c.Occupant(tier, p); o != nil {
		return 0, false
	}
	other := 1 - tier
	if o, i := c.Occupant(other, p); o != nil {
		u, known := s.usage(c, o, i, other, p)
		if tier == 1 && known && u >= s.cfg.Threshold {
			return 0, false
		}
		return u, true
	}
	return 0, true
}

// build returns, sorted from scratch into l, the idle VMs of a tier that may
// take a process in eligible's order: what vmLists keeps (and what its
// cross-check compares it with).
func (s *Scheduler) build(c *sim.Cluster, tier int, l []candidate) []candidate {
	l = l[:0]
	for p := 0; p < s.procs; p++ {
		if u, ok := s.vmKey(c, tier, p); ok {
			l = append(l, candidate{proc: p, util: u})
		}
	}
	slices.SortFunc(l, compareCandidates)
	return l
}

// compareCandidates is eligible's order: ascending utilisation, then
// processor index (a total order: the processors differ).
func compareCandidates(a, b candidate) int {
	if c := cmp.Compare(a.util, b.util); c != 0 {
		return c
	}
	return a.proc - b.proc
}

// candidate is an idle VM and the usage estimate of its processor's other
// VM.
type candidate struct {
	proc int
	util float64
}

// pair assigns j's processes, in descending order of estimated usage, to
// procs (already in ascending order of utilisation): procs[k] goes to the
// k-th busiest process. It returns the processor of each process, in
// scratch space valid until the next call (the cluster copies it).
func (s *Scheduler) pair(j *sim.Job, procs []int) []int {
	n := j.Demand[0]
	s.paired = slices.Grow(s.paired[:0], n)[:n]
	if j.CPUEstimate == nil || n == 1 {
		copy(s.paired, procs[:n])
		return s.paired
	}
	if o := j.CPUOrder(); len(o) == n {
		// The order sorted once for every run of this draw (drawCPU).
		for k, i := range o {
			s.paired[i] = procs[k]
		}
		return s.paired
	}
	s.byUsage = byEstimate(s.byUsage, j.CPUEstimate[:n], &s.vms.buf)
	for k, e := range s.byUsage {
		s.paired[e.proc] = procs[k]
	}
	return s.paired
}

// byEstimate fills l (its contents dropped) with the processes of one job
// whose estimates are est, in pair's order: descending estimate, equal
// estimates in process order — ascending (^orderKey(estimate), process),
// a total order. buf is sortVMs's scratch space.
func byEstimate(l []vm, est []float64, buf *sortBuf) []vm {
	l = l[:0]
	for i, u := range est {
		l = append(l, vm{key: ^orderKey(u), proc: i})
	}
	sortVMs(l, buf)
	return l
}

// usage returns what the scheduler takes for the usage of process i of the
// running job j, in VM (tier, p), and whether the threshold can be applied to it: the
// estimate the job came with, or, without one, what the reading s.cfg.Unknown
// says — the observed (actual) usage, 100%, or nothing (UnknownIgnored: 0
// as a neutral sort key, so every unknown process counts the same, and the
// threshold is not applied).
func (s *Scheduler) usage(c *sim.Cluster, j *sim.Job, i, tier, p int) (float64, bool) {
	if j.CPUEstimate != nil {
		return j.CPUEstimate[i], true
	}
	switch s.cfg.Unknown {
	case UnknownObserved:
		return c.ObservedCPU(tier, p), true
	case UnknownFull:
		return 1, true
	}
	return 0, false
}

// reservation returns the shadow time T_S and the extra foreground VMs N_E
// of head (Step 2 of Algorithm 1; Algorithm 3 for REASY when head runs in
// the background).
func (s *Scheduler) reservation(c *sim.Cluster, head *sim.Job) (shadow sim.Time, extra int) {
	need := head.Demand[0]
	future := c.FreeIn(0)
	if s.cfg.Deploy == Reserve && head.State() == sim.Running {
		// Algorithm 3: the foreground jobs on head's own processors.
		_, own := c.Placement(head)
		blockers := s.blockers[:0]
		defer func() { s.blockers = blockers[:0] }()
		sum := 0
		for _, p := range own {
			o, _ := c.Occupant(0, p)
			if o == nil || slices.Contains(blockers, o) {
				continue
			}
			blockers = append(blockers, o)
			sum += o.Demand[0]
			shadow = max(shadow, s.termination(c, o))
		}
		return shadow, future + sum - need
	}
	// The foreground jobs by expected termination, stably (equal times in
	// the order they went to the foreground): keyed (orderKey(at), seq), a
	// total order. s.fg is kept in the last pass's order, which the
	// termination times change little: an insertion sort has little to do.
	for i := range s.fg {
		f := &s.fg[i]
		f.at = s.termination(c, f.job)
		f.key = orderKey(f.at)
	}
	for i := 1; i < len(s.fg); i++ {
		f := s.fg[i]
		k := i
		for ; k > 0 && f.before(&s.fg[k-1]); k-- {
			s.fg[k] = s.fg[k-1]
		}
		s.fg[k] = f
	}
	if s.vms.verify != nil {
		s.checkEnds()
	}
	for _, f := range s.fg {
		future += f.job.Demand[0]
		if future >= need {
			return f.at, future - need
		}
	}
	return 0, 0 // unreachable: the foreground jobs hold every busy VM
}

// termination is a foreground job's expected end: now plus what is left of
// its estimate.
func (s *Scheduler) termination(c *sim.Cluster, j *sim.Job) sim.Time {
	left := j.Estimate - c.Progress(j)
	if !(left > 0) && left == left {
		left = 0 // math.Max(0, left) inline: NaN stays, −0 and below give +0
	}
	return c.Now() + left
}
