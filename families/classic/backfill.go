package classic

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/strategies/profile"
)

// Unlimited as a Depth gives every waiting job a reservation (conservative
// backfilling).
const Unlimited = -1

// Order is the order in which backfill candidates are tried.
type Order int

// Candidate orders.
const (
	SubmitOrder   Order = iota // first come, first tried
	ShortestFirst              // smallest estimate first; ties in submit order
)

// Config selects one member of the backfilling family.
type Config struct {
	Depth      int   // reservations held by waiting jobs: 0, k > 0, or Unlimited
	Backfill   bool  // may jobs without a reservation start early?
	Candidates Order // order of backfill candidates
}

// Validate reports a configuration outside the family.
func (c Config) Validate() error {
	if c.Depth < Unlimited {
		return fmt.Errorf("depth %d; accepted: 0, a positive number, or unlimited", c.Depth)
	}
	if c.Candidates != SubmitOrder && c.Candidates != ShortestFirst {
		return fmt.Errorf("candidate order %d; accepted: submit order or shortest first", c.Candidates)
	}
	return nil
}

// FCFS starts jobs strictly in submit order.
func FCFS() Config { return Config{Depth: 1} }

// EASY reserves for the queue head and backfills in submit order.
func EASY() Config { return Config{Depth: 1, Backfill: true} }

// SJBF is EASY with backfill candidates tried shortest estimate first.
func SJBF() Config { return Config{Depth: 1, Backfill: true, Candidates: ShortestFirst} }

// Conservative reserves for every waiting job.
func Conservative() Config { return Config{Depth: Unlimited, Backfill: true} }

// Depth reserves for the first k waiting jobs and backfills the rest.
func Depth(k int) Config { return Config{Depth: k, Backfill: true} }

// Backfill is the reservation-depth backfilling scheduler.
type Backfill struct {
	cfg      Config
	prof     *profile.Profile
	queue    []*entry // waiting jobs in submit order, and started ones not yet compacted
	head     int      // queue[:head] have all started (the walks begin at head)
	done     int      // started entries still in queue
	reserved int      // entries holding a reservation
	earliest sim.Time // earliest reservation start (+Inf: none)
	// shortest holds the entries of queue (ShortestFirst only) by
	// estimate, equal estimates in submit order: the order a stable sort
	// of the queue by estimate gives, kept as jobs arrive instead of
	// sorted at every backfill.
	shortest []*entry
	slab     []entry  // entries are carved from here, a chunk at a time
	free     []*entry // entries compacted out of the queue, for reuse
}

// entryChunk is the number of entries allocated at once.
const entryChunk = 256

// newEntry returns a fresh entry for j: a recycled one, or one carved from
// the slab. The memory held is thus bounded by the longest queue, not the
// number of jobs.
func (b *Backfill) newEntry(j *sim.Job) *entry {
	var e *entry
	if n := len(b.free); n > 0 {
		e = b.free[n-1]
		b.free = b.free[:n-1]
	} else {
		if len(b.slab) == 0 {
			b.slab = make([]entry, entryChunk)
		}
		e = &b.slab[0]
		b.slab = b.slab[1:]
	}
	*e = entry{job: j}
	return e
}

type entry struct {
	job      *sim.Job
	reserved bool
	start    sim.Time // reservation start, when reserved
	started  bool
}

// New returns a scheduler for platform p.
func New(p sim.Platform, cfg Config) (*Backfill, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return &Backfill{cfg: cfg, prof: profile.New(0, p.Capacities()), earliest: math.Inf(1)}, nil
}

// Config returns the scheduler's configuration.
func (b *Backfill) Config() Config { return b.cfg }

// Reservations returns the reservations currently held, in submit order
// (sim.Reserver).
func (b *Backfill) Reservations() []sim.Reservation {
	var rs []sim.Reservation
	for _, e := range b.queue {
		if e.reserved && !e.started {
			rs = append(rs, sim.Reservation{Job: e.job, Start: e.start})
		}
	}
	return rs
}

// minDur is the duration a zero estimate occupies in the profile, so a job
// that holds processors for an instant is still seen by the profile.
const minDur = 1e-6

// dur returns how long j occupies the profile from its start.
func dur(j *sim.Job) sim.Time { return max(j.Estimate, minDur) }

// Pass implements sim.Scheduler.
func (b *Backfill) Pass(c *sim.Cluster, ch sim.Changes) {
	now := c.Now()
	b.prof.Advance(now)

	released := false
	for _, j := range ch.Ended {
		if exp := j.Start() + dur(j); j.End() < exp {
			b.prof.Release(j.End(), exp, j.Demand)
			released = true
		}
	}
	if released && b.reserved > 0 {
		b.compress(now)
	}
	first := len(b.queue)
	for _, j := range ch.Arrived {
		e := b.newEntry(j)
		b.queue = append(b.queue, e)
		if b.cfg.Candidates == ShortestFirst {
			// After every entry of no greater estimate: they all arrived
			// earlier, and a stable sort keeps them first.
			i, _ := slices.BinarySearchFunc(b.shortest, e, func(x, e *entry) int {
				if byEstimate(x, e) <= 0 {
					return -1
				}
				return 1
			})
			b.shortest = slices.Insert(b.shortest, i, e)
		}
	}
	switch {
	case b.earliest <= now || b.cfg.Depth != Unlimited:
		// A reservation is due, or the reserved prefix may have room:
		// walk the queue from the start.
		b.startReserved(c, now, 0)
	case first < len(b.queue):
		// Unlimited depth and nothing due: only the arrivals need
		// reservations, and only they can start now.
		b.startReserved(c, now, first)
	}
	if b.cfg.Backfill && !noneFree(c) {
		b.backfill(c, now)
	}
	b.compact()
	if !math.IsInf(b.earliest, 1) {
		c.WakeAt(b.earliest)
	}
}

