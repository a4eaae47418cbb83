package stms

import (
	"math"
	"slices"

	"github.com/schedfarm/schedfarm/sim"
)

// Selective preemption (SPS, §3.3, eq. 5–6, Fig. 5). A migrant J_m that
// reaches its backup R_y while a job J_p runs there competes with it (a
// race condition). Eq. 5 gives each job's preemption priority
//
//	PP(J) = (t_w + t_r) / t_r
//
// with t_r its expected remaining time (PET) and t_w the time it has to
// wait for re-allocation when the other goes first. J_m preempts J_p when
// PF = PP(J_m)/PP(J_p) > c (eq. 6), unless that makes J_p miss a deadline
// it would meet ("without compromising a previously running job's deadline
// requirement", direction (1)). Otherwise it waits at the head of R_y's
// queue. "If one is suspended then its preemption priority is increased;
// while, a preemption priority of running job is decreased with the same
// rate of the suspended job at a unit time": while a job waits, its PP
// grows by 1/t_r (its own t_r, fixed while it waits) per second — eq. 5
// with t_w the time waited — and the running job's PP falls by the same
// amount, never below 1 (eq. 5's value at t_w = 0). PF is compared again
// every Slot seconds: J_m takes the resource when PF > c, and once it runs
// "J_p should be waited for the next time slot until PF is equal to or
// smaller than c", when J_p takes it back. So "execution of the two jobs
// can alternate as shown in Fig. 5, when a value of PP(J_m) is close to
// PP(J_p)'s". The suspended job keeps its state and pays no transfer (it
// stays on R_y).

// race is a waiting contender's standing against the job running where it
// waits.
type race struct {
	rival *jstate // the running job it was last compared with
	// self and other are the PP (eq. 5) of the waiting job and of the
	// running one as of at; rate is 1/t_r of the waiting job.
	self, other, rate, at float64
	// migrant is true when the waiting job is the race's J_m (PF =
	// self/other), false when it is the J_p it preempted (PF = other/self).
	migrant bool
}

// startRace sets w's race against the job p running on r as at a migrant's
// arrival: each job's t_w is the other's remaining time (eq. 5).
func (s *Scheduler) startRace(c *sim.Cluster, w, p *jstate, r int, migrant bool) {
	tw, tp := s.remaining(c, w, r), s.remaining(c, p, r)
	w.race = race{rival: p, self: PP(tp, tw), other: PP(tw, tp), rate: 1 / tw, at: c.Now(), migrant: migrant}
}

// advance moves w's race to now: the waiting job's PP rises by rate per
// second, the running job's falls by the same, to no less than 1.
func (w *jstate) advance(now float64) {
	d := (now - w.race.at) * w.race.rate
	w.race.self += d
	w.race.other = math.Max(1, w.race.other-d)
	w.race.at = now
}

// pf is eq. 6's preemption factor PP(J_m)/PP(J_p) of w's race.
func (w *jstate) pf() float64 {
	if w.race.migrant {
		return w.race.self / w.race.other
	}
	return w.race.other / w.race.self
}

// takes reports whether the waiting job w takes resource r from the job p
// running there now: as J_m when PF > c and p's deadline allows it; as
// J_p when PF ≤ c.
func (s *Scheduler) takes(c *sim.Cluster, w, p *jstate, r int) bool {
	if !w.race.migrant {
		return !(w.pf() > s.cfg.C)
	}
	if !(w.pf() > s.cfg.C) {
		return false
	}
	now := c.Now()
	tw, tp := s.remaining(c, w, r), s.remaining(c, p, r)
	onTime := now+tp <= p.a.Deadline
	return !onTime || now+tw+tp <= p.a.Deadline
}

// arriveSPS lands a migrant at its backup under SP-STMS: on an idle
// resource it goes first (ahead of the jobs reserved there); on a busy one
// it races the running job.
func (s *Scheduler) arriveSPS(c *sim.Cluster, m *jstate) {
	y := m.res
	p := s.rs[y].run
	if p == nil {
		s.enqueueContender(y, m)
		return
	}
	s.startRace(c, m, p, y, true)
	if s.takes(c, m, p, y) {
		s.swap(c, y, m)
		return
	}
	s.enqueueContender(y, m)
	m.checkAt = c.Now() + s.cfg.Slot
	c.WakeAt(m.checkAt)
}

// enqueueContender puts js behind the contenders at the head of r's queue.
func (s *Scheduler) enqueueContender(r int, js *jstate) {
	rs := &s.rs[r]
	js.ph, js.res, js.contender = pQueued, r, true
	i := 0
	for i < len(rs.queue) && rs.queue[i].contender {
		i++
	}
	rs.queue = slices.Insert(rs.queue, i, js)
}

// swap suspends the job running on r (state kept; it becomes the first
// contender, its race continued from w's) and runs w.
func (s *Scheduler) swap(c *sim.Cluster, r int, w *jstate) {
	now := c.Now()
	rs := &s.rs[r]
	p := rs.run
	rs.busy += now - p.runFrom
	if c.Suspend(p.sj) != nil {
		return
	}
	rs.run = nil
	p.preempted++
	s.cnt.Preemptions++
	p.race = race{rival: w, self: w.race.other, other: w.race.self,
		rate: 1 / s.remaining(c, p, r), at: now, migrant: !w.race.migrant}
	p.ph, p.contender, p.failAt = pQueued, true, math.Inf(1)
	p.checkAt = now + s.cfg.Slot
	c.WakeAt(p.checkAt)
	rs.queue = slices.Insert(rs.queue, 0, p)
	s.startOn(c, w, r)
}

// recheck compares, every Slot seconds, the first contender of a busy
// resource with the running job (its race advanced to now; a race against
// a job no longer running starts afresh against the one that is).
func (s *Scheduler) recheck(c *sim.Cluster) {
	now := c.Now()
	for r := range s.rs {
		rs := &s.rs[r]
		if rs.run == nil || len(rs.queue) == 0 || !rs.queue[0].contender {
			continue
		}
		w := rs.queue[0]
		if now < w.checkAt {
			continue
		}
		if w.race.rival != rs.run {
			s.startRace(c, w, rs.run, r, true)
		} else {
			w.advance(now)
		}
		if s.takes(c, w, rs.run, r) {
			rs.queue = rs.queue[1:]
			s.swap(c, r, w)
			continue
		}
		w.checkAt = now + s.cfg.Slot
		c.WakeAt(w.checkAt)
	}
}
