package twotier

import (
	"cmp"
	"math"
	"slices"

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
	// Delays counts the shiftReservations calls that made Departure later
	// (what PLLifetime limits).
	Delays int
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

	// alone caches, for TryReservation, where this reservation could go
	// if it were moved on the plan as it is (see movedStart): from the
	// conflict instant, from after the what-if's own bookings, and from
	// between them (earliestInTakes).
	alone [3]aloneFits
}

// aloneFits is one of Reservation.alone: the query remembered, and the one
// it replaced (aloneStart answers from whichever covers the instant asked).
type aloneFits struct{ cur, prev aloneFit }

// aloneFit records one earliest-start query of a reservation on the plan
// with the reservation itself left out and nothing else assumed: the
// earliest start in [from, limit] at which it fitted was at (+Inf: none
// did). It still holds, as a lower bound, after the plan's first gave
// give-backs (see Plan.gaveBack), except for the starts in [holeLo,
// holeHi) (empty unless holeLo < holeHi), whose windows a give-back has
// reached since (Plan.refresh).
//
// fit reports that the reservation fitted at at, a scan's answer, when
// the plan had made took bookings (Plan.took): while it has made no other
// since, at is still a fit (give-backs only add units), so the bound is
// the earliest start itself (Plan.earliestAloneFrom).
type aloneFit struct {
	made            bool
	fit             bool
	gave, took      uint64
	from, limit, at float64
	holeLo, holeHi  float64
}

// hole reports whether some of the starts a proved are no longer known.
func (a *aloneFit) hole() bool { return a.holeLo < a.holeHi }

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
	// Rules are the readings shiftReservations follows (zero value: the
	// defaults, VictimNext and PLPerCall).
	Rules ShiftRules

	tl timeline
	// gaveBack logs the intervals over which tl gave units back, the
	// give-backs gaveOff+1 … gaveOff+len(gaveBack); what Reservation.alone
	// is checked against. Only the latest gaveKeep are kept.
	gaveBack []span
	gaveOff  uint64
	// took counts the bookings that took units (AddReservation, Occupy):
	// what tells a remembered fit (aloneFit.fit) still holds.
	took    uint64
	res     *resIndex // waiting reservations by (Start, seq)
	point   []int     // shortWith's scratch space
	seq     uint64
	scratch []int
	cuts    []float64      // netGives's scratch space
	cands   []candidate    // victims of one conflict, best first
	over    []*Reservation // the reservations overlapping one conflict instant (candidates)
	counted []*Project     // projects counted against PL in one call

	// what-if state of one TryReservation call
	ov       []overlay
	simMoves []simMove
	simDeps  []projDep
	delays   []window // the failed attempt's delays (failedAttempt)
	zones    []window // earliestInTakes's scratch space

	// undo log of one shiftReservations call
	moved   []move
	touched []projDep
}

// span is the interval [s, e).
type span struct{ s, e float64 }

// gaveKeep is how many give-backs Plan.gaveBack keeps at least (and at
// most twice as many): a remembered query older than that is forgotten.
const gaveKeep = 4096

// give notes that units were given back over [s, e).
func (p *Plan) give(s, e float64) {
	if len(p.gaveBack) == 2*gaveKeep {
		p.gaveOff += gaveKeep
		p.gaveBack = append(p.gaveBack[:0], p.gaveBack[gaveKeep:]...)
	}
	p.gaveBack = append(p.gaveBack, span{s, e})
}

// gave returns the number of give-backs so far.
func (p *Plan) gave() uint64 { return p.gaveOff + uint64(len(p.gaveBack)) }

