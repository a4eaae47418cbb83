package ktier_test

import (
	"testing"

	"github.com/schedfarm/schedfarm/families"
	"github.com/schedfarm/schedfarm/runner"
	"github.com/schedfarm/schedfarm/workload"
	"github.com/schedfarm/schedfarm/workload/swf/swftest"
)

// BenchmarkKTHCMBF simulates KTH-SP2 (28,489 jobs, 100 processors, user
// estimates, seed 000's CPU usages) under CMBF with K = 4 VMs per node and
// under MEASY (two tiers), the yardstick: CMBF within 3× of
// MEASY's time. Reported: jobs/s and ns/event.
func BenchmarkKTHCMBF(b *testing.B) {
	records := swftest.Records(b, swftest.KTH)
	for _, c := range []struct {
		name, sched string
		params      map[string]any
	}{{"measy", "measy", nil}, {"cmbf-k4", "cmbf", map[string]any{"k": 4}}, {"cmbf-k2", "cmbf", map[string]any{"k": 2}}, {"cmbf-k1", "cmbf", map[string]any{"k": 1}}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			var res *runner.Result
			var err error
			for b.Loop() {
				res, err = runner.New(families.Builtin()).Run(runner.Config{
					Source: workload.NewSliceSource(records), Procs: 100, Scheduler: c.sched, SchedulerParams: c.params,
					Estimates: runner.EstimatesUser, Overrun: runner.OverrunKill, Seed: 1,
				})
				if err != nil {
					b.Fatal(err)
				}
			}
			sec := b.Elapsed().Seconds() / float64(b.N)
			b.ReportMetric(float64(len(res.Jobs))/sec, "jobs/s")
			b.ReportMetric(sec*1e9/float64(res.Stats.Events), "ns/event")
			b.ReportMetric(res.Summary.Utilization, "util")
			b.ReportMetric(res.Summary.BSLD.Mean, "bsld")
		})
	}
}
