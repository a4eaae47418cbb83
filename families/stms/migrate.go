package stms

import (
	"cmp"
	"math"
	"slices"

	"github.com/schedfarm/schedfarm/sim"
)

// The migration path (§2.2–2.3, Fig. 1): a failed job moves with its state
// to a backup resource, where — outside SP-STMS — it waits for the slot the
// plan reserved for it there, behind the jobs already executing or reserved
// before it ("delayed job execution"); overtaking them is SPS's alone
// (§3.3, sps.go).

// fail handles the failure of the job running on resource x: IRS restarts
// it in place, STMS moves it with its state to a backup resource.
func (s *Scheduler) fail(c *sim.Cluster, x int) {
	now := c.Now()
	rs := &s.rs[x]
	js := rs.run
	js.failures++
	s.cnt.Failures++
	rs.busy += now - js.runFrom
	if js.irs && js.restarts < s.cfg.MaxRestarts {
		if c.Restart(js.sj) != nil {
			return
		}
		js.restarts++
		s.cnt.Restarts++
		js.runFrom = now
		s.setRate(c, js, x)
		return
	}
	js.irs = false
	if c.Suspend(js.sj) != nil {
		return
	}
	rs.run, rs.lastEnd = nil, now
	y, k := s.backup(c, js, x)
	js.fallback = k < 0 || k >= len(js.slots)
	if !js.fallback {
		js.planned = js.slots[k] // the backup's reserved slot
	}
	// The transfer moves the state actually left (what the state traces
	// recorded), not the estimate.
	dm := s.cfg.Transfer(c.Remaining(js.sj)/1e6, js.a.Data, s.res[x], s.res[y])
	js.migrations++
	s.cnt.Migrations++
	s.cnt.TransferTime += dm
	js.ph, js.res, js.arrive, js.failAt = pTransit, y, now+dm, math.Inf(1)
	s.trans = append(s.trans, js)
	c.WakeAt(js.arrive)
}

// backup picks the resource a job failed on x moves to and the stage of
// its chain that resource is (−1 beyond the chain): the next one of its
// chain (the backups the mGA reserved for it), else the resource where it
// is expected to finish first — the later of its arrival (after the
// transfer) and the end of what goes before it there, plus α·PET of its
// remaining work there. What goes before it: under SP-STMS the running job
// and the contenders ahead (it overtakes the rest); otherwise everything
// running, queued or on its way there (it joins the end of the queue).
// Ties: the shorter local queue, then the lowest index.
func (s *Scheduler) backup(c *sim.Cluster, js *jstate, x int) (y, stage int) {
	for js.next < len(js.chain) {
		k := js.next
		y := js.chain[k]
		js.next++
		if y != x {
			return y, k
		}
	}
	s.cnt.Fallbacks++
	now := c.Now()
	rem := s.remEst(c, js)
	var ahead []float64
	if s.cfg.Scheme == SPSTMS {
		ahead = s.contenderFree(c)
	} else {
		ahead = s.expectedFree(c)
	}
	best, bestT, bestQ := x, math.Inf(1), 0
	for y := range s.res {
		if y == x {
			continue
		}
		start := math.Max(now+s.cfg.Transfer(rem, js.a.Data, s.res[x], s.res[y]), ahead[y])
		t := start + s.cfg.Alpha*s.petOn(js, rem, y)
		q := len(s.rs[y].queue)
		if t < bestT || t == bestT && q < bestQ {
			best, bestT, bestQ = y, t, q
		}
	}
	return best, -1
}

// contenderFree returns, per resource, when the running job and the
// contenders that would go before a new migrant under SP-STMS (queued at
// the head or on their way there) are expected to be done (α·PET of each).
func (s *Scheduler) contenderFree(c *sim.Cluster) []float64 {
	now := c.Now()
	t := s.plan.freeBuf()
	for r := range s.rs {
		rs := &s.rs[r]
		t[r] = now
		if rs.run != nil {
			t[r] += s.cfg.Alpha * s.remaining(c, rs.run, r)
		}
		for _, js := range rs.queue {
			if !js.contender {
				break
			}
			t[r] += s.cfg.Alpha * s.remaining(c, js, r)
		}
	}
	for _, js := range s.trans {
		t[js.res] = math.Max(t[js.res], js.arrive) + s.cfg.Alpha*s.remaining(c, js, js.res)
	}
	return t
}

// transfers lands the migrants whose data has arrived, in order of arrival
// (then job ID). Under SP-STMS each competes with the job running at its
// backup (sps.go); otherwise it joins its backup's queue at its reserved
// slot (enqueueMigrant).
func (s *Scheduler) transfers(c *sim.Cluster) {
	now := c.Now()
	var due []*jstate
	keep := s.trans[:0]
	for _, js := range s.trans {
		if js.arrive <= now {
			due = append(due, js)
		} else {
			keep = append(keep, js)
		}
	}
	s.trans = keep
	slices.SortStableFunc(due, func(a, b *jstate) int {
		return cmp.Or(cmp.Compare(a.arrive, b.arrive), cmp.Compare(a.sj.ID, b.sj.ID))
	})
	for _, js := range due {
		if s.cfg.Scheme == SPSTMS {
			s.arriveSPS(c, js)
			continue
		}
		s.enqueueMigrant(js, now)
	}
}

// enqueueMigrant puts a migrant that has arrived at its backup into the
// backup's local queue at the slot the plan reserved for it there: behind
// every job planned to start no later than that slot, ahead of those
// planned after it (under the timetable it is due at its slot, §2.3.2). A
// migrant beyond its chain had no slot reserved: it joins the end of the
// queue, due on arrival.
func (s *Scheduler) enqueueMigrant(js *jstate, now float64) {
	rs := &s.rs[js.res]
	js.ph = pQueued
	if js.fallback {
		js.planned = now
		rs.queue = append(rs.queue, js)
		return
	}
	i := 0
	for i < len(rs.queue) && (rs.queue[i].contender || rs.queue[i].planned <= js.planned) {
		i++
	}
	rs.queue = slices.Insert(rs.queue, i, js)
}

// migrantStart returns the earliest time a migrant on its way to a
// resource may start there, as far as a void on that resource is
// concerned: on arrival under SP-STMS, beyond its chain or with eager
// dispatch; otherwise not before its reserved slot.
func (s *Scheduler) migrantStart(js *jstate) float64 {
	if s.cfg.Scheme == SPSTMS || js.fallback || s.cfg.Dispatch == Eager {
		return js.arrive
	}
	return math.Max(js.arrive, js.planned)
}
