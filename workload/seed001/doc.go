// Package seed001 generates the multi-attribute cloud workload of seed 001
// (Table 1, §4.2–4.3): a pool of VMs with memory, processing ability and
// bandwidth, and parallel jobs whose tasks demand memory, bandwidth and a
// number of instructions, with a deadline, arriving as a Poisson process.
//
// Variant "simulation" (§4.2, Table 1), every value uniform:
//
//	VMs: 120; memory [1, 5] G; processing ability [1, 6] (1 = a standard
//	machine); bandwidth [1, 20] (×100 Mb/s).
//	Jobs: parallelism integer [1, 8]; memory [1, 5] G, bandwidth [1, 20],
//	instructions [5, 45] (standard time units on a standard machine);
//	deadline integer [1, 6] time units after arrival.
//	Arrival rate λ jobs per standard time unit (the paper sweeps it).
//
// Variant "methodological" (§4.3): 120 nodes of processing ability 24 or 48
// SP (equally likely), bandwidth [1, 10] G/s, memory unconstrained (−1);
// jobs with an input file of [1, 20] G, an instruction number [24, 240],
// deadline [1, 6], parallelism [1, 8], no memory demand (0); 40 jobs per
// time unit (a day); 10,000 jobs.
//
// How a job's tasks get their demands (Params.Tasks). §3.1: "we suppose
// the task that belongs to the same job has the same requirement", so the
// memory and bandwidth demands are drawn once per job ("the memory and the
// bandwidth of every job have the same range with the value of VMs", §4.2)
// and copied to every task. The instruction number:
//
//   - copied: drawn once per job and executed by every task — §4.2 "the
//     number of instructions of every task has a range of [5, 45]" read
//     with §3.1. The default of the simulation variant.
//   - split: "the instruction number … of the job" (§4.3(4)) is the job's
//     total, split evenly over its tasks. The default of the
//     methodological variant: it is the only reading under which 120
//     nodes can serve Table 2's finished jobs over its horizon (§4.3(5):
//     "the load of the system is low"; families/cloud.Table2Capacity).
//   - independent: every task drawn on its own (the generator before issue
//     21). §3.1 rules it out; kept only to reproduce earlier results.
//
// Job.Instructions is the job's instruction number, which SIN counts once
// per finished job (Table 2: SIN / finished jobs ≈ 109–116, one count of
// a [24, 240] draw per job).
//
// Other choices the paper leaves open: memory, speed, bandwidth and
// instructions are continuous unless Params.Integer is set; the per-task
// bandwidth demand of the methodological variant is 0 (only the input file
// moves).
package seed001
