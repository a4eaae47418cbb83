package sim

import "fmt"

// State is a job's place in its lifecycle.
type State uint8

// Job states. Finished, Killed and Rejected are final.
const (
	Submitted State = iota // created, arrival not yet simulated
	Queued                 // arrived, waiting for the scheduler
	Running
	Finished // ran all its work
	Killed   // stopped by the engine at its wall-clock limit
	Rejected // refused, with a reason
)

// String names the state.
func (s State) String() string {
	switch s {
	case Submitted:
		return "submitted"
	case Queued:
		return "queued"
	case Running:
		return "running"
	case Finished:
		return "finished"
	case Killed:
		return "killed"
	case Rejected:
		return "rejected"
	}
	return "unknown"
}

// Final reports whether s is a state a job never leaves.
func (s State) Final() bool { return s == Finished || s == Killed || s == Rejected }

// Job is one job of a simulation. The exported fields are what a scheduler
// may see and must not change; the actual amount of work is known only to
// the engine, so no scheduler can peek at the future.
type Job struct {
	// ID is the job's number in its workload (SWF field 1).
	ID int64
	// Submit is the arrival time.
	Submit Time
	// Estimate is the runtime the scheduler is told (e.g. the user's
	// requested time). The runner guarantees Estimate ≥ actual runtime or a
	// wall-clock limit at Estimate, depending on the overrun policy.
	Estimate Time
	// Demand holds the units the job needs from each platform pool, in pool
	// order. On the classic platform Demand[0] is the processor count.
	Demand []int
	// Project groups jobs that were submitted together as one project
	// (seed 004's two-tier model): jobs with the same non-zero Project arrive
	// at the same instant and the project departs when its last job ends.
	// 0 means the job belongs to no project.
	Project int64
	// Priority is the priority pi of the job's project, in [0, 1] (seed 004:
	// 1 for high-priority projects, 0 for the rest). 0 means no priority.
	Priority float64
	// CPUEstimate is the CPU usage of each process (Demand[0] of them) as
	// the scheduler is told it, in (0, 1] of a dedicated processor; nil
	// means no information (seed 000 §3.5.1). The actual usage, which sets
	// the speed of co-located processes on a tiered platform, is hidden
	// (SetCPU).
	CPUEstimate []float64

	work  Time // actual work at rate 1
	limit Time // wall-clock limit after start; 0 means none
	start Time
	end   Time

	reason string

	// Progress bookkeeping while running.
	rate   float64
	done   Time // work done up to lastAt
	lastAt Time
	endEv  *Event

	// cpu is the CPU usage of the processes on a tiered platform (SetCPU,
	// SetCPUUsage); nil: 100% each, no order. The rest of a job's tiered state (its tier, processors,
	// migration pause, kept rate, sharing draws) is tx, set at its first
	// placement on a tiered platform; a dedicated machine's jobs carry only
	// the nil pointer.
	cpu *CPUUsage
	tx  *tierJob

	seq      int   // arrival order, for the backfilled flag
	restarts int32 // runs killed and started again from scratch
	moves    int32 // relocations to other processors, progress kept
	swaps    int32 // tier changes on the same processors

	state     State
	backfil   bool // started while an earlier-submitted job waited
	stretched bool // ran at a rate other than 1 or was relocated
}

// NewJob returns a job that arrives at submit, needs demand, is estimated to
// run for estimate and actually needs work seconds at rate 1. A positive
// limit makes the engine kill the job limit seconds after it starts.
func NewJob(id int64, submit Time, demand []int, estimate, work, limit Time) *Job {
	j := &Job{}
	j.Init(id, submit, demand, estimate, work, limit)
	return j
}

// Init sets up j like NewJob, for callers that allocate jobs in bulk.
func (j *Job) Init(id int64, submit Time, demand []int, estimate, work, limit Time) {
	*j = Job{ID: id, Submit: submit, Demand: demand, Estimate: estimate, work: work, limit: limit}
}

// Procs returns the job's demand on the first pool (processors on the
// classic platform).
func (j *Job) Procs() int { return j.Demand[0] }

// State returns the job's lifecycle state.
func (j *Job) State() State { return j.state }

// Start returns the time the job started; meaningful once it has run.
func (j *Job) Start() Time { return j.start }

// End returns the time the job finished or was killed (or rejected).
func (j *Job) End() Time { return j.end }

