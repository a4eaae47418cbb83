package runner_test

import (
	"fmt"
	"testing"

	"github.com/schedfarm/schedfarm/families"
	"github.com/schedfarm/schedfarm/runner"
	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/workload"
	"github.com/schedfarm/schedfarm/workload/swf/swftest"
)

// BenchmarkKTH simulates KTH-SP2 (28,489 jobs, 100 processors, user
// estimates, kill at the requested time) under each classic scheduler and
// seed 000's VM-tier schedulers (two tiers, §3.1 CPU usages). The
// trace is parsed once outside the timed loop (workload/swf's BenchmarkReadKTH
// times the parse). Reported: jobs/s and ns/event.
func BenchmarkKTH(b *testing.B) {
	records := swftest.Records(b, swftest.KTH)
	for _, sched := range []string{"fcfs", "easy", "cons", "sjbf", "keasy", "reasy", "measy"} {
		b.Run(sched, func(b *testing.B) {
			b.ReportAllocs()
			var res *runner.Result
			var err error
			for b.Loop() {
				res, err = runner.New(families.Builtin()).Run(runner.Config{
					Source: workload.NewSliceSource(records), Procs: 100, Scheduler: sched,
					Estimates: runner.EstimatesUser, Overrun: runner.OverrunKill,
				})
				if err != nil {
					b.Fatal(err)
				}
			}
			sec := b.Elapsed().Seconds() / float64(b.N)
			b.ReportMetric(float64(len(res.Jobs))/sec, "jobs/s")
			b.ReportMetric(sec*1e9/float64(res.Stats.Events), "ns/event")
		})
	}
}

// BenchmarkKTHModelledEstimates is BenchmarkKTH/easy with modelled user
// estimates (UserEstimates tsafrir05, automatic Tmax) drawn in every run.
// The extra memory over BenchmarkKTH/easy is the feature's (about 33 bytes
// per job); the time also differs because EASY schedules the modelled
// estimates, not KTH's own.
func BenchmarkKTHModelledEstimates(b *testing.B) {
	records := swftest.Records(b, swftest.KTH)
	b.ReportAllocs()
	var res *runner.Result
	var err error
	for b.Loop() {
		res, err = runner.New(families.Builtin()).Run(runner.Config{
			Source: workload.NewSliceSource(records), Procs: 100, Scheduler: "easy",
			Estimates: runner.EstimatesUser, UserEstimates: runner.UserEstimatesTsafrir, Seed: 1,
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(res.Estimates.AtMax)/float64(res.Estimates.Jobs), "at-Tmax")
}

// BenchmarkKTHPyss is the simulation part of the side-by-side run against
// pyss (docs/performance.md): EASY on KTH-SP2 with pyss's estimates and
// event order, the trace parsed once outside the loop.
func BenchmarkKTHPyss(b *testing.B) {
	records := swftest.Records(b, swftest.KTH)
	b.ReportAllocs()
	var res *runner.Result
	var err error
	for b.Loop() {
		res, err = runner.New(families.Builtin()).Run(runner.Config{
			Source: workload.NewSliceSource(records), Procs: 100, Scheduler: "easy",
			Estimates: runner.EstimatesPyss, Events: runner.EventsPyss,
		})
		if err != nil {
			b.Fatal(err)
		}
		res.Release()
	}
	b.ReportMetric(b.Elapsed().Seconds()*1e9/float64(b.N)/float64(res.Stats.Events), "ns/event")
}

// BenchmarkSummarizeKTH times sim.Summarize alone on BenchmarkKTHPyss's
// finished run (28,489 jobs): the aggregates `schedfarm sim` computes after
// the simulation, on one goroutine and (concurrent) on two, as runner asks
// for a one-shot run.
func BenchmarkSummarizeKTH(b *testing.B) {
	records := swftest.Records(b, swftest.KTH)
	res, err := runner.New(families.Builtin()).Run(runner.Config{
		Source: workload.NewSliceSource(records), Procs: 100, Scheduler: "easy",
		Estimates: runner.EstimatesPyss, Events: runner.EventsPyss,
	})
	if err != nil {
		b.Fatal(err)
	}
	for _, concurrent := range []bool{false, true} {
		b.Run(fmt.Sprintf("concurrent=%v", concurrent), func(b *testing.B) {
			o := sim.MetricOptions{Concurrent: concurrent}
			for b.Loop() {
				if s := sim.Summarize(res.Jobs, res.Platform, o); s != res.Summary {
					b.Fatalf("%+v, the run's %+v", s, res.Summary)
				}
			}
		})
	}
}
