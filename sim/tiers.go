package sim

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// MaxTiers is the largest number of VM tiers per processor a platform may
// have.
const MaxTiers = 8

// Sharing is the CPU-sharing model of a tiered platform: how fast a process
// progresses given what the other tiers of its processor run. The engine
// asks again whenever the occupants of a processor change, and a job
// progresses at the speed of its slowest process (seed 000 §3.2).
type Sharing interface {
	// Speed returns the progress rate (1 = a dedicated processor) of
	// process i of job j running in tier `tier` of a processor; occ[k] is
	// the actual CPU usage of the process in tier k of that processor, 0
	// when that VM is idle (occ[tier] is the process itself).
	Speed(j *Job, i, tier int, occ []float64) float64
}

// TwoTier is seed 000's prioritised two-tier model (§2.1, §3.2): a
// foreground process loses a fraction loss of its speed when the
// background VM of its processor is busy; a background process runs at full
// speed on a processor whose foreground VM is idle, and otherwise at eff, or
// eff·idle/usage when the idle CPU share the foreground leaves is below its
// own usage.
//
// The paper draws loss and eff per time slice; a simulation that integrates
// progress between events needs one rate per job, so each job draws its loss
// and eff once, from a PCG stream seeded by (Seed, job ID): the same job
// gets the same values under every scheduler (a paired comparison), whatever
// the order in which jobs are placed.
type TwoTier struct {
	// Seed feeds the per-job draws.
	Seed uint64
	// Loss is the range of the foreground loss, uniform (§2.1: 0.5–4%).
	LossLo, LossHi float64
	// EffSingle is the range of eff for a single-process job, uniform
	// (§2.1: 0.80–0.92).
	EffSingleLo, EffSingleHi float64
	// EffMean and EffSD are eff's normal law for a multi-process job
	// (§2.1: μ = 0.428, σ = 0.144), clipped to the observed range
	// [EffMin, EffMax] (19.8–76.6%).
	EffMean, EffSD, EffMin, EffMax float64

	pcg rand.PCG   // reseeded per job: no allocation per draw
	rng *rand.Rand // over pcg
}

// NewTwoTier returns seed 000's two-tier model with the paper's constants.
func NewTwoTier(seed uint64) *TwoTier {
	return &TwoTier{
		Seed:   seed,
		LossLo: 0.005, LossHi: 0.04,
		EffSingleLo: 0.80, EffSingleHi: 0.92,
		EffMean: 0.428, EffSD: 0.144, EffMin: 0.198, EffMax: 0.766,
	}
}

// Validate reports a model whose ranges are empty or outside [0, 1].
func (m *TwoTier) Validate() error {
	in01 := func(lo, hi float64) bool { return lo >= 0 && lo <= hi && hi <= 1 }
	if !in01(m.LossLo, m.LossHi) || !in01(m.EffSingleLo, m.EffSingleHi) || !in01(m.EffMin, m.EffMax) ||
		!(m.EffSD >= 0) || math.IsNaN(m.EffMean) {
		return fmt.Errorf("two-tier sharing: loss [%g, %g], eff single [%g, %g], eff multi N(%g, %g) in [%g, %g]; accepted: ranges within [0, 1], σ ≥ 0",
			m.LossLo, m.LossHi, m.EffSingleLo, m.EffSingleHi, m.EffMean, m.EffSD, m.EffMin, m.EffMax)
	}
	return nil
}

// Draws returns j's foreground loss and background efficiency, drawing
// them on first use (the same values under every scheduler). Models built
// on TwoTier (seed 003's K tiers) read them here.
func (m *TwoTier) Draws(j *Job) (loss, eff float64) { return m.draws(j) }

// draws returns j's loss and eff, drawing them on first use in the run
// (kept with the job's platform state; a job not placed yet is drawn each
// time, with the same result); drawOnce draws them.
func (m *TwoTier) draws(j *Job) (loss, eff float64) {
	if tx := j.tx; tx != nil && tx.shareSet {
		return tx.share[0], tx.share[1]
	}
	return m.drawOnce(j)
}

