// Package classic implements the classic space-sharing schedulers on
// identical processors (or any set of counted resource pools): FCFS, EASY
// (aggressive) backfilling, conservative backfilling (CONS), SJBF and a
// general reservation depth k.
//
// They are one algorithm, Backfill, configured by three choices:
//
//	Depth       how many waiting jobs hold a reservation (0 none, 1 the
//	            queue head as in EASY, Unlimited every job as in CONS)
//	Backfill    whether jobs without a reservation may start early when they
//	            delay no reservation
//	Candidates  the order in which such jobs are tried (submit order, or
//	            shortest estimate first for SJBF)
//
//	fcfs   Depth 1, no backfilling
//	easy   Depth 1, backfilling in submit order
//	sjbf   Depth 1, backfilling shortest estimate first
//	cons   Depth Unlimited
//	depth  Depth k, backfilling in submit order
//
// Reservations are persistent and kept in an availability profile (package
// profile) together with the running jobs until their expected ends
// (start + estimate). A job is given its reservation when it gets a
// reservation slot (for CONS: on arrival, at the earliest start that delays
// no existing reservation, Mu'alem & Feitelson 2001). When a job ends before
// its estimate, the reserved jobs are compressed in submit order: each is
// removed and re-placed at its earliest start, which is never later than
// before (its old place is still free). So no reservation is ever delayed.
package classic
