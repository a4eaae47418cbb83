package sim

import (
	"container/heap"
	"fmt"
	"math"
)

// Cluster is the scheduler's view of the simulated machine during a pass:
// the time, the capacity in use, the running jobs, and the actions a
// scheduler may take.
type Cluster struct {
	eng     *engine
	plat    Platform
	now     Time
	free    []int
	running []*Job // in start order

	waitingOrder waitOrder         // waiting jobs by arrival order (lazy deletion)
	wakeAt       Time              // the latest WakeAt
	timers       map[Time]struct{} // pass timers queued and not yet run
	tiers        *tierState        // nil on a dedicated machine
}

func newCluster(p Platform) *Cluster {
	c := &Cluster{plat: p, free: p.Capacities(), wakeAt: -1, timers: map[Time]struct{}{}}
	if p.Tiered() {
		c.tiers = newTierState(p)
	}
	return c
}

// Now returns the current simulated time.
func (c *Cluster) Now() Time { return c.now }

// Platform returns the platform being simulated.
func (c *Cluster) Platform() Platform { return c.plat }

// Free returns the free units of pool i.
func (c *Cluster) Free(i int) int { return c.free[i] }

// FreeAll returns the free units of every pool. The slice is the cluster's
// own; do not modify it.
func (c *Cluster) FreeAll() []int { return c.free }

// Running returns the running jobs in start order. The slice is the
// cluster's own; do not modify it, and do not keep it across actions.
func (c *Cluster) Running() []*Job { return c.running }

// Waiting returns the number of jobs that have arrived and not yet started
// or been rejected.
func (c *Cluster) Waiting() int { return c.eng.waiting }

// ExpectedEnd returns when a running job is expected to end from the
// scheduler's point of view: start + Estimate, but never before now (a job
// that outlives its estimate is expected to end any moment).
func (c *Cluster) ExpectedEnd(j *Job) Time {
	return max(j.start+j.Estimate, c.now)
}

// Fits reports whether j's demand fits in the free capacity now.
func (c *Cluster) Fits(j *Job) bool {
	for i, d := range j.Demand {
		if d > c.free[i] {
			return false
		}
	}
	return true
}

// Start starts a queued job now. It returns an error (and changes nothing)
// if the job is not queued or does not fit; the engine then stops the
// simulation, since a scheduler that oversubscribes is broken. On a tiered
// platform the job runs in tier 0 of the lowest-numbered processors whose
// tier-0 VM is idle.
func (c *Cluster) Start(j *Job) error {
	if c.tiers != nil && j.state == Queued && c.Fits(j) {
		return c.StartOn(j, 0, c.firstIdle(j.Demand[0]))
	}
	if j.state != Queued {
		return c.fail(fmt.Errorf("sim: scheduler started job %d in state %s at t=%g", j.ID, j.state, c.now))
	}
	if !c.Fits(j) {
		return c.fail(fmt.Errorf("sim: scheduler started job %d needing %v with only %v free at t=%g", j.ID, j.Demand, c.free, c.now))
	}
	for i, d := range j.Demand {
		c.free[i] -= d
	}
	c.begin(j)
	c.scheduleEnd(j)
	return nil
}

// begin is the bookkeeping of every start (Start, StartOn) once the job's
// capacity is taken: it leaves the queue, starts now with no progress at
// rate 1, is marked backfilled when an earlier job still waits, and joins
// the running jobs. The caller schedules its end.
func (c *Cluster) begin(j *Job) {
	c.eng.waiting--
	j.state = Running
	j.start = c.now
	j.lastAt = c.now
	j.done = 0
	j.rate = 1
	j.backfil = c.waitingOrder.earlierWaiting(j)
	c.running = append(c.running, j)
}

// Reject refuses a queued job with a reason; it ends at once.
func (c *Cluster) Reject(j *Job, reason string) error {
	if j.state != Queued {
		return c.fail(fmt.Errorf("sim: scheduler rejected job %d in state %s at t=%g", j.ID, j.state, c.now))
	}
	c.eng.finish(j, Rejected, reason)
	return nil
}

// WakeAt asks for a pass at time t (> now) even if nothing else happens
// then. Asking again for a time already asked for is free: one timer per
// time is queued (a second one at the same time would find the pass queued
// already, and do nothing but cost the event queue).
func (c *Cluster) WakeAt(t Time) {
	if t <= c.now || t == c.wakeAt {
		return
	}
	c.wakeAt = t
	if _, ok := c.timers[t]; ok {
		return
	}
	c.timers[t] = struct{}{}
	c.eng.event(t, ClassTimer, nil)
}

// SetRate changes the speed at which a running job progresses (1 = a
// dedicated processor, 0 = suspended). Progress so far is settled at the old
// rate and the job's end event moves accordingly.
func (c *Cluster) SetRate(j *Job, rate float64) error {
	if j.state != Running {
		return c.fail(fmt.Errorf("sim: rate change for job %d in state %s", j.ID, j.state))
	}
	if rate < 0 || math.IsNaN(rate) || math.IsInf(rate, 0) {
		return c.fail(fmt.Errorf("sim: rate %g for job %d; accepted: finite and ≥ 0", rate, j.ID))
	}
	c.settle(j)
	j.rate = rate
	c.scheduleEnd(j)
	return nil
}