// drawOnce draws j's loss and eff from the PCG stream of (Seed, job ID)
// and keeps them with the job's platform state, if it has one.
func (m *TwoTier) drawOnce(j *Job) (loss, eff float64) {
	tx := j.tx
	if m.rng == nil {
		m.rng = rand.New(&m.pcg)
	}
	m.pcg.Seed(m.Seed, uint64(j.ID))
	r := m.rng
	loss = m.LossLo + r.Float64()*(m.LossHi-m.LossLo)
	if len(j.Demand) > 0 && j.Demand[0] == 1 {
		eff = m.EffSingleLo + r.Float64()*(m.EffSingleHi-m.EffSingleLo)
	} else {
		eff = math.Min(m.EffMax, math.Max(m.EffMin, m.EffMean+m.EffSD*r.NormFloat64()))
	}
	if tx != nil {
		tx.share, tx.shareSet = [2]float64{loss, eff}, true
	}
	return loss, eff
}

// Speed implements Sharing for two tiers (eq. 3.1 and 3.2 of seed 000, with
// eq. 3.1's "T·loss" read as T·(1 − loss): loss is the fraction lost).
func (m *TwoTier) Speed(j *Job, i, tier int, occ []float64) float64 {
	bg := 0.0
	if len(occ) > 1 {
		bg = occ[1]
	}
	loss, eff := m.draws(j)
	return speedGiven(loss, eff, tier, occ[0], bg, j.CPU(i))
}

// speedGiven is the speed of a process of a job with draws loss and eff
// in tier (0 foreground, 1 background), given the usages in the
// foreground (fg) and background (bg) VMs of its processor and its own,
// req (eq. 3.1 and 3.2 of seed 000): Speed's arithmetic, and flushRates's
// on a two-tier platform with the usages its slots keep.
func speedGiven(loss, eff float64, tier int, fg, bg, req float64) float64 {
	if tier == 0 {
		if bg > 0 {
			return 1 - loss
		}
		return 1
	}
	if fg <= 0 {
		return 1
	}
	idle := max(0, 1-fg)
	if idle >= req {
		return eff
	}
	return eff * idle / req
}

// slot is one VM: the job running in it and which of its processes, and
// that process's speed (Sharing.Speed) as of the VM's processor's current
// occupants: valid unless stale. Every change of a processor's occupants
// marks its slots stale (touch), so flushRates asks the sharing model again
// only for the processes whose processor changed and takes the minimum of
// the kept speeds for the rest — the same numbers, since Speed depends on
// the job, the process, the tier and the processor's occupants only.
//
// use is the process's actual usage, Job.CPU(proc), kept when the process
// is placed (the usage is set before a job is submitted and never
// changes): the sharing model reads both VMs' usages for every speed, and
// this saves it two pointer chases per VM.
//
// The fields fill 32 bytes (proc as int32), so a slot never straddles two
// cache lines.
type slot struct {
	job   *Job
	speed float64
	use   float64
	proc  int32
	stale bool
}

// tierState is the cluster's bookkeeping of a tiered platform.
type tierState struct {
	slots [][]slot // [tier][processor]
	free  []int    // idle VMs per tier
	dirty []*Job   // jobs whose rate must be recomputed
	occ   []float64
	slab  []int // carved into the jobs' processor lists
	// seen[p] == stamp marks processor p as named by the placement being
	// checked (duplicates in O(n) without clearing).
	seen  []uint32
	stamp uint32
	// changed logs the processors whose occupants changed (occupy, vacate),
	// in order and possibly repeated, for Cluster.OccupancyChanges;
	// changedBase counts the entries dropped before changed[0].
	changed     []int
	changedBase uint64
	// txSlab is carved into the jobs' platform state (Job.tx) at their
	// first placement; stale lists the VMs whose speed went stale by touch
	// (not by occupy) since the last flushRates.
	txSlab []tierJob
	stale  []vmRef
	// spareTx and spareProcs hold what ended jobs gave back (retire): zeroed
	// tierJobs, and processor lists by length (spareProcs[n] has cap n),
	// taken before the slabs are carved again.
	spareTx    []*tierJob
	spareProcs [][][]int
	// idleScratch is firstIdle's list.
	idleScratch []int
	// two is the platform's sharing model when it is seed 000's two-tier
	// one on two tiers (nil otherwise): flushRates computes its speeds
	// inline, and occupy draws a job's loss and eff at its first placement,
	// so that they are in the job's state whenever a speed is asked.
	two *TwoTier
	// keptUsed counts the rates taken from a kept minimum (tests).
	keptUsed int
}

