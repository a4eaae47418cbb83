package strategytest

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/schedfarm/schedfarm/sim"
)

// JobSpec describes a job independently of any simulation, so the same
// workload can be built afresh for each run.
type JobSpec struct {
	ID       int64
	Submit   sim.Time
	Demand   []int
	Estimate sim.Time
	Work     sim.Time
	Limit    sim.Time // 0: never killed
	// CPU and CPUEstimate are per-process CPU usages (sim.Job.SetCPU);
	// nil CPU means 100%.
	CPU, CPUEstimate []float64
}

// Build makes fresh simulation jobs from specs.
func Build(specs []JobSpec) []*sim.Job {
	jobs := make([]*sim.Job, len(specs))
	for i, s := range specs {
		jobs[i] = sim.NewJob(s.ID, s.Submit, append([]int(nil), s.Demand...), s.Estimate, s.Work, s.Limit)
		if s.CPU != nil {
			jobs[i].SetCPU(s.CPU, s.CPUEstimate)
		}
	}
	return jobs
}

// Recording is the outcome of a recorded simulation.
type Recording struct {
	Platform sim.Platform
	Jobs     []*sim.Job
	// Promises holds, per job ID, every reservation start the scheduler
	// reported after each pass, in time order.
	Promises map[int64][]sim.Time
	Passes   int
	// Placement lists inconsistencies seen after passes on a tiered
	// platform: a VM whose occupant does not place itself there, a running
	// job missing from its VMs, an idle count that does not add up.
	Placement []string
}

// recorder wraps a scheduler and notes its reservations after every pass.
type recorder struct {
	inner sim.Scheduler
	rec   *Recording
}

func (r *recorder) Pass(c *sim.Cluster, ch sim.Changes) {
	r.inner.Pass(c, ch)
	r.rec.Passes++
	if c.Tiers() > 1 && len(r.rec.Placement) < 10 {
		r.checkPlacement(c)
	}
	if rs, ok := r.inner.(sim.Reserver); ok {
		for _, res := range rs.Reservations() {
			ps := r.rec.Promises[res.Job.ID]
			if len(ps) == 0 || ps[len(ps)-1] != res.Start {
				r.rec.Promises[res.Job.ID] = append(ps, res.Start)
			}
		}
	}
}

// checkPlacement compares the VMs' occupants with the running jobs'
// placements, from the outside.
func (r *recorder) checkPlacement(c *sim.Cluster) {
	bad := func(format string, a ...any) {
		r.rec.Placement = append(r.rec.Placement, fmt.Sprintf("t=%g: ", c.Now())+fmt.Sprintf(format, a...))
	}
	n := c.Platform().Pools[0].Capacity
	for k := 0; k < c.Tiers(); k++ {
		busy := 0
		for p := 0; p < n; p++ {
			j, i := c.Occupant(k, p)
			if j == nil {
				continue
			}
			busy++
			tier, procs := c.Placement(j)
			if j.State() != sim.Running || tier != k || i >= len(procs) || procs[i] != p {
				bad("tier %d processor %d holds job %d (process %d, %s), which is placed in tier %d on %v", k, p, j.ID, i, j.State(), tier, procs)
			}
		}
		if busy+c.FreeIn(k) != n {
			bad("tier %d: %d busy + %d idle VMs ≠ %d processors", k, busy, c.FreeIn(k), n)
		}
	}
	for _, j := range c.Running() {
		tier, procs := c.Placement(j)
		if len(procs) != j.Demand[0] {
			bad("job %d runs %d processes on %d processors", j.ID, j.Demand[0], len(procs))
		}
		for i, p := range procs {
			if o, oi := c.Occupant(tier, p); o != j || oi != i {
				bad("job %d process %d is not in tier %d of processor %d", j.ID, i, tier, p)
			}
		}
	}
}

// Record runs s over specs on p and records the reservations it promises.
func Record(p sim.Platform, s sim.Scheduler, specs []JobSpec) (*Recording, error) {
	wrapped, rec := Recorder(p, s)
	jobs, _, err := sim.Run(p, wrapped, sim.NewSliceStream(Build(specs)), nil)
	rec.Jobs = jobs
	return rec, err
}

// Recorder wraps s so that every reservation it reports after a pass is
// noted in the returned Recording. The caller sets Recording.Jobs after the
// run.
func Recorder(p sim.Platform, s sim.Scheduler) (sim.Scheduler, *Recording) {
	rec := &Recording{Platform: p, Promises: map[int64][]sim.Time{}}
	return &recorder{inner: s, rec: rec}, rec
}

// CheckInvariants returns every violation of the rules all schedulers keep:
// every job ends in a final state; no job starts before it is submitted; a
// job that ran ran for its work or until its limit; at no instant are more
// units of a pool in use than it has — counting a job that ends at t as gone
// before one that starts at t; and no promised reservation ever moved later
// or was broken by a later start.
func CheckInvariants(rec *Recording) []error { return CheckInvariantsOf(rec, true) }

