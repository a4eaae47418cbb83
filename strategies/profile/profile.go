// Package profile is an availability profile: the free units of each
// resource pool over future time, as a step function. Backfilling schedulers
// keep running jobs (until their expected end) and reservations in it, so a
// backfill check is a walk over the steps in a time window rather than a
// rescan of every running job per candidate.
package profile

import (
	"math"

	"github.com/schedfarm/schedfarm/sim"
)

// Profile is a step function of free capacity per pool. Step i holds the
// free units on [times[i], times[i+1]); the last step extends to infinity.
// The zero value is not usable; call New.
type Profile struct {
	n     int        // pools
	times []sim.Time // strictly increasing; times[0] is the origin
	free  []int      // len(times)*n, row i = free units on step i
}

// New returns a profile starting at origin with the given free units (one per
// pool) from then on.
func New(origin sim.Time, free []int) *Profile {
	p := &Profile{n: len(free), times: []sim.Time{origin}, free: append([]int(nil), free...)}
	return p
}

// Origin returns the start of the profile.
func (p *Profile) Origin() sim.Time { return p.times[0] }

// Steps returns the number of steps (breakpoints) in the profile.
func (p *Profile) Steps() int { return len(p.times) }

// Step returns the start time and the free units (a view; do not modify) of
// step i.
func (p *Profile) Step(i int) (sim.Time, []int) {
	return p.times[i], p.free[i*p.n : (i+1)*p.n]
}

// FreeAt returns the free units of pool k at time t (t ≥ origin).
func (p *Profile) FreeAt(t sim.Time, k int) int {
	return p.free[p.find(t)*p.n+k]
}

// Advance moves the origin to now, dropping the steps that ended before it.
func (p *Profile) Advance(now sim.Time) {
	if now <= p.times[0] {
		return
	}
	i := p.find(now)
	if i > 0 {
		p.times = p.times[i:]
		p.free = p.free[i*p.n:]
	}
	p.times[0] = now
}

// Reserve takes demand units on [from, to). Parts before the origin are
// ignored. The caller is responsible for not driving a step negative
// (check with Fits first); Reserve does not check.
func (p *Profile) Reserve(from, to sim.Time, demand []int) { p.add(from, to, demand, -1) }

// Release gives back demand units on [from, to), undoing Reserve.
func (p *Profile) Release(from, to sim.Time, demand []int) { p.add(from, to, demand, +1) }

// Fits reports whether demand fits on every step that overlaps [from, to).
func (p *Profile) Fits(from, to sim.Time, demand []int) bool {
	if from < p.times[0] {
		from = p.times[0]
	}
	if p.n == 1 {
		q, times, free := demand[0], p.times, p.free
		for i := p.find(from); i < len(times) && times[i] < to; i++ {
			if q > free[i] {
				return false
			}
		}
		return true
	}
	for i := p.find(from); i < len(p.times) && p.times[i] < to; i++ {
		if !p.fitsStep(i, demand) {
			return false
		}
	}
	return true
}

// EarliestStart returns the earliest t ≥ from such that demand fits on
// [t, t+dur). It returns +Inf if demand exceeds what the last step offers.
func (p *Profile) EarliestStart(from, dur sim.Time, demand []int) sim.Time {
	if from < p.times[0] {
		from = p.times[0]
	}
	if p.n == 1 {
		return p.earliestStart1(from, dur, demand[0])
	}
	start := from
	for i := p.find(from); i < len(p.times); i++ {
		if !p.fitsStep(i, demand) {
			if i+1 < len(p.times) {
				start = p.times[i+1]
			} else {
				return math.Inf(1)
			}
			continue
		}
		if i+1 == len(p.times) || p.times[i+1]-start >= dur {
			return start
		}
	}
	return math.Inf(1)
}

// EarliestMove returns the earliest start in [from, cur] for a job that
// holds demand units on [cur, cur+dur): its own units count as free. It
// changes nothing, so a caller can leave a reservation in place when it
// cannot move (the common case when compressing a queue).
func (p *Profile) EarliestMove(from, dur sim.Time, demand []int, cur sim.Time) sim.Time {
	if from < p.times[0] {
		from = p.times[0]
	}
	ownEnd := cur + dur
	start := from
	if p.n == 1 {
		return p.earliestMove1(start, dur, demand[0], cur, ownEnd)
	}
	for i := p.find(from); i < len(p.times) && start < cur; i++ {
		own := p.times[i] >= cur && p.times[i] < ownEnd
		if !p.fitsStepWith(i, demand, own) {
			if i+1 < len(p.times) {
				start = p.times[i+1]
				continue
			}
			return cur
		}
		if i+1 == len(p.times) || p.times[i+1]-start >= dur {
			return start
		}
	}
	return cur
}

