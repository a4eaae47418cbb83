package cloud

import (
	"errors"
	"fmt"
	"math"
)

// VM is one virtual machine of the cloud (§3.1, formula 6). A negative
// Memory, Bandwidth or Disk means the attribute is unconstrained: every
// demand fits (the methodological cloud's memory, §4.3).
type VM struct {
	// Memory is the memory capacity (G).
	Memory float64
	// Speed is the processing ability: instructions (standard time units)
	// per time unit; 1 is a standard machine.
	Speed float64
	// Bandwidth is the bandwidth capacity (simulation: ×100 Mb/s;
	// methodological: G/s, also the input-file transfer rate).
	Bandwidth float64
	// Disk is the hard-disk capacity (the paper's evaluation leaves it
	// out: negative).
	Disk float64
}

// Task is one task of a parallel job and what it needs from its VM
// (formula 4).
type Task struct {
	// Memory, Bandwidth and Disk are demands; a VM satisfies one when the
	// demand is at most its capacity.
	Memory, Bandwidth, Disk float64
	// Instructions is the task's work in standard time units: the time it
	// takes on a VM of speed 1.
	Instructions float64
}

// Job is a parallel job: its tasks start together, each on VMs of its own,
// and the job holds all of them until its last task ends (gang, §1).
type Job struct {
	// ID names the job in records and errors.
	ID int64
	// Submit is the arrival time.
	Submit float64
	// Deadline is relative to Submit: the job counts as finished only if
	// it ends by Submit + Deadline.
	Deadline float64
	// InputSize is the input file every task's VM must receive before the
	// task runs (methodological cloud, G); see Workload.TransferScale.
	InputSize float64
	// Instructions is the job's instruction number (§4.3(4)), which SIN
	// counts once per finished job (§4.1; Table 2). 0 means the largest of
	// its tasks' — the number each task executes when, as §3.1 supposes,
	// the tasks of a job have the same requirement.
	Instructions float64
	// Tasks are the job's tasks; their number is its parallelism.
	Tasks []Task
}

// Workload is a platform of VMs and jobs in submit order.
type Workload struct {
	// VMs is the platform.
	VMs []VM
	// Jobs in submit order.
	Jobs []Job
	// TransferScale converts InputSize/Bandwidth into time units: a task
	// on VM v takes Instructions/Speed + InputSize/Bandwidth·TransferScale.
	// 0 means no transfer time. The methodological cloud uses 1/86400 (G
	// over G/s is seconds; its time unit is a day).
	TransferScale float64
}

// Validate reports every field that makes the workload unsimulatable.
func (w *Workload) Validate() error {
	var errs []error
	bad := func(format string, a ...any) {
		if len(errs) < 20 {
			errs = append(errs, fmt.Errorf(format, a...))
		}
	}
	if len(w.VMs) == 0 {
		bad("cloud: no VMs; accepted: at least one VM")
	}
	for i, v := range w.VMs {
		if !(v.Speed > 0) || math.IsInf(v.Speed, 0) {
			bad("cloud: VM %d speed %g; accepted: finite and > 0", i, v.Speed)
		}
		if math.IsNaN(v.Memory) || math.IsNaN(v.Bandwidth) || math.IsNaN(v.Disk) {
			bad("cloud: VM %d has a NaN capacity; accepted: numbers (< 0 = unconstrained)", i)
		}
	}
	if !(w.TransferScale >= 0) || math.IsInf(w.TransferScale, 0) {
		bad("cloud: TransferScale %g; accepted: finite and ≥ 0", w.TransferScale)
	}
	last := math.Inf(-1)
	for i, j := range w.Jobs {
		if math.IsNaN(j.Submit) || j.Submit < last {
			bad("cloud: job %d submitted at %g, before the previous job (%g); accepted: jobs in submit order", j.ID, j.Submit, last)
		}
		last = j.Submit
		if !(j.Deadline >= 0) || math.IsInf(j.Deadline, 0) {
			bad("cloud: job %d deadline %g; accepted: finite and ≥ 0", j.ID, j.Deadline)
		}
		if !(j.Instructions >= 0) || math.IsInf(j.Instructions, 0) {
			bad("cloud: job %d instruction number %g; accepted: finite and ≥ 0 (0 = its largest task's)", j.ID, j.Instructions)
		}
		if !(j.InputSize >= 0) || math.IsInf(j.InputSize, 0) {
			bad("cloud: job %d input size %g; accepted: finite and ≥ 0", j.ID, j.InputSize)
		}
		if len(j.Tasks) == 0 {
			bad("cloud: job %d (index %d) has no tasks; accepted: at least one", j.ID, i)
		}
		for k, t := range j.Tasks {
			if !(t.Instructions > 0) || math.IsInf(t.Instructions, 0) {
				bad("cloud: job %d task %d instructions %g; accepted: finite and > 0", j.ID, k, t.Instructions)
			}
			if math.IsNaN(t.Memory) || math.IsNaN(t.Bandwidth) || math.IsNaN(t.Disk) {
				bad("cloud: job %d task %d has a NaN demand; accepted: numbers", j.ID, k)
			}
		}
	}
	return errors.Join(errs...)
}

