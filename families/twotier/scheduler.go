package twotier

import (
	"fmt"
	"math"

	"github.com/schedfarm/schedfarm/sim"
)

// Policy selects a member of the two-tier family.
type Policy int

// The policies of Table 2.
const (
	// Strict is Two-tier Strict Backfilling (2TSB, Figure 3): every job at
	// its earliest starting time; no reservation ever moves.
	Strict Policy = iota
	// Flexible is Two-tier Flexible Backfilling (2TFB with SF = 0, 2TFB-SF
	// with SF > 0, Figure 4): a job may take an earlier feasible backfilling
	// time by delaying reservations within their latest starting times.
	Flexible
	// Priority is Two-tier Priority Backfilling (2TPB, Figure 5):
	// high-priority projects by Flexible with slack factor (1 − pi)·SF,
	// low-priority ones by Strict with latest starting times from
	// (1 − pi)·SF, so high-priority projects may delay them.
	Priority
)

// String names the policy.
func (p Policy) String() string {
	switch p {
	case Strict:
		return "strict"
	case Flexible:
		return "flexible"
	case Priority:
		return "priority"
	}
	return fmt.Sprintf("Policy(%d)", int(p))
}

// Config selects a scheduler of the family.
type Config struct {
	Policy Policy
	// SF is the slack factor: a project may depart up to SF times its
	// turn-around time later than first planned (eq. 7).
	SF float64
	// PL is the preemption limit: how many projects one shiftReservations
	// may make depart later (Unlimited: any number); Rules.Count says what
	// counts.
	PL int
	// Rules are shiftReservations' readings (zero value: the defaults).
	Rules ShiftRules
	// Own is the latest starting time of a project's own jobs while it is
	// planned (zero value: OwnPinned).
	Own OwnLTS
	// Turnaround is eq. 7's turn-around time (zero value:
	// TurnaroundProject).
	Turnaround LTSTurnaround
}

// TSB returns the 2TSB configuration.
func TSB() Config { return Config{Policy: Strict, PL: Unlimited} }

// TFB returns the 2TFB configuration (SF = 0).
func TFB() Config { return Config{Policy: Flexible, PL: Unlimited} }

// TFBSF returns the 2TFB-SF configuration with slack factor sf and
// preemption limit pl.
func TFBSF(sf float64, pl int) Config { return Config{Policy: Flexible, SF: sf, PL: pl} }

// TPB returns the 2TPB configuration with slack factor sf and preemption
// limit pl.
func TPB(sf float64, pl int) Config { return Config{Policy: Priority, SF: sf, PL: pl} }

// Validate reports every field outside the family.
func (c Config) Validate() error {
	var errs []string
	if c.Policy < Strict || c.Policy > Priority {
		errs = append(errs, fmt.Sprintf("policy %d; accepted: strict, flexible or priority", int(c.Policy)))
	}
	if !(c.SF >= 0) || math.IsInf(c.SF, 0) {
		errs = append(errs, fmt.Sprintf("SF %g; accepted: a finite number ≥ 0", c.SF))
	}
	if c.PL < Unlimited {
		errs = append(errs, fmt.Sprintf("PL %d; accepted: an integer ≥ 0 or unlimited", c.PL))
	}
	for _, r := range []struct {
		name  string
		v, n  int
		names []string
	}{
		{"victim", int(c.Rules.Victim), len(victimNames), victimNames},
		{"pl_count", int(c.Rules.Count), len(plCountNames), plCountNames},
		{"own_lts", int(c.Own), len(ownLTSNames), ownLTSNames},
		{"lts_tn", int(c.Turnaround), len(turnaroundNames), turnaroundNames},
	} {
		if r.v < 0 || r.v >= r.n {
			errs = append(errs, fmt.Sprintf("%s %d; accepted: %v", r.name, r.v, r.names))
		}
	}
	if len(errs) == 0 {
		return nil
	}
	msg := "twotier: " + errs[0]
	for _, e := range errs[1:] {
		msg += "; " + e
	}
	return fmt.Errorf("%s", msg)
}

// HighPriority reports whether a project of priority pi is a high-priority
// project for 2TPB and for the metrics' priority classes: pi > 0.
func HighPriority(pi float64) bool { return pi > 0 }