// CheckInvariantsOf is CheckInvariants; served = false leaves out the
// check that a finished job was served its work (jobs whose progress rate
// is not 1, e.g. tasks on VMs of different speeds).
func CheckInvariantsOf(rec *Recording, served bool) []error {
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }
	type edge struct {
		t     sim.Time
		start bool
		j     *sim.Job
	}
	var edges []edge
	for _, j := range rec.Jobs {
		switch j.State() {
		case sim.Finished, sim.Killed:
			if j.Start() < j.Submit {
				bad("job %d started at %g before its submit time %g", j.ID, j.Start(), j.Submit)
			}
			if j.End() < j.Start() {
				bad("job %d ended at %g before it started at %g", j.ID, j.End(), j.Start())
			}
			if served && j.State() == sim.Finished && !near(j.Served(), j.Work()) {
				bad("job %d finished after being served %g s; its work is %g s", j.ID, j.Served(), j.Work())
			}
			edges = append(edges, edge{j.Start(), true, j}, edge{j.End(), false, j})
		case sim.Rejected:
			if j.Reason() == "" {
				bad("job %d rejected without a reason", j.ID)
			}
		default:
			bad("job %d ended the simulation in state %s", j.ID, j.State())
		}
	}
	slices.SortStableFunc(edges, func(a, b edge) int {
		return cmp.Or(cmp.Compare(a.t, b.t), boolOrder(a.start, b.start)) // ends first
	})
	for _, p := range rec.Placement {
		bad("placement: %s", p)
	}
	// On a tiered platform every processor hosts one VM per tier.
	vms := max(1, rec.Platform.Tiers)
	used := make([]int, len(rec.Platform.Pools))
	for _, e := range edges {
		for k, d := range e.j.Demand {
			if e.start {
				used[k] += d
			} else {
				used[k] -= d
			}
			if c := rec.Platform.Pools[k].Capacity * vms; used[k] > c {
				bad("t=%g: %d units of pool %q in use, capacity %d (job %d starting)", e.t, used[k], rec.Platform.Pools[k].Name, c, e.j.ID)
			}
		}
	}
	byID := map[int64]*sim.Job{}
	for _, j := range rec.Jobs {
		byID[j.ID] = j
	}
	ids := make([]int64, 0, len(rec.Promises))
	for id := range rec.Promises {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		ps := rec.Promises[id]
		for i := 1; i < len(ps); i++ {
			if ps[i] > ps[i-1] {
				bad("job %d: reservation moved later, from %g to %g", id, ps[i-1], ps[i])
			}
		}
		if j := byID[id]; j != nil && (j.State() == sim.Finished || j.State() == sim.Killed) {
			if last := ps[len(ps)-1]; j.Start() > last {
				bad("job %d started at %g after its reservation at %g", id, j.Start(), last)
			}
		}
	}
	return errs
}

func near(a, b float64) bool {
	d := a - b
	if d < 0 {
		d = -d
	}
	scale := 1.0
	if b > 1 {
		scale = b
	}
	return d <= 1e-9*scale
}

// RandomOptions shape a random workload.
type RandomOptions struct {
	Jobs         int
	Capacities   []int   // one per pool
	MaxGap       int     // interarrival gaps are integers in [0, MaxGap]: many ties
	MaxWork      int     // works are integers in [0, MaxWork]: ends coincide with starts
	TooWide      float64 // fraction of jobs wider than the platform
	Underrun     float64 // fraction whose estimate exceeds the work (early finish)
	Overrun      float64 // fraction whose work exceeds the estimate (killed at the limit)
	ZeroDemandOK bool    // allow jobs that need no units of some pool
	// CPU draws per-process CPU usages: 1 for single-process jobs, else
	// uniform in [0.3, 1], with estimates off by up to ±20% (none for a
	// tenth of the jobs).
	CPU bool
}

// Random draws a workload that stresses the invariants: integer times with
// many ties, ends at the same instants as arrivals, early finishes, kills,
// and jobs wider than the machine.
func Random(rng *rand.Rand, o RandomOptions) []JobSpec {
	specs := make([]JobSpec, o.Jobs)
	t := 0
	for i := range specs {
		t += rng.IntN(o.MaxGap + 1)
		demand := make([]int, len(o.Capacities))
		for k, c := range o.Capacities {
			lo := 1
			if o.ZeroDemandOK {
				lo = 0
			}
			demand[k] = lo + rng.IntN(c-lo+1)
			if rng.Float64() < 0.5 { // favour small jobs
				demand[k] = lo + rng.IntN(max(1, c/4))
			}
		}
		if rng.Float64() < o.TooWide {
			k := rng.IntN(len(demand))
			demand[k] = o.Capacities[k] + 1 + rng.IntN(3)
		}
		work := sim.Time(rng.IntN(o.MaxWork + 1))
		est, limit := work, sim.Time(0)
		switch r := rng.Float64(); {
		case r < o.Underrun:
			est = work + sim.Time(1+rng.IntN(o.MaxWork+1))
		case r < o.Underrun+o.Overrun:
			est = sim.Time(rng.IntN(int(work) + 1))
			limit = est
			if limit == 0 {
				limit = 1
				est = 1
			}
		}
		specs[i] = JobSpec{ID: int64(i + 1), Submit: sim.Time(t), Demand: demand, Estimate: est, Work: work, Limit: limit}
		if o.CPU && demand[0] > 0 {
			specs[i].CPU = make([]float64, demand[0])
			specs[i].CPUEstimate = make([]float64, demand[0])
			for k := range specs[i].CPU {
				u := 1.0
				if demand[0] > 1 {
					u = 0.3 + 0.7*rng.Float64()
				}
				specs[i].CPU[k] = u
				specs[i].CPUEstimate[k] = min(1, u*(0.8+0.4*rng.Float64()))
			}
			if rng.IntN(10) == 0 {
				specs[i].CPUEstimate = nil
			}
		}
	}
	return specs
}

// boolOrder orders false before true, for cmp.Or chains.
func boolOrder(a, b bool) int {
	switch {
	case a == b:
		return 0
	case !a:
		return -1
	}
	return 1
}
