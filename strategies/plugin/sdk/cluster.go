package sdk

import (
	"fmt"
	"math"
	"slices"

	pb "github.com/schedfarm/schedfarm/strategies/plugin/schedulerpb"
)

// Job is a job as a scheduler may see it: no actual runtime.
type Job struct {
	// ID is schedfarm's number for the job: 0, 1, 2, … in arrival order.
	ID uint64
	// WorkloadID is the job's number in the workload (SWF field 1).
	WorkloadID int64
	Submit     float64
	// Estimate is the runtime the scheduler is told, in seconds.
	Estimate float64
	// Demand holds the units needed from each pool; Demand[0] is the
	// processor count on the classic machine.
	Demand []int64

	state  jobState
	start  float64
	end    float64
	killed bool
	procs  []int
}

type jobState uint8

const (
	waiting jobState = iota
	running
	done     // finished or killed
	rejected // by this plugin
)

// Waiting reports whether the job waits to start.
func (j *Job) Waiting() bool { return j.state == waiting }

// Running reports whether the job runs.
func (j *Job) Running() bool { return j.state == running }

// Start returns when the job started (once it has).
func (j *Job) Start() float64 { return j.start }

// End returns when the job ended (for the jobs of Cluster.Ended).
func (j *Job) End() float64 { return j.end }

// Killed reports whether an ended job was killed at its limit.
func (j *Job) Killed() bool { return j.killed }

// Processors returns the processors of a job started with StartOn.
func (j *Job) Processors() []int { return j.procs }

// Cluster is the scheduler's view of the machine during a pass, kept from
// the changes schedfarm sends (never the whole state), and the actions it
// may take. Actions take effect at once in this view (a started job holds
// its units, so Fits accounts for it) and are sent to schedfarm when Pass
// returns, which checks and applies them.
type Cluster struct {
	now     float64
	pools   []Pool
	free    []int64
	jobs    []*Job // by ID; nil once ended
	queue   []*Job // waiting at the start of the pass, arrival order
	run     []*Job // running, in start order
	arrived []*Job
	ended   []*Job
	idle    []bool // PlacesProcessors: processor idle?
	places  bool
	slab    []Job

	dec     pb.Decisions
	resSet  bool           // reservations made this pass
	starts  []*pb.StartJob // reused
	nstarts int
}

func newCluster(s *pb.Start, places bool) *Cluster {
	c := &Cluster{places: places}
	for _, p := range s.GetPlatform().GetPools() {
		c.pools = append(c.pools, Pool{Name: p.GetName(), Capacity: p.GetCapacity()})
		c.free = append(c.free, p.GetCapacity())
	}
	if places && len(c.pools) > 0 {
		c.idle = make([]bool, c.pools[0].Capacity)
		for i := range c.idle {
			c.idle[i] = true
		}
	}
	return c
}

// Now returns the time of the pass.
func (c *Cluster) Now() float64 { return c.now }

// Pools returns the platform's pools.
func (c *Cluster) Pools() []Pool { return c.pools }

// Free returns the free units per pool. The slice is the cluster's own; do
// not modify it.
func (c *Cluster) Free() []int64 { return c.free }

// Queue returns the jobs that were waiting when the pass began, in arrival
// order. Jobs started or rejected during the pass stay in it until the pass
// ends (Job.Waiting tells). The slice is the cluster's own.
func (c *Cluster) Queue() []*Job { return c.queue }

// Running returns the running jobs in start order (the cluster's own
// slice; it changes with Start).
func (c *Cluster) Running() []*Job { return c.run }

// Arrived returns the jobs that arrived since the previous pass.
func (c *Cluster) Arrived() []*Job { return c.arrived }

// Ended returns the jobs that ended since the previous pass.
func (c *Cluster) Ended() []*Job { return c.ended }

// Fits reports whether j's demand fits in the free units now.
func (c *Cluster) Fits(j *Job) bool {
	for i, d := range j.Demand {
		if d > c.free[i] {
			return false
		}
	}
	return true
}

// ExpectedEnd returns when a running job is expected to end: start +
// estimate, but not before now.
func (c *Cluster) ExpectedEnd(j *Job) float64 { return math.Max(j.start+j.Estimate, c.now) }

// Start starts a waiting job now. It returns an error, and sends nothing,
// when the job is not waiting or does not fit.
func (c *Cluster) Start(j *Job) error {
	if c.places {
		return fmt.Errorf("job %d: this plugin places processors; use StartOn", j.ID)
	}
	return c.start(j, nil)
}

// StartOn starts a waiting job now on the given processors (plugins with
// PlacesProcessors): one per processor it needs, each idle.
func (c *Cluster) StartOn(j *Job, procs []int) error {
	if !c.places {
		return fmt.Errorf("job %d: StartOn needs Plugin.PlacesProcessors", j.ID)
	}
	if int64(len(procs)) != j.Demand[0] {
		return fmt.Errorf("job %d needs %d processors; %d given", j.ID, j.Demand[0], len(procs))
	}
	for i, p := range procs {
		if p < 0 || p >= len(c.idle) || !c.idle[p] || slices.Contains(procs[:i], p) {
			return fmt.Errorf("job %d: processor %d is not an idle processor", j.ID, p)
		}
	}
	return c.start(j, procs)
}

