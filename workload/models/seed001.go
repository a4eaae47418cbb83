package models

import "github.com/schedfarm/schedfarm/workload/seed001"

// seed001Model is seed 001's multi-attribute cloud (output Cloud): the
// runner draws its VMs and jobs with Seed001Params and simulates them on
// their own platform.
func seed001Model() model {
	return model{
		name:    "seed001",
		summary: "seed 001 multi-attribute cloud (Table 1, §4.2–4.3): VMs with memory/speed/bandwidth, parallel jobs with per-task demands and deadlines, Poisson arrivals",
		output:  Cloud,
		params: []ParamSpec{
			{Name: "variant", Kind: String, Default: seed001.Simulation, Choices: []string{seed001.Simulation, seed001.Methodological},
				Doc: "simulation (§4.2, Table 1) or methodological (§4.3 cloud centre: nodes of speed 24 or 48, input files, time unit a day)"},
			{Name: "jobs", Kind: Int, Default: int64(10000), Min: 1, Max: 1e9, Doc: "number of jobs (the paper: 10,000)"},
			{Name: "rate", Kind: Float, Default: 0.0, Min: 1e-9, Max: 1e9, ZeroOK: true,
				Doc: "mean jobs per time unit, Poisson (§4.2 sweeps it, Figs. 4–11); 0 = the variant's own: simulation 10, methodological 40"},
			{Name: "vms", Kind: Int, Default: int64(120), Min: 1, Max: 1e7, Doc: "number of VMs (the paper: 120); parallelism is capped at it"},
			{Name: "deadline", Kind: String, Default: Seed001DeadlineUnits, Choices: []string{Seed001DeadlineUnits, Seed001DeadlineRelative},
				Doc: "how the simulator reads the drawn deadline d (integer in [1, 6]): units = d time units after arrival (§4.2 as written); relative = d × the job's shortest possible time on the VMs (a slack factor); the generated jobs are the same"},
			{Name: "integer", Kind: Bool, Default: false, Doc: "draw memory, speed, bandwidth and instructions as integers on their ranges (false: continuous)"},
		},
	}
}

// Deadline readings of the seed001 model (parameter deadline).
const (
	Seed001DeadlineUnits    = "units"
	Seed001DeadlineRelative = "relative"
)

// Seed001Params returns the seed001 generator parameters for the values
// Decode("seed001", …) returned.
func Seed001Params(v Values) seed001.Params {
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
	return p
}
