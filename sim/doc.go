// Package sim is schedfarm's discrete-event simulation engine: the event
// queue, the platform model, the job lifecycle and the metrics. It does no I/O
// and knows no concrete scheduler.
//
// # Events
//
// One goroutine pops events in (time, class, sequence) order. At one instant
// the classes run in this documented order:
//
//	ClassEnd      job completions and kills (resources are released first)
//	ClassFailure  resource failures and repairs
//	ClassArrival  job submissions
//	ClassLateEnd  job completions under Options.PerEvent (pyss's order)
//	ClassTimer    wake-ups a scheduler asked for
//	ClassPass     the scheduling pass: one per instant at which anything happened
//
// so a job that ends at t frees its processors before a job that arrives at t
// is considered, and the scheduler sees the whole instant at once. Events are
// cancellable (Queue.Cancel), which is how a completion moves when a job's
// progress rate changes.
//
// # Jobs and progress
//
// A Job carries what a scheduler may see (submit time, demand, estimate) and,
// unexported, what only the engine knows: its actual work. A running job
// progresses at a rate (1 on a dedicated processor); rates change only at
// events, so progress is integrated analytically between them and the
// completion event is rescheduled when a rate changes (Cluster.SetRate). This
// is what later platforms (tiers of VMs sharing a processor, nodes of varying
// speed and availability) build on. A job may also carry a wall-clock limit
// after which the engine kills it.
//
// Lifecycle: Submitted → Queued → Running → Finished | Killed, or
// Submitted/Queued → Rejected (with a reason). Every job ends in one of the
// three final states; Run returns an error instead of hanging if a scheduler
// leaves jobs waiting with nothing left to happen.
//
// # Platform
//
// A Platform is a set of typed resource pools (Pool): the classic machine is
// one pool "procs" of P identical processors; seed 004's cloud is N pools of
// typed resources. A job's Demand has one entry per pool. The engine never lets
// the units in use exceed a pool's capacity, including at an instant where one
// job ends and another starts.
//
// A tiered platform (Platform.Tiers > 1, seed 000) splits every processor into
// VMs with strict CPU priority, tier 0 first. Jobs are placed on explicit
// processors of a tier (Cluster.StartOn) and may be relocated (Cluster.Relocate:
// a swap of priorities, a migration that keeps progress after a pause, or a
// kill and restart). Whenever the occupants of a processor change, the engine
// asks the platform's Sharing model for the speed of every process there and
// runs each job at the speed of its slowest process; which VM is busy is
// enforced per processor and tier. Each process has a CPU usage: the actual one
// is hidden from schedulers (Job.SetCPU), the estimate is Job.CPUEstimate. On
// such a platform a job's limit counts dedicated-processor time, and slowdowns
// divide by the time served (Job.Served), not by the stretched wall time.
//
// # Schedulers
//
// A Scheduler has one method, Pass, called once per instant with the jobs that
// arrived and ended at that instant. Through the Cluster it sees the time, the
// free capacity and the running jobs, and it acts: Start, Reject, WakeAt.
// "Cannot start now" is the normal outcome of a pass, not an error; a
// scheduler that cannot go on (an external one that crashed) calls Abort.
package sim