// InstructionNumber returns the job's instruction number: Instructions, or
// when that is 0 the largest of its tasks' instructions.
func (j *Job) InstructionNumber() float64 {
	if j.Instructions > 0 {
		return j.Instructions
	}
	m := 0.0
	for _, t := range j.Tasks {
		m = max(m, t.Instructions)
	}
	return m
}

// Fits reports whether VM v can hold task t at all: its memory, bandwidth
// and disk demands are at most the VM's capacities (the hard constraints
// of every scheduler).
func Fits(t *Task, v *VM) bool {
	return within(t.Memory, v.Memory, 1) && within(t.Bandwidth, v.Bandwidth, 1) && within(t.Disk, v.Disk, 1)
}

// within reports demand ≤ ratio·capacity, a negative capacity meaning
// unconstrained.
func within(demand, capacity, ratio float64) bool {
	return capacity < 0 || demand <= ratio*capacity
}

// ExecTime returns how long task t of job j takes on VM v: its
// instructions at the VM's speed plus the transfer of the job's input file
// at the VM's bandwidth.
func (w *Workload) ExecTime(j *Job, t *Task, v *VM) float64 {
	return t.Instructions/v.Speed + w.transfer(j, v)
}

// BestTime returns the shortest time in which job j could run on the
// platform, VMs being free: the largest, over its tasks, of the task's
// time on its fastest VM that can hold it (+Inf when a task fits no VM).
// Distinct VMs are not required, so it is a lower bound.
func (w *Workload) BestTime(j *Job) float64 {
	m := 0.0
	for t := range j.Tasks {
		best := math.Inf(1)
		for v := range w.VMs {
			if Fits(&j.Tasks[t], &w.VMs[v]) {
				best = min(best, w.ExecTime(j, &j.Tasks[t], &w.VMs[v]))
			}
		}
		m = max(m, best)
	}
	return m
}

func (w *Workload) transfer(j *Job, v *VM) float64 {
	if w.TransferScale == 0 || j.InputSize == 0 || !(v.Bandwidth > 0) {
		return 0
	}
	return j.InputSize / v.Bandwidth * w.TransferScale
}

// GroupTime returns how long task t of job j takes when its instructions
// are split over the VMs vms in proportion to their speeds (Fair's shared
// VMs): instructions / Σ speed, plus the slowest input transfer.
func (w *Workload) GroupTime(j *Job, t *Task, vms []int) float64 {
	speed, tr := 0.0, 0.0
	for _, v := range vms {
		speed += w.VMs[v].Speed
		tr = max(tr, w.transfer(j, &w.VMs[v]))
	}
	return t.Instructions/speed + tr
}