// refresh brings a remembered query a of a reservation of duration dur up
// to date with the give-backs logged since (Plan.gaveBack), and reports
// whether it had to cut short the range of starts a proved. A start s that
// did not fit still does not, unless a give-back [g.s, g.e) since reaches
// its window: g.s < s + dur and s < g.e, so s in [firstReached(g.s, dur),
// g.e). Those starts, over every give-back that reaches a window of a start
// a proved, join a's hole (one interval: the hull of the old hole and the
// new starts). A hole that reaches the end of what a proved cuts the range
// short instead: a.at becomes its first start, a lower bound on the
// earliest start ≥ a.from (no longer known to fit). If the log has
// forgotten give-backs since a was made, nothing is kept (a.at = a.from).
func (p *Plan) refresh(a *aloneFit, dur float64) bool {
	// a proved the starts in [a.from, end): end = a.at, or just after
	// a.limit when a.at = +Inf. Their windows end before last + dur.
	last, end := a.at, a.at
	if math.IsInf(a.at, 1) {
		last, end = a.limit, math.Nextafter(a.limit, math.Inf(1))
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	if a.gave < p.gaveOff {
		lo, hi = a.from, end
	} else {
		// Of the give-backs looked at here, most begin past the windows
		// (counted in the heavy seed-004 cell: of 64.0 M, 37.3 M begin at
		// or after last + dur and 23.1 M end by a.from; 3.6 M reach), so
		// that test comes first; both bounds are held in locals.
		from, reach := a.from, last+dur
		for _, g := range p.gaveBack[a.gave-p.gaveOff:] {
			if g.s < reach && from < g.e {
				lo, hi = min(lo, firstReached(g.s, dur)), max(hi, g.e)
			}
		}
	}
	a.gave = p.gave()
	lo = max(lo, a.from)
	if lo >= end || hi <= lo {
		return false
	}
	if a.hole() {
		lo, hi = min(lo, a.holeLo), max(hi, a.holeHi)
	}
	if hi < end {
		a.holeLo, a.holeHi = lo, hi
		return false
	}
	a.at, a.fit, a.holeLo, a.holeHi = lo, false, 0, 0
	return true
}

// firstReached returns a start c such that no start s < c of a window
// [s, s+dur) reaches gs: s + dur ≤ gs as computed in floating point (the
// scans end a window at the first key ≥ s + dur).
func firstReached(gs, dur float64) float64 {
	c := gs - dur
	for c+dur > gs {
		c = math.Nextafter(c, math.Inf(-1))
	}
	return c
}

type move struct {
	r    *Reservation
	from float64
}

// candidate is a reservation that could be delayed for a conflict, at its
// current (or would-be) start.
type candidate struct {
	r *Reservation
	s float64
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
	return &Plan{tl: newTreeTimeline(origin, capacities), res: newResIndex(), scratch: make([]int, len(capacities)), point: make([]int, len(capacities))}
}

// newLinearPlan is NewPlan on the naive linear timeline (tests, benchmarks).
func newLinearPlan(origin float64, capacities []int) *Plan {
	return &Plan{tl: newLinearTimeline(origin, capacities), res: newResIndex(), scratch: make([]int, len(capacities)), point: make([]int, len(capacities))}
}

// Advance forgets the past before now.
func (p *Plan) Advance(now float64) { p.tl.advance(now) }

// Occupy records that a running job holds demand over [start, end).
func (p *Plan) Occupy(start, end float64, demand []int) {
	p.took++
	p.tl.reserve(start, end, demand)
}

// Vacate records that a running job planned to hold demand until end left
// at now (now < end): the units are free again from now.
func (p *Plan) Vacate(start, end, now float64, demand []int) {
	p.give(now, end)
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
	p.took++
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
	p.give(r.Start, r.End())
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

// Release gives back the units of r, returned by Due, whose job could not
// start after all: r is neither booked nor waiting afterwards.
func (p *Plan) Release(r *Reservation) {
	p.give(r.Start, r.End())
	p.tl.unreserve(r.Start, r.End(), r.Demand)
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
// over-committed during r's interval, it considers the reservations that
// overlap the first over-committed instant, use an over-committed pool and
// have slack (LTS > Start), largest latest starting time first (ties: the
// later start, then the later booking), and delays the first that could be
// delayed to its earliest starting time after its current start: one that
// would pass its LTS, or count against the preemption limit pl beyond it
// (Unlimited: no limit; what counts is p.Rules.Count), is skipped for the
// next (p.Rules.Victim VictimNext; under VictimFirst the shift fails
// instead). It fails when no candidate could be delayed. On failure the
// plan is restored exactly as it was before r was added — r included,
// which is then no longer booked — and it returns false. On success the
// delayed projects' Departure is updated and each project whose departure
// moved later counts one more Delays.
func (p *Plan) ShiftReservations(r *Reservation, pl int) bool {
	p.moved = p.moved[:0]
	p.touched = p.touched[:0]
	p.counted = p.counted[:0]
	lo, hi := r.Start, r.End()
	for {
		t, bad := p.tl.firstConflict(lo, hi, nil, nil)
		if !bad {
			for _, d := range p.touched {
				if d.p != r.Project {
					d.p.Delays++
				}
			}
			return true
		}
		p.tl.availAt(t, p.scratch)
		p.cands = p.candidates(t, r, nil, p.cands[:0])
		moved := false
		for _, c := range p.cands {
			v, from := c.r, c.s
			// A start in [from, t] covers t, where a pool v uses is short
			// even of v's own units: none fits, so searching from t gives
			// the same answer.
			ns := p.tl.earliestWith(t, v.Dur, v.Demand, v.LTS, []overlay{{from, from + v.Dur, v.Demand, +1}})
			if ns <= v.LTS && p.admit(v, r, ns+v.Dur, v.Project.departure(), pl) {
				p.DeleteReservation(v)
				v.Start = ns
				p.AddReservation(v)
				p.moved = append(p.moved, move{v, from})
				if pr := v.Project; pr != nil && v.End() > pr.Departure {
					if !slices.ContainsFunc(p.touched, func(d projDep) bool { return d.p == pr }) {
						p.touched = append(p.touched, projDep{pr, pr.Departure})
					}
					pr.Departure = v.End()
				}
				moved = true
				break
			}
			if p.Rules.Victim == VictimFirst {
				break
			}
		}
		if !moved {
			p.restore(r)
			return false
		}
	}
}

// departure returns the project's planned departure (−Inf without one).
func (pr *Project) departure() float64 {
	if pr == nil {
		return math.Inf(-1)
	}
	return pr.Departure
}

// admit reports whether delaying v so that it ends at end (its project
// planned to depart at dep) stays within the preemption limit pl, and if v
// counts, notes its project in p.counted. The arriving project (r's) never
// counts: it is not yet a waiting project.
func (p *Plan) admit(v, r *Reservation, end, dep float64, pl int) bool {
	pr := v.Project
	if pr == nil || pr == r.Project {
		return true
	}
	if p.Rules.Count != PLAnyJob && end <= dep {
		return true // its departure does not move
	}
	if slices.Contains(p.counted, pr) {
		return true
	}
	if pl != Unlimited {
		if p.Rules.Count == PLLifetime && pr.Delays >= pl {
			return false
		}
		if p.Rules.Count != PLLifetime && len(p.counted) >= pl {
			return false
		}
	}
	p.counted = append(p.counted, pr)
	return true
}

// candidates appends to out the reservations that could be delayed for the
// conflict at instant t, best first (largest LTS, then later start, then
// later booking), with the availability at t in p.scratch: those other than
// r that overlap t, use a pool short at t and have slack. The reservations
// in moves count at their would-be starts (TryReservation's what-if).
func (p *Plan) candidates(t float64, r *Reservation, moves []simMove, out []candidate) []candidate {
	// slack: x, other than r, could be delayed from s (its LTS is later).
	slack := func(x *Reservation, s float64) bool { return x != r && x.LTS > s }
	consider := func(x *Reservation, s float64) {
		if !slack(x, s) || !(s <= t && t < s+x.Dur) {
			return
		}
		if p.usesShortPool(x.Demand) {
			out = append(out, candidate{x, s})
		}
	}
	// Only reservations using a pool short at t can be candidates.
	short := uint64(0)
	for k, a := range p.scratch {
		if a < 0 {
			short |= poolBit(k)
		}
	}
	p.over = p.res.overlapping(t, short, p.over[:0])
	// The index reports exactly the booked reservations with Start ≤ t <
	// End that use a pool of short, and with at most 63 pools a pool's
	// bit is its own (poolBit), so those use a pool short at t: of
	// consider's tests only the slack is left to check for them.
	exact := len(p.scratch) < 64
next:
	for _, x := range p.over {
		for _, m := range moves {
			if m.r == x {
				continue next
			}
		}
		if !exact {
			consider(x, x.Start)
		} else if slack(x, x.Start) {
			out = append(out, candidate{x, x.Start})
		}
	}
	for _, m := range moves {
		consider(m.r, m.to)
	}
	sortCandidates(out)
	return out
}

// availWith puts into p.scratch the availability at instant t with the
// overlays ov applied.
func (p *Plan) availWith(t float64, ov []overlay) {
	p.tl.availAt(t, p.scratch)
	for _, o := range ov {
		if o.s <= t && t < o.e {
			for k, d := range o.q {
				p.scratch[k] += o.sign * d
			}
		}
	}
}

// keepCandidates returns the candidates of TryReservation's what-if for
// its conflict instant t when the round before, at the same instant, found
// cands there and delayed v: cands without v, and without those that no
// longer use a pool short at t (the availability there in p.scratch), in
// the same order. That round added two overlays: v's old place given back,
// which covers t, and v's new place, which starts after t (v uses a pool
// short at t even with its own units counted, so it does not fit back at
// t). So before t the what-if only gained units, and t, still short, is
// again the first over-committed instant; at t the loads fell by v's
// demand, so no pool is short that was not, and the reservations
// overlapping t are those that did, but v: the same candidates, each at the
// same start and with the same slack, less v and those whose short pools
// v's units made whole.
func (p *Plan) keepCandidates(cands []candidate, v *Reservation) []candidate {
	out := cands[:0]
	for _, c := range cands {
		if c.r == v {
			continue
		}
		if p.usesShortPool(c.r.Demand) {
			out = append(out, c)
		} else if checkCandidates != nil {
			candidatesDropped++
		}
	}
	return out
}

// usesShortPool reports whether demand q uses a pool short in p.scratch.
func (p *Plan) usesShortPool(q []int) bool {
	for k, d := range q {
		if d > 0 && p.scratch[k] < 0 {
			return true
		}
	}
	return false
}

// candidateCmp is candidates' order: larger LTS first, then later start,
// then later booking (a total order: bookings are numbered).
func candidateCmp(a, b candidate) int {
	switch {
	case a.r.LTS != b.r.LTS:
		return cmpDesc(a.r.LTS, b.r.LTS)
	case a.s != b.s:
		return cmpDesc(a.s, b.s)
	}
	return cmpDesc(float64(a.r.seq), float64(b.r.seq))
}

// candidateBefore reports candidateCmp(a, b) < 0, written so that the
// compiler inlines it: for floats x ≠ y, cmpDesc(x, y) < 0 exactly when
// y < x or y is NaN and x is not (cmp.Compare's order, NaN first; two
// NaNs compare equal there and end the comparison, as here), and booking
// numbers compare as the float64s candidateCmp makes of them (they stay
// far below 2^53).
func candidateBefore(a, b candidate) bool {
	if x, y := a.r.LTS, b.r.LTS; x != y {
		return y < x || y != y && x == x
	}
	if x, y := a.s, b.s; x != y {
		return y < x || y != y && x == x
	}
	return b.r.seq < a.r.seq
}

// sortCandidates sorts l by candidateCmp. A conflict's candidates are a
// handful, and the generic sort's indirect call per comparison was 5% of
// the heavy seed-004 cell: up to 12 of them are sorted here by insertion,
// the comparison inlined, as slices.SortFunc sorts so few (by insertion,
// the same steps); more, by slices.SortFunc itself.
func sortCandidates(l []candidate) {
	if len(l) > 12 {
		slices.SortFunc(l, candidateCmp)
		return
	}
	for i := 1; i < len(l); i++ {
		e := l[i]
		k := i
		for ; k > 0 && candidateBefore(e, l[k-1]); k-- {
			l[k] = l[k-1]
		}
		l[k] = e
	}
}

// cmpDesc orders larger values first.
func cmpDesc(a, b float64) int { return cmp.Compare(b, a) }

// TryReservation is AddReservation(r) followed by ShiftReservations(r, pl),
// with the same result and the same plan afterwards. It first runs
// ShiftReservations' loop as a what-if: r and every delay the loop decides
// are overlays on the timeline (earliestWith, firstConflict), not
// bookings, and the candidates are taken at their would-be starts. Only
// if the loop succeeds are r and the delays booked. In 2TFB and 2TFB-SF
// most attempts fail, and then nothing is booked or undone.
func (p *Plan) TryReservation(r *Reservation, pl int) bool {
	ok, _ := p.tryReservation(r, pl)
	return ok
}

// tryReservation is TryReservation that also returns, when the attempt
// fails, what the failure proves about attempts at later starts of r on the
// same plan (failedAttempt.covers); the failure refers to the plan's
// buffers and holds until the next call.
func (p *Plan) tryReservation(r *Reservation, pl int) (bool, failedAttempt) {
	ov := append(p.ov[:0], overlay{r.Start, r.End(), r.Demand, -1})
	moves, deps := p.simMoves[:0], p.simDeps[:0]
	p.counted = p.counted[:0]
	ok, first := true, math.Inf(-1)
	// After a round that delayed the victim last, its conflict instant lo
	// is where the next round's search begins (see keepCandidates).
	lo, last := r.Start, (*Reservation)(nil)
	for ok {
		t, again := lo, false
		if last != nil {
			p.availWith(lo, ov)
			again = slices.ContainsFunc(p.scratch, func(a int) bool { return a < 0 })
		}
		if !again {
			var bad bool
			if t, bad = p.tl.firstConflict(lo, r.End(), nil, ov); !bad {
				break
			}
			p.availWith(t, ov)
		}
		if len(moves) == 0 {
			first = t
		}
		if again {
			p.cands = p.keepCandidates(p.cands, last)
			if checkCandidates != nil {
				checkCandidates(p.cands, p.candidates(t, r, moves, nil))
			}
		} else {
			p.cands = p.candidates(t, r, moves, p.cands[:0])
		}
		ok = false
		for _, c := range p.cands {
			v, from := c.r, c.s
			ov = append(ov, overlay{from, from + v.Dur, v.Demand, +1})
			ns := p.movedStart(v, from, t, ov)
			j := len(deps)
			dep := v.Project.departure()
			if pr := v.Project; pr != nil {
				if j = slices.IndexFunc(deps, func(d projDep) bool { return d.p == pr }); j < 0 {
					j = len(deps)
				} else {
					dep = deps[j].dep
				}
			}
			if ns <= v.LTS && p.admit(v, r, ns+v.Dur, dep, pl) {
				ov = append(ov, overlay{ns, ns + v.Dur, v.Demand, -1})
				i := slices.IndexFunc(moves, func(m simMove) bool { return m.r == v })
				if i < 0 {
					moves = append(moves, simMove{v, ns})
				} else {
					moves[i].to = ns
				}
				if v.Project != nil && ns+v.Dur > dep {
					if j == len(deps) {
						deps = append(deps, projDep{v.Project, 0})
					}
					deps[j].dep = ns + v.Dur
				}
				ok, lo, last = true, t, v
				break
			}
			ov = ov[:len(ov)-1]
			if p.Rules.Victim == VictimFirst {
				break
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
			if d.p != r.Project {
				d.p.Delays++
			}
		}
	}
	var failed failedAttempt
	if !ok {
		// The delays decided are the overlays that take units after r's
		// own (ov[0]); a refused candidate's overlay was taken off again.
		p.delays = p.delays[:0]
		for _, o := range ov[1:] {
			if o.sign < 0 {
				p.delays = append(p.delays, window{o.s, o.e})
			}
		}
		failed = failedAttempt{start: r.Start, dur: r.Dur, first: first, delays: p.delays}
	}
	clear(ov)
	clear(moves)
	clear(deps)
	p.ov, p.simMoves, p.simDeps = ov[:0], moves[:0], deps[:0]
	return ok, failed
}

// A window is the interval [s, e) of a delay decided in a what-if.
type window struct{ s, e float64 }

// failedAttempt is what a failed TryReservation of r at start proves about
// attempts at later starts of r on the same plan with the same pl: the
// attempt's window was [start, end), end = start + dur, its first
// over-committed instant first, and delays the windows of the new places
// of the delays it decided before it failed, in order (a reservation
// delayed twice has two). The zero value proves nothing.
type failedAttempt struct {
	start, dur, first float64
	delays            []window
}

// covers reports whether the attempt at s (start < s, the same plan, the
// same pl) fails too: when s ≤ first and no decided delay's window overlaps
// [end, s + dur), the part of r's window at s that lies past its window at
// start. Then the attempt at s decides the same delays, in the same order,
// and fails at the same instant as the attempt at start did.
// By induction on the delays decided, with r at s:
//
//   - the loop's next over-committed instant t is the one it was with r at
//     start: over [s, t) r takes what it took there from start, where
//     nothing was short (start < s ≤ first ≤ t, and t < end), and at t
//     every load is what it was, r's included, since both windows cover t;
//   - so the same pools are short at t and the candidates (reservations
//     overlapping t, using a short pool, with slack, taken at their
//     would-be starts after the same delays) are the same, in the same
//     order (largest LTS, later start, later booking: nothing depends on
//     r's start);
//   - each candidate v is asked for the earliest start ≥ t at which it
//     fits up to v.LTS (movedStart). From t on, r now takes units over
//     [t, s + dur) ⊇ [t, end) and every other overlay is the
//     same, so v's answer can only be later. A candidate refused before,
//     by its LTS or by the preemption limit (admit: with the same
//     projects counted, a later end is refused again), is refused again;
//   - the candidate delayed before, to ns, still fits at ns, because its
//     window [ns, ns + v.Dur) misses the only place r takes more, [end,
//     s + dur); its answer, no earlier than ns, is ns again, its end the
//     same, so admit answers as before, and the same delay is decided;
//   - at the instant where the attempt at start failed, every candidate
//     is refused again, and the attempt at s fails there.
//
// With no delay decided (the attempt failed at its first over-committed
// instant) this is the rule that every start in (start, first] fails. The
// condition on the delays is sufficient, not necessary: a delayed
// candidate whose window meets r's extra part may still fit there, and
// then the attempt is made. Scheduler.schedule uses covers to pass over
// feasible backfilling times; TestSkippedTimesWouldFail checks that every
// time passed over fails when tried.
func (f failedAttempt) covers(s float64) bool {
	if !(f.start < s && s <= f.first) {
		return false
	}
	lo, hi := f.start+f.dur, s+f.dur
	for _, d := range f.delays {
		if d.s < hi && lo < d.e {
			return false
		}
	}
	return true
}

// movedStart returns where TryReservation's what-if would move v, a
// candidate at the conflict instant t left out at from by the last of the
// overlays ov: earliestWith(t, v.Dur, v.Demand, v.LTS, ov), the earliest
// start ≥ t at which v fits with ov applied, or +Inf if none is ≤ v.LTS.
//
// The attempts at the successive feasible backfilling times of one job
// (Figure 4), and the jobs after it, meet the same candidates on nearly the
// same plan again and again, and most of them cannot be moved before their
// LTS. So where v has not been moved in this what-if (from is its booked
// start), the scan starts from a lower bound lb on the answer: the earliest
// start of v alone — on the plan with only v left out — remembered in
// v.alone[0] and valid until the plan gives units back (bookings only
// take units, which can only make the answer later). ov's other overlays
// only take units too, except where they give some back (moved victims'
// old places, +1), and a start whose window misses the stretches where
// they give back more than they take, in sum, in a pool v needs (netGives:
// a victim's old place is mostly under the new reservation r, which takes
// units there too) fits only where v alone fits. If such stretches lie in
// [t, v.LTS + v.Dur), the starts before the last one's end (give) are
// scanned — from t, or, when lb is later, from the first start whose
// window reaches one of them, since a start before lb whose window reaches
// none does not fit — and the rest from lb = max(lb, give). From there on
// the overlays give back no more than they take in v's pools at any
// instant. Likewise, a start at or after the last
// end (take) of the overlays that take units in the window (r, the
// victims' new places, −1) fits exactly where v alone fits: the starts in
// [lb, take) are scanned with ov where their windows reach one of those
// overlays, and answered as v alone between them (earliestInTakes), and the
// rest begin at v's earliest start alone from take, remembered in
// v.alone[1] (+Inf there, the usual case,
// ends the search without a scan). From the lower bound reached last, no
// overlay but v's own changes a pool v needs in a window (those that take
// end before it; those that give, past give, give nothing in v's pools),
// so v fits there exactly where it fits alone: a bound remembered as a fit
// on the plan as it is now is the answer without a scan
// (earliestAloneFrom). The result is exactly earliestWith's.
func (p *Plan) movedStart(v *Reservation, from, t float64, ov []overlay) float64 {
	ns := p.movedStartBounded(v, from, t, ov)
	if checkMovedStart != nil {
		checkMovedStart(ns, p.tl.earliestWith(t, v.Dur, v.Demand, v.LTS, ov))
	}
	return ns
}

// checkCandidates, set by tests, is called with every list of candidates
// keepCandidates gave and the one candidates gives for the same round;
// candidatesDropped then counts the candidates keepCandidates dropped for
// their pools (v aside).
var (
	checkCandidates   func(kept, fresh []candidate)
	candidatesDropped int
)

// checkMovedStart, set by tests, is called with every answer of
// movedStart and the plain scan's; rememberedStarts then counts the
// answers aloneStart gave from memory.
var (
	checkMovedStart  func(got, want float64)
	rememberedStarts int
	fitsFromMemory   int // earliestAloneFrom's answers without a scan
	gapsAlone        int // earliestInTakes's stretches answered as v alone
	zonesPassed      int // earliestInTakes's zones passed over whole
)

func (p *Plan) movedStartBounded(v *Reservation, from, t float64, ov []overlay) float64 {
	if t > v.LTS {
		// No start ≥ t is ≤ v.LTS: earliestWith's answer (+Inf) without
		// its set-up, and v's remembered queries are left as they are.
		return math.Inf(1)
	}
	if from != v.Start || !v.active {
		return p.tl.earliestWith(t, v.Dur, v.Demand, v.LTS, ov)
	}
	end, others, own := v.LTS+v.Dur, ov[:len(ov)-1], ov[len(ov)-1:]
	m := &v.alone[0] // the query that answered lb, if one did
	lb := p.aloneStart(m, v, t, own)
	if first, give := netGives(others, v.Demand, t, end, &p.cuts); give > t {
		// A start whose window reaches none of those stretches fits only
		// where v alone fits, at lb or later: of the starts before lb,
		// only those from firstReached(first) on need the scan.
		from := max(t, min(lb, firstReached(first, v.Dur)))
		if s := p.earliestBefore(v, from, give, ov); !math.IsInf(s, 1) {
			return s
		}
		if give > lb {
			lb, m = give, nil
		}
	}
	if lb > v.LTS {
		return math.Inf(1)
	}
	if take := lastEnd(others, -1, lb, end); take > lb {
		switch s := p.earliestInTakes(v, lb, take, ov); {
		case s != s:
			return math.Inf(1) // no start of v alone from lb on fits
		case !math.IsInf(s, 1):
			return s
		}
		m = &v.alone[1]
		if lb = p.aloneStart(m, v, take, own); lb > v.LTS {
			return math.Inf(1)
		}
	}
	return p.earliestAloneFrom(m, v, lb, ov)
}

// earliestInTakes is earliestBefore(v, lb, take, ov) for movedStartBounded's
// starts in [lb, take), where lb is at or after the stretches in which the
// overlays give back more than they take in v's pools (netGives) and a
// lower bound on v's earliest start alone, and take the last end of the
// overlays of ov other than v's own that take units. It returns NaN instead
// of +Inf when it has proved that no start in [lb, v.LTS] fits at all: v
// alone has none from where it stopped, and none before did with ov.
//
// From lb on, a start fits with ov only where v alone fits (the overlays
// there take at least what they give in v's pools), and where its window
// reaches no overlay that takes units it fits exactly where v alone fits.
// The starts whose windows reach a taking overlay o lie in
// [firstReached(o.s, v.Dur), o.e): those zones are scanned with ov; the
// starts between them are answered as v alone (aloneStart, remembered in
// v.alone[2], then a scan on the plan with v left out up to the next
// zone), and v's earliest start alone from a gap is a lower bound on the
// starts worth scanning in the zone after it, which is passed over whole
// when that bound lies past it. After a delay, the what-if's own bookings
// are the new job r, near the conflict, and its victims' new places, often
// far beyond it: the long stretch between them is then answered from the
// memory of v alone instead of a scan with every overlay
// (docs/performance-log.md, "Forty-fourth session").
func (p *Plan) earliestInTakes(v *Reservation, lb, take float64, ov []overlay) float64 {
	others, own := ov[:len(ov)-1], ov[len(ov)-1:]
	z := p.zones[:0]
	for _, o := range others {
		if o.sign < 0 && lb < o.e && o.s < take {
			w := window{max(lb, firstReached(o.s, v.Dur)), o.e}
			i := len(z)
			z = append(z, w)
			for ; i > 0 && z[i-1].s > w.s; i-- {
				z[i] = z[i-1]
			}
			z[i] = w
		}
	}
	p.zones = z
	cur := lb
	for i := 0; i < len(z) && cur <= v.LTS; {
		zs, ze := z[i].s, z[i].e
		for i++; i < len(z) && z[i].s <= ze; i++ {
			ze = max(ze, z[i].e)
		}
		if ze <= cur {
			continue
		}
		if cur < zs {
			// Between zones: v fits with ov exactly where it fits alone.
			m := &v.alone[2]
			a := p.aloneStart(m, v, cur, own)
			if a > v.LTS {
				return math.NaN()
			}
			if checkMovedStart != nil {
				gapsAlone++
			}
			if a < zs {
				if s := p.aloneBefore(m, v, a, zs, own); !math.IsInf(s, 1) {
					return s
				}
				a = zs
			}
			if cur = a; cur >= ze {
				if checkMovedStart != nil {
					zonesPassed++
				}
				continue
			}
		}
		if s := p.earliestBefore(v, cur, ze, ov); !math.IsInf(s, 1) {
			return s
		}
		cur = ze
	}
	return math.Inf(1)
}

// aloneBefore returns the earliest start of v alone in [lb, before) (and
// up to v.LTS), or +Inf, where lb is what aloneStart answered from m: a
// fit remembered at lb on the plan as it is is the answer without a scan,
// and m keeps what the scan proves.
func (p *Plan) aloneBefore(m *aloneFits, v *Reservation, lb, before float64, own []overlay) float64 {
	a := &m.cur
	if a.at == lb && a.fit && a.took == p.took {
		if checkMovedStart != nil {
			fitsFromMemory++
		}
		return lb
	}
	s := p.earliestBefore(v, lb, before, own)
	if a.made && a.at == lb {
		if !math.IsInf(s, 1) {
			p.found(a, s, v.LTS)
		} else if lim := min(v.LTS, math.Nextafter(before, math.Inf(-1))); lim >= lb {
			p.found(a, s, lim)
		}
	}
	return s
}

// earliestAloneFrom is earliestWith(lb, v.Dur, v.Demand, v.LTS, ov) where
// no overlay of ov but v's own (the last) changes a pool v needs in a
// window of a start ≥ lb (≤ v.LTS): those taken end by lb or begin past
// v.LTS + v.Dur, and those given back give nothing in v's pools from lb on
// (movedStartBounded, netGives). There v fits with ov exactly where it
// fits alone. m, when not nil, is the query that answered
// lb, the earliest start of v alone from its instant on, or a lower bound
// on it: when it remembers lb as a fit and the plan has booked nothing
// since (aloneFit.fit), lb is the answer without a scan. Otherwise the
// scan's answer is v's earliest start alone from lb, and m remembers it:
// no start before it fits, and it fits now.
func (p *Plan) earliestAloneFrom(m *aloneFits, v *Reservation, lb float64, ov []overlay) float64 {
	if m == nil || m.cur.at != lb {
		return p.tl.earliestWith(lb, v.Dur, v.Demand, v.LTS, ov)
	}
	a := &m.cur
	if a.fit && a.took == p.took {
		if checkMovedStart != nil {
			fitsFromMemory++
		}
		return lb
	}
	return p.found(a, p.tl.earliestWith(lb, v.Dur, v.Demand, v.LTS, ov), v.LTS)
}

// lastEnd returns the latest end of the overlays of ov with the given sign
// that overlap [lo, hi), or −Inf if none does.
func lastEnd(ov []overlay, sign int, lo, hi float64) float64 {
	last := math.Inf(-1)
	for _, o := range ov {
		if o.sign == sign && o.s < hi && lo < o.e {
			last = max(last, o.e)
		}
	}
	return last
}

// netGives returns the earliest start and the latest end of the stretches
// of [lo, hi) over which the overlays of ov, together, give units back in a
// pool that demand needs — their sum there, gives (+1) less takes (−1), is
// positive in such a pool — or +Inf and −Inf if there is none. Elsewhere in
// [lo, hi) the overlays take at least as much as they give in every pool
// the job needs, so a window that misses those stretches fits with ov only
// where it fits without them. Only an overlay that gives back units of a
// pool demand needs can open such a stretch, and only within its own
// interval: each is cut at the ends of the others inside it and the sum
// taken on every piece. scratch is space for the cuts.
func netGives(ov []overlay, demand []int, lo, hi float64, scratch *[]float64) (first, last float64) {
	first, last = math.Inf(1), math.Inf(-1)
	for gi := range ov {
		g := &ov[gi]
		if g.sign < 0 || g.s >= hi || lo >= g.e {
			continue
		}
		a, b := max(g.s, lo), min(g.e, hi)
		if a >= first && b <= last || !givesIn(g.q, demand) {
			continue // inside the span already found, or none of the job's pools
		}
		// The pieces of [a, b): cut at every other overlay's ends inside.
		cuts := append((*scratch)[:0], a)
		taken := false
		for oi := range ov {
			o := &ov[oi]
			if oi == gi || o.s >= b || a >= o.e {
				continue
			}
			taken = taken || o.sign < 0
			if a < o.s {
				cuts = insertEnd(cuts, o.s)
			}
			if o.e < b {
				cuts = insertEnd(cuts, o.e)
			}
		}
		*scratch = cuts
		if !taken {
			// Nothing takes units over [a, b): g's own give is the sum
			// in one of demand's pools there, at least.
			first, last = min(first, a), max(last, b)
			continue
		}
		// A piece gives back in sum in a pool that g gives in, or in
		// none that g's pieces need look at: where another overlay gives
		// in a pool g does not, that overlay's own pieces find it.
		for i, c := range cuts {
			e := b
			if i+1 < len(cuts) {
				e = cuts[i+1]
			}
			if (c < first || e > last) && positiveAt(ov, g.q, demand, c) {
				first, last = min(first, c), max(last, e)
			}
		}
	}
	return first, last
}

// givesIn reports whether q holds units of a pool that demand needs.
func givesIn(q, demand []int) bool {
	for k, d := range q {
		if d > 0 && demand[k] > 0 {
			return true
		}
	}
	return false
}

// positiveAt reports whether the overlays of ov covering instant x give
// back, in sum, units of a pool that both q and demand hold units of.
func positiveAt(ov []overlay, q, demand []int, x float64) bool {
	for k, d := range q {
		if d <= 0 || demand[k] <= 0 {
			continue
		}
		sum := 0
		for oi := range ov {
			if o := &ov[oi]; o.s <= x && x < o.e {
				sum += o.sign * o.q[k]
			}
		}
		if sum > 0 {
			return true
		}
	}
	return false
}

// shortWith reports whether q does not fit at instant x on the plan with
// ov applied: a pool q uses has less than q there.
func (p *Plan) shortWith(x float64, q []int, ov []overlay) bool {
	a := p.point
	p.tl.availAt(x, a)
	for i := range ov {
		if o := &ov[i]; o.s <= x && x < o.e {
			addSigned(a, o.q, o.sign)
		}
	}
	return !fits(a, q)
}

// earliestBefore is earliestWith for v from from with ov applied, for the
// starts before before (and up to v.LTS) only.
//
// When those starts span less than v.Dur, the latest of them, last, lies
// in the window of every one: a start s in [from, last] has s ≤ last and
// s + v.Dur ≥ from + v.Dur > last. If v does not fit at the instant last
// (shortWith, one descent), no start fits, and the scan is not made. The
// scans before the old places of a what-if's victims (movedStartBounded's
// first scan) span 0.58 of the candidate's duration on average in the
// heavy seed-004 cell (BenchmarkSeed004Heavy), and 70% of the calls here
// end at this test: the cell's instructions 27.80 G → 25.41 G
// (docs/performance-log.md, "Forty-second session"). Testing the whole
// stretch common to the windows, [last, from + v.Dur), with firstConflict
// answered 93% of the calls but cost about what it saved (26.79 G).
func (p *Plan) earliestBefore(v *Reservation, from, before float64, ov []overlay) float64 {
	last := min(v.LTS, math.Nextafter(before, math.Inf(-1)))
	if from <= last && last < from+v.Dur {
		if p.shortWith(last, v.Demand, ov) {
			return math.Inf(1)
		}
	}
	return p.tl.earliestWith(from, v.Dur, v.Demand, last, ov)
}

// aloneStart returns a lower bound ≥ t on the earliest start ≥ t of v
// alone — on the plan with only own (v left out at its booked start)
// applied — that is exact or +Inf when that start is after v.LTS. It
// answers from what a (the query m remembers, or the one it replaced, if
// only that one covers t) remembers of earlier queries: no
// start in [a.from, a.at) fits, or, with a.at = +Inf, none in [a.from,
// a.limit]. Bookings only take units, so that stays true, except for the
// starts whose windows a give-back since has reached (refresh: a's hole,
// or the end of the range cut short). Then a query from t
//
//   - before a.from scans only the starts in [t, a.from): if none fits,
//     the answer is the one remembered from a.from;
//   - that depends on a hole scans only the hole;
//   - inside the remembered range is answered from it, or, where a
//     give-back or a later v.LTS cut the range short, by a scan from
//     where it now ends instead of from t;
//   - after a.at scans from t, and a remembers that query instead, the
//     one it replaces kept in m.prev.
//
// Every scan here is earliestWith with own, and a keeps what it proved.
func (p *Plan) aloneStart(m *aloneFits, v *Reservation, t float64, own []overlay) float64 {
	if !m.cur.covers(t) && m.prev.covers(t) {
		m.cur, m.prev = m.prev, m.cur
	}
	a := &m.cur
	if !a.made {
		return p.aloneScan(a, v, t, own)
	}
	cut := p.refresh(a, v.Dur)
	if t < a.from {
		if v.LTS < a.from {
			return p.aloneScan(a, v, t, own)
		}
		if s := p.earliestBefore(v, t, a.from, own); !math.IsInf(s, 1) {
			*a = aloneFit{made: true, fit: true, gave: p.gave(), took: p.took, from: t, limit: v.LTS, at: s}
			return s
		}
		a.from = t // no start in [t, a.from) fits either
	}
	if a.hole() && t < a.holeHi {
		// The query depends on the hole: scan it (from its start, so
		// that a keeps all it proved).
		s := p.earliestBefore(v, a.holeLo, a.holeHi, own)
		switch {
		case !math.IsInf(s, 1):
			p.found(a, s, v.LTS)
			a.holeLo, a.holeHi = 0, 0
			if t > s {
				return p.aloneScan(a, v, t, own)
			}
			return s
		case v.LTS < a.holeHi:
			// No start in [a.from, v.LTS] fits: the hole stays open after
			// v.LTS only.
			a.holeLo = math.Nextafter(v.LTS, math.Inf(1))
			return math.Inf(1)
		}
		a.holeLo, a.holeHi = 0, 0
	}
	if math.IsInf(a.at, 1) {
		switch {
		case v.LTS <= a.limit:
			p.remembered()
			return a.at
		case t > a.limit:
			return p.aloneScan(a, v, t, own)
		}
		return p.found(a, p.tl.earliestWith(math.Nextafter(a.limit, math.Inf(1)), v.Dur, v.Demand, v.LTS, own), v.LTS)
	}
	if t > a.at {
		// The query replaced is kept: the instants asked about one victim
		// go back and forth over its window.
		m.prev = *a
		return p.aloneScan(a, v, t, own)
	}
	if cut {
		return p.found(a, p.tl.earliestWith(a.at, v.Dur, v.Demand, v.LTS, own), v.LTS)
	}
	p.remembered()
	return a.at
}

// covers reports whether a, as it was made, answers a query from t
// without a scan: t is within what it proved (give-backs since aside).
func (a *aloneFit) covers(t float64) bool {
	return a.made && a.from <= t && (t <= a.at || math.IsInf(a.at, 1) && t <= a.limit)
}

// aloneScan is aloneStart's scan from t, which a remembers from then on.
func (p *Plan) aloneScan(a *aloneFit, v *Reservation, t float64, own []overlay) float64 {
	at := p.tl.earliestWith(t, v.Dur, v.Demand, v.LTS, own)
	*a = aloneFit{made: true, fit: true, gave: p.gave(), took: p.took, from: t, limit: v.LTS, at: at}
	return at
}

// found records in a a scan's answer at (up to limit) that extends what a
// proved: no start before at fits, and at fits on the plan as it is now
// (aloneFit.fit). It returns at.
func (p *Plan) found(a *aloneFit, at, limit float64) float64 {
	a.at, a.limit, a.fit, a.took = at, limit, true, p.took
	return at
}

// remembered counts an answer given from memory (tests).
func (p *Plan) remembered() {
	if checkMovedStart != nil {
		rememberedStarts++
	}
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