// tierJob is a job's state on a tiered platform (Job.tx), from its first
// placement in the run (occupy) on. It lives apart from Job so that the
// jobs of a dedicated machine, most runs, do not carry it.
type tierJob struct {
	procs    []int // processor of each process
	pausedTo Time  // no progress before this time (a migration)
	resumeEv *Event
	kept     keptRate
	share    [2]float64 // the sharing model's per-job draws (TwoTier)
	tier     int32
	shareSet bool
	dirty    bool // queued for a rate update
}

// newTierJob returns a zero tierJob: one an ended job gave back (retire),
// else the next of the slab, carved from chunks of 1,024. Jobs placed at
// once are at most the VMs, so a run of any length uses a few chunks.
func (c *Cluster) newTierJob() *tierJob {
	t := c.tiers
	if n := len(t.spareTx); n > 0 {
		tx := t.spareTx[n-1]
		t.spareTx = t.spareTx[:n-1]
		return tx
	}
	if len(t.txSlab) == 0 {
		t.txSlab = make([]tierJob, 1024)
	}
	tx := &t.txSlab[0]
	t.txSlab = t.txSlab[1:]
	return tx
}

// procList returns an empty processor list of capacity n: one an ended job
// gave back, else carved from the slab (chunks of at least 4,096).
func (t *tierState) procList(n int) []int {
	if n < len(t.spareProcs) {
		if k := len(t.spareProcs[n]); k > 0 {
			l := t.spareProcs[n][k-1]
			t.spareProcs[n] = t.spareProcs[n][:k-1]
			return l
		}
	}
	if len(t.slab) < n {
		t.slab = make([]int, max(4096, n))
	}
	l := t.slab[:0:n]
	t.slab = t.slab[n:]
	return l
}

// retire gives an ended job's platform state back for the jobs placed
// after it: its processor list and its tierJob, zeroed; the job has no
// placement any more (Placement: 0, nil). A job's state was carved from
// fresh memory before, 200,000 jobs' of it in a seed-000 cell (giving it
// back took 18% of a MEASY cell's page faults off, and the slab's
// allocation, zeroing and copy were 0.7% of the whole reproduction's
// samples: docs/performance-log.md, "Forty-first session"). Nothing reads
// an ended job's state: Placement is for running jobs, and a sharing
// model's draws (TwoTier.Draws) are drawn again, the same values, for a
// job without it.
func (c *Cluster) retire(j *Job) {
	t, tj := c.tiers, j.tx
	if t == nil || tj == nil {
		return
	}
	if n := cap(tj.procs); n > 0 {
		if n >= len(t.spareProcs) {
			t.spareProcs = append(t.spareProcs, make([][][]int, n+1-len(t.spareProcs))...)
		}
		t.spareProcs[n] = append(t.spareProcs[n], tj.procs[:0])
	}
	*tj = tierJob{}
	t.spareTx = append(t.spareTx, tj)
	j.tx = nil
}

// keptRate is a job's slowest kept process speed and how many processes
// run at it (flushRates). It is invalid (ok false) from the job's placement
// (occupy) or a pause that held back a stale speed until flushRates next
// computes every speed of the job.
type keptRate struct {
	min float64
	n   int32
	ok  bool
}

// vmRef names one VM.
type vmRef struct{ tier, proc int32 }

// maxChangeLog bounds the occupancy log on n processors: beyond it the log is
// dropped, and a reader with an older mark looks at every processor again.
func maxChangeLog(n int) int { return 16*n + 1024 }

func newTierState(p Platform) *tierState {
	n := p.Pools[0].Capacity
	t := &tierState{slots: make([][]slot, p.Tiers), free: make([]int, p.Tiers), occ: make([]float64, p.Tiers), seen: make([]uint32, n)}
	for k := range t.slots {
		t.slots[k] = make([]slot, n)
		t.free[k] = n
	}
	if two, ok := p.Sharing.(*TwoTier); ok && p.Tiers == 2 {
		t.two = two
	}
	return t
}

