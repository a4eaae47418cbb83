// Package workload holds the job records that flow into a simulation and the
// streaming interfaces that produce them.
//
// A Job is one line of the Standard Workload Format (SWF 2.2): eighteen
// numeric fields, −1 where a value is unknown. Sub-packages read and write SWF
// (workload/swf) and generate synthetic workloads; every generator is a value
// that carries its parameters and draws from an explicit *rand.Rand, and
// every source streams jobs one at a time so that a million-job workload never
// needs a million jobs in memory.
package workload
