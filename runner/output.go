package runner

import (
	"fmt"
	"strconv"

	"github.com/schedfarm/schedfarm/family"
	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/workload"
	"github.com/schedfarm/schedfarm/workload/swf"
)

// Metrics returns the run's metrics in a fixed order:
//
//	jobs, measured, finished, killed, rejected, dropped, altered, backfilled
//	wait_{mean,median,p95,max}, response_…, slowdown_…, bsld_…  (seconds / ratios)
//	utilization, makespan, offered_load, load_factor
//	migrations, restarts, swaps  (relocations on VM tiers; 0 elsewhere)
//
// followed by the scheduler's own (Result.Extra, family.MetricReporter:
// CMBF's suspensions), which other schedulers do not have.
func (r *Result) Metrics() []family.Metric {
	s := r.Summary
	ms := []family.Metric{
		{Name: "jobs", Value: float64(s.Jobs)},
		{Name: "measured", Value: float64(s.Measured)},
		{Name: "finished", Value: float64(s.Finished)},
		{Name: "killed", Value: float64(s.Killed)},
		{Name: "rejected", Value: float64(s.Rejected)},
		{Name: "dropped", Value: float64(r.Adjust.Dropped())},
		{Name: "altered", Value: float64(r.Adjust.Altered())},
		{Name: "backfilled", Value: float64(s.Backfilled)},
	}
	ms = family.AppendDistMetrics(ms, s)
	ms = append(ms,
		family.Metric{Name: "utilization", Value: s.Utilization},
		family.Metric{Name: "makespan", Value: s.Makespan},
		family.Metric{Name: "offered_load", Value: r.OfferedLoad},
		family.Metric{Name: "load_factor", Value: r.LoadFactor},
		family.Metric{Name: "migrations", Value: float64(s.Migrations)},
		family.Metric{Name: "restarts", Value: float64(s.Restarts)},
		family.Metric{Name: "swaps", Value: float64(s.Swaps)})
	return append(ms, r.Extra...)
}

// MetricNames returns the names Metrics uses for every scheduler, in order
// (without the extra metrics of some schedulers: families.Catalog.ExtraMetricNames).
func MetricNames() []string {
	ms := (&Result{}).Metrics()
	names := make([]string, len(ms))
	for i, m := range ms {
		names[i] = m.Name
	}
	return names
}

// ScheduleRecord returns job i of the run as an SWF record of the simulated
// schedule: the original record with wait (field 3), the time actually run
// (4), the allocated processors (5), the estimate used (9) and the status
// (11: 1 finished, 0 killed, 5 rejected — with wait and runtime −1) replaced.
//
// It needs the run's records: a run of a runner WithoutRecords has none,
// and ScheduleRecord panics.
func (r *Result) ScheduleRecord(i int) workload.Job {
	j, rec := r.Jobs[i], r.Records[i]
	rec.Submit = j.Submit
	rec.ReqTime = j.Estimate
	rec.AllocProcs = int64(j.Procs())
	switch j.State() {
	case sim.Rejected:
		rec.Wait, rec.RunTime, rec.Status = workload.Unknown, workload.Unknown, 5
	case sim.Killed:
		rec.Wait, rec.RunTime, rec.Status = j.Wait(), j.Ran(), 0
	default:
		rec.Wait, rec.RunTime, rec.Status = j.Wait(), j.Ran(), 1
	}
	return rec
}

// WriteSchedule writes the simulated schedule as SWF to path (gzip when it
// ends in .gz), with a header naming the run.
func (r *Result) WriteSchedule(path string) error {
	if r.Records == nil && len(r.Jobs) > 0 {
		return fmt.Errorf("%s: the run kept no SWF records to write the schedule from (a runner WithoutRecords)", path)
	}
	h := r.Header.Clone()
	h.AddComment(fmt.Sprintf("schedfarm simulated schedule: scheduler=%s estimates=%s overrun=%s procs=%d (%s)",
		r.Config.Scheduler, r.Config.Estimates, r.Config.Overrun, r.Platform.Pools[0].Capacity, r.ProcsSource))
	if _, ok := h.Get(swf.KeyMaxProcs); !ok {
		h.Set(swf.KeyMaxProcs, strconv.Itoa(r.Platform.Pools[0].Capacity))
	}
	w, err := swf.Create(path, h)
	if err != nil {
		return err
	}
	if err := w.WriteFunc(len(r.Jobs), r.ScheduleRecord); err != nil {
		w.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	return w.Close()
}
