// Package lublin99 implements the Lublin & Feitelson (1999/2003) model of
// rigid parallel jobs (the Parallel Workloads Archive program m_lublin99):
// batch and interactive job types with their own arrival streams, a 48-bucket
// daily cycle, a two-stage-uniform log2 size distribution emphasising powers
// of two, and a hyper-gamma log-runtime whose branch probability depends on
// the size.
//
// Reference: U. Lublin and D. G. Feitelson, "The workload on parallel
// supercomputers: modeling the characteristics of rigid jobs", JPDC
// 63(11):1105–1122, 2003. Constants and algorithm follow the project's
// specification shared/specs/workload-models.md §3.
//
// Deviations from the original program, each an explicit option recorded by
// Generator.Notes:
//
//   - Clock: the original truncates its arrival clock to whole seconds after
//     each arrival and drifts ≈12 h behind the daily cycle over 100k jobs. The
//     default keeps the clock in float64 and writes ⌊T⌋; Params.LegacyClock
//     restores the truncation.
//   - Machine size: Params.Procs shifts u_med and u_hi of both types by
//     log2(P) − 7 and redraws sizes larger than P (the defaults are for P=128).
//   - Load: Params.ArrivalScale multiplies the points of every interarrival
//     (spec §3.10), keeping the daily period; Params.TargetLoad chooses the
//     scale from the analytic offered load (DefaultLoad).
//
// With Params.BitExact and a generator built on NewLegacyRand (drand48), the
// output reproduces the C program job for job (spec §3.9 golden vectors).
package lublin99
