// Package seed001 generates the multi-attribute cloud workload of seed 001
// (Table 1, §4.2–4.3): a pool of VMs with memory, processing ability and
// bandwidth, and parallel jobs whose tasks demand memory, bandwidth and a
// number of instructions, with a deadline, arriving as a Poisson process.
//
// Variant "simulation" (§4.2, Table 1), every value uniform:
//
//	VMs: 120; memory [1, 5] G; processing ability [1, 6] (1 = a standard
//	machine); bandwidth [1, 20] (×100 Mb/s).
//	Jobs: parallelism integer [1, 8]; per task memory [1, 5] G, bandwidth
//	[1, 20], instructions [5, 45] (standard time units on a standard
//	machine); deadline integer [1, 6] time units after arrival.
//	Arrival rate λ jobs per standard time unit (the paper sweeps it).
//
// Variant "methodological" (§4.3): 120 nodes of processing ability 24 or 48
// SP (equally likely), bandwidth [1, 10] G/s, memory unconstrained (−1);
// jobs with an input file of [1, 20] G, instructions [24, 240] per task,
// deadline [1, 6], parallelism [1, 8], no memory demand (0); 40 jobs per
// time unit (a day); 10,000 jobs.
//
// Choices the paper leaves open: memory, speed, bandwidth and instructions
// are continuous unless Params.Integer is set; task demands are drawn per
// task (the paper's formulas index them by task); the per-task bandwidth
// demand of the methodological variant is 0 (only the input file moves).
package seed001
