// Package cpuusage assigns per-process CPU usage to jobs as seed 000 does
// (§3.1, §3.5): the process of a single-process job uses 100% of its
// processor; each process of a multi-process job uses a fraction uniform in
// [40%, 100%] (mean 70%). Params.WithMean moves the mean (§3.5.2 sets it to
// 100%), and the scheduler's view of the usage is either exact, perturbed by
// a bounded relative error, or absent ("no information", §3.5.1).
package cpuusage