// minDur is the duration a zero service time occupies in the plan, so a job
// that holds resources for an instant is still seen.
const minDur = 1e-6

// retry is how far a reservation whose job cannot start at its planned time
// (only possible when a job outlives its estimate) is pushed before trying
// again.
const retry = 1e-3

func dur(j *sim.Job) float64 { return math.Max(j.Estimate, minDur) }

// Scheduler is the two-tier backfilling scheduler. It plans every job of a
// project when the project arrives, in submit order, and starts jobs when
// their planned time comes. Jobs with Project 0 are projects of their own.
//
// The service time a scheduler plans with is the job's Estimate (the thesis
// assumes exact service times). A job that ends early frees its units for
// later arrivals; planned starts are not compressed.
type Scheduler struct {
	cfg  Config
	plan *Plan

	running map[*sim.Job]float64 // planned end of each running job
	due     []*Reservation
	bts     []float64
	delays  []window // the delays of the last failed attempt kept
	batch   []*Reservation
	groups  []group
}

type group struct {
	p    *Project
	jobs []*sim.Job
}

// New returns a scheduler for platform p.
func New(p sim.Platform, cfg Config) (*Scheduler, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return newWith(NewPlan(0, p.Capacities()), cfg), nil
}

func newWith(plan *Plan, cfg Config) *Scheduler {
	plan.Rules = cfg.Rules
	return &Scheduler{cfg: cfg, plan: plan, running: map[*sim.Job]float64{}}
}

// Config returns the scheduler's configuration.
func (s *Scheduler) Config() Config { return s.cfg }

// Plan returns the scheduler's reservation structure (read-only use).
func (s *Scheduler) Plan() *Plan { return s.plan }

// Reservations reports, for every waiting job, its latest starting time
// (sim.Reserver). It is the promise the family keeps: 2TFB and 2TFB-SF may
// delay a planned start, but never past the latest starting time, which is
// fixed when the project is planned; under 2TSB it equals the planned start.
func (s *Scheduler) Reservations() []sim.Reservation {
	rs := make([]sim.Reservation, 0, s.plan.Len())
	for _, r := range s.plan.Reservations() {
		rs = append(rs, sim.Reservation{Job: r.Job, Start: r.LTS})
	}
	return rs
}

// Pass implements sim.Scheduler.
func (s *Scheduler) Pass(c *sim.Cluster, ch sim.Changes) {
	now := c.Now()
	s.plan.Advance(now)
	for _, j := range ch.Ended {
		end, ok := s.running[j]
		if !ok {
			continue
		}
		delete(s.running, j)
		if j.End() < end {
			s.plan.Vacate(j.Start(), end, j.End(), j.Demand)
		}
	}
	s.startDue(c, now)
	s.groupArrivals(ch.Arrived)
	for _, g := range s.groups {
		s.schedule(now, g)
		s.startDue(c, now)
	}
	if t := s.plan.NextStart(); !math.IsInf(t, 1) {
		c.WakeAt(t)
	}
}

// groupArrivals splits the arrivals into projects, in order of first
// appearance.
func (s *Scheduler) groupArrivals(arrived []*sim.Job) {
	s.groups = s.groups[:0]
	for _, j := range arrived {
		id := j.Project
		if id == 0 {
			id = -j.ID
		}
		k := len(s.groups) - 1
		for ; k >= 0; k-- {
			if s.groups[k].p.ID == id {
				break
			}
		}
		if k < 0 {
			s.groups = append(s.groups, group{p: &Project{ID: id, Arrival: j.Submit, Departure: j.Submit, Priority: j.Priority}})
			k = len(s.groups) - 1
		}
		s.groups[k].jobs = append(s.groups[k].jobs, j)
	}
}

