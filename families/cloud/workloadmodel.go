package cloud

import (
	"math/rand/v2"

	"github.com/schedfarm/schedfarm/param"
	"github.com/schedfarm/schedfarm/workload/models"
	"github.com/schedfarm/schedfarm/workload/seed001"
)

// WorkloadModel is the seed001 workload generator model: seed 001's
// multi-attribute cloud (output models.Cloud). The family's cells draw its
// VMs and jobs with Seed001Params (Seed001Workload) and simulate them on
// their own platform.
func WorkloadModel() models.Model {
	return models.Model{
		Name:    "seed001",
		Summary: "seed 001 multi-attribute cloud (Table 1, §4.2–4.3): VMs with memory/speed/bandwidth, parallel jobs with per-task demands and deadlines, Poisson arrivals",
		Output:  Output,
		Params: []param.Spec{
			{Name: "variant", Kind: param.String, Default: seed001.Simulation, Choices: []string{seed001.Simulation, seed001.Methodological},
				Doc: "simulation (§4.2, Table 1) or methodological (§4.3 cloud centre: nodes of speed 24 or 48, input files, time unit a day)"},
			{Name: "jobs", Kind: param.Int, Default: int64(10000), Min: 1, Max: 1e9, Doc: "number of jobs (the paper: 10,000)"},
			{Name: "rate", Kind: param.Float, Default: 0.0, Min: 1e-9, Max: 1e9, ZeroOK: true,
				Doc: "mean jobs per time unit, Poisson (§4.2 sweeps it, Figs. 4–11); 0 = the variant's own: simulation 10, methodological 40"},
			{Name: "vms", Kind: param.Int, Default: int64(120), Min: 1, Max: 1e7, Doc: "number of VMs (the paper: 120); parallelism is capped at it"},
			{Name: "deadline", Kind: param.String, Default: DeadlineUnits, Choices: []string{DeadlineUnits, DeadlineRelative},
				Doc: "how the simulator reads the drawn deadline d (integer in [1, 6]): units = d time units after arrival (§4.2 as written); relative = d × the job's shortest possible time on the VMs (a slack factor); the generated jobs are the same"},
			{Name: "tasks", Kind: param.String, Default: TasksAuto, Choices: append([]string{TasksAuto}, seed001.TasksReadings()...),
				Doc: "how a job's tasks get their demands (§3.1: \"the task that belongs to the same job has the same requirement\"): copied = the job's memory, bandwidth and instruction number given to every task; split = memory and bandwidth copied, the job's instruction number (§4.3(4)) split evenly over its tasks; independent = every task drawn on its own (before issue 21; not the paper's); auto = copied (simulation), split (methodological)"},
			{Name: "integer", Kind: param.Bool, Default: false, Doc: "draw memory, speed, bandwidth and instructions as integers on their ranges (false: continuous)"},
		},
		Lines: writeLines,
	}
}

// writeLines writes a seed001 workload for "schedfarm workload generate":
//
//	{"type":"platform","vms":[{id, memory, speed, bandwidth}…],"params":{…},"deadline":…}
//	{"type":"job", id, submit, parallelism, deadline, input_size, tasks[{memory, bandwidth, instructions}]}…
func writeLines(raw map[string]any, rng *rand.Rand, emit func(any) error) error {
	v, err := WorkloadModel().Decode(raw)
	if err != nil {
		return err
	}
	p := Seed001Params(v)
	g, err := seed001.New(p, rng)
	if err != nil {
		return err
	}
	if err := emit(map[string]any{"type": "platform", "vms": g.VMs(), "params": p, "deadline": v.Str("deadline")}); err != nil {
		return err
	}
	return models.EmitAll(g.Next, func(r seed001.Job) any {
		return struct {
			Type string `json:"type"`
			seed001.Job
		}{"job", r}
	}, emit)
}

// Deadline readings of the seed001 model (parameter deadline).
const (
	DeadlineUnits    = "units"
	DeadlineRelative = "relative"
)

// TasksAuto is the default of the seed001 model's parameter tasks: the
// variant's own reading (seed001.Default, seed001.DefaultMethodological).
const TasksAuto = "auto"

// Seed001Params returns the seed001 generator parameters for the values
// WorkloadModel().Decode returned.
func Seed001Params(v param.Values) seed001.Params {
	p := seed001.Default()
	if v.Str("variant") == seed001.Methodological {
		p = seed001.DefaultMethodological()
	}
	p.Jobs = v.Int("jobs")
	if r := v.Float("rate"); r > 0 {
		p.ArrivalRate = r
	}
	p.VMs = v.Int("vms")
	p.Parallelism[1] = min(p.Parallelism[1], p.VMs)
	p.Parallelism[0] = min(p.Parallelism[0], p.Parallelism[1])
	p.Integer = v.Bool("integer")
	if t := v.Str("tasks"); t != TasksAuto {
		p.Tasks = t
	}
	return p
}
