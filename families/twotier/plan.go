package twotier

import (
	"math"

	"github.com/schedfarm/schedfarm/sim"
)

// Unlimited as a preemption limit lets shiftReservations delay any number of
// projects.
const Unlimited = -1

// Project is one project of the two-tier model as the plan sees it.
type Project struct {
	// ID is the project's number (sim.Job.Project; for a job outside any
	// project, the negated job ID).
	ID int64
	// Arrival is ta_u.
	Arrival float64
	// Departure is the planned departure td_u: the latest planned or actual
	// finish of its jobs. It grows when shiftReservations delays its last
	// job.
	Departure float64
	// Priority is pi_u in [0, 1].
	Priority float64
}

// Reservation is a waiting job's place in the plan: Table 5's 5-tuple
// (project, job, service time, latest starting time, requirement) plus the
// planned start.
type Reservation struct {
	Job     *sim.Job
	Project *Project
	// Start is the planned starting time ts_{u,v}.
	Start float64
	// Dur is the service time te_{u,v} as planned (at least minDur).
	Dur float64
	// LTS is the latest starting time lts_{u,v}; shiftReservations never
	// moves Start past it. A reservation with LTS ≤ Start cannot be delayed.
	LTS float64
	// Demand is the requirement E_{u,v}, one entry per pool.
	Demand []int

	seq    uint64
	active bool
}

// End returns the planned finish Start + Dur.
func (r *Reservation) End() float64 { return r.Start + r.Dur }

// Plan is the reservation structure of the thesis's §4.6: the availability
// of every resource type over time together with the reservations of the
// waiting jobs, with the operations of Table 5. Availability is a B+ tree
// of the changes of availability at the breakpoints whose internal nodes
// summarise each child (sum of its changes, per-type minimum and maximum of
// their running sums); the waiting reservations are a treap on (start,
// booking order). For N resource types, B breakpoints and R reservations,
// AddReservation and DeleteReservation cost O(N log B + log R), the first
// over-committed instant of an interval O(N log B), and
// EarliestStartingTime grows with the number of job-long stretches it
// scans rather than with the breakpoints in them (see the package doc for
// the measurements against the linear version). TryReservation is
// AddReservation plus ShiftReservations evaluated before anything is
// booked.
// The zero value is not usable; build one with NewPlan.
type Plan struct {
	tl      timeline
	res     *resIndex // waiting reservations by (Start, seq)
	seq     uint64
	scratch []int

	// what-if state of one TryReservation call
	ov       []overlay
	simMoves []simMove
	simDeps  []projDep

	// undo log of one shiftReservations call
	moved    []move
	touched  []projDep
	delayedN int
}

type move struct {
	r    *Reservation
	from float64
}

type simMove struct {
	r  *Reservation
	to float64
}

type projDep struct {
	p   *Project
	dep float64
}

// NewPlan returns an empty plan for pools of the given capacities, with
// origin at time origin.
func NewPlan(origin float64, capacities []int) *Plan {
	return &Plan{tl: newTreeTimeline(origin, capacities), res: newResIndex(), scratch: make([]int, len(capacities))}
}

// newLinearPlan is NewPlan on the naive linear timeline (tests, benchmarks).
func newLinearPlan(origin float64, capacities []int) *Plan {
	return &Plan{tl: newLinearTimeline(origin, capacities), res: newResIndex(), scratch: make([]int, len(capacities))}
}

// Advance forgets the past before now.
func (p *Plan) Advance(now float64) { p.tl.advance(now) }

// Occupy records that a running job holds demand over [start, end).
func (p *Plan) Occupy(start, end float64, demand []int) { p.tl.reserve(start, end, demand) }

// Vacate records that a running job planned to hold demand until end left
// at now (now < end): the units are free again from now.
func (p *Plan) Vacate(start, end, now float64, demand []int) {
	p.tl.unreserve(start, end, demand)
	p.tl.reserve(start, now, demand)
}

// Len returns the number of waiting reservations.
func (p *Plan) Len() int { return p.res.n }

// Reservations returns the waiting reservations by planned start. The
// slice is the plan's own, valid until the plan changes; do not modify it.
func (p *Plan) Reservations() []*Reservation { return p.res.all() }

// Avail copies the free units of every pool at time t into out.
func (p *Plan) Avail(t float64, out []int) { p.tl.availAt(t, out) }

// EarliestStartingTime returns the earliest time ≥ from at which demand
// fits for dur without delaying any reservation (Table 5).
func (p *Plan) EarliestStartingTime(from, dur float64, demand []int) float64 {
	return p.tl.earliest(from, dur, demand, math.Inf(1))
}