// schedule plans one project's jobs (Figures 3–5).
func (s *Scheduler) schedule(now float64, g group) {
	flexible, sf := false, 0.0
	switch s.cfg.Policy {
	case Flexible:
		flexible, sf = true, s.cfg.SF
	case Priority:
		sf = (1 - g.p.Priority) * s.cfg.SF
		flexible = HighPriority(g.p.Priority)
	}
	s.batch = s.batch[:0]
	for _, j := range g.jobs {
		r := &Reservation{Job: j, Project: g.p, Dur: dur(j), Demand: j.Demand}
		placed := false
		if flexible {
			s.bts = s.plan.FeasibleBackfillingTimes(now, r.Dur, r.Demand, s.bts)
			// Figure 4 lines 8–16 try every bt in turn. A failed attempt
			// proves that attempts at some later bts fail too
			// (failedAttempt.covers): those are passed over without a
			// what-if, the same placements from fewer attempts.
			var failed failedAttempt
			for _, bt := range s.bts {
				covered := failed.covers(bt)
				if covered {
					if passedOver != nil {
						*passedOver++
						if len(failed.delays) > 0 {
							*passedAfterDelays++
						}
					}
					if !tryEveryTime {
						continue
					}
				}
				r.Start, r.LTS = bt, bt // the job itself is pinned while it is placed
				ok, f := s.plan.tryReservation(r, s.cfg.PL)
				if ok {
					if covered && wronglyPassedOver != nil {
						*wronglyPassedOver++
					}
					placed = true
					break
				}
				if !covered {
					// f's delays are the plan's buffer, which the next
					// attempt reuses.
					s.delays = append(s.delays[:0], f.delays...)
					failed, failed.delays = f, s.delays
				}
			}
		}
		if !placed {
			// A job that may not shift others (2TSB, 2TPB's low
			// priority) goes to its earliest starting time, where it fits
			// without shifting anyone: what TryReservation there would
			// book after finding no conflict, without looking for one.
			// For a flexible job this is unreachable (its earliest
			// starting time is the last backfilling time tried).
			r.Start = s.plan.EarliestStartingTime(now, r.Dur, r.Demand)
			r.LTS = r.Start
			s.plan.AddReservation(r)
		}
		g.p.Departure = math.Max(g.p.Departure, r.End())
		s.batch = append(s.batch, r)
		// Own earlier jobs may have been delayed: the departure is the
		// latest planned end of the jobs placed so far.
		for _, x := range s.batch {
			g.p.Departure = math.Max(g.p.Departure, x.End())
		}
		if s.cfg.Policy != Strict {
			switch s.cfg.Own {
			case OwnInfinite:
				for _, x := range s.batch {
					x.LTS = math.Inf(1)
				}
			case OwnProvisional:
				s.setLTS(g.p, sf)
			}
		}
	}
	s.setLTS(g.p, sf)
}

// setLTS gives every job of the project being planned (s.batch) its latest
// starting time: eq. 7, lts = td + tn·SF − te, with the departure td and
// the turn-around time tn as planned now (tn_u of the project, or the job's
// own tn_{u,v} under TurnaroundJob); under 2TSB the planned start.
func (s *Scheduler) setLTS(p *Project, sf float64) {
	for _, r := range s.batch {
		lts := r.Start
		if s.cfg.Policy != Strict {
			tn := p.Departure - p.Arrival
			if s.cfg.Turnaround == TurnaroundJob {
				tn = r.End() - p.Arrival
			}
			lts = p.Departure + tn*sf - r.Dur
		}
		s.plan.UpdateLatestStartingTime(r, lts)
	}
}

// startDue starts every job whose planned start has come.
func (s *Scheduler) startDue(c *sim.Cluster, now float64) {
	s.due = s.plan.Due(now, s.due[:0])
	for _, r := range s.due {
		j := r.Job
		if !c.Fits(j) {
			// Only when a running job outlived its estimate: book again
			// a little later.
			s.plan.Release(r)
			r.Start = s.plan.EarliestStartingTime(now+retry, r.Dur, r.Demand)
			r.LTS = math.Max(r.LTS, r.Start)
			s.plan.AddReservation(r)
			continue
		}
		if c.Start(j) != nil {
			return
		}
		s.running[j] = r.End()
	}
}

// tryEveryTime, set by tests, makes the scheduler try every feasible
// backfilling time, as Figure 4 writes it, instead of passing over those
// a failed attempt proved would fail; passedOver, set by tests, counts the
// times passed over (with tryEveryTime: those that would be),
// passedAfterDelays those among them passed over after an attempt that
// decided delays, and wronglyPassedOver those whose attempt, tried,
// succeeded.
var (
	tryEveryTime      bool
	passedOver        *int
	passedAfterDelays *int
	wronglyPassedOver *int
)
