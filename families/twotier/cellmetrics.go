package twotier

import (
	"github.com/schedfarm/schedfarm/family"
	"github.com/schedfarm/schedfarm/sim"
)

// cellMetrics lists a project cell's metrics in a fixed order (they become
// Parquet columns):
//
//	jobs, finished, rejected, backfilled
//	wait_{mean,median,p95,max}, response_…, slowdown_…, bsld_…
//	utilization, makespan
//	projects, projects_rejected, pta, jta, project_wait_mean, project_run_mean
//	projects_high, pta_high, projects_low, pta_low  (only for a non-empty class)
//
// pta is the mean project turn-around time (eq. 6), jta the mean job
// turn-around time (eq. 8); the priority classes are those of HighPriority.
func cellMetrics(s sim.Summary, p Metrics) []family.Metric {
	type m = family.Metric
	ms := []m{
		{Name: "jobs", Value: float64(s.Jobs)},
		{Name: "finished", Value: float64(s.Finished)},
		{Name: "rejected", Value: float64(s.Rejected)},
		{Name: "backfilled", Value: float64(s.Backfilled)},
	}
	ms = family.AppendDistMetrics(ms, s)
	ms = append(ms,
		m{Name: "utilization", Value: s.Utilization},
		m{Name: "makespan", Value: s.Makespan},
		m{Name: "projects", Value: float64(p.Projects)},
		m{Name: "projects_rejected", Value: float64(p.Rejected)},
		m{Name: "pta", Value: p.PTA},
		m{Name: "jta", Value: p.JTA},
		m{Name: "project_wait_mean", Value: p.Waiting},
		m{Name: "project_run_mean", Value: p.Running})
	if p.High > 0 {
		ms = append(ms, m{Name: "projects_high", Value: float64(p.High)}, m{Name: "pta_high", Value: p.HighPTA})
	}
	if p.Low > 0 {
		ms = append(ms, m{Name: "projects_low", Value: float64(p.Low)}, m{Name: "pta_low", Value: p.LowPTA})
	}
	return ms
}

// cellMetricNames lists every name cellMetrics can use, in order.
func cellMetricNames() []string {
	ms := cellMetrics(sim.Summary{}, Metrics{High: 1, Low: 1})
	names := make([]string, len(ms))
	for i, m := range ms {
		names[i] = m.Name
	}
	return names
}
