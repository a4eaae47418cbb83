package runner

import (
	"fmt"
	"math"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/workload"
)

// Estimate modes and overrun policies.
const (
	EstimatesExact = "exact"
	EstimatesUser  = "user"
	EstimatesPyss  = "pyss"

	OverrunKill   = "kill"
	OverrunExtend = "extend"

	EventsInstant = "instant"
	EventsPyss    = "pyss"
)

// Adjustments counts the jobs the estimate semantics dropped or altered.
type Adjustments struct {
	DroppedRuntime int // runtime unknown
	DroppedProcs   int // processor count unknown or ≤ 0
	DroppedSubmit  int // submit time < 0
	ClampedProcs   int // processors above the machine size, clamped (pyss)
	NoEstimate     int // no requested time; the runtime was used (user)
	Extended       int // runtime > requested: estimate raised to the runtime (user/extend)
	Limited        int // runtime > requested: will be killed at the requested time (user/kill)
	PyssRaised     int // pyss: estimate raised above the requested time
	PyssCut        int // pyss: actual runtime changed (cut to requested, truncated, or raised to 1 s)
	PyssOneSecond  int // pyss: runtime ≤ 0, allocated processors ≤ 0 or submit < 0: kept as a 1-second job
}

// plus returns the counts of a and b together.
func (a Adjustments) plus(b Adjustments) Adjustments {
	return Adjustments{
		DroppedRuntime: a.DroppedRuntime + b.DroppedRuntime, DroppedProcs: a.DroppedProcs + b.DroppedProcs,
		DroppedSubmit: a.DroppedSubmit + b.DroppedSubmit, ClampedProcs: a.ClampedProcs + b.ClampedProcs,
		NoEstimate: a.NoEstimate + b.NoEstimate, Extended: a.Extended + b.Extended, Limited: a.Limited + b.Limited,
		PyssRaised: a.PyssRaised + b.PyssRaised, PyssCut: a.PyssCut + b.PyssCut, PyssOneSecond: a.PyssOneSecond + b.PyssOneSecond,
	}
}

// Dropped returns the number of jobs dropped.
func (a Adjustments) Dropped() int { return a.DroppedRuntime + a.DroppedProcs + a.DroppedSubmit }

// Altered returns the number of jobs kept with a changed field.
func (a Adjustments) Altered() int {
	return a.ClampedProcs + a.NoEstimate + a.Extended + a.Limited + a.PyssRaised + a.PyssCut + a.PyssOneSecond
}

// converter turns SWF records into simulation jobs under one estimate mode.
type converter struct {
	mode    string
	overrun string
	procs   int
	adj     Adjustments
	store   []sim.Job // jobs are carved from here (Run sizes it to the records)
	demand  []int     // and their Demand slices from here
}

// newJob carves a job out of the converter's store.
func (c *converter) newJob(r *workload.Job, procs int64, est, work, limit float64) *sim.Job {
	if len(c.store) == 0 {
		c.store = make([]sim.Job, 1024)
		c.demand = make([]int, 1024)
	}
	j, d := &c.store[0], c.demand[:1:1]
	c.store, c.demand = c.store[1:], c.demand[1:]
	d[0] = int(procs)
	j.Init(r.ID, r.Submit, d, est, work, limit)
	return j
}

func checkModes(mode, overrun string) error {
	switch mode {
	case EstimatesExact, EstimatesUser, EstimatesPyss:
	default:
		return fmt.Errorf("estimates %q; accepted: user, exact, pyss", mode)
	}
	switch overrun {
	case OverrunKill, OverrunExtend:
	default:
		return fmt.Errorf("overrun %q; accepted: kill, extend", overrun)
	}
	return nil
}

// convert returns the simulation job for r, or nil when r is dropped.
func (c *converter) convert(r *workload.Job) *sim.Job {
	if c.mode == EstimatesPyss {
		return c.pyss(r)
	}
	if r.Submit < 0 {
		c.adj.DroppedSubmit++
		return nil
	}
	if r.RunTime < 0 {
		c.adj.DroppedRuntime++
		return nil
	}
	procs := r.Procs()
	if procs <= 0 {
		c.adj.DroppedProcs++
		return nil
	}
	work := r.RunTime
	est, limit := work, 0.0
	if c.mode == EstimatesUser {
		switch {
		case r.ReqTime <= 0:
			c.adj.NoEstimate++
		case work > r.ReqTime && c.overrun == OverrunKill:
			est, limit = r.ReqTime, r.ReqTime
			c.adj.Limited++
		case work > r.ReqTime:
			c.adj.Extended++
		default:
			est = r.ReqTime
		}
	}
	return c.newJob(r, procs, est, work, limit)
}

// pyss applies the pyss conversion (see the package doc): pyss's
// _job_input_to_job as its run_simulator calls it. Its parse_lines filter
// compares the fields as strings with integers, which under Python 2 is
// never true, so it skips only comments and blank lines, and every record
// reaches the conversion.
func (c *converter) pyss(r *workload.Job) *sim.Job {
	if r.RunTime <= 0 || r.AllocProcs <= 0 || r.Submit < 0 {
		// pyss's "problematic" records run 1 s on max(1, allocated)
		// processors, submitted no earlier than 1 s.
		c.adj.PyssOneSecond++
		one := *r
		one.Submit = max(r.Submit, 1)
		return c.newJob(&one, c.clamp(max(r.AllocProcs, 1)), 1, 1, 0)
	}
	est := math.Trunc(max(r.ReqTime, r.RunTime, 1))
	work := math.Trunc(max(min(r.ReqTime, r.RunTime), 1))
	if est > r.ReqTime {
		c.adj.PyssRaised++
	}
	if work != r.RunTime {
		c.adj.PyssCut++
	}
	return c.newJob(r, c.clamp(r.AllocProcs), est, work, 0)
}

// clamp caps a pyss job's processors at the machine size (counted).
func (c *converter) clamp(procs int64) int64 {
	if procs > int64(c.procs) {
		c.adj.ClampedProcs++
		return int64(c.procs)
	}
	return procs
}
