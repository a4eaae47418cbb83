package stms

import (
	"math"
	"slices"

	"github.com/schedfarm/schedfarm/sim"
)

// Voids (inter-job delays, §2.2 Fig. 1, Problem 2) and what fills them:
// new jobs from the ready queue under GB-STMS (§3.2), and under IR-STMS
// with the irs_fill reading "voids" the IRS-ruled jobs already mapped to
// the resource (§3.1 Fig. 3, §5.2, §6).

// IRSFill is how IR-STMS's IRS-ruled jobs fill inter-job voids (a reading
// of §3.1, §5.2 and §6; see the package doc).
type IRSFill int

// The readings of IRSFill.
const (
	// FillVoids: an IRS-ruled job mapped to a resource also starts early
	// in a void of that resource before the job reserved next there, when
	// its α·PET (eq. 4) fits the void — "fitting IRS-ruled jobs rather than
	// new jobs into the void-intervals" (§6), "more opportunities to fit
	// the IRS-ruled jobs into potential void-intervals as the number of
	// short jobs increases" (§5.2).
	FillVoids IRSFill = iota
	// FillRestart: IRS-ruled jobs fill only the gap their own failure
	// would leave, by restarting in place (Fig. 3: "jobs i, j, and k are
	// reallocated at the same resource, respectively as soon as they meet
	// a failure").
	FillRestart
)

var irsFillNames = [...]string{"voids", "restart"}

// String returns the reading's name.
func (f IRSFill) String() string { return irsFillNames[f] }

// IRSFillOf parses a reading's name.
func IRSFillOf(name string) (IRSFill, bool) {
	i := slices.Index(irsFillNames[:], name)
	return IRSFill(i), i >= 0
}

// IRSFillNames lists the readings, the default first.
func IRSFillNames() []string { return slices.Clone(irsFillNames[:]) }

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
// pass, resources in index order. A backfilled job belongs to the batch
// last mapped (eq. 9 is per batch: GBS assigns ready jobs "after a batch of
// jobs is allocated", and only "the rest of jobs in the job ready queue
// will be included in a new batch of the next scheduling cycle", §3.2).
//
// The ready queue is scanned once per void; what the scan reads of each job
// (its column index and weight) is first copied, in queue order, into
// s.gbReady, so that the scans of a pass read one array rather than every
// job's state.
func (s *Scheduler) backfill(c *sim.Cluster) {
	now := c.Now()
	copied := false
	for r := range s.rs {
		if len(s.ready) == 0 {
			return
		}
		end, ok := s.voidEnd(r, now)
		if !ok {
			continue
		}
		if !copied {
			s.gbReady = s.gbReady[:0]
			for _, js := range s.ready {
				s.gbReady = append(s.gbReady, gbReady{js.gbIdx, js.gbW})
			}
			copied = true
		}
		void := end - now
		best, bestKey := -1, math.Inf(1)
		n := len(s.jobs)
		col := s.gbPET[r*n : (r+1)*n]
		for i, e := range s.gbReady {
			pet := col[e.idx]
			if pet > void {
				continue
			}
			key := pet * e.w // PET / weight
			if key < bestKey {
				best, bestKey = i, key
			}
		}
		if best < 0 {
			continue
		}
		js := s.ready[best]
		s.ready = slices.Delete(s.ready, best, best+1)
		s.gbReady = slices.Delete(s.gbReady, best, best+1)
		if s.groups == 0 { // before the first batch: a group of its own
			s.groups++
		}
		js.group, js.irs, js.backfilled, js.chain, js.next = s.groups, true, true, []int{r}, 1
		s.cnt.Backfilled++
		s.startOn(c, js, r)
	}
}

// fillIRS is IR-STMS's void filling (reading FillVoids): in a void of an
// idle resource (voidEnd), the first IRS-ruled job of its local queue (the
// mapping's order) whose α·PET by eq. 4 fits the void starts at once; one
// job per void and pass.
func (s *Scheduler) fillIRS(c *sim.Cluster) {
	now := c.Now()
	for r := range s.rs {
		if i := s.voidFill(r, now); i >= 0 {
			rs := &s.rs[r]
			js := rs.queue[i]
			rs.queue = slices.Delete(rs.queue, i, i+1)
			s.cnt.VoidFills++
			s.startOn(c, js, r)
		}
	}
}

// voidFill returns the index in resource r's local queue of the job that
// fillIRS starts there now, −1 when none: r is idle with a void
// (voidEnd), and the job is the queue's first IRS-ruled one not yet
// started whose α·PET fits the void. It changes nothing.
func (s *Scheduler) voidFill(r int, now float64) int {
	end, ok := s.voidEnd(r, now)
	if !ok {
		return -1
	}
	for i, js := range s.rs[r].queue {
		if js.irs && !js.started && js.irsSlot <= end-now {
			return i
		}
	}
	return -1
}

// probeVoidFill is the restart reading's look at what the voids reading
// would have done at the same point of the pass: fillIRS would have
// started a job when some resource has a voidFill, and it fills nothing
// (changes nothing) otherwise. Until the first such point the two
// readings' runs are the same run, step by step; voidFillSeen records
// that it came (IRSFillReadingsAgree).
func (s *Scheduler) probeVoidFill(now float64) {
	if s.voidFillSeen {
		return
	}
	for r := range s.rs {
		if s.voidFill(r, now) >= 0 {
			s.voidFillSeen = true
			return
		}
	}
}

// IRSFillReadingsAgree reports whether this IR-STMS run is also the run
// of the other irs_fill reading on the same cell, event for event: the
// readings differ only in fillIRS, called at one point of every pass
// under FillVoids, which changes nothing when no resource has a voidFill.
// So a FillVoids run that filled no void (VoidFills 0) took every step a
// FillRestart run takes, and a FillRestart run at whose every pass
// probeVoidFill found no voidFill took every step a FillVoids run takes:
// the same jobs, failures, migrations and metrics
// (TestIRSFillReadingsAgreeWithoutFills). False for other schemes.
func (s *Scheduler) IRSFillReadingsAgree() bool {
	if s.cfg.Scheme != IRSTMS {
		return false
	}
	if s.cfg.IRSFill == FillVoids {
		return s.cnt.VoidFills == 0
	}
	return !s.voidFillSeen
}

// gbReady is what backfill reads of a ready job: its column index in gbPET
// and its weight (jstate.gbIdx, gbW).
type gbReady struct {
	idx int
	w   float64
}

// cacheIRS fills gbPET for a job that arrives.
func (s *Scheduler) cacheIRS(js *jstate) {
	n := len(s.jobs)
	if s.gbPET == nil {
		s.gbPET = make([]float64, n*len(s.res))
	}
	js.gbIdx = int(js.sj.ID - 1)
	js.gbW = math.Max(js.a.Deadline-js.sj.Submit, 1e-9)
	for r, res := range s.res {
		s.gbPET[r*n+js.gbIdx] = s.cfg.Alpha * PETIRS(js.a, js.a.Size, res)
	}
}
