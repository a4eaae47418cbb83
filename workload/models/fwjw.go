package models

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/schedfarm/schedfarm/workload"
	"github.com/schedfarm/schedfarm/workload/fwload"
	"github.com/schedfarm/schedfarm/workload/jwload"
)

func fwloadModel() Model {
	d := fwload.Default()
	params := append(commonParams(int64(d.Jobs), int64(d.Procs)),
		ParamSpec{Name: "interarrival", Kind: Float, Default: d.MeanInterarrival, Min: 1e-3, Max: 1e9, Doc: "mean time between submissions in seconds, reruns included (ignored when load > 0 with load_method model)"},
		ParamSpec{Name: "pow2_share", Kind: Float, Default: d.Pow2Share, Min: 0, Max: 1, Doc: "probability that a job takes its size bin's power of two (calibrated to mean parallelism 23.4 on 320)"},
		ParamSpec{Name: "mean_runtime", Kind: Float, Default: d.MeanRuntime, Min: 1, Max: 1e9, Doc: "mean runtime in seconds (seed 000: 2606.6); sets the long-branch mean"},
		ParamSpec{Name: "short_mean", Kind: Float, Default: d.ShortMean, Min: 1e-3, Max: 1e9, Doc: "mean of the short runtime branch, seconds"},
		ParamSpec{Name: "long_prob_base", Kind: Float, Default: d.LongProbBase, Min: 0, Max: 1, Doc: "long-branch probability p(n) = base + slope·n (clipped to [0,1])"},
		ParamSpec{Name: "long_prob_slope", Kind: Float, Default: d.LongProbSlope, Min: 0, Max: 1, Doc: "per-processor growth of the long-branch probability"},
		ParamSpec{Name: "max_repeats", Kind: Int, Default: int64(d.MaxRepeats), Min: 1, Max: 1000, Doc: "largest number of runs of one job (1 = no reruns)"},
		ParamSpec{Name: "repeat_exponent", Kind: Float, Default: d.RepeatExponent, Min: 0, Max: 10, Doc: "P(k runs) ∝ k^−exponent"},
		ParamSpec{Name: "think_time", Kind: Float, Default: d.ThinkTime, Min: 0, Max: 1e9, Doc: "mean exponential think time between a run's end and its rerun, seconds (0 = none)"},
	)
	return Model{
		Name:    "fwload",
		Summary: "FWload: calibrated stand-in for Feitelson 1996/97 (harmonic sizes favouring small and power-of-two, size-correlated runtimes, reruns), fitted to seed 000 Table 1",
		Output:  SWF,
		Params:  params,
		build: func(v values, seed [2]uint64) (built, error) {
			p := fwload.Default()
			p.Jobs, p.Procs = v.int("jobs"), v.int("procs")
			p.MeanInterarrival = v.float("interarrival")
			p.Pow2Share = v.float("pow2_share")
			p.MeanRuntime, p.ShortMean = v.float("mean_runtime"), v.float("short_mean")
			p.LongProbBase, p.LongProbSlope = v.float("long_prob_base"), v.float("long_prob_slope")
			p.MaxRepeats, p.RepeatExponent = v.int("max_repeats"), v.float("repeat_exponent")
			p.ThinkTime = v.float("think_time")
			if l := v.float("load"); l > 0 && v.str("load_method") == "model" {
				p.TargetLoad = l
			}
			if err := p.Validate(); err != nil {
				return built{}, err
			}
			mk := func() (workload.Source, error) {
				return fwload.New(p, rand.New(rand.NewPCG(seed[0], seed[1])))
			}
			notes := []string{
				"fwload is a calibrated stand-in for the Feitelson 1996/97 model (original constants unavailable): Table 1 bins of seed 000 imposed, mean parallelism and runtime calibrated",
				"fwload reruns: field 17 = preceding run, field 18 = think time; a rerun is submitted when the previous run would end on an idle machine",
			}
			return built{make: mk, procs: p.Procs, jobs: p.Jobs, notes: notes}, nil
		},
	}
}