// compress re-places every reservation, in submit order, at its earliest
// start; none moves later.
func (b *Backfill) compress(now sim.Time) {
	b.earliest = math.Inf(1)
	left := b.reserved // the reservations still to re-place
	for _, e := range b.queue[b.firstWaiting():] {
		if left == 0 {
			break // none after this one (a long FCFS or EASY queue)
		}
		if !e.reserved || e.started {
			continue
		}
		left--
		d := dur(e.job)
		if s := b.prof.EarliestMove(now, d, e.job.Demand, e.start); s < e.start {
			b.prof.Release(e.start, e.start+d, e.job.Demand)
			b.prof.Reserve(s, s+d, e.job.Demand)
			e.start = s
		}
		b.earliest = min(b.earliest, e.start)
	}
}

// startReserved walks the queue in submit order from index from, granting
// reservations while slots are free and starting every reserved job whose
// time has come. Walking from 0 also recomputes the earliest reservation.
// With a finite depth the reserved jobs are always the first waiting ones,
// so the walk stops at the first job that cannot get a reservation.
func (b *Backfill) startReserved(c *sim.Cluster, now sim.Time, from int) {
	if from == 0 {
		b.earliest = math.Inf(1)
		from = b.firstWaiting()
	}
	for _, e := range b.queue[from:] {
		if e.started {
			continue
		}
		if !e.reserved {
			if b.cfg.Depth != Unlimited && b.reserved >= b.cfg.Depth {
				return
			}
			d := dur(e.job)
			s := b.prof.EarliestStart(now, d, e.job.Demand)
			if math.IsInf(s, 1) {
				continue // cannot happen for jobs the engine admitted
			}
			b.prof.Reserve(s, s+d, e.job.Demand)
			e.reserved, e.start = true, s
			b.reserved++
		}
		if e.start <= now && c.Fits(e.job) {
			if c.Start(e.job) != nil {
				return
			}
			e.started = true
			b.reserved--
			b.done++
			continue
		}
		b.earliest = min(b.earliest, e.start)
	}
}

// backfill starts jobs without a reservation that fit now and delay no
// reservation, in the configured candidate order.
func (b *Backfill) backfill(c *sim.Cluster, now sim.Time) {
	if b.cfg.Candidates == SubmitOrder {
		// The queue is in submit order already: no list to build.
		for _, e := range b.queue[b.firstWaiting():] {
			if !e.started && !e.reserved && b.tryBackfill(c, e, now) {
				return
			}
		}
		return
	}
	// Shortest estimate first: the queue stably sorted by estimate,
	// kept so since the arrivals (shortest).
	for _, e := range b.shortest {
		if !e.started && !e.reserved && b.tryBackfill(c, e, now) {
			return
		}
	}
}

// tryBackfill starts e now if it fits and delays no reservation. It reports
// whether the backfill is over: no capacity left, or the engine refused the
// start.
func (b *Backfill) tryBackfill(c *sim.Cluster, e *entry, now sim.Time) (over bool) {
	if !c.Fits(e.job) {
		return false
	}
	d := dur(e.job)
	if !b.prof.Fits(now, now+d, e.job.Demand) {
		return false
	}
	if c.Start(e.job) != nil {
		return true
	}
	b.prof.Reserve(now, now+d, e.job.Demand)
	e.started = true
	b.done++
	return noneFree(c)
}

// firstWaiting returns the index of the first entry of the queue that has
// not started (len(queue) if none), moving head past the started ones: the
// walks skip started entries, so they may begin there.
func (b *Backfill) firstWaiting() int {
	for b.head < len(b.queue) && b.queue[b.head].started {
		b.head++
	}
	return b.head
}

// byEstimate orders entries by estimate; a stable sort keeps equal
// estimates in submit order.
func byEstimate(x, y *entry) int { return cmp.Compare(x.job.Estimate, y.job.Estimate) }

func noneFree(c *sim.Cluster) bool {
	for _, f := range c.FreeAll() {
		if f > 0 {
			return false
		}
	}
	return true
}

// compact drops started entries from the queue once they are at least half
// of it, so the cost is amortised over the starts.
func (b *Backfill) compact() {
	if b.done == 0 || 2*b.done < len(b.queue) {
		return
	}
	k := 0
	for _, e := range b.queue {
		if !e.started {
			b.queue[k] = e
			k++
		} else {
			// Nothing else refers to a started entry but shortest,
			// which drops it below: recycle it.
			e.job = nil
			b.free = append(b.free, e)
		}
	}
	clear(b.queue[k:])
	b.queue = b.queue[:k]
	b.head = 0
	if b.shortest != nil {
		k = 0
		for _, e := range b.shortest {
			if e.job != nil { // not recycled above
				b.shortest[k] = e
				k++
			}
		}
		clear(b.shortest[k:])
		b.shortest = b.shortest[:k]
	}
	b.done = 0
}