// Relocation says how Cluster.Relocate moves a running job.
type Relocation struct {
	// Restart kills the job's run and starts it again from scratch at its
	// new place (seed 000's KEASY); otherwise its progress is kept.
	Restart bool
	// Pause is how long the job makes no progress after the move: the cost
	// of a migration (seed 000's MEASY: 20 s by default).
	Pause Time
}

// Tiers returns the number of VM tiers per processor (1 on a dedicated
// machine).
func (c *Cluster) Tiers() int {
	if c.tiers == nil {
		return 1
	}
	return len(c.tiers.slots)
}

// FreeIn returns the number of idle VMs of a tier (the free processors on a
// dedicated machine, tier 0).
func (c *Cluster) FreeIn(tier int) int {
	if c.tiers == nil {
		if tier == 0 {
			return c.free[0]
		}
		return 0
	}
	return c.tiers.free[tier]
}

// Occupant returns the job running in tier `tier` of processor p and the
// index of its process there; nil when the VM is idle or the platform is
// not tiered.
func (c *Cluster) Occupant(tier, p int) (*Job, int) {
	if c.tiers == nil {
		return nil, 0
	}
	s := &c.tiers.slots[tier][p]
	return s.job, int(s.proc)
}

// OccupancyChanges returns the processors of a tiered platform whose VM
// occupants changed (a job started, ended, moved or swapped tiers there)
// since the call that returned mark, in order and possibly repeated, and the
// mark for the next call (0 is the mark of the run's start). ok is false when
// the changes since mark are no longer all kept (a mark not from this
// cluster, a log dropped while nobody asked): the caller must then look at
// every processor again. The cluster keeps one reader's changes: a call
// drops those before mark (another reader's older mark then gets ok false),
// and the log is dropped when it grows past 16 entries a processor. The slice
// is the cluster's own, valid until the next action; nil, 0, false on a
// dedicated machine.
func (c *Cluster) OccupancyChanges(mark uint64) (procs []int, next uint64, ok bool) {
	t := c.tiers
	if t == nil {
		return nil, 0, false
	}
	end := t.changedBase + uint64(len(t.changed))
	if mark < t.changedBase || mark > end {
		return nil, end, false
	}
	// What came before mark was read: drop it.
	n := copy(t.changed, t.changed[mark-t.changedBase:])
	t.changed, t.changedBase = t.changed[:n], mark
	return t.changed, end, true
}

// ObservedCPU returns the CPU usage a monitor of the platform observes for
// the process in VM (tier, p): the actual usage of that process (the share
// of the processor it draws when it is not held back; a foreground process
// always is not), 0 when the VM is idle or the platform is not tiered. It
// is what a scheduler may read of a running process's usage without being
// told an estimate (seed 000 §3.5.1 under unknown_usage=observed); the
// usage of a job that has not started stays hidden (Job.CPU).
func (c *Cluster) ObservedCPU(tier, p int) float64 {
	if c.tiers == nil {
		return 0
	}
	return c.tiers.slots[tier][p].use // 0 when idle
}

// Placement returns the tier a running job is in and the processor of each
// of its processes (the cluster's own slice: do not modify it). On a
// dedicated machine it returns 0 and nil.
func (c *Cluster) Placement(j *Job) (tier int, procs []int) {
	if j.tx == nil {
		return 0, nil
	}
	return int(j.tx.tier), j.tx.procs
}

// Progress returns the work a running job has done so far, in seconds of a
// dedicated processor (what a state-tracking server would observe).
func (c *Cluster) Progress(j *Job) Time {
	if j.state != Running {
		return j.done
	}
	return min(j.work, j.done+(c.now-j.lastAt)*j.rate)
}

// StartOn starts a queued job on a tiered platform: process i runs in tier
// `tier` of processor procs[i]. Every named VM must be idle and the
// processors distinct.
func (c *Cluster) StartOn(j *Job, tier int, procs []int) error {
	if j.state != Queued {
		return c.fail(fmt.Errorf("sim: scheduler started job %d in state %s at t=%g", j.ID, j.state, c.now))
	}
	if err := c.checkSlots(j, tier, procs); err != nil {
		return c.fail(err)
	}
	c.begin(j)
	c.occupy(j, tier, procs)
	c.scheduleEnd(j)
	return nil
}

