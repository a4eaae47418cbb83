package sim

import "fmt"

// Suspension and restart of running jobs: generic primitives for schedulers
// that preempt, migrate or restart jobs on platforms they model themselves
// (seed 002's state-tracking migration: a failed job leaves its resource
// with its state kept and resumes elsewhere; a preempted job waits with its
// progress kept; an immediately restarted job loses its progress).
//
// A suspended job is Queued again: it holds no units, makes no progress,
// counts as waiting (so Run still reports a scheduler that forgets it) and
// keeps the work it has done. Resume runs it again from there; Start would
// run it from scratch. Its Start time stays the time it first started, and a
// wall-clock limit keeps counting from there.

// Suspend stops a running job now: its progress so far is kept, its units
// are released and it is Queued again until Resume (or Reject). It returns
// an error (and stops the simulation) if the job is not running.
func (c *Cluster) Suspend(j *Job) error {
	if j.state != Running {
		return c.fail(fmt.Errorf("sim: scheduler suspended job %d in state %s at t=%g", j.ID, j.state, c.now))
	}
	c.settle(j)
	if j.endEv != nil {
		c.eng.q.Cancel(j.endEv)
		c.eng.recycle(j.endEv)
		j.endEv = nil
	}
	c.release(j)
	j.state = Queued
	j.rate = 0
	c.eng.waiting++
	c.waitingOrder.requeue(j)
	return nil
}

// Preempt is Suspend for a scheduler whose jobs wait suspended for long
// (seed 003's CMBF): the job's wall time from first start to end then
// includes the suspension, so its slowdowns and the utilisation count the
// work it was served (Job.Served), not that wall time, and its limit
// counts served time as on a tiered platform (a job suspended past its
// wall-clock limit is not killed for time it did not run).
func (c *Cluster) Preempt(j *Job) error {
	if err := c.Suspend(j); err != nil {
		return err
	}
	j.stretched = true
	return nil
}

// Resume runs a job that Suspend stopped, now, keeping the work it had
// done, at rate 1 (SetRate changes it). Like Start it fails if the job is
// not queued or does not fit. A queued job that never ran starts as with
// Start.
func (c *Cluster) Resume(j *Job) error {
	if j.state != Queued {
		return c.fail(fmt.Errorf("sim: scheduler resumed job %d in state %s at t=%g", j.ID, j.state, c.now))
	}
	fresh := j.start == 0 && j.done == 0 && j.lastAt == 0
	start, done, backfil := j.start, j.done, j.backfil
	if err := c.Start(j); err != nil {
		return err
	}
	if fresh {
		return nil
	}
	j.start, j.done, j.backfil = start, done, backfil
	c.scheduleEnd(j)
	return nil
}

// Restart discards a running job's progress: it runs its whole work again
// from now, on the units it holds, at its current rate.
func (c *Cluster) Restart(j *Job) error {
	if j.state != Running {
		return c.fail(fmt.Errorf("sim: scheduler restarted job %d in state %s at t=%g", j.ID, j.state, c.now))
	}
	j.done = 0
	j.lastAt = c.now
	c.scheduleEnd(j)
	return nil
}

// Remaining returns the work a job still has to do, in seconds at rate 1,
// as a state-tracking server would observe it (the work it was given minus
// the progress recorded so far). Only schedulers that are told the job's
// size (seed 002's jobs have a known size in flops) may use it; others would
// peek at the future.
func (c *Cluster) Remaining(j *Job) Time {
	done := j.done
	if j.state == Running {
		done += (c.now - j.lastAt) * j.rate
	}
	if done > j.work {
		done = j.work
	}
	return j.work - done
}
