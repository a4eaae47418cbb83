package stms

import (
	"fmt"
	"math/rand/v2"

	"github.com/schedfarm/schedfarm/param"
	"github.com/schedfarm/schedfarm/workload/models"
	"github.com/schedfarm/schedfarm/workload/seed002"
)

// WorkloadModel is the seed002 workload generator model: seed 002's grid (state-tracking migration): the runner
// builds resources and jobs with the seed002 generator from these values
// (Decode) and simulates them under the STMS family. α, the scheduling
// interval, the batch size and the state-tracking costs are part of the
// experiment's conditions (the paper varies α in Fig. 9), so they are
// parameters of the model, shared by the four schemes of a paired
// comparison; the schemes' own knobs (c, GA settings) are scheduler
// parameters.
func WorkloadModel() models.Model {
	d := seed002.Default()
	return models.Model{
		Name:    "seed002",
		Summary: "seed 002 state-tracking migration (Tables 2–3, §2.1): failing heterogeneous resources (availability, bandwidth, λ, RAL) and jobs (size, data, SDV, deadline) arriving at a Poisson rate; lifetime classes 8:2, 5:5, 2:8",
		Output:  Output,
		Check:   modelCheck,
		Params: []param.Spec{
			{Name: "jobs", Kind: param.Int, Default: int64(d.Jobs), Min: 1, Max: 1e8, Doc: "number of jobs (§5: 2,000–10,000; 4,000 for Fig. 8–9)"},
			{Name: "resources", Kind: param.Int, Default: int64(d.Resources), Min: 1, Max: 1e5, Doc: "number of resources (§5: 30–50)"},
			{Name: "rate", Kind: param.Float, Default: d.ArrivalRate, Min: 1e-9, Max: 1e9, Doc: "mean job arrival rate (Table 2: 1.67), jobs per second (regime literal) or per minute (calibrated)"},
			{Name: "regime", Kind: param.String, Default: d.Regime, Choices: []string{seed002.Literal, seed002.Calibrated}, Doc: "how rate is read: literal = jobs/s as Table 2 prints (60–100× what 30–50 resources serve: every run drains a backlog); calibrated = jobs/min (1.67: 100 jobs/h, two batches of 50 per 1-h cycle, offered load ≈ 1 on 50 resources)"},
			{Name: "load", Kind: param.Float, Default: 0.0, Min: 1e-6, Max: 1000, ZeroOK: true, Doc: "target offered load = rate × mean job size / Σ resource speed; sets the rate (0 = use rate and regime)"},
			{Name: "class", Kind: param.String, Default: "none", Choices: []string{"none", seed002.Class1, seed002.Class2, seed002.Class3}, Doc: "job lifetime class (Table 3, short:long); none = sizes uniform over [size_min, size_max]"},
			{Name: "size_min", Kind: param.Float, Default: d.Size.Lo, Min: 1e-9, Max: 1e9, Doc: "smallest job size, Mflops (class none)"},
			{Name: "size_max", Kind: param.Float, Default: d.Size.Hi, Min: 1e-9, Max: 1e9, Doc: "largest job size, Mflops (class none)"},
			{Name: "availability_min", Kind: param.Float, Default: d.Availability.Lo, Min: 1e-6, Max: 1e15, Doc: "slowest resource availability (speed), flops/s"},
			{Name: "availability_max", Kind: param.Float, Default: d.Availability.Hi, Min: 1e-6, Max: 1e15, Doc: "fastest resource availability, flops/s"},
			{Name: "bandwidth_min", Kind: param.Float, Default: d.Bandwidth.Lo, Min: 1e-6, Max: 1e9, Doc: "smallest average bandwidth, Mbps"},
			{Name: "bandwidth_max", Kind: param.Float, Default: d.Bandwidth.Hi, Min: 1e-6, Max: 1e9, Doc: "largest average bandwidth, Mbps"},
			{Name: "data_min", Kind: param.Float, Default: d.DataSize.Lo, Min: 0, Max: 1e9, Doc: "smallest job data size, MB"},
			{Name: "data_max", Kind: param.Float, Default: d.DataSize.Hi, Min: 0, Max: 1e9, Doc: "largest job data size, MB"},
			{Name: "lambda_min", Kind: param.Float, Default: d.FailureCoeff.Lo, Min: 0, Max: 1e3, Doc: "smallest failure coefficient λ, per second"},
			{Name: "lambda_max", Kind: param.Float, Default: d.FailureCoeff.Hi, Min: 0, Max: 1e3, Doc: "largest failure coefficient λ, per second"},
			{Name: "ral_min", Kind: param.Float, Default: d.AvailabilityLevel.Lo, Min: 0, Max: 1e6, Doc: "smallest resource availability level RAL"},
			{Name: "ral_max", Kind: param.Float, Default: d.AvailabilityLevel.Hi, Min: 0, Max: 1e6, Doc: "largest resource availability level RAL"},
			{Name: "sdv_min", Kind: param.Float, Default: d.ServiceDemand.Lo, Min: 0, Max: 1e6, Doc: "smallest service demand value SDV"},
			{Name: "sdv_max", Kind: param.Float, Default: d.ServiceDemand.Hi, Min: 0, Max: 1e6, Doc: "largest service demand value SDV"},
			{Name: "slack_min", Kind: param.Float, Default: d.DeadlineSlack.Lo, Min: 0, Max: 1e9, Doc: "smallest deadline slack: deadline = submit + slack × size / mean availability"},
			{Name: "slack_max", Kind: param.Float, Default: d.DeadlineSlack.Hi, Min: 0, Max: 1e9, Doc: "largest deadline slack"},
			{Name: "alpha", Kind: param.Float, Default: 1.75, Min: 1, Max: 100, Doc: "overestimation factor α (Table 2: 1.75; Fig. 9: 1–3): planned runtimes are α·PET; Condition 1 requires PET ≤ α × demanded flow time"},
			{Name: "interval", Kind: param.Float, Default: 3600.0, Min: 1e-3, Max: 1e9, Doc: "scheduling interval, seconds (Table 2: 1 h)"},
			{Name: "batch", Kind: param.Int, Default: int64(50), Min: 2, Max: 1e6, Doc: "mGA batch size (Table 2: 50); fewer ready jobs are mapped by Min-Min"},
			{Name: "trace_interval", Kind: param.Float, Default: 600.0, Min: 0, Max: 1e9, Doc: "seconds of execution between two state traces of a migratable job (0 = no tracing cost)"},
			{Name: "trace_overhead", Kind: param.Float, Default: 6.0, Min: 0, Max: 1e9, Doc: "seconds one state trace costs (SO = traces × this)"},
			{Name: "migration_cost", Kind: param.Float, Default: 0.0, Min: 0, Max: 1e9, Doc: "fixed seconds every migration costs on top of its data movement (re-dispatch, state restore)"},
			{Name: "transfer_factor", Kind: param.Float, Default: 1.0, Min: 0, Max: 1e6, Doc: "multiplier on a migration's data movement DM = 8·(remaining state + data) / bandwidth (1 = eq. 3's DM)"},
			{Name: "pet_error", Kind: param.Float, Default: 0.0, Min: 0, Max: 0.9, Doc: "runtime-estimate error e: the scheduler knows each job's size as actual·(1+ε), ε uniform in [−e, e] (seed 000's estimation-error model), and plans PETs with it"},
			{Name: "dispatch", Kind: param.String, Default: "timetable", Choices: []string{"timetable", "eager"}, Doc: "timetable = a mapped job starts at its planned start (α·PET slots: early ends leave voids, Problem 2); eager = as soon as its resource is free"},
		},
		Lines: writeLines,
	}
}