// FeasibleBackfillingTimes returns, in increasing order, every breakpoint
// bt ≥ from of the plan at which demand fits at that instant (Table 5), up
// to and including the earliest starting time, which is always last: later
// ones can never be better.
func (p *Plan) FeasibleBackfillingTimes(from, dur float64, demand []int, out []float64) []float64 {
	out = out[:0]
	est := p.tl.earliest(from, dur, demand, math.Inf(1))
	if math.IsInf(est, 1) {
		return out
	}
	if from < est && p.tl.fitsAt(from, demand) {
		out = append(out, from)
	}
	out = p.tl.fitsBetween(from, est, demand, out)
	return append(out, est)
}

// AddReservation books r at r.Start (Table 5). It does not check that r
// fits; ShiftReservations repairs any over-commitment it causes.
func (p *Plan) AddReservation(r *Reservation) {
	if r.active {
		panic("twotier: reservation added twice")
	}
	if r.seq == 0 {
		p.seq++
		r.seq = p.seq
	}
	r.active = true
	p.tl.reserve(r.Start, r.End(), r.Demand)
	p.res.insert(r)
}

// DeleteReservation removes a waiting job's reservation (Table 5).
func (p *Plan) DeleteReservation(r *Reservation) {
	if !r.active {
		return
	}
	if !p.res.remove(r) {
		panic("twotier: reservation index out of sync")
	}
	p.tl.unreserve(r.Start, r.End(), r.Demand)
	r.active = false
}

// UpdateLatestStartingTime sets r's latest starting time (Table 5). It never
// sets it before r's planned start.
func (p *Plan) UpdateLatestStartingTime(r *Reservation, lts float64) {
	r.LTS = math.Max(lts, r.Start)
}

// Due removes and returns the reservations planned to start at or before
// now, in start order. Their units stay booked: the caller starts the jobs
// (they become running jobs with the same interval).
func (p *Plan) Due(now float64, out []*Reservation) []*Reservation {
	for r := p.res.first(); r != nil && r.Start <= now; r = p.res.first() {
		p.res.remove(r)
		r.active = false
		out = append(out, r)
	}
	return out
}

// NextStart returns the earliest planned start, or +Inf.
func (p *Plan) NextStart() float64 {
	if r := p.res.first(); r != nil {
		return r.Start
	}
	return math.Inf(1)
}

// ShiftReservations makes room for r, just added at r.Start, by delaying
// other reservations (Table 5, Figure 4 lines 10–16). While some pool is
// over-committed during r's interval, it takes, among the reservations that
// overlap the first over-committed instant, use an over-committed pool and
// may still be delayed (LTS > Start), the one with the largest latest
// starting time (ties: the later start, then the later booking), and moves it
// to its earliest starting time after its current start. It fails if that
// time passes the reservation's LTS, if no reservation can be delayed, or if
// more than pl projects (Unlimited: no limit) would depart later than
// planned. On failure the plan is restored exactly as it was before r was
// added — r included, which is then no longer booked — and it returns false.
// On success, the delayed projects' Departure is updated.
func (p *Plan) ShiftReservations(r *Reservation, pl int) bool {
	p.moved = p.moved[:0]
	p.touched = p.touched[:0]
	p.delayedN = 0
	lo, hi := r.Start, r.End()
	for {
		t, bad := p.tl.firstConflict(lo, hi, nil, nil)
		if !bad {
			return true
		}
		v := p.victim(t, r)
		if v == nil {
			p.restore(r)
			return false
		}
		from := v.Start
		p.DeleteReservation(v)
		// v uses a pool that stays over-committed at t without it, so no
		// start in [from, t] fits: searching from t gives the same answer.
		ns := p.tl.earliest(t, v.Dur, v.Demand, v.LTS)
		if !(ns <= v.LTS) {
			v.Start = from
			p.AddReservation(v)
			p.restore(r)
			return false
		}
		v.Start = ns
		p.AddReservation(v)
		p.moved = append(p.moved, move{v, from})
		if pr := v.Project; pr != nil && v.End() > pr.Departure {
			first := true
			for _, d := range p.touched {
				if d.p == pr {
					first = false
				}
			}
			if first {
				if pl != Unlimited && p.delayedN >= pl {
					p.restore(r)
					return false
				}
				p.delayedN++
				p.touched = append(p.touched, projDep{pr, pr.Departure})
			}
			pr.Departure = v.End()
		}
	}
}

// victim picks the reservation to delay for the conflict at instant t.
func (p *Plan) victim(t float64, r *Reservation) *Reservation {
	p.tl.availAt(t, p.scratch)
	return p.pickVictim(t, r)
}