// Relocate moves a running job of a tiered platform to tier `tier` of the
// processors procs (process i to procs[i]): a swap of VM priorities when the
// processors are its own, a migration otherwise. The VMs it leaves are
// freed first, so a job may take over VMs it holds. With how.Restart its
// progress is lost and it runs again from scratch.
func (c *Cluster) Relocate(j *Job, tier int, procs []int, how Relocation) error {
	if c.tiers == nil {
		return c.fail(fmt.Errorf("sim: relocating job %d on a platform without tiers", j.ID))
	}
	if j.state != Running {
		return c.fail(fmt.Errorf("sim: relocating job %d in state %s at t=%g", j.ID, j.state, c.now))
	}
	if how.Pause < 0 || math.IsNaN(how.Pause) || math.IsInf(how.Pause, 0) {
		return c.fail(fmt.Errorf("sim: relocation pause %g for job %d; accepted: finite and ≥ 0", how.Pause, j.ID))
	}
	c.settle(j)
	old, oldTier := j.tx.procs, int(j.tx.tier)
	c.vacate(j)
	if err := c.checkSlots(j, tier, procs); err != nil {
		c.occupy(j, oldTier, old)
		return c.fail(err)
	}
	same := len(old) == len(procs)
	for i := range procs {
		same = same && old[i] == procs[i]
	}
	switch {
	case how.Restart:
		j.restarts++
		j.done = 0
	case same:
		j.swaps++
	default:
		j.moves++
	}
	j.stretched = true
	// The move replaces any pause the job was in (PauseInPlace).
	c.pauseUntil(j, c.now+how.Pause)
	c.occupy(j, tier, procs)
	c.scheduleEnd(j) // progress may have been reset; flushRates sets the new rate
	return nil
}

// PauseInPlace stops a running job of a tiered platform for d seconds where
// it is (d = +Inf: until Relocate moves it): it keeps its VMs (and the CPU
// usage its processes count for their neighbours) but makes no progress
// until now + d. It is the cost of a migration paid at the job's source,
// before a later Relocate moves it (seed 000's MEASY under the reading
// migration_pause=source). A new pause replaces the one under way.
func (c *Cluster) PauseInPlace(j *Job, d Time) error {
	if c.tiers == nil {
		return c.fail(fmt.Errorf("sim: pausing job %d on a platform without tiers", j.ID))
	}
	if j.state != Running {
		return c.fail(fmt.Errorf("sim: pausing job %d in state %s at t=%g", j.ID, j.state, c.now))
	}
	if !(d >= 0) || math.IsInf(d, -1) {
		return c.fail(fmt.Errorf("sim: pause %g for job %d; accepted: ≥ 0 seconds, or +Inf (until moved)", d, j.ID))
	}
	c.settle(j)
	j.stretched = true
	c.pauseUntil(j, c.now+d)
	if tj := j.tx; !tj.dirty {
		tj.dirty = true
		c.tiers.dirty = append(c.tiers.dirty, j) // flushRates sets rate 0
	}
	return nil
}

// pauseUntil makes j progress at rate 0 until t (flushRates) and schedules
// the event that ends the pause (none for t = +Inf), replacing any earlier
// pause; t ≤ now ends the pause under way.
func (c *Cluster) pauseUntil(j *Job, t Time) {
	tj := j.tx
	if tj.resumeEv != nil {
		c.eng.q.Cancel(tj.resumeEv)
		c.eng.recycle(tj.resumeEv)
		tj.resumeEv = nil
	}
	if t <= c.now {
		tj.pausedTo = min(tj.pausedTo, c.now)
		return
	}
	tj.pausedTo = t
	if !math.IsInf(t, 1) {
		tj.resumeEv = c.eng.event(t, ClassTimer, j)
	}
}