// Seed002Params turns decoded seed002 values (WorkloadModel().Decode) into the generator's
// parameters.
func Seed002Params(v param.Values) seed002.Params {
	p := seed002.Default()
	p.Jobs, p.Resources, p.ArrivalRate = v.Int("jobs"), v.Int("resources"), v.Float("rate")
	p.Regime, p.Load = v.Str("regime"), v.Float("load")
	if c := v.Str("class"); c != "none" {
		p.Class = c
	}
	iv := func(name string) seed002.Interval {
		return seed002.Interval{Lo: v.Float(name + "_min"), Hi: v.Float(name + "_max")}
	}
	p.Size, p.Availability, p.Bandwidth, p.DataSize = iv("size"), iv("availability"), iv("bandwidth"), iv("data")
	p.FailureCoeff, p.AvailabilityLevel, p.ServiceDemand, p.DeadlineSlack = iv("lambda"), iv("ral"), iv("sdv"), iv("slack")
	return p
}

// seed002Ranges are the parameters given as a [name_min, name_max] pair.
var seed002Ranges = []string{"size", "availability", "bandwidth", "data", "lambda", "ral", "sdv", "slack"}

// modelCheck reports every range whose minimum exceeds its maximum.
func modelCheck(v param.Values) []error {
	var errs []error
	for _, n := range seed002Ranges {
		lo, hi := v.Float(n+"_min"), v.Float(n+"_max")
		if lo > hi {
			errs = append(errs, &models.ParamError{Model: "seed002", Param: n + "_max",
				Msg: fmt.Sprintf("= %g is below %s_min = %g; want %s_min ≤ %s_max", hi, n, lo, n, n)})
		}
	}
	return errs
}

// writeLines writes a seed002 workload for "schedfarm workload generate":
//
//	{"type":"platform","resources":[{id, availability, bandwidth, failure_coeff, availability_level}…],"params":{…}}
//	{"type":"job", id, submit, size, data_size, sdv, deadline, long}…
func writeLines(raw map[string]any, rng *rand.Rand, emit func(any) error) error {
	m := WorkloadModel()
	v, err := m.Decode(raw)
	if err != nil {
		return err
	}
	p := Seed002Params(v)
	g, err := seed002.New(p, rng)
	if err != nil {
		return err
	}
	params := map[string]any{}
	for _, s := range m.Params {
		params[s.Name] = v[s.Name]
	}
	if err := emit(map[string]any{"type": "platform", "resources": g.Resources(), "params": params}); err != nil {
		return err
	}
	return models.EmitAll(g.Next, func(r seed002.Job) any {
		return struct {
			Type string `json:"type"`
			seed002.Job
		}{"job", r}
	}, emit)
}
