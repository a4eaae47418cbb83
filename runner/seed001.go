package runner

import (
	"io"
	"math"
	"math/rand/v2"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/strategies/cloud"
	"github.com/schedfarm/schedfarm/workload/models"
	"github.com/schedfarm/schedfarm/workload/seed001"
)

// The family of seed 001's cloud (models.Cloud): CPLMT, FIFO, Fair, ASJS
// and CMMS on the generated VMs (strategies/cloud). modelRunners lists it
// as {output: models.Cloud, run: runSeed001, check: checkSeed001,
// schedulers: seed001Schedulers, metrics: seed001MetricNames}.

// seed001Schedulers lists the family's schedulers in the paper's order.
func seed001Schedulers() []string { return cloud.Names() }

// checkSeed001 validates a scheduler of the family and its parameters.
func checkSeed001(scheduler string, params map[string]any) error {
	return cloud.Check(scheduler, params)
}

// Seed001Workload draws a seed-001 workload from the model's decoded
// parameters and rng, as the family's cells do. With deadline relative,
// every job's drawn deadline is multiplied by its cloud.Workload.BestTime.
func Seed001Workload(v models.Values, rng *rand.Rand) (*cloud.Workload, error) {
	p := models.Seed001Params(v)
	g, err := seed001.New(p, rng)
	if err != nil {
		return nil, err
	}
	w := &cloud.Workload{Jobs: make([]cloud.Job, 0, p.Jobs)}
	if p.Variant == seed001.Methodological {
		w.TransferScale = 1.0 / 86400 // G over G/s is seconds; the time unit is a day
	}
	for _, vm := range g.VMs() {
		w.VMs = append(w.VMs, cloud.VM{Memory: vm.Memory, Speed: vm.Speed, Bandwidth: vm.Bandwidth, Disk: -1})
	}
	relative := v.Str("deadline") == models.Seed001DeadlineRelative
	for {
		j, err := g.Next()
		if err == io.EOF {
			return w, nil
		}
		if err != nil {
			return nil, err
		}
		cj := cloud.Job{ID: int64(j.ID), Submit: j.Submit, Deadline: j.Deadline, InputSize: j.InputSize, Tasks: make([]cloud.Task, len(j.Tasks))}
		for i, t := range j.Tasks {
			cj.Tasks[i] = cloud.Task{Memory: t.Memory, Bandwidth: t.Bandwidth, Instructions: t.Instructions}
		}
		if best := w.BestTime(&cj); relative && !math.IsInf(best, 1) {
			cj.Deadline *= best // a slack factor; a job no VM holds keeps its drawn deadline
		}
		w.Jobs = append(w.Jobs, cj)
	}
}

// runSeed001 simulates one seed-001 cell.
func runSeed001(c ModelCell) (*ModelResult, error) {
	v, err := models.Decode(c.Model, c.Params)
	if err != nil {
		return nil, err
	}
	if err := cloud.Check(c.Scheduler, c.SchedulerParams); err != nil {
		return nil, err
	}
	w, err := Seed001Workload(v, rand.New(rand.NewPCG(c.Seed, GeneratorStream)))
	if err != nil {
		return nil, err
	}
	r, err := cloud.Run(w, c.Scheduler, c.SchedulerParams)
	if err != nil {
		return nil, err
	}
	out := &ModelResult{Metrics: seed001Metrics(r.Metrics()), Gamma: cloud.Gamma}
	if c.KeepJobs {
		out.Jobs = r.Jobs
	}
	return out, nil
}

// seed001Metrics lists a run's metrics in a fixed order: the paper's
// (§4.1: ufj, ave, awt, sin) with the finished counts, then the per-job
// distributions of the finished jobs, utilisation and makespan.
func seed001Metrics(m cloud.Metrics) []Metric {
	ms := []Metric{
		{"jobs", float64(m.Jobs)},
		{"finished", float64(m.Finished)},
		{"ufj", float64(m.Unfinished)},
		{"infeasible", float64(m.Infeasible)},
		{"finished_ratio", m.FinishedRatio},
		{"ave", m.AVE},
		{"awt", m.AWT},
		{"run_mean", m.RunMean},
		{"sin", m.SIN},
		{"vms_per_task", m.VMsPerTask},
	}
	for _, d := range []struct {
		name string
		d    sim.Dist
	}{{"wait", m.Wait}, {"response", m.Response}} {
		ms = append(ms, Metric{d.name + "_mean", d.d.Mean}, Metric{d.name + "_median", d.d.Median},
			Metric{d.name + "_p95", d.d.P95}, Metric{d.name + "_max", d.d.Max})
	}
	return append(ms, Metric{"utilization", m.Utilization}, Metric{"makespan", m.Makespan})
}

// seed001MetricNames lists every name seed001Metrics uses, in order.
func seed001MetricNames() []string {
	ms := seed001Metrics(cloud.Metrics{})
	names := make([]string, len(ms))
	for i, m := range ms {
		names[i] = m.Name
	}
	return names
}
