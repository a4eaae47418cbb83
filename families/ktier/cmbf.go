package ktier

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/schedfarm/schedfarm/family"
	"github.com/schedfarm/schedfarm/sim"
)

// DefaultThreshold is the foreground CPU usage at or above which a node's
// background VMs take no new process (seed 000's 96%, §2.1).
const DefaultThreshold = 0.96

// DefaultMigrationCost is the time, in seconds, a background job promoted
// to the foreground VMs of other nodes makes no progress: seed 000's
// migration cost (§3: 20 s), the platform this family reuses. Seed 003
// names no cost (doc.go, "Constants the paper does not give").
const DefaultMigrationCost = 20.0

// Config configures CMBF.
type Config struct {
	// Threshold is the foreground usage estimate, in (0, 1], at or above
	// which a node's background VMs take no new process (§3.2).
	Threshold float64
	// MigrationCost is the time in seconds a promoted background job
	// makes no progress when it moves to other nodes' foreground VMs (a
	// migration); a move up on its own nodes (a swap of VM priorities)
	// costs nothing.
	MigrationCost float64
}

// Validate names a bad field and what is accepted.
func (c Config) Validate() error {
	if !(c.Threshold > 0 && c.Threshold <= 1) {
		return fmt.Errorf("cmbf: threshold %g; accepted: in (0, 1]", c.Threshold)
	}
	if !(c.MigrationCost >= 0) || math.IsInf(c.MigrationCost, 1) {
		return fmt.Errorf("cmbf: migration cost %g; accepted: finite and ≥ 0 seconds", c.MigrationCost)
	}
	return nil
}

// Scheduler is seed 003's modified CMBF on K-tier VMs. Each pass walks the
// queue Q in arrival order (suspended jobs are back in Q at their arrival
// position) and for each job j needing N_j processes:
//
//  1. dispatch: if N_j foreground VMs are idle, j runs there (a fresh job
//     starts, a suspended one resumes with its progress); a job that was
//     not the head of Q joins the backfilled set Q_backfill (Basic CMBF:
//     "If j is not at the head of Q then Insert j into Q_backfill");
//  2. suspend (the paper's Basic CMBF): else, if the idle foreground VMs
//     plus those held by backfilled jobs that arrived later than j are at
//     least N_j, those later jobs are suspended in descending order of
//     arrival (saving their state: sim.Cluster.Preempt keeps their
//     progress; they go back to Q) until N_j are idle, and j is dispatched
//     there — the starvation policy of §3.3: a job runs as soon as its
//     processors are idle or held by later arrivals. A job dispatched in
//     this branch does not join Q_backfill (the pseudo-code inserts into
//     it only in the idle-nodes branch), so no earlier job suspends it;
//  3. VM selection (§3.2, modified for K tiers): else a job that never ran
//     is placed on N_j idle background VMs of one tier (the lowest tier
//     that has enough) on nodes whose foreground usage estimate is below
//     the threshold (an idle foreground counts as 0; no CPU information:
//     every node qualifies), the nodes with the least estimated busy CPU
//     over all tiers first. A background job holds no foreground VM, so it
//     is never suspended.
//
// After the walk, background jobs, in arrival order, move up to the
// foreground wherever N_j foreground VMs are idle (§3.2: "change jobs which
// are running on the background to foreground when there is enough
// resource to run", in a migration-supported algorithm): on their own
// nodes when all of those foreground VMs are idle (a swap of VM
// priorities, free), otherwise to any idle foreground VMs (a migration,
// progress kept, MigrationCost seconds without progress; processes whose
// own node's foreground VM is idle stay on it, the others take the
// lowest-numbered idle foreground VMs). A promoted job joins the
// backfilled set when a job that arrived earlier is still waiting. On a
// dedicated machine (K = 1) steps 1 and 2 are the paper's CMBF itself.
type Scheduler struct {
	cfg   Config
	procs int
	// queue holds the waiting jobs (fresh and suspended) in arrival order.
	queue []held
	// order is each known job's arrival rank.
	order map[*sim.Job]uint64
	next  uint64
	// backfilled are the foreground jobs that later arrivals may not have
	// but earlier ones may suspend, in arrival order (the walk asks, for
	// every waiting job, what the later ones hold: a binary search and a
	// suffix, not a lookup of every backfilled job's rank); background the
	// jobs in background VMs; suspended the jobs stopped with their
	// progress kept.
	backfilled []held
	// cursor is firstLater's last answer, where it starts looking next:
	// the walk asks for ever later arrival ranks.
	cursor     int
	background []*sim.Job
	suspended  map[*sim.Job]bool
	// Suspensions counts the suspensions so far; Promotions the
	// background jobs moved to the foreground.
	Suspensions, Promotions int
	// bgMin is the smallest job size for which no background placement
	// was found in this pass since the last suspension: larger jobs are
	// not tried (placements only take VMs away; a suspension frees
	// foreground VMs and resets it).
	bgMin int
	// scratch
	later []*sim.Job
	cands []cand
	pick  []int
	to    []int
}

