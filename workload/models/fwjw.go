package models

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/schedfarm/schedfarm/param"
	"github.com/schedfarm/schedfarm/workload"
	"github.com/schedfarm/schedfarm/workload/fwload"
	"github.com/schedfarm/schedfarm/workload/jwload"
)

func fwloadModel() Model {
	d := fwload.Default()
	params := append(commonParams(int64(d.Jobs), int64(d.Procs)),
		param.Spec{Name: "interarrival", Kind: param.Float, Unit: "s", Default: d.MeanInterarrival, Min: 1e-3, Max: 1e9, Doc: "mean time between submissions in seconds, reruns included (ignored when load > 0 with load_method model)"},
		param.Spec{Name: "pow2_share", Kind: param.Float, Default: d.Pow2Share, Min: 0, Max: 1, Doc: "probability that a job takes its size bin's power of two (calibrated to mean parallelism 23.4 on 320)"},
		param.Spec{Name: "mean_runtime", Kind: param.Float, Unit: "s", Default: d.MeanRuntime, Min: 1, Max: 1e9, Doc: "mean runtime in seconds (seed 000: 2606.6); sets the long-branch mean"},
		param.Spec{Name: "short_mean", Kind: param.Float, Unit: "s", Default: d.ShortMean, Min: 1e-3, Max: 1e9, Doc: "mean of the short runtime branch, seconds"},
		param.Spec{Name: "long_prob_base", Kind: param.Float, Default: d.LongProbBase, Min: 0, Max: 1, Doc: "long-branch probability p(n) = base + slope·n (clipped to [0,1])"},
		param.Spec{Name: "long_prob_slope", Kind: param.Float, Default: d.LongProbSlope, Min: 0, Max: 1, Doc: "per-processor growth of the long-branch probability"},
		param.Spec{Name: "max_repeats", Kind: param.Int, Default: int64(d.MaxRepeats), Min: 1, Max: 1000, Doc: "largest number of runs of one job (1 = no reruns)"},
		param.Spec{Name: "repeat_exponent", Kind: param.Float, Default: d.RepeatExponent, Min: 0, Max: 10, Doc: "P(k runs) ∝ k^−exponent"},
		param.Spec{Name: "think_time", Kind: param.Float, Unit: "s", Default: d.ThinkTime, Min: 0, Max: 1e9, Doc: "mean exponential think time between a run's end and its rerun, seconds (0 = none)"},
	)
	return Model{
		Name:    "fwload",
		Summary: "FWload: calibrated stand-in for Feitelson 1996/97 (harmonic sizes favouring small and power-of-two, size-correlated runtimes, reruns), fitted to seed 000 Table 1",
		Output:  SWF,
		Params:  params,
		build: func(v param.Values, seed [2]uint64) (built, error) {
			p := fwload.Default()
			p.Jobs, p.Procs = v.Int("jobs"), v.Int("procs")
			p.MeanInterarrival = v.Float("interarrival")
			p.Pow2Share = v.Float("pow2_share")
			p.MeanRuntime, p.ShortMean = v.Float("mean_runtime"), v.Float("short_mean")
			p.LongProbBase, p.LongProbSlope = v.Float("long_prob_base"), v.Float("long_prob_slope")
			p.MaxRepeats, p.RepeatExponent = v.Int("max_repeats"), v.Float("repeat_exponent")
			p.ThinkTime = v.Float("think_time")
			if l := v.Float("load"); l > 0 && v.Str("load_method") == "model" {
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
		param.Spec{Name: "interarrival", Kind: param.Float, Unit: "s", Default: d.Interarrival.Mean(), Min: 1e-3, Max: 1e9, Doc: "overall mean time between jobs in seconds (default: CTC, 17,440 jobs in 79 days; ignored when load > 0 with load_method model)"},
		param.Spec{Name: "interarrival_cv", Kind: param.Float, Default: 2.0, Min: 0.15, Max: 100, Doc: "coefficient of variation of each range's interarrival times (balanced hyper-Erlang; CV² ≥ 1/order)"},
		param.Spec{Name: "interarrival_order", Kind: param.Int, Default: int64(d.Interarrival.Order), Min: 1, Max: 50, Doc: "hyper-Erlang order (stages) of the interarrival times"},
		param.Spec{Name: "mean_runtime", Kind: param.Float, Unit: "s", Default: d.Runtime.Mean(), Min: 1, Max: 1e9, Doc: "mean service time of every range in seconds (seed 000: 11267.0)"},
		param.Spec{Name: "runtime_short_prob", Kind: param.Float, Default: d.Runtime.P, Min: 0, Max: 0.999, Doc: "probability of the short service-time branch"},
		param.Spec{Name: "runtime_short_mean", Kind: param.Float, Unit: "s", Default: d.Runtime.Mean1, Min: 1e-3, Max: 1e9, Doc: "mean of the short branch in seconds (the long branch's mean follows from mean_runtime)"},
		param.Spec{Name: "runtime_order", Kind: param.Int, Default: int64(d.Runtime.Order), Min: 1, Max: 50, Doc: "hyper-Erlang order of the service times"},
		param.Spec{Name: "size_exponent", Kind: param.Float, Default: d.SizeExponent, Min: 0, Max: 10, Doc: "within a size range P(n) ∝ n^−a (0 = uniform; default calibrated to mean parallelism 10.5 on 320)"},
	)
	return Model{
		Name:    "jwload",
		Summary: "JWload: calibrated stand-in for Jann et al. 1997 (CTC SP2; hyper-Erlang interarrival and runtime per size range), fitted to seed 000 Table 1",
		Output:  SWF,
		Params:  params,
		build: func(v param.Values, seed [2]uint64) (built, error) {
			p := jwload.Default()
			p.Jobs, p.Procs = v.Int("jobs"), v.Int("procs")
			var errs []error
			cv, order := v.Float("interarrival_cv"), v.Int("interarrival_order")
			if cv*cv < 1/float64(order) {
				errs = append(errs, fmt.Errorf("jwload: parameter interarrival_cv = %g with interarrival_order %d: want interarrival_cv ≥ %.4g (CV² ≥ 1/order)", cv, order, math.Sqrt(1/float64(order))))
			}
			mean, sp, sm := v.Float("mean_runtime"), v.Float("runtime_short_prob"), v.Float("runtime_short_mean")
			if sp*sm >= mean {
				errs = append(errs, fmt.Errorf("jwload: parameter runtime_short_mean = %g with runtime_short_prob %g: want runtime_short_prob·runtime_short_mean < mean_runtime (%g)", sm, sp, mean))
			}
			if err := errors.Join(errs...); err != nil {
				return built{}, err
			}
			p.Interarrival = jwload.Balanced(v.Float("interarrival"), cv, order)
			p.Runtime = jwload.WithShortBranch(mean, sp, sm, v.Int("runtime_order"))
			p.SizeExponent = v.Float("size_exponent")
			if l := v.Float("load"); l > 0 && v.Str("load_method") == "model" {
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