func (c *Cluster) start(j *Job, procs []int) error {
	if j.state != waiting {
		return fmt.Errorf("job %d is not waiting", j.ID)
	}
	if !c.Fits(j) {
		return fmt.Errorf("job %d needs %v, %v free", j.ID, j.Demand, c.free)
	}
	for i, d := range j.Demand {
		c.free[i] -= d
	}
	j.state, j.start = running, c.now
	c.run = append(c.run, j)
	if c.nstarts == len(c.starts) {
		c.starts = append(c.starts, &pb.StartJob{})
	}
	m := c.starts[c.nstarts]
	c.nstarts++
	m.Id = j.ID
	m.Processors = m.Processors[:0]
	if procs != nil {
		j.procs = append([]int(nil), procs...)
		for _, p := range procs {
			c.idle[p] = false
			m.Processors = append(m.Processors, uint32(p))
		}
	}
	c.dec.Start = append(c.dec.Start, m)
	return nil
}

// Reject refuses a waiting job; it ends at once with the reason.
func (c *Cluster) Reject(j *Job, reason string) error {
	if j.state != waiting {
		return fmt.Errorf("job %d is not waiting", j.ID)
	}
	j.state = rejected
	c.dec.Reject = append(c.dec.Reject, &pb.RejectJob{Id: j.ID, Reason: reason})
	return nil
}

// Reserve promises waiting job j a start at t (for display and checks:
// schedfarm's tests verify a promise never moves later). The reservations
// made in a pass replace the previous pass's; a pass that makes none keeps
// them (less the jobs that started).
func (c *Cluster) Reserve(j *Job, t float64) {
	r := c.reservations()
	r.Items = append(r.Items, &pb.Reservation{Id: j.ID, Start: t})
}

// ClearReservations withdraws every reservation made so far.
func (c *Cluster) ClearReservations() { c.reservations() }

// reservations returns this pass's reservation set, empty at first use.
func (c *Cluster) reservations() *pb.Reservations {
	if !c.resSet {
		c.resSet = true
		if c.dec.Reservations == nil {
			c.dec.Reservations = &pb.Reservations{}
		}
		c.dec.Reservations.Items = c.dec.Reservations.Items[:0]
	}
	return c.dec.Reservations
}

// WakeAt asks for a pass at t (after now) even if nothing else happens.
func (c *Cluster) WakeAt(t float64) {
	if t > c.now && !math.IsInf(t, 0) && (c.dec.WakeAt == 0 || t < c.dec.WakeAt) {
		c.dec.WakeAt = t
	}
}

// apply brings the view up to date with a pass's changes and checks it
// against schedfarm's counts.
func (c *Cluster) apply(p *pb.Pass) error {
	c.now = p.GetNow()
	c.arrived, c.ended = c.arrived[:0], c.ended[:0]
	for _, e := range p.GetEnded() {
		id := e.GetId()
		if id >= uint64(len(c.jobs)) || c.jobs[id] == nil || c.jobs[id].state != running {
			return fmt.Errorf("out of sync at t=%g: job %d ended, but it is not running here", c.now, id)
		}
		j := c.jobs[id]
		j.state, j.end, j.killed = done, e.GetAt(), e.GetKilled()
		for i, d := range j.Demand {
			c.free[i] += d
		}
		for _, p := range j.procs {
			c.idle[p] = true
		}
		if k := slices.Index(c.run, j); k >= 0 {
			c.run = slices.Delete(c.run, k, k+1)
		}
		c.jobs[id] = nil
		c.ended = append(c.ended, j)
	}
	for _, a := range p.GetArrived() {
		if a.GetId() != uint64(len(c.jobs)) {
			return fmt.Errorf("out of sync at t=%g: job %d arrived, expected id %d", c.now, a.GetId(), len(c.jobs))
		}
		if len(c.slab) == 0 {
			c.slab = make([]Job, 256)
		}
		j := &c.slab[0]
		c.slab = c.slab[1:]
		*j = Job{ID: a.GetId(), WorkloadID: a.GetWorkloadId(), Submit: a.GetSubmit(), Estimate: a.GetEstimate(),
			Demand: append([]int64(nil), a.GetDemand()...)}
		c.jobs = append(c.jobs, j)
		c.queue = append(c.queue, j)
		c.arrived = append(c.arrived, j)
	}
	if !slices.Equal(c.free, p.GetFree()) || uint32(len(c.run)) != p.GetRunning() || uint32(len(c.queue)) != p.GetWaiting() {
		return fmt.Errorf("out of sync at t=%g: here %v free, %d running, %d waiting; schedfarm says %v, %d, %d",
			c.now, c.free, len(c.run), len(c.queue), p.GetFree(), p.GetRunning(), p.GetWaiting())
	}
	c.dec.Start, c.dec.Reject, c.dec.WakeAt = c.dec.Start[:0], c.dec.Reject[:0], 0
	c.nstarts, c.resSet = 0, false
	return nil
}

// endPass drops the jobs that left the queue and leaves the decisions
// ready to send.
func (c *Cluster) endPass() {
	k := 0
	for _, j := range c.queue {
		if j.state == waiting {
			c.queue[k] = j
			k++
		}
	}
	clear(c.queue[k:])
	c.queue = c.queue[:k]
	if !c.resSet && c.dec.Reservations != nil {
		c.dec.Reservations = nil // absent: the previous set stands
	}
}
