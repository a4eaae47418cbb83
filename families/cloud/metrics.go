package cloud

import (
	"math"

	"github.com/schedfarm/schedfarm/sim"
)

// Gamma is the bounded-slowdown threshold of the family's per-job records:
// one time unit (a standard time unit; a day in the methodological cloud).
const Gamma = 1.0

// Metrics are the §4.1 evaluation parameters of one run, plus the usual
// per-job distributions. A job is finished when it ran and ended by its
// deadline (every started job does: no scheduler starts a job on VMs that
// would end it late); the others were dropped.
type Metrics struct {
	// Jobs is the number of jobs; Finished of them ended by their
	// deadline; Unfinished = Jobs − Finished (the paper's UFJ).
	Jobs, Finished, Unfinished int
	// Infeasible counts the unfinished jobs that no one VM per task could
	// have finished in time even at arrival (the same under every
	// scheduler but Fair, which may finish one on shared VMs).
	Infeasible int
	// FinishedRatio is Finished / Jobs.
	FinishedRatio float64
	// AVE is the mean of end − submit over finished jobs (the paper's
	// "average execution time, including the waiting time"); AWT the mean
	// wait; RunMean the mean time computing.
	AVE, AWT, RunMean float64
	// SIN is "the total number of instructions of finished jobs" (§4.1):
	// each finished job's instruction number (Job.InstructionNumber)
	// counted once — Table 2's SIN / finished jobs is 109–116, one draw of
	// [24, 240] per job, not one per task.
	SIN float64
	// VMsPerTask is the mean number of VMs a finished job's task held (> 1
	// only under Fair).
	VMsPerTask float64
	// Utilization is the VM time held by jobs over VMs × Makespan;
	// Makespan is last end − first submit.
	Utilization, Makespan float64
	// Wait and Response summarise start − submit and end − submit over
	// the finished jobs.
	Wait, Response sim.Dist
}

// Metrics computes the run's metrics.
func (r *Result) Metrics() Metrics {
	m := Metrics{Jobs: len(r.Jobs)}
	sum := sim.Summarize(r.Jobs, Platform(r.Workload), sim.MetricOptions{Gamma: Gamma})
	m.Utilization, m.Makespan = sum.Utilization, sum.Makespan
	m.Wait, m.Response = sum.Wait, sum.Response
	tasks, vms := 0, 0
	for i, sj := range r.Jobs {
		j, p := &r.Workload.Jobs[i], &r.Placements[i]
		abs := j.Submit + j.Deadline
		if sj.State() != sim.Finished || p.End > abs+1e-9*math.Max(1, math.Abs(abs)) {
			if p.Infeasible {
				m.Infeasible++
			}
			continue
		}
		m.Finished++
		m.AVE += sj.End() - sj.Submit
		m.AWT += sj.Wait()
		m.RunMean += sj.Ran()
		m.SIN += j.InstructionNumber()
		for _, g := range p.VMs {
			vms += len(g)
		}
		tasks += len(p.VMs)
	}
	m.Unfinished = m.Jobs - m.Finished
	if m.Jobs > 0 {
		m.FinishedRatio = float64(m.Finished) / float64(m.Jobs)
	}
	if m.Finished > 0 {
		f := float64(m.Finished)
		m.AVE, m.AWT, m.RunMean = m.AVE/f, m.AWT/f, m.RunMean/f
		m.VMsPerTask = float64(vms) / float64(tasks)
	}
	return m
}