// checkSlots reports a placement that does not fit: wrong process count,
// a processor out of range or named twice, a busy VM.
func (c *Cluster) checkSlots(j *Job, tier int, procs []int) error {
	t := c.tiers
	if t == nil {
		return fmt.Errorf("sim: placing job %d on processors of a platform without tiers", j.ID)
	}
	if tier < 0 || tier >= len(t.slots) {
		return fmt.Errorf("sim: job %d placed in tier %d; the platform has tiers 0..%d", j.ID, tier, len(t.slots)-1)
	}
	if len(procs) != j.Demand[0] {
		return fmt.Errorf("sim: job %d has %d processes, placed on %d processors", j.ID, j.Demand[0], len(procs))
	}
	row := t.slots[tier]
	t.stamp++
	if t.stamp == 0 { // wrapped: forget every old mark
		clear(t.seen)
		t.stamp = 1
	}
	for _, p := range procs {
		if p < 0 || p >= len(row) {
			return fmt.Errorf("sim: job %d placed on processor %d; the platform has 0..%d", j.ID, p, len(row)-1)
		}
		if row[p].job != nil {
			return fmt.Errorf("sim: job %d placed in tier %d of processor %d, which runs job %d at t=%g", j.ID, tier, p, row[p].job.ID, c.now)
		}
		if t.seen[p] == t.stamp {
			return fmt.Errorf("sim: job %d places two processes on processor %d", j.ID, p)
		}
		t.seen[p] = t.stamp
	}
	return nil
}

// occupy puts j's processes in their VMs and marks every job sharing those
// processors for a rate update.
func (c *Cluster) occupy(j *Job, tier int, procs []int) {
	t := c.tiers
	if j.tx == nil {
		j.tx = c.newTierJob()
	}
	tj := j.tx
	if t.two != nil && !tj.shareSet {
		t.two.drawOnce(j) // the values of (Seed, job ID), whenever drawn
	}
	tj.tier = int32(tier)
	if cap(tj.procs) < len(procs) {
		tj.procs = t.procList(len(procs))
	}
	tj.procs = append(tj.procs[:0], procs...)
	row := t.slots[tier]
	for i, p := range tj.procs {
		row[p] = slot{job: j, proc: int32(i), use: j.CPU(i), stale: true}
	}
	tj.kept.ok = false // every speed is new
	t.free[tier] -= len(procs)
	if tier == 0 {
		c.free[0] = t.free[0]
	}
	c.touch(tj.procs)
}

// vacate frees j's VMs and marks the jobs sharing its processors.
func (c *Cluster) vacate(j *Job) {
	t := c.tiers
	tj := j.tx
	row := t.slots[tj.tier]
	for _, p := range tj.procs {
		row[p] = slot{}
	}
	t.free[tj.tier] += len(tj.procs)
	if tj.tier == 0 {
		c.free[0] = t.free[0]
	}
	c.touch(tj.procs)
}

// touch marks every running job on the processors for a rate update and
// the speeds of their processes there stale.
func (c *Cluster) touch(procs []int) {
	t := c.tiers
	if len(t.changed)+len(procs) > maxChangeLog(len(t.seen)) {
		t.changedBase += uint64(len(t.changed))
		t.changed = t.changed[:0]
	}
	t.changed = append(t.changed, procs...)
	// Two tiers (seed 000) with both rows in hand: the slots are not
	// looked up through t at every step, which cost a third of touch's
	// instructions (docs/performance-log.md, "Thirty-ninth session"). The
	// order of the marks is the same: a processor's tiers in turn.
	if len(t.slots) == 2 {
		fg, bg := t.slots[0], t.slots[1]
		for _, p := range procs {
			t.touchSlot(&fg[p], 0, p)
			t.touchSlot(&bg[p], 1, p)
		}
		return
	}
	for _, p := range procs {
		for k := range t.slots {
			t.touchSlot(&t.slots[k][p], k, p)
		}
	}
}

// touchSlot marks the VM s (tier k of processor p) stale and its job, if
// any, for a rate update.
func (t *tierState) touchSlot(s *slot, k, p int) {
	o := s.job
	if o == nil {
		s.stale = true
		return
	}
	if !s.stale {
		s.stale = true
		t.stale = append(t.stale, vmRef{int32(k), int32(p)})
	}
	if ot := o.tx; !ot.dirty {
		ot.dirty = true
		t.dirty = append(t.dirty, o)
	}
}

// firstIdle returns the n lowest-numbered processors whose tier-0 VM is
// idle: where Start puts a job on a tiered platform. The list is scratch
// space, overwritten by the next call: StartOn copies it (occupy).
func (c *Cluster) firstIdle(n int) []int {
	procs := c.tiers.idleScratch[:0]
	for p, s := range c.tiers.slots[0] {
		if len(procs) == n {
			break
		}
		if s.job == nil {
			procs = append(procs, p)
		}
	}
	c.tiers.idleScratch = procs
	return procs
}

