// Package twotier implements the two-tier project/job backfilling family of
// seed 004 (Chapters 3–5): Two-tier Strict Backfilling (2TSB), Two-tier
// Flexible Backfilling with SF = 0 (2TFB) and SF > 0 (2TFB-SF), and Two-tier
// Priority Backfilling (2TPB).
//
// # Model
//
// The platform has N resource types (sim.Pool) of capacities M_i; a job needs
// q_i units of each (sim.Job.Demand) for its service time, without
// preemption. A project is the set of jobs with the same non-zero
// sim.Job.Project; they arrive together and sim.Job.Priority carries the
// project's priority pi_u. A job with Project 0 is a project of its own. The
// service time the schedulers plan with is the job's Estimate (the thesis's
// service times are exact).
//
// # Plan
//
// Plan is the reservation structure of §4.6 with the operations of Table 5
// (EarliestStartingTime, FeasibleBackfillingTimes, AddReservation,
// DeleteReservation, ShiftReservations, UpdateLatestStartingTime). Instead
// of the thesis's linked list it keeps availability in a treap over the
// breakpoints with lazy range updates and per-type subtree minima and
// maxima: adding or deleting a reservation and finding the first or last
// over-committed breakpoint of a range cost O(N log B) for N types and B
// breakpoints. earliestStartingTime still hops from one violating stretch to
// the next, and in a densely packed plan the hops grow with B (about B/10 in
// BenchmarkTimeline), so at the sizes measured (B ≤ 10,000) the naive
// sorted-slice version kept for tests (newLinearPlan) is faster by a
// constant factor; both give identical schedules (TestTreeSchedulesMatchLinear).
//
// # Choices the thesis leaves open
//
//   - Every job of a project is planned when the project arrives, in submit
//     order; jobs whose planned start is now start at once.
//   - Feasible backfilling times are the breakpoints of the plan, from now up
//     to the job's earliest starting time, at which the job fits at that
//     instant; they are tried in increasing order.
//   - While a job's project is being planned its jobs' latest starting times
//     equal their planned starts (the thesis sets them after the whole
//     project is planned, Figure 4 lines 19–22), so a project never delays
//     its own jobs.
//   - shiftReservations delays, for the first over-committed instant, the
//     reservation with the largest latest starting time among those that
//     overlap it, use an over-committed type and can still move; it goes to
//     its earliest starting time after its current start. A project counts
//     against PL when one of its jobs would now finish after its planned
//     departure (a "preempted" project, §4.1): with SF = 0 this never
//     happens, which is why the thesis calls PL zero for 2TFB.
//   - Latest starting times are fixed when the project is planned (eq. 7
//     with the departure and turn-around time planned then); later delays do
//     not extend them.
//   - 2TPB treats a project as high-priority when pi > 0 (HighPriority); the
//     priority classes of ProjectMetrics use the same rule.
//   - Planned starts are not compressed when a job ends before its estimate
//     (impossible with exact service times).
//
// # Promises
//
// Reservations (sim.Reserver) reports each waiting job's latest starting
// time: 2TFB and 2TFB-SF may move a planned start later, but never past it,
// and it never changes once set, so the shared invariant suite's "promises
// never move later" check holds for every member.
package twotier
