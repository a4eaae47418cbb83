// Package stms is seed 002's family (Moon & Youn 2012): state-tracking
// migration (STMS) on failing heterogeneous resources with the aggressive
// reservation strategies IR-STMS, GB-STMS and SP-STMS, batch mapping by the
// messy GA (package ga) and Min-Min for short windows.
//
// # Platform on the engine
//
// One sim pool "resources" with one unit per resource; every job needs one
// unit. The scheduler keeps which job runs on which resource (side tables:
// Resource, Job); a job's hidden work is its actual size in flops and its
// rate the resource's speed (times the state-tracking efficiency), so the
// engine integrates progress. Failures, migrations, restarts and
// preemptions use sim's Suspend/Resume/Restart (sim/preempt.go); a failure
// is a timer the scheduler asked for (WakeAt) and handles in its pass.
//
// # Choices where the paper is silent or ambiguous (section in brackets)
//
//   - Failure law [§2.1]: eq. 1 is read as an exponential law with hazard
//     λ_j·(SDV_i − RAL_j) per second of execution while job i runs on j (0
//     when SDV ≤ RAL); the time to failure is drawn when a job starts,
//     resumes or restarts on a resource. Each job has its own PCG stream
//     (FailureSeed mixed with the job ID), so every scheme meets the same
//     draws job by job (a paired comparison). A failure stops the job, not
//     the resource: the paper's resources recover at once [§3.1].
//   - What the scheduler knows [§2.3, §5.3]: a job's size as told (Job.Size;
//     with a runtime-estimate error it differs from the actual size the
//     engine runs) and the work done so far, as the state traces record it.
//     The expected remaining work is the told size less the work done, at
//     least a tenth of the told size once a job runs past it.
//   - Dispatch [§2.3.2, Problem 2]: the mapping plans each job a start on
//     its primary resource (after the α·PET slots planned before it) and,
//     under the default Timetable, the job starts then — or later if its
//     resource is still busy. A job that ends before its slot does leaves
//     its resource idle until the next planned start even while jobs wait:
//     Problem 2's free time slots, and §3.2's inter-job delays when a job
//     leaves by migration. Eager dispatch (a resource starts its next
//     mapped job as soon as it is free) is the alternative reading; its
//     only voids are the idle time before the next cycle. Under the
//     timetable a resource is busy for about 1/α of each slot, so STMS
//     saturates near an offered load of 1/α.
//   - STMS [§2.3]: a failed job keeps its work and moves to the next
//     resource of its mGA chain (the backups the mapping reserved for it);
//     with none left it goes where it is expected to finish first: the
//     later of its arrival after the transfer and the end of the running job
//     and contenders there, plus α·PET of its remaining work (ties: shorter
//     local queue, then lower index; counted as fallbacks). The move costs
//     MigrationCost + TransferFactor·DM with DM = 8·(RJ + JD)/AB, RJ the
//     state actually left counted as 1 MB per Mflop and AB the mean of the
//     two bandwidths; the job holds no resource meanwhile. At its backup it
//     joins the contenders at the head of the local queue (after the job
//     running there). Migratable jobs pay the state-tracking overhead SO as
//     a lower rate (one trace of TraceOverhead s per TraceInterval s).
//   - IRS [§3.1]: in IR-STMS a job whose mGA chain has one resource is
//     restarted there from scratch after a failure (no tracing cost); after
//     MaxRestarts restarts it migrates instead (a guard the paper does not
//     need since it assumes recovery). Jobs GBS backfills are IRS jobs in
//     every scheme that backfills [§3.2].
//   - PET [§2.3.1, eq. 2–4]: the chain estimate sums eq. 2–3 over the
//     chain, a failure at half the stage on average (so the next stage has
//     half the size). After the last stage of a chain a failed job still
//     migrates with its state, to a resource not known at planning time:
//     taken as fast as the last stage and reached over the platform's mean
//     bandwidth, so the last stage adds P·(DM + ET/2 + SO/2). (An earlier
//     reading charged it eq. 4's lost half instead, as if the state were
//     lost; that overstated the risk of fast failing resources and made
//     the mGA's plans worse than Min-Min's end to end.) Eq. 4 sums P^f to
//     infinity (P capped at 0.99).
//   - α [Condition 1, §5.3]: the overestimation factor is used twice, as
//     in the paper: planned runtimes are α·PET (so under the timetable a
//     larger α leaves more of each slot idle), and a mapping in which a
//     job's PET exceeds α × its demanded flow time (deadline − submit)
//     violates Condition 1 and costs a finite penalty in the mGA fitness.
//   - Batches and cycles [§4.4, Table 2]: a cycle every Interval (1 h);
//     also at once when Batch jobs are ready and nothing runs, waits or
//     moves. A cycle maps the ready jobs in submit order, Batch at a time
//     by the mGA (fewer by Min-Min: the sliding window), while some
//     resource is expected (α·PET) to be free before the next cycle; the
//     rest wait for later cycles.
//   - mGA [§4]: genes (job, resource) of the batch; chains are cut at
//     MaxChain; the Min-Min mapping seeds the population and is the
//     template that completes a genome missing a job (Goldberg's
//     competitive template). Objectives of a mapping: the makespan (latest
//     expected free time of any resource, backlog included) and average
//     utilisation (expected busy resource-seconds from now over resources ×
//     makespan) of eq. 7, 1 − IJF with the batch's jobs grouped by primary
//     resource (eq. 9 "within a batch"), Condition 1 violations as the
//     penalty. The utilisation can instead weigh each resource by its speed
//     (parameter utilization: capacity); and a weight φ on the batch's mean
//     expected completion time can be added (parameter phi; 0 = eq. 10).
//     Evaluations read tables of ET, SO and P per job, resource and chain
//     stage filled once per batch (planner.load), so the GA's inner loop
//     computes no exponential and allocates nothing.
//   - GBS [§3.2]: a void is an idle resource's time until the job reserved
//     next there — the planned start of its queue's head or the arrival of
//     a migrant heading for it — or, with nothing reserved, until the next
//     cycle. The ready job with the smallest α·PET_IRS × demanded flow time
//     (WSEPT with weight 1/demanded flow time) whose α·PET_IRS fits the void
//     (Condition 2: it fits and does not delay the reserved job) starts
//     there; one job per void and pass, in resource order.
//   - SPS [§3.3, eq. 5–6]: when a migrant reaches a busy backup, PP(J_m) =
//     (t_w + t_r^m)/t_r^m with t_w its waiting so far plus t_r^p, PP(J_p) =
//     (t_r^m + t_r^p)/t_r^p, remaining times by PET; J_m preempts when PF =
//     PP(J_m)/PP(J_p) > c unless that makes J_p miss a deadline it would
//     meet. A loser waits at the head of the queue and is compared again
//     every Slot seconds (its PP grows as it waits), so two jobs can
//     alternate; the preempted job keeps its state and has no transfer cost
//     (it stays on the resource). Preemption only concerns migrants at a
//     busy backup: a few dozen of thousands of jobs, and the deadline a
//     migrant meets by preempting is usually paid by the job it preempts.
//
// # What the mGA does (findings)
//
// The GA-effect benchmark (BenchmarkGAEffect) shows the mGA improving eq.
// 10 over every batch of a run; seed002-ga.yaml measures it end to end
// against generations 0. Three findings shaped the defaults. The planned
// makespan is nearly flat: Min-Min is within about 1% of what a local
// search reaches, and in a third of batches the makespan is held by an
// earlier backlog. Eq. 7's utilisation in resource-seconds therefore
// decides most of the search, and it rewards placing jobs on slow
// resources that Min-Min leaves idle — spreading the load, which shortens
// waits; weighing resources by speed removes that pull and makes the GA's
// schedules worse than Min-Min's. With the old chain-end PET the GA moved
// jobs onto fast, failing resources whose risk it overstated elsewhere and
// failures rose by a third.
//
// # Metrics [§5]
//
// Scheduler.Metrics: makespan, throughput (jobs/h), utilisation (busy time,
// wasted runs included, over resources × makespan), JFR (share of jobs
// late), IJF (eq. 9 over dispatch groups: each mGA batch, each Min-Min
// window and each cycle period's backfills), cost overhead (eq. 11 with
// F_c(t) = √(t/1 h) of each used resource's last completion), cost
// effectiveness (eq. 12 against the STMS run of the same cell, which the
// runner supplies), the offered load, counts of failures, migrations,
// fallbacks, restarts, preemptions, backfills, batches and Condition 1
// violations, the mGA's planned-makespan gain over its template, mean
// migration delay, and wait/response distributions.
package stms