// Reason returns why the job was rejected or killed.
func (j *Job) Reason() string {
	if j.state == Killed && j.reason == "" {
		// Only the engine kills, at the job's limit; the text is built here
		// rather than for every killed job of a run.
		return fmt.Sprintf("reached its limit of %g s after %g s of %g s of work", j.limit, j.done, j.work)
	}
	return j.reason
}

// SetCPU sets the job's actual per-process CPU usage (one value in (0, 1]
// per process, Demand[0] of them) and the estimate the scheduler sees (nil:
// no information). Only workload builders call it, before the run; nil
// actual usage means 100% for every process.
func (j *Job) SetCPU(actual, estimate []float64) {
	j.cpu, j.CPUEstimate = nil, estimate
	if actual != nil {
		j.cpu = &CPUUsage{actual: actual}
	}
}

// CPUUsage is what a job on a tiered platform carries of its processes'
// CPU usage besides the estimate (Job.CPUEstimate): the actual usage,
// hidden from schedulers (Job.CPU), and the order of the processes by
// estimate (Job.CPUOrder). It lives beside the job, not in it (Job stays
// small for the runs on dedicated processors), and a workload builder may
// share one, read-only, among the runs of the same draw (SetCPUUsage).
type CPUUsage struct {
	actual []float64
	order  []int32
}

// NewCPUUsage returns the usage of a job's processes: actual, one value in
// (0, 1] per process (nil: 100% each), and order, the processes (indices
// into the estimate) in descending order of their estimates, equal
// estimates in process order (nil: not given).
func NewCPUUsage(actual []float64, order []int32) CPUUsage {
	return CPUUsage{actual: actual, order: order}
}

// SetCPUUsage is SetCPU with the usage u, which the job keeps a pointer
// to: runs that share a draw share it, and nothing writes it.
func (j *Job) SetCPUUsage(u *CPUUsage, estimate []float64) {
	j.cpu, j.CPUEstimate = u, estimate
}

// CPU returns the actual usage of process i (1 when none was set). Only the
// platform model and observers of a finished run may call it; a scheduler
// that reads it cheats.
func (j *Job) CPU(i int) float64 {
	if j.cpu == nil || j.cpu.actual == nil {
		return 1
	}
	return j.cpu.actual[i]
}

// CPUOrder returns the job's processes (indices into CPUEstimate) in
// descending order of their estimates, equal estimates in process order,
// when whoever set the estimate gave it (NewCPUUsage), else nil: seed
// 000's Dispatch pairs processes with processors in this order
// (families/consolidation), and a draw shared by several runs is sorted
// once for all of them. The slice is shared: do not modify it.
func (j *Job) CPUOrder() []int32 {
	if j.cpu == nil {
		return nil
	}
	return j.cpu.order
}

// Restarts counts how often the job was killed and restarted from scratch
// (Cluster.Relocate with Restart).
func (j *Job) Restarts() int { return int(j.restarts) }

// Migrations counts how often the job moved to other processors keeping its
// progress (Cluster.Relocate without Restart).
func (j *Job) Migrations() int { return int(j.moves) }

// Swaps counts how often the job changed tier on the same processors (a
// swap of VM priorities).
func (j *Job) Swaps() int { return int(j.swaps) }

// Served returns the processor time the job received, in seconds of a
// dedicated processor: its work when it finished, less when it was killed.
// On a dedicated machine it equals Ran; on a tiered platform a job runs
// slower than dedicated, and Served is what slowdowns divide by (seed 000
// §3.3: the execution time of the job).
func (j *Job) Served() Time {
	if !j.stretched {
		return j.end - j.start
	}
	return j.done
}

// Response returns end − submit for a job that ran.
func (j *Job) Response() Time {
	if !j.stretched {
		return j.Wait() + j.Ran()
	}
	return j.end - j.Submit
}

// BoundedSlowdown returns max(1, Response / max(Served, gamma)).
func (j *Job) BoundedSlowdown(gamma Time) float64 {
	if !j.stretched {
		return BoundedSlowdown(j.Wait(), j.Ran(), gamma)
	}
	return max(1, j.Response()/max(j.Served(), gamma))
}

// Backfilled reports whether the job started while a job submitted before
// it was still waiting.
func (j *Job) Backfilled() bool { return j.backfil }

// Work returns the job's actual work. Only observers of a finished
// simulation (metrics, writers, tests) may call it; a scheduler that reads it
// cheats.
func (j *Job) Work() Time { return j.work }

// Wait returns start − submit for a job that ran.
func (j *Job) Wait() Time { return j.start - j.Submit }

// Ran returns how long the job actually ran (end − start).
func (j *Job) Ran() Time { return j.end - j.start }
