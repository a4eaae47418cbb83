package cloud

import (
	"io"
	"math"
	"math/rand/v2"

	"github.com/schedfarm/schedfarm/family"
	"github.com/schedfarm/schedfarm/param"
	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/workload/seed001"
)

// The glue that turns a seed001 cell (models.Cloud) into a run of CPLMT,
// FIFO, Fair, ASJS or CMMS on the generated VMs: the family's
// family.PlatformRunner (family.go).

// Seed001Workload draws a seed-001 workload from the model's decoded
// parameters and rng, as the family's cells do. With deadline relative,
// every job's drawn deadline is multiplied by its Workload.BestTime.
func Seed001Workload(v param.Values, rng *rand.Rand) (*Workload, error) {
	p := Seed001Params(v)
	g, err := seed001.New(p, rng)
	if err != nil {
		return nil, err
	}
	w := &Workload{Jobs: make([]Job, 0, p.Jobs)}
	if p.Variant == seed001.Methodological {
		w.TransferScale = 1.0 / 86400 // G over G/s is seconds; the time unit is a day
	}
	for _, vm := range g.VMs() {
		w.VMs = append(w.VMs, VM{Memory: vm.Memory, Speed: vm.Speed, Bandwidth: vm.Bandwidth, Disk: -1})
	}
	relative := v.Str("deadline") == DeadlineRelative
	for {
		j, err := g.Next()
		if err == io.EOF {
			return w, nil
		}
		if err != nil {
			return nil, err
		}
		cj := Job{ID: int64(j.ID), Submit: j.Submit, Deadline: j.Deadline, InputSize: j.InputSize, Instructions: j.Instructions, Tasks: make([]Task, len(j.Tasks))}
		for i, t := range j.Tasks {
			cj.Tasks[i] = Task{Memory: t.Memory, Bandwidth: t.Bandwidth, Instructions: t.Instructions}
		}
		if best := w.BestTime(&cj); relative && !math.IsInf(best, 1) {
			cj.Deadline *= best // a slack factor; a job no VM holds keeps its drawn deadline
		}
		w.Jobs = append(w.Jobs, cj)
	}
}

// runCell simulates one seed-001 cell.
func runCell(c family.Cell) (*family.Result, error) {
	v, err := WorkloadModel().Decode(c.Params)
	if err != nil {
		return nil, err
	}
	if err := registry().Check(c.Scheduler, c.SchedulerParams); err != nil {
		return nil, err
	}
	w, err := Seed001Workload(v, rand.New(rand.NewPCG(c.Seed, family.GeneratorStream)))
	if err != nil {
		return nil, err
	}
	r, err := Run(w, c.Scheduler, c.SchedulerParams)
	if err != nil {
		return nil, err
	}
	out := &family.Result{Metrics: cellMetrics(r.Metrics()), Gamma: Gamma}
	if c.KeepJobs {
		out.Jobs = r.Jobs
	}
	return out, nil
}

// cellMetrics lists a run's metrics in a fixed order: the paper's
// (§4.1: ufj, ave, awt, sin) with the finished counts, then the per-job
// distributions of the finished jobs, utilisation and makespan.
func cellMetrics(m Metrics) []family.Metric {
	ms := []family.Metric{
		{Name: "jobs", Value: float64(m.Jobs)},
		{Name: "finished", Value: float64(m.Finished)},
		{Name: "ufj", Value: float64(m.Unfinished)},
		{Name: "infeasible", Value: float64(m.Infeasible)},
		{Name: "finished_ratio", Value: m.FinishedRatio},
		{Name: "ave", Value: m.AVE},
		{Name: "awt", Value: m.AWT},
		{Name: "run_mean", Value: m.RunMean},
		{Name: "sin", Value: m.SIN},
		{Name: "vms_per_task", Value: m.VMsPerTask},
	}
	for _, d := range []struct {
		name string
		d    sim.Dist
	}{{"wait", m.Wait}, {"response", m.Response}} {
		ms = append(ms, family.Metric{Name: d.name + "_mean", Value: d.d.Mean}, family.Metric{Name: d.name + "_median", Value: d.d.Median},
			family.Metric{Name: d.name + "_p95", Value: d.d.P95}, family.Metric{Name: d.name + "_max", Value: d.d.Max})
	}
	return append(ms, family.Metric{Name: "utilization", Value: m.Utilization}, family.Metric{Name: "makespan", Value: m.Makespan})
}

// cellMetricNames lists every name cellMetrics uses, in order.
func cellMetricNames() []string {
	ms := cellMetrics(Metrics{})
	names := make([]string, len(ms))
	for i, m := range ms {
		names[i] = m.Name
	}
	return names
}