// pickVictim is victim with the availability at t already in p.scratch.
func (p *Plan) pickVictim(t float64, r *Reservation) *Reservation {
	var best *Reservation
	p.res.overlapping(t, func(x *Reservation) {
		if x == r || x.LTS <= x.Start {
			return
		}
		for k, d := range x.Demand {
			if d > 0 && p.scratch[k] < 0 {
				if best == nil || x.LTS > best.LTS || (x.LTS == best.LTS && (x.Start > best.Start || (x.Start == best.Start && x.seq > best.seq))) {
					best = x
				}
				return
			}
		}
	})
	return best
}

// TryReservation is AddReservation(r) followed by ShiftReservations(r, pl),
// with the same result and the same plan afterwards. It first runs
// ShiftReservations' loop as a what-if: r and every delay the loop decides
// are overlays on the timeline (earliestWith, firstConflict), not
// bookings, and the victims are picked with their would-be starts. Only
// if the loop succeeds are r and the delays booked. In 2TFB and 2TFB-SF
// most attempts fail, and then nothing is booked or undone.
func (p *Plan) TryReservation(r *Reservation, pl int) bool {
	ov := append(p.ov[:0], overlay{r.Start, r.End(), r.Demand, -1})
	moves, deps := p.simMoves[:0], p.simDeps[:0]
	ok := true
	for delayed := 0; ; {
		t, bad := p.tl.firstConflict(r.Start, r.End(), nil, ov)
		if !bad {
			break
		}
		p.tl.availAt(t, p.scratch)
		for _, o := range ov {
			if o.s <= t && t < o.e {
				for k, d := range o.q {
					p.scratch[k] += o.sign * d
				}
			}
		}
		v, from := p.simVictim(t, r, moves)
		if v == nil {
			ok = false
			break
		}
		ov = append(ov, overlay{from, from + v.Dur, v.Demand, +1})
		ns := p.tl.earliestWith(t, v.Dur, v.Demand, v.LTS, ov)
		if !(ns <= v.LTS) {
			ok = false
			break
		}
		ov = append(ov, overlay{ns, ns + v.Dur, v.Demand, -1})
		i := 0
		for i < len(moves) && moves[i].r != v {
			i++
		}
		if i == len(moves) {
			moves = append(moves, simMove{v, ns})
		}
		moves[i].to = ns
		if pr := v.Project; pr != nil {
			j := 0
			for j < len(deps) && deps[j].p != pr {
				j++
			}
			dep := pr.Departure
			if j < len(deps) {
				dep = deps[j].dep
			}
			if ns+v.Dur > dep {
				if j == len(deps) {
					if pl != Unlimited && delayed >= pl {
						ok = false
						break
					}
					delayed++
					deps = append(deps, projDep{pr, 0})
				}
				deps[j].dep = ns + v.Dur
			}
		}
	}
	if ok {
		p.AddReservation(r)
		for _, m := range moves {
			p.DeleteReservation(m.r)
			m.r.Start = m.to
			p.AddReservation(m.r)
		}
		for _, d := range deps {
			d.p.Departure = d.dep
		}
	}
	clear(ov)
	clear(moves)
	clear(deps)
	p.ov, p.simMoves, p.simDeps = ov[:0], moves[:0], deps[:0]
	return ok
}

// simVictim is victim for TryReservation's what-if: the reservations in
// moves count at their would-be starts. It returns the victim and its
// current start.
func (p *Plan) simVictim(t float64, r *Reservation, moves []simMove) (*Reservation, float64) {
	var best *Reservation
	bestStart := 0.0
	consider := func(x *Reservation, s float64) {
		if x == r || x.LTS <= s || !(s <= t && t < s+x.Dur) {
			return
		}
		for k, d := range x.Demand {
			if d > 0 && p.scratch[k] < 0 {
				if best == nil || x.LTS > best.LTS || (x.LTS == best.LTS && (s > bestStart || (s == bestStart && x.seq > best.seq))) {
					best, bestStart = x, s
				}
				return
			}
		}
	}
	p.res.overlapping(t, func(x *Reservation) {
		for _, m := range moves {
			if m.r == x {
				return
			}
		}
		consider(x, x.Start)
	})
	for _, m := range moves {
		consider(m.r, m.to)
	}
	return best, bestStart
}

// restore undoes the moves of the current ShiftReservations call and removes
// r.
func (p *Plan) restore(r *Reservation) {
	for i := len(p.moved) - 1; i >= 0; i-- {
		m := p.moved[i]
		p.DeleteReservation(m.r)
		m.r.Start = m.from
		p.AddReservation(m.r)
	}
	for i := len(p.touched) - 1; i >= 0; i-- {
		p.touched[i].p.Departure = p.touched[i].dep
	}
	p.DeleteReservation(r)
	p.moved = p.moved[:0]
	p.touched = p.touched[:0]
}