// earliestStart1 is EarliestStart on a profile of one pool (the classic
// platform), from start ≥ the origin: the same walk over the steps, with
// the free units read straight from the one-column rows.
func (p *Profile) earliestStart1(start, dur sim.Time, q int) sim.Time {
	times, free := p.times, p.free
	for i := p.find(start); i < len(times); i++ {
		if q > free[i] {
			if i+1 < len(times) {
				start = times[i+1]
				continue
			}
			return math.Inf(1)
		}
		if i+1 == len(times) || times[i+1]-start >= dur {
			return start
		}
	}
	return math.Inf(1)
}

// earliestMove1 is EarliestMove on a profile of one pool (the classic
// platform), from start ≥ the origin: the same walk over the steps, in two
// tight loops — the window from start extended over the steps that fit,
// then, after a step that does not, the run of blocked steps before cur
// skipped (no step before cur holds the job's own units) — with the free
// units read straight from the one-column rows.
func (p *Profile) earliestMove1(start, dur sim.Time, q int, cur, ownEnd sim.Time) sim.Time {
	times, free := p.times, p.free
	n := len(times)
	i := p.find(start)
	for start < cur {
		for {
			f := free[i]
			if t := times[i]; t >= cur && t < ownEnd {
				f += q // its own units count as free
			}
			if q > f {
				break
			}
			if i+1 == n || times[i+1]-start >= dur {
				return start
			}
			i++
		}
		i++
		for i < n && times[i] < cur && q > free[i] {
			i++
		}
		if i == n {
			return cur
		}
		start = times[i]
	}
	return cur
}

// fitsStepWith is fitsStep with demand added back to the step's free units
// when own is set.
func (p *Profile) fitsStepWith(i int, demand []int, own bool) bool {
	if !own {
		return p.fitsStep(i, demand)
	}
	row := p.free[i*p.n : (i+1)*p.n]
	for k, d := range demand {
		if d > row[k]+d {
			return false
		}
	}
	return true
}

func (p *Profile) fitsStep(i int, demand []int) bool {
	row := p.free[i*p.n : (i+1)*p.n]
	for k, d := range demand {
		if d > row[k] {
			return false
		}
	}
	return true
}

// find returns the index of the step containing t (t ≥ origin).
func (p *Profile) find(t sim.Time) int {
	// The steps near the origin are the ones asked for most often.
	times := p.times
	if len(times) < 2 || t < times[1] {
		return 0
	}
	// The last step starting at or before t: times[lo] ≤ t < times[hi]
	// (times[len] standing for +Inf).
	lo, hi := 1, len(times)
	for hi-lo > 1 {
		m := int(uint(lo+hi) >> 1)
		if times[m] <= t {
			lo = m
		} else {
			hi = m
		}
	}
	return lo
}

// split makes t a breakpoint and returns its step index (t ≥ origin).
func (p *Profile) split(t sim.Time) int {
	i := p.find(t)
	if p.times[i] == t {
		return i
	}
	// Insert a copy of step i's row after it, starting at t.
	p.times = append(p.times, 0)
	copy(p.times[i+2:], p.times[i+1:])
	p.times[i+1] = t
	p.free = append(p.free, make([]int, p.n)...)
	copy(p.free[(i+2)*p.n:], p.free[(i+1)*p.n:])
	copy(p.free[(i+1)*p.n:(i+2)*p.n], p.free[i*p.n:(i+1)*p.n])
	return i + 1
}

func (p *Profile) add(from, to sim.Time, demand []int, sign int) {
	if from < p.times[0] {
		from = p.times[0]
	}
	if !(to > from) {
		return
	}
	a := p.split(from)
	b := len(p.times)
	if !math.IsInf(to, 1) {
		b = p.split(to)
	}
	for i := a; i < b; i++ {
		row := p.free[i*p.n : (i+1)*p.n]
		for k, d := range demand {
			row[k] += sign * d
		}
	}
	// Merge steps around the touched range that no longer differ.
	if b < len(p.times) {
		p.mergeInto(b)
	}
	p.mergeInto(a)
}

// mergeInto removes breakpoint i if step i has the same free units as step
// i−1.
func (p *Profile) mergeInto(i int) {
	if i <= 0 || i >= len(p.times) {
		return
	}
	prev := p.free[(i-1)*p.n : i*p.n]
	cur := p.free[i*p.n : (i+1)*p.n]
	for k := range cur {
		if cur[k] != prev[k] {
			return
		}
	}
	p.times = append(p.times[:i], p.times[i+1:]...)
	p.free = append(p.free[:i*p.n], p.free[(i+1)*p.n:]...)
}
