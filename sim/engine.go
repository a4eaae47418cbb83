package sim

import (
	"fmt"
	"math"
)

// Scheduler decides which waiting jobs start. The engine calls Pass once per
// instant at which something happened, after every completion, failure,
// arrival and timer of that instant (under Options.PerEvent also after each
// single arrival and completion, so several times per instant). Arrived lists the jobs that arrived at
// this instant (in submit order, already Queued), Ended the jobs that
// finished or were killed. The scheduler acts through the Cluster.
type Scheduler interface {
	Pass(c *Cluster, ch Changes)
}

// Changes is what happened at the instant of a pass. The engine never writes
// to these slices again: a scheduler may keep them.
type Changes struct {
	Arrived []*Job
	Ended   []*Job
}

// Stream yields jobs in submit order; Next returns nil after the last job.
type Stream interface {
	Next() *Job
}

// SliceStream streams a slice of jobs already sorted by submit time.
type SliceStream struct {
	jobs []*Job
	i    int
}

// NewSliceStream returns a stream over jobs.
func NewSliceStream(jobs []*Job) *SliceStream { return &SliceStream{jobs: jobs} }

// Len returns the number of jobs not yet streamed. Run uses it (through any
// Stream that has it) to size its job list once.
func (s *SliceStream) Len() int { return len(s.jobs) - s.i }

// Next returns the next job or nil.
func (s *SliceStream) Next() *Job {
	if s.i >= len(s.jobs) {
		return nil
	}
	j := s.jobs[s.i]
	s.i++
	return j
}

// Observer is told about every job when it reaches a final state. It may be
// nil. Simulations of long generated workloads use it to stream records out
// instead of keeping jobs.
type Observer func(j *Job)

// Stats counts what the engine did in one run.
type Stats struct {
	Events int // events popped, passes included
	Passes int // scheduling passes
}

// Run simulates the jobs of src on platform p under scheduler s until every
// job has ended. It returns the jobs in submit order with their final state.
// It returns an error if a scheduler misbehaves (starts a job that does not
// fit, leaves jobs waiting forever) or the input is out of order.
func Run(p Platform, s Scheduler, src Stream, obs Observer) ([]*Job, Stats, error) {
	return RunWith(p, s, src, obs, Options{})
}

// Options change how an instant's events reach the scheduler.
type Options struct {
	// PerEvent reproduces the Python simulator pyss: at one instant the
	// arrivals come before the completions (a job ending at t frees its
	// processors after the jobs submitted at t were considered), and the
	// scheduler passes after every arrival and every completion, each pass
	// seeing that one change. The default — completions first, one pass
	// per instant with everything that happened — is the engine's own.
	PerEvent bool
}

// RunWith is Run with options.
func RunWith(p Platform, s Scheduler, src Stream, obs Observer, opt Options) ([]*Job, Stats, error) {
	if err := p.Validate(); err != nil {
		return nil, Stats{}, err
	}
	c := newCluster(p)
	e := &engine{c: c, sched: s, src: src, obs: obs, perEvent: opt.PerEvent, endClass: ClassEnd}
	if opt.PerEvent {
		e.endClass = ClassLateEnd
	}
	if n, ok := src.(interface{ Len() int }); ok {
		e.jobs = make([]*Job, 0, n.Len())
	}
	c.eng = e
	err := e.loop()
	return e.jobs, e.stats, err
}

type engine struct {
	c     *Cluster
	sched Scheduler
	src   Stream
	obs   Observer
	q     Queue
	jobs  []*Job

	perEvent bool  // Options.PerEvent
	endClass Class // ClassEnd, or ClassLateEnd under PerEvent

	lastSubmit Time
	passAt     Time
	passQueued bool
	arrived    jobList // arrivals since the last pass
	ended      jobList // ends since the last pass
	waiting    int     // jobs Queued
	err        error
	free       []*Event // recycled events
	stats      Stats
}

func (e *engine) event(at Time, class Class, j *Job) *Event {
	var ev *Event
	if n := len(e.free); n > 0 {
		ev = e.free[n-1]
		e.free = e.free[:n-1]
	} else {
		ev = &Event{}
	}
	*ev = Event{At: at, Class: class, Job: j, index: -1}
	e.q.Push(ev)
	return ev
}

func (e *engine) recycle(ev *Event) { e.free = append(e.free, ev) }

// pullArrival queues the next job's arrival; only one arrival is queued at a
// time, so the heap stays small however long the workload.
func (e *engine) pullArrival() error {
	j := e.src.Next()
	if j == nil {
		return nil
	}
	if j.Submit < e.lastSubmit || math.IsNaN(j.Submit) {
		return fmt.Errorf("sim: job %d submitted at %g, before the previous job (%g); jobs must be in submit order", j.ID, j.Submit, e.lastSubmit)
	}
	if len(j.Demand) != len(e.c.plat.Pools) {
		return fmt.Errorf("sim: job %d has demand for %d pools; the platform has %d", j.ID, len(j.Demand), len(e.c.plat.Pools))
	}
	e.lastSubmit = j.Submit
	j.seq = len(e.jobs)
	j.tx = nil // a tiered platform's state is the run's (occupy sets it)
	j.state = Submitted
	e.jobs = append(e.jobs, j)
	e.event(j.Submit, ClassArrival, j)
	return nil
}