// held is a waiting or backfilled job with its arrival rank and its N_j
// (the foreground VMs it needs or holds); for a waiting job, susp tells
// whether it was suspended (progress kept, as in Scheduler.suspended).
type held struct {
	j    *sim.Job
	rank uint64
	n    int
	susp bool
}

// cand is an eligible idle background VM: its node and the node's
// estimated busy CPU.
type cand struct {
	p    int
	busy float64
}

// New returns CMBF for platform p: dedicated processors (one pool) or one
// processor pool split into K VM tiers.
func New(p sim.Platform, cfg Config) (*Scheduler, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if len(p.Pools) != 1 {
		return nil, fmt.Errorf("cmbf: %d resource pools; accepted: one processor pool (optionally split into VM tiers)", len(p.Pools))
	}
	return &Scheduler{cfg: cfg, procs: p.Pools[0].Capacity, order: map[*sim.Job]uint64{}, suspended: map[*sim.Job]bool{}}, nil
}

// Pass implements sim.Scheduler.
func (s *Scheduler) Pass(c *sim.Cluster, ch sim.Changes) {
	for _, j := range ch.Ended {
		s.dropBackfilled(j)
		s.background = remove(s.background, j)
		delete(s.order, j)
	}
	for _, j := range ch.Arrived {
		if n := j.Demand[0]; n > s.procs || n < 1 {
			c.Reject(j, fmt.Sprintf("needs %d processes; the machine has %d nodes", n, s.procs))
			continue
		}
		s.queue = append(s.queue, held{j: j, rank: s.next, n: j.Demand[0]})
		s.order[j] = s.next
		s.next++
	}
	s.bgMin = math.MaxInt
	for qi := 0; qi < len(s.queue); {
		j, n := s.queue[qi].j, s.queue[qi].n
		switch {
		case n <= c.FreeIn(0):
		case s.laterHold(s.queue[qi].rank, n-c.FreeIn(0)):
			s.suspendFor(c, j, s.queue[qi].rank)
			s.dispatch(c, j, false)
			s.queue = slices.Delete(s.queue, qi, qi+1)
			continue
		default:
			if c.Tiers() > 1 && !s.queue[qi].susp && n < s.bgMin {
				if s.startBackground(c, j) {
					s.queue = slices.Delete(s.queue, qi, qi+1)
					s.addBackground(j)
					continue
				}
				s.bgMin = n
			}
			qi++
			continue
		}
		s.dispatch(c, j, qi != 0)
		s.queue = slices.Delete(s.queue, qi, qi+1)
	}
	s.promote(c)
}

// addBackground records j as running in a background VM, keeping the
// background jobs in arrival order (the order promote takes them in).
func (s *Scheduler) addBackground(j *sim.Job) {
	at, _ := slices.BinarySearchFunc(s.background, s.order[j], func(b *sim.Job, r uint64) int { return cmp.Compare(s.order[b], r) })
	s.background = slices.Insert(s.background, at, j)
}

// laterHold reports whether the backfilled jobs that arrived later than
// the job of arrival rank r hold at least need foreground VMs (N_j ≤
// N_backfill + N_idle with need = N_j − N_idle).
func (s *Scheduler) laterHold(r uint64, need int) bool {
	ok := s.laterHoldKept(r, need)
	if checkLaterHold != nil {
		checkLaterHold(s, r, need, ok)
	}
	return ok
}

// checkLaterHold, set by tests, is called with every answer of laterHold.
var checkLaterHold func(s *Scheduler, r uint64, need int, got bool)

func (s *Scheduler) laterHoldKept(r uint64, need int) bool {
	if need <= 0 {
		return true
	}
	for _, b := range s.backfilled[s.firstLater(r):] {
		if need -= b.n; need <= 0 {
			return true
		}
	}
	return false
}

