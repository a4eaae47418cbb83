// Package seed004 generates the two-tier project workload of seed 004
// (Table 6, Chapter 5): projects arrive with exponential interarrival times
// (mean adjustable to set the load); each holds ⌊Normal(5, 2)⌋ jobs (at least
// 1); a job has an Exp(mean 500) service time and, for each of N = 5 resource
// types, a requirement ⌊Exp(mean 2.0)⌋ capped at the type's capacity; the
// capacities are drawn once, uniformly in [20, 40].
//
// Choices the paper leaves open, documented here: capacities are integers
// uniform on {20, …, 40}; the first project arrives after one interarrival
// time (a Poisson process from 0); a requirement may be 0 for some or all
// types (the paper allows 0 ≤ q ≤ M); service times are not rounded; "1/5 of
// the projects are high-priority" (Figures 11–12) is read as each project
// being high-priority (pi = 1) independently with probability HighPriority,
// drawn from a stream separate from the projects', so that sweeping the
// fraction or the interarrival time keeps the same projects.
package seed004
