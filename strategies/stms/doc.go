// Package stms is seed 002's family (Moon & Youn 2012): state-tracking
// migration (STMS) on failing heterogeneous resources with the aggressive
// reservation strategies IR-STMS, GB-STMS and SP-STMS, batch mapping by the
// messy GA (package ga) and Min-Min for short windows.
//
// # Platform on the engine
//
// One sim pool "resources" with one unit per resource; every job needs one
// unit. The scheduler keeps which job runs on which resource (side tables:
// Resource, Job); a job's hidden work is its size in flops and its rate the
// resource's speed (times the state-tracking efficiency), so the engine
// integrates progress. Failures, migrations, restarts and preemptions use
// sim's Suspend/Resume/Restart (sim/preempt.go); a failure is a timer the
// scheduler asked for (WakeAt) and handles in its pass.
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
//   - STMS [§2.3]: a failed job keeps its remaining size and moves to the
//     next resource of its mGA chain, else to the most capable other
//     resource (speed × probability of finishing there without failure).
//     The move costs DM = 8·(RJ + JD)/AB seconds with RJ counted as 1 MB
//     per Mflop and AB the mean of the two bandwidths; the job holds no
//     resource meanwhile. At its backup it joins the contenders at the head
//     of the local queue (after the job running there). Migratable jobs pay
//     the state-tracking overhead SO as a lower rate (one trace of
//     TraceOverhead s per TraceInterval s of execution).
//   - IRS [§3.1]: in IR-STMS a job whose mGA chain has one resource is
//     restarted there from scratch after a failure (no tracing cost); after
//     MaxRestarts restarts it migrates instead (a guard the paper does not
//     need since it assumes recovery). Jobs GBS backfills are IRS jobs in
//     every scheme that backfills [§3.2].
//   - PET [§2.3.1, eq. 2–4]: the chain estimate sums eq. 2–3 over the
//     chain, a failure at half the stage on average (so the next stage has
//     half the size); the last stage of a chain is charged eq. 4's single
//     waste. Eq. 4 sums P^f to infinity (P capped at 0.99).
//   - α [Condition 1, §5.3]: the overestimation factor is used twice, as
//     in the paper: planned runtimes are α·PET (a larger α leaves more of
//     the interval idle when jobs end early), and a mapping in which a job's
//     PET exceeds α × its demanded flow time (deadline − submit) violates
//     Condition 1 and costs a finite penalty in the mGA fitness.
//   - Batches and cycles [§4.4, Table 2]: a cycle every Interval (1 h);
//     also at once when Batch jobs are ready and nothing runs, waits or
//     moves. A cycle maps the ready jobs in submit order, Batch at a time
//     by the mGA (fewer by Min-Min: the sliding window), while some
//     resource is expected (α·PET) to be free before the next cycle; the
//     rest wait for later cycles. A resource runs its local queue in the
//     mapping's order and idles when it is empty (Problem 2), except under
//     GBS.
//   - mGA [§4]: genes (job, resource) of the batch; chains are cut at
//     MaxChain; the Min-Min mapping seeds the population and is the
//     template that completes a genome missing a job (Goldberg's competitive
//     template). Objectives of a mapping: makespan and utilisation of the
//     expected free times, 1 − IJF with the batch's jobs grouped by primary
//     resource (eq. 9 "within a batch"), Condition 1 violations as the
//     penalty.
//   - GBS [§3.2]: when a resource is idle with nothing queued, its void
//     lasts until the next cycle or the arrival of a migrant heading for it;
//     the ready job with the smallest α·PET_IRS × demanded flow time (WSEPT
//     with weight 1/demanded flow time) whose α·PET_IRS fits the void
//     (Condition 2) starts there; one job at a time, in resource order.
//   - SPS [§3.3, eq. 5–6]: when a migrant reaches a busy backup, PP(J_m) =
//     (t_w + t_r^m)/t_r^m with t_w its waiting so far plus t_r^p, PP(J_p) =
//     (t_r^m + t_r^p)/t_r^p, remaining times by PET; J_m preempts when PF =
//     PP(J_m)/PP(J_p) > c unless that makes J_p miss a deadline it would
//     meet. A loser waits at the head of the queue and is compared again
//     every Slot seconds (its PP grows as it waits), so two jobs can
//     alternate; the preempted job keeps its state and has no transfer cost
//     (it stays on the resource).
//
// # Metrics [§5]
//
// Scheduler.Metrics: makespan, throughput (jobs/h), utilisation (busy time,
// wasted runs included, over resources × makespan), JFR (share of jobs
// late), IJF (eq. 9 over dispatch groups: each mGA batch, each Min-Min
// window and each cycle period's backfills), cost overhead (eq. 11 with
// F_c(t) = √(t/1 h) of each used resource's last completion), counts of
// failures, migrations, restarts, preemptions, backfills, batches and
// Condition 1 violations, mean transfer time, and wait/response
// distributions. Cost effectiveness (eq. 12) compares a scheme with STMS
// and is left to the report (-baseline stms).
package stms