func (e *engine) needPass(t Time) {
	if e.passQueued && e.passAt == t {
		return
	}
	e.passQueued = true
	e.passAt = t
	e.event(t, ClassPass, nil)
}

func (e *engine) loop() error {
	if err := e.pullArrival(); err != nil {
		return err
	}
	for e.q.Len() > 0 {
		ev := e.q.Pop()
		e.stats.Events++
		if ev.At < e.c.now {
			return fmt.Errorf("sim: internal error: event at %g after time %g", ev.At, e.c.now)
		}
		e.c.now = ev.At
		switch ev.Class {
		case ClassEnd, ClassLateEnd:
			e.end(ev.Job)
			if e.perEvent {
				if err := e.pass(); err != nil {
					return err
				}
				break
			}
			e.needPass(ev.At)
		case ClassArrival:
			if err := e.arrive(ev.Job); err != nil {
				return err
			}
			if err := e.pullArrival(); err != nil {
				return err
			}
			if e.perEvent {
				if err := e.pass(); err != nil {
					return err
				}
			}
		case ClassTimer:
			if ev.Job != nil {
				e.c.resume(ev.Job) // a migration pause ends; no pass needed
				break
			}
			delete(e.c.timers, ev.At)
			e.needPass(ev.At)
		case ClassPass:
			e.passQueued = false
			if err := e.pass(); err != nil {
				return err
			}
		}
		e.recycle(ev)
	}
	if e.waiting > 0 {
		return e.stuck()
	}
	return nil
}

// pass runs the scheduler with the changes since the last pass.
func (e *engine) pass() error {
	e.stats.Passes++
	e.sched.Pass(e.c, Changes{Arrived: e.arrived.take(), Ended: e.ended.take()})
	if e.err != nil {
		return e.err
	}
	e.c.flushRates()
	return nil
}

func (e *engine) arrive(j *Job) error {
	for i, d := range j.Demand {
		pool := e.c.plat.Pools[i]
		if d > pool.Capacity {
			e.finish(j, Rejected, fmt.Sprintf("needs %d %s, the platform has %d", d, pool.Name, pool.Capacity))
			return nil
		}
		if d < 0 {
			e.finish(j, Rejected, fmt.Sprintf("negative demand %d for %s", d, pool.Name))
			return nil
		}
	}
	j.state = Queued
	e.waiting++
	e.c.waitingOrder.arrive(j)
	e.arrived.add(j)
	if !e.perEvent {
		e.needPass(e.c.now)
	}
	return nil
}

// end handles a job's end event: it finished its work or hit its limit.
func (e *engine) end(j *Job) {
	j.endEv = nil
	e.c.settle(j)
	state := Finished
	if j.done < j.work-1e-9*max(1, j.work) {
		state = Killed // Reason describes the limit; formatted on demand
	}
	e.c.release(j)
	e.c.flushRates()
	e.finish(j, state, "")
	e.c.retire(j)
	e.ended.add(j)
}

func (e *engine) finish(j *Job, s State, reason string) {
	if j.state == Queued {
		e.waiting--
	}
	if j.state != Running {
		j.start = e.c.now
	}
	j.state = s
	j.end = e.c.now
	j.reason = reason
	if e.obs != nil {
		e.obs(j)
	}
}

// jobList collects the jobs of one kind (arrivals, ends) between two passes.
// The slice a pass receives is carved out of a shared backing array with its
// capacity capped, and the array is never written there again (a full array
// is replaced, not reused), so a scheduler may keep the slice. This costs one
// allocation per jobListChunk jobs instead of one per pass.
type jobList struct {
	buf   []*Job
	start int // first job not yet taken
}

// jobListChunk is the size of a fresh backing array.
const jobListChunk = 256

func (l *jobList) add(j *Job) {
	if len(l.buf) == cap(l.buf) {
		pending := l.buf[l.start:]
		nb := make([]*Job, len(pending), max(jobListChunk, 2*len(pending)))
		copy(nb, pending)
		l.buf, l.start = nb, 0
	}
	l.buf = append(l.buf, j)
}

// take returns the jobs added since the last take (nil if none).
func (l *jobList) take() []*Job {
	n := len(l.buf)
	if l.start == n {
		return nil
	}
	s := l.buf[l.start:n:n]
	l.start = n
	return s
}

func (e *engine) stuck() error {
	var ids []int64
	for _, j := range e.jobs {
		if j.state == Queued {
			ids = append(ids, j.ID)
			if len(ids) == 5 {
				break
			}
		}
	}
	return fmt.Errorf("sim: the scheduler left %d jobs waiting with nothing left to happen at t=%g (first: %v)", e.waiting, e.c.now, ids)
}

// Reservation is a waiting job's promised start time.
type Reservation struct {
	Job   *Job
	Start Time
}

// Reserver is implemented by schedulers that promise start times to waiting
// jobs. Test harnesses use it to check that no promise is ever broken.
type Reserver interface {
	Reservations() []Reservation
}