func jwloadModel() Model {
	d := jwload.Default()
	params := append(commonParams(int64(d.Jobs), int64(d.Procs)),
		ParamSpec{Name: "interarrival", Kind: Float, Default: d.Interarrival.Mean(), Min: 1e-3, Max: 1e9, Doc: "overall mean time between jobs in seconds (default: CTC, 17,440 jobs in 79 days; ignored when load > 0 with load_method model)"},
		ParamSpec{Name: "interarrival_cv", Kind: Float, Default: 2.0, Min: 0.15, Max: 100, Doc: "coefficient of variation of each range's interarrival times (balanced hyper-Erlang; CV² ≥ 1/order)"},
		ParamSpec{Name: "interarrival_order", Kind: Int, Default: int64(d.Interarrival.Order), Min: 1, Max: 50, Doc: "hyper-Erlang order (stages) of the interarrival times"},
		ParamSpec{Name: "mean_runtime", Kind: Float, Default: d.Runtime.Mean(), Min: 1, Max: 1e9, Doc: "mean service time of every range in seconds (seed 000: 11267.0)"},
		ParamSpec{Name: "runtime_short_prob", Kind: Float, Default: d.Runtime.P, Min: 0, Max: 0.999, Doc: "probability of the short service-time branch"},
		ParamSpec{Name: "runtime_short_mean", Kind: Float, Default: d.Runtime.Mean1, Min: 1e-3, Max: 1e9, Doc: "mean of the short branch in seconds (the long branch's mean follows from mean_runtime)"},
		ParamSpec{Name: "runtime_order", Kind: Int, Default: int64(d.Runtime.Order), Min: 1, Max: 50, Doc: "hyper-Erlang order of the service times"},
		ParamSpec{Name: "size_exponent", Kind: Float, Default: d.SizeExponent, Min: 0, Max: 10, Doc: "within a size range P(n) ∝ n^−a (0 = uniform; default calibrated to mean parallelism 10.5 on 320)"},
	)
	return Model{
		Name:    "jwload",
		Summary: "JWload: calibrated stand-in for Jann et al. 1997 (CTC SP2; hyper-Erlang interarrival and runtime per size range), fitted to seed 000 Table 1",
		Output:  SWF,
		Params:  params,
		build: func(v values, seed [2]uint64) (built, error) {
			p := jwload.Default()
			p.Jobs, p.Procs = v.int("jobs"), v.int("procs")
			var errs []error
			cv, order := v.float("interarrival_cv"), v.int("interarrival_order")
			if cv*cv < 1/float64(order) {
				errs = append(errs, fmt.Errorf("jwload: parameter interarrival_cv = %g with interarrival_order %d: want interarrival_cv ≥ %.4g (CV² ≥ 1/order)", cv, order, math.Sqrt(1/float64(order))))
			}
			mean, sp, sm := v.float("mean_runtime"), v.float("runtime_short_prob"), v.float("runtime_short_mean")
			if sp*sm >= mean {
				errs = append(errs, fmt.Errorf("jwload: parameter runtime_short_mean = %g with runtime_short_prob %g: want runtime_short_prob·runtime_short_mean < mean_runtime (%g)", sm, sp, mean))
			}
			if err := errors.Join(errs...); err != nil {
				return built{}, err
			}
			p.Interarrival = jwload.Balanced(v.float("interarrival"), cv, order)
			p.Runtime = jwload.WithShortBranch(mean, sp, sm, v.int("runtime_order"))
			p.SizeExponent = v.float("size_exponent")
			if l := v.float("load"); l > 0 && v.str("load_method") == "model" {
				p.TargetLoad = l
			}
			if err := p.Validate(); err != nil {
				return built{}, err
			}
			mk := func() (workload.Source, error) {
				return jwload.New(p, rand.New(rand.NewPCG(seed[0], seed[1])))
			}
			notes := []string{"jwload is a calibrated stand-in for the Jann et al. 1997 model (parameter table unavailable): Table 1 range shares of seed 000 imposed, equal per-range runtime means, hyper-Erlang shapes assumed"}
			return built{make: mk, procs: p.Procs, jobs: p.Jobs, notes: notes}, nil
		},
	}
}