// firstLater returns the index of the first backfilled job that arrived
// later than the job of arrival rank r. The set is in arrival order, so
// when everything before the cursor arrived no later than r, the answer
// is at or after it; otherwise it is searched for.
func (s *Scheduler) firstLater(r uint64) int {
	bf, i := s.backfilled, s.cursor
	if i > len(bf) || i > 0 && bf[i-1].rank > r {
		i, _ = slices.BinarySearchFunc(bf, r+1, func(b held, r uint64) int { return cmp.Compare(b.rank, r) })
	}
	for i < len(bf) && bf[i].rank <= r {
		i++
	}
	s.cursor = i
	return i
}

// addBackfilled puts j into the backfilled set at its arrival position.
func (s *Scheduler) addBackfilled(j *sim.Job) {
	r := s.order[j]
	at, _ := slices.BinarySearchFunc(s.backfilled, r, func(b held, r uint64) int { return cmp.Compare(b.rank, r) })
	s.backfilled = slices.Insert(s.backfilled, at, held{j: j, rank: r, n: j.Demand[0]})
}

// dropBackfilled takes j out of the backfilled set, if it is there.
func (s *Scheduler) dropBackfilled(j *sim.Job) {
	if i := slices.IndexFunc(s.backfilled, func(b held) bool { return b.j == j }); i >= 0 {
		s.backfilled = slices.Delete(s.backfilled, i, i+1)
	}
}

// suspendFor suspends backfilled jobs that arrived later than j, latest
// first, until j's processes fit in the idle foreground VMs, and puts them
// back in the queue at their arrival position; r is j's arrival rank.
func (s *Scheduler) suspendFor(c *sim.Cluster, j *sim.Job, r uint64) {
	s.later = s.later[:0]
	later := s.backfilled[s.firstLater(r):]
	for i := len(later) - 1; i >= 0; i-- {
		s.later = append(s.later, later[i].j)
	}
	for _, b := range s.later {
		if j.Demand[0] <= c.FreeIn(0) {
			break
		}
		if c.Preempt(b) != nil {
			return
		}
		s.Suspensions++
		s.bgMin = math.MaxInt
		s.suspended[b] = true
		s.dropBackfilled(b)
		rb := s.order[b]
		at, _ := slices.BinarySearchFunc(s.queue, rb, func(q held, r uint64) int { return cmp.Compare(q.rank, r) })
		s.queue = slices.Insert(s.queue, at, held{j: b, rank: rb, n: b.Demand[0], susp: true})
	}
}

// dispatch runs j in idle foreground VMs (the lowest-numbered nodes): a
// fresh job starts, a suspended one resumes where it stopped. It joins the
// backfilled set when backfill is set (the idle-nodes branch, j not at the
// head of Q).
func (s *Scheduler) dispatch(c *sim.Cluster, j *sim.Job, backfill bool) {
	var err error
	if s.suspended[j] {
		delete(s.suspended, j)
		err = c.Resume(j)
	} else {
		err = c.Start(j)
	}
	if err == nil && backfill {
		s.addBackfilled(j)
	}
}

// startBackground places j on idle background VMs of one tier (§3.2) and
// reports whether it did.
func (s *Scheduler) startBackground(c *sim.Cluster, j *sim.Job) bool {
	n := j.Demand[0]
	for tier := 1; tier < c.Tiers(); tier++ {
		if c.FreeIn(tier) < n {
			continue
		}
		s.cands = s.cands[:0]
		for p := 0; p < s.procs; p++ {
			if o, _ := c.Occupant(tier, p); o != nil {
				continue
			}
			fg, known := 0.0, true
			if o, i := c.Occupant(0, p); o != nil {
				fg, known = usage(o, i)
			}
			if known && fg >= s.cfg.Threshold {
				continue
			}
			busy := 0.0
			for k := 0; k < c.Tiers(); k++ {
				if o, i := c.Occupant(k, p); o != nil {
					u, _ := usage(o, i)
					busy += u
				}
			}
			s.cands = append(s.cands, cand{p, busy})
		}
		if len(s.cands) < n {
			continue
		}
		leastLoaded(s.cands, n)
		s.pick = s.pick[:0]
		for _, cd := range s.cands[:n] {
			s.pick = append(s.pick, cd.p)
		}
		return c.StartOn(j, tier, slices.Clone(s.pick)) == nil
	}
	return false
}

