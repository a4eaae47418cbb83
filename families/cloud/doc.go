// Package cloud is seed 001's scheduler family (Wang, Hou, Hao & Wang,
// "A parallel tasks scheduling heuristic in the Cloud with multiple
// attributes", KSII TIIS 2018): a platform of VMs with memory, processing
// ability (speed) and bandwidth (and a hard disk the paper's evaluation
// leaves out), parallel jobs whose tasks have per-task demands and a job
// deadline, and five schedulers — CPLMT (the paper's), FIFO, Fair, ASJS and
// CMMS (Cloud Min-Min).
//
// Run simulates a Workload on the sim engine: the platform is one pool
// "vms" with a unit per VM, so the engine counts the VMs held and keeps
// the per-job records; which VMs a job holds, its tasks' demands and its
// deadline live in this package's side tables, keyed by job. A job's tasks
// start together, each on VMs of its own, and the job holds them all until
// its slowest task ends (gang, §1); its sim rate is set so that it lasts
// exactly that long (Cluster.SetRate).
//
// # Platform rules (every scheduler)
//
//   - A VM runs one task at a time (space-shared, §3.1).
//   - A VM can hold a task only if the task's memory, bandwidth and disk
//     demands are at most the VM's capacities (hard constraints: §3.1 "if
//     there are not enough VMs for the parallel tasks, the whole parallel
//     job cannot be finished").
//   - Task t takes instructions/speed on VM v (Table 1: instructions are
//     standard time units on a speed-1 machine), plus, in the
//     methodological cloud, the job's input file at the VM's bandwidth
//     (§4.3: G over G/s, converted to days).
//   - Deadlines are hard (§4.1 UFJ, §3.1 Check): a job is started only on
//     VMs that end every task by submit + deadline, so every started job
//     finishes in time; a waiting job is dropped (sim Rejected, with the
//     reason) at its latest start — its deadline minus the largest, over
//     its tasks, of the task's best time on any VM that can hold it —
//     after the scheduler's pass at that instant; a job no VMs can finish
//     in time is dropped on arrival (counted as infeasible). The paper's
//     "number of unfinished jobs" (UFJ) is the number dropped. This rule is
//     shared so the schedulers differ only in job order and VM choice.
//
// # Schedulers
//
// CPLMT (§3): at every pass each waiting job is classified. Algorithm 1
// counts, per task, the VMs that cannot satisfy it in processing (time >
// α · time left to the deadline — the paper's "one job with a long
// deadline, with time going, can be an urgent job"), memory (demand > β ·
// capacity) and bandwidth (> γ · capacity); formulas 8–11 take the
// largest over the tasks (jovCPU, jovMEM, jovBW). Formula 7: num is the
// number of VMs that satisfy the job's hardest task in every aspect; the
// job is a ujob when num / parallelism ≤ κ. Formulas 12–17: the job is in
// ulX when jovX > (ε, ω, η) · VMs. Fig. 3 (not reproduced in the text) is
// read as: ujobs first, then unjobs, and within each ThreeOL, TwoOL, OneOL,
// OtherL; the first class that has a job whose every task has a free VM
// ending it in time is served. Within it Algorithm 2 takes the job of
// smallest mt; formula 23 is not reproduced either, and its two stated
// rules (shorter jobs first; jobs fewer VMs satisfy first) are met by mt =
// maxminet / (1 + tovload), maxminet being Algorithm 3's value over the
// free VMs and tovload formula 22. Algorithm 3 puts each task (in index
// order) on the free VM whose time is at most maxminet and nearest to it,
// else on the nearest above it — saving fast VMs for later jobs. The pass
// repeats until no job can start. The paper's pseudo-code of Algorithm 3
// keeps a running minimum over all tasks and VMs; we follow its text
// ("the maximum value in all the minimum execution times").
//
// FIFO: jobs in arrival order, each task on the lowest-numbered free VM
// that holds it in time (first fit, ignoring VM details as §4.2 says). A
// job that cannot start now is passed over: the paper's Table 2 has FIFO
// within 1% of Fair in UFJ, which a strict queue does not give (its head,
// waiting for VMs that hold it, makes every job behind it miss its
// deadline). Parameter blocking = 1 gives the strict queue.
//
// ASJS (adaptive scoring, [21]): the same queue, each task on the free VM
// of highest score bw_weight·bandwidth/max + (1−bw_weight)·speed/max —
// "always tries to find the best resource" (§4.2); blocking as FIFO.
//
// Fair (Hadoop fair scheduler, [22]): in arrival order, each waiting job is
// offered an equal share of the idle VMs left (idle / jobs not yet
// offered); each task gets up to min(max_share, share / parallelism) VMs
// (at least one, first fit) and its instructions are split over them in
// proportion to their speeds — §4.2's "a job with the parallelism 4 … can
// share 8 VMs even 12 VMs" at low load, one VM per task at high load. Such
// a job holds all its VMs (sim.Cluster.StartShaped). A job that cannot
// start is passed over.
//
// CMMS (Min-Min, [24]): among the waiting jobs, the one that would end
// soonest with each task (in index order) on its fastest free VM starts
// there; repeat until none can start.
//
// Ties are broken by arrival order and then by the lower VM number; no
// decision depends on map order, and nothing is random.
//
// # Metrics (§4.1)
//
// Metrics: UFJ (unfinished jobs), finished jobs and their ratio, AVE (mean
// end − submit of finished jobs: "includes the waiting time"), AWT (mean
// wait of finished jobs), SIN (instructions of finished jobs), the wait and
// response distributions, VM utilisation and makespan. The paper's ratt
// (formula 28) compares CPLMT with CMMS and is computed from two cells'
// results, not within one.
package cloud