// flushRates recomputes the rate of every job whose processors changed:
// the speed of its slowest process, 0 while a migration pauses it. Only
// the processes on changed processors (stale slots) are asked to the
// sharing model; the others keep their speed. A job whose slowest kept
// speed is known (keptRate) takes its stale speeds one by one into it, and
// its rate is that minimum, without a look at its other processes; a job
// just placed, or whose slowest process got faster with no other as slow,
// looks at every process.
func (c *Cluster) flushRates() {
	t := c.tiers
	if t == nil || len(t.dirty) == 0 {
		return
	}
	// Seed 000's model on two tiers is computed here, without the
	// interface and the occupancy vector (the same arithmetic, the job's
	// draws made by occupy): twoTierSpeed is small enough to be inlined at
	// both calls, where asking TwoTier was three calls a speed (8% of a
	// KEASY cell's instructions: docs/performance-log.md, "Thirty-ninth
	// session").
	two := t.two != nil
	twoTierSpeed := func(j *Job, p int) float64 {
		tx := j.tx
		fg, bg := t.slots[0][p].use, t.slots[1][p].use
		req := fg
		if tx.tier == 1 {
			req = bg
		}
		return speedGiven(tx.share[0], tx.share[1], int(tx.tier), fg, bg, req)
	}
	for _, r := range t.stale {
		s := &t.slots[r.tier][r.proc]
		j := s.job
		if j == nil || !s.stale || j.state != Running {
			continue
		}
		tj := j.tx
		k := &tj.kept
		if !k.ok {
			continue // every speed is computed below
		}
		if c.now < tj.pausedTo {
			k.ok = false // this speed waits for the pause's end
			continue
		}
		old := s.speed
		if two {
			s.speed = twoTierSpeed(j, int(r.proc))
		} else {
			s.speed = c.sharedSpeed(j, int(s.proc), int(r.proc))
		}
		s.stale = false
		switch {
		case s.speed < k.min:
			k.min, k.n = s.speed, 1
		case s.speed == k.min && old != k.min:
			k.n++
		case s.speed != k.min && old == k.min:
			if k.n--; k.n == 0 {
				k.ok = false // the slowest got faster: look again
			}
		}
	}
	t.stale = t.stale[:0]
	for _, j := range t.dirty {
		tj := j.tx
		tj.dirty = false
		if j.state != Running {
			continue
		}
		rate := math.Inf(1)
		k := &tj.kept
		switch {
		case c.now < tj.pausedTo:
			rate = 0
		case k.ok:
			rate = k.min
			t.keptUsed++
		default:
			row := t.slots[tj.tier]
			n := int32(0)
			for i, p := range tj.procs {
				own := &row[p]
				if own.stale {
					if two {
						own.speed = twoTierSpeed(j, p)
					} else {
						own.speed = c.sharedSpeed(j, i, p)
					}
					own.stale = false
				}
				// Speeds are ≥ +0 and never NaN, so a plain comparison
				// is math.Min without its NaN and signed-zero cases.
				switch {
				case own.speed < rate:
					rate, n = own.speed, 1
				case own.speed == rate:
					n++
				}
			}
			*k = keptRate{min: rate, n: n, ok: true}
		}
		if rate != j.rate {
			c.settle(j)
			j.rate = rate
			j.stretched = true
			c.scheduleEnd(j)
		}
	}
	t.dirty = t.dirty[:0]
}

// sharedSpeed asks the platform's sharing model for the speed of j's
// process i on processor p, given the usages the slots keep.
func (c *Cluster) sharedSpeed(j *Job, i, p int) float64 {
	t := c.tiers
	for k := range t.slots {
		t.occ[k] = t.slots[k][p].use // 0 when idle
	}
	return c.plat.Sharing.Speed(j, i, int(j.tx.tier), t.occ)
}

// resume ends a job's migration pause.
func (c *Cluster) resume(j *Job) {
	tj := j.tx
	tj.resumeEv = nil
	if j.state == Running && !tj.dirty {
		tj.dirty = true
		c.tiers.dirty = append(c.tiers.dirty, j)
	}
	c.flushRates()
}
