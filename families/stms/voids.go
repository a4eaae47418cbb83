package stms

import (
	"math"
	"slices"

	"github.com/schedfarm/schedfarm/sim"
)

// Voids (inter-job delays, §2.2 Fig. 1, Problem 2) and what fills them:
// new jobs from the ready queue under GB-STMS (§3.2).

// voidEnd returns until when idle resource r is free for a job that must
// not delay what is reserved there: the planned start of its queue's head,
// the earliest start of a migrant heading for it (migrantStart) or, with
// nothing reserved, the next cycle. ok is false when r is busy or its head
// is due now.
func (s *Scheduler) voidEnd(r int, now float64) (end float64, ok bool) {
	rs := &s.rs[r]
	if rs.run != nil {
		return 0, false
	}
	end = s.nextCycle
	if len(rs.queue) > 0 {
		if s.due(rs.queue[0], now) {
			return 0, false
		}
		end = rs.queue[0].planned
	}
	for _, js := range s.trans {
		if js.res == r {
			end = math.Min(end, s.migrantStart(js))
		}
	}
	return end, true
}

// backfill is GBS (§3.2): in a void (voidEnd), the ready job of largest
// weight / α·PET (WSEPT, weight 1 / demanded flow time, PET by eq. 4)
// whose α·PET fits the void (Condition 2: it fits and does not delay the
// job reserved next) runs there at once, under IRS; one job per void and
// pass, resources in index order.
func (s *Scheduler) backfill(c *sim.Cluster) {
	now := c.Now()
	for r := range s.rs {
		if len(s.ready) == 0 {
			return
		}
		end, ok := s.voidEnd(r, now)
		if !ok {
			continue
		}
		void := end - now
		best, bestKey := -1, math.Inf(1)
		nr := len(s.res)
		for i, js := range s.ready {
			pet := s.gbPET[int(js.sj.ID-1)*nr+r]
			if pet > void {
				continue
			}
			key := pet * math.Max(js.a.Deadline-js.sj.Submit, 1e-9) // PET / weight
			if key < bestKey {
				best, bestKey = i, key
			}
		}
		if best < 0 {
			continue
		}
		js := s.ready[best]
		s.ready = slices.Delete(s.ready, best, best+1)
		if s.bfGroup == 0 {
			s.groups++
			s.bfGroup = s.groups
		}
		js.group, js.irs, js.backfilled, js.chain, js.next = s.bfGroup, true, true, []int{r}, 1
		s.cnt.Backfilled++
		s.startOn(c, js, r)
	}
}

// cacheIRS fills gbPET for a job that arrives.
func (s *Scheduler) cacheIRS(js *jstate) {
	nr := len(s.res)
	if s.gbPET == nil {
		s.gbPET = make([]float64, len(s.jobs)*nr)
	}
	i := int(js.sj.ID-1) * nr
	for r, res := range s.res {
		s.gbPET[i+r] = s.cfg.Alpha * PETIRS(js.a, js.a.Size, res)
	}
}