// Abort stops the simulation with err once the current pass returns: Run
// returns err (the first one, if several). A scheduler that cannot go on
// calls it, such as an external scheduler process that crashed or made an
// invalid decision.
func (c *Cluster) Abort(err error) { c.fail(err) }

func (c *Cluster) fail(err error) error {
	if c.eng.err == nil {
		c.eng.err = err
	}
	return err
}

// settle integrates a running job's progress up to now.
func (c *Cluster) settle(j *Job) {
	j.done += (c.now - j.lastAt) * j.rate
	if j.done > j.work {
		j.done = j.work
	}
	j.lastAt = c.now
}

// scheduleEnd (re)queues the job's end event: when its remaining work is done
// at the current rate, or at its limit, whichever is first.
func (c *Cluster) scheduleEnd(j *Job) {
	at := math.Inf(1)
	target := j.work
	if (c.tiers != nil || j.stretched) && j.limit > 0 && j.limit < target {
		// On a tiered platform a VM's wall clock stretches, and a
		// preempted job's wall time includes its suspensions (Preempt):
		// the limit counts dedicated-processor time, as the estimate does.
		target = j.limit
	}
	if j.rate > 0 {
		if j.done == 0 && j.rate == 1 {
			at = j.lastAt + target // exact for the common case
		} else {
			at = c.now + (target-j.done)/j.rate
		}
	}
	if c.tiers == nil && !j.stretched && j.limit > 0 && j.start+j.limit < at {
		at = j.start + j.limit
	}
	if ev := j.endEv; ev != nil {
		// A queued end moves in place: the same event, time and sequence
		// as cancelling it and queueing the recycled event anew (the free
		// list would hand it back first), in one sift of the heap.
		if !math.IsInf(at, 1) && c.eng.q.Reschedule(ev, at) {
			return
		}
		c.eng.q.Cancel(ev)
		c.eng.recycle(ev)
		j.endEv = nil
	}
	if math.IsInf(at, 1) {
		return
	}
	j.endEv = c.eng.event(at, c.eng.endClass, j)
}

// release returns a job's units and removes it from the running list. A
// job leaving its VMs during a migration pause (Suspend) ends the pause
// with it: the pause belongs to the move it interrupts, and the event that
// would have ended it is cancelled, so a later Resume runs the job at its
// speed on the VMs it then gets.
func (c *Cluster) release(j *Job) {
	if c.tiers != nil {
		c.vacate(j)
		if tj := j.tx; tj.resumeEv != nil {
			c.eng.q.Cancel(tj.resumeEv)
			c.eng.recycle(tj.resumeEv)
			tj.resumeEv = nil
			tj.pausedTo = 0
		}
	} else {
		for i, d := range j.Demand {
			c.free[i] += d
		}
	}
	for i, r := range c.running {
		if r == j {
			copy(c.running[i:], c.running[i+1:])
			c.running[len(c.running)-1] = nil
			c.running = c.running[:len(c.running)-1]
			break
		}
	}
}

// waitOrder answers, at each start, whether a job that arrived earlier still
// waits (the backfilled flag). Arrivals come one at a time in arrival order,
// so they form a FIFO; only a suspended job coming back to the queue
// (Suspend) can be older than the newest, and those few go in a heap. Jobs
// that left the queue are dropped lazily when they reach the front.
type waitOrder struct {
	arrived  []*Job // in arrival order, from head on
	head     int
	requeued seqHeap
}

// arrive records a job that joined the queue on arrival; its seq is the
// largest so far.
func (w *waitOrder) arrive(j *Job) {
	if w.head > 0 && 2*w.head >= len(w.arrived) {
		n := copy(w.arrived, w.arrived[w.head:])
		clear(w.arrived[n:])
		w.arrived, w.head = w.arrived[:n], 0
	}
	w.arrived = append(w.arrived, j)
}

// requeue records a suspended job back in the queue.
func (w *waitOrder) requeue(j *Job) { heap.Push(&w.requeued, j) }

// earlierWaiting reports whether a job that arrived before j is still
// queued (j itself is no longer queued when this is called).
func (w *waitOrder) earlierWaiting(j *Job) bool {
	for w.head < len(w.arrived) && w.arrived[w.head].state != Queued {
		w.arrived[w.head] = nil
		w.head++
	}
	if w.head < len(w.arrived) && w.arrived[w.head].seq < j.seq {
		return true
	}
	return w.requeued.earlierWaiting(j)
}

// seqHeap holds jobs by arrival order; jobs that left the queue are dropped
// lazily when they reach the top.
type seqHeap []*Job

func (h seqHeap) Len() int           { return len(h) }
func (h seqHeap) Less(a, b int) bool { return h[a].seq < h[b].seq }
func (h seqHeap) Swap(a, b int)      { h[a], h[b] = h[b], h[a] }
func (h *seqHeap) Push(x any)        { *h = append(*h, x.(*Job)) }
func (h *seqHeap) Pop() any {
	old := *h
	j := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	return j
}

// earlierWaiting reports whether a job in the heap that arrived before j is
// still queued.
func (h *seqHeap) earlierWaiting(j *Job) bool {
	for h.Len() > 0 && (*h)[0].state != Queued {
		heap.Pop(h)
	}
	return h.Len() > 0 && (*h)[0].seq < j.seq
}