// candLess orders candidate VMs by their node's estimated busy CPU, then
// by node: a strict order, as nodes are distinct.
func candLess(a, b cand) bool { return a.busy < b.busy || a.busy == b.busy && a.p < b.p }

// leastLoaded puts the n least loaded candidates, by candLess, first and
// in order: the first n of the sorted list, without sorting the rest (a
// selection, then a sort of n). As candLess is strict, the prefix is the
// same whatever the algorithm.
func leastLoaded(cs []cand, n int) {
	lo, hi := 0, len(cs)
	// cs[:lo] precede and cs[hi:] follow every other candidate, lo ≤ n ≤ hi.
	for lo < n && n < hi && hi-lo > 1 {
		m, l := lo+(hi-lo)/2, hi-1
		// median of three as the pivot, moved to l
		if candLess(cs[m], cs[lo]) {
			cs[m], cs[lo] = cs[lo], cs[m]
		}
		if candLess(cs[l], cs[lo]) {
			cs[l], cs[lo] = cs[lo], cs[l]
		}
		if candLess(cs[m], cs[l]) {
			cs[m], cs[l] = cs[l], cs[m]
		}
		pv, i := cs[l], lo
		for k := lo; k < l; k++ {
			if candLess(cs[k], pv) {
				cs[i], cs[k] = cs[k], cs[i]
				i++
			}
		}
		cs[i], cs[l] = cs[l], cs[i] // the pivot in its place
		if i < n {
			lo = i + 1
		} else {
			hi = i
		}
	}
	slices.SortFunc(cs[:n], func(a, b cand) int {
		if candLess(a, b) {
			return -1
		}
		return 1
	})
}

// promote moves background jobs up to the foreground, in arrival order,
// wherever their N_j processes find idle foreground VMs (§3.2).
func (s *Scheduler) promote(c *sim.Cluster) {
	for i := 0; i < len(s.background); {
		j := s.background[i]
		n := j.Demand[0]
		if c.FreeIn(0) < n {
			i++
			continue
		}
		_, own := c.Placement(j)
		to, swap := s.foregroundFor(c, own)
		how := sim.Relocation{}
		if !swap {
			how.Pause = s.cfg.MigrationCost
		}
		if c.Relocate(j, 0, to, how) != nil {
			return
		}
		s.Promotions++
		s.background = slices.Delete(s.background, i, i+1)
		if len(s.queue) > 0 && s.queue[0].rank < s.order[j] {
			s.addBackfilled(j)
		}
	}
}

// foregroundFor returns the idle foreground VMs for the processes now on
// the nodes own (process i on own[i]), at least len(own) of them being idle:
// a process whose own node's foreground VM is idle stays on that node, the
// others take the lowest-numbered idle foreground VMs of other nodes. swap
// reports that every process stays (a swap of VM priorities).
func (s *Scheduler) foregroundFor(c *sim.Cluster, own []int) (to []int, swap bool) {
	to = slices.Grow(s.to[:0], len(own))[:len(own)] // Relocate copies it
	s.to = to
	s.pick = s.pick[:0] // processes still to place
	for i, p := range own {
		if o, _ := c.Occupant(0, p); o == nil {
			to[i] = p
		} else {
			s.pick = append(s.pick, i)
		}
	}
	if len(s.pick) == 0 {
		return to, true
	}
	next := 0
	for p := 0; p < s.procs && next < len(s.pick); p++ {
		if o, _ := c.Occupant(0, p); o != nil || slices.Contains(own, p) {
			continue
		}
		to[s.pick[next]] = p
		next++
	}
	return to, false
}

// usage returns the scheduler's estimate of process i of j and whether it
// is known (without CPU-usage information: 0, false).
func usage(j *sim.Job, i int) (float64, bool) {
	if j.CPUEstimate == nil {
		return 0, false
	}
	return j.CPUEstimate[i], true
}

func remove(js []*sim.Job, j *sim.Job) []*sim.Job {
	if i := slices.Index(js, j); i >= 0 {
		return slices.Delete(js, i, i+1)
	}
	return js
}

// MetricSuspensions names the suspension count in a cell's results
// (the Parquet column metric_suspensions).
const MetricSuspensions = "suspensions"

// ExtraMetrics implements family.MetricReporter: the number of
// suspensions of the run (Suspensions), so that seed 003's results report
// them next to utilisation, wait and bounded slowdown.
func (s *Scheduler) ExtraMetrics() []family.Metric {
	return []family.Metric{{Name: MetricSuspensions, Value: float64(s.Suspensions)}}
}
