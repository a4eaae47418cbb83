// Package jwload is "JWload": a calibrated stand-in for the Jann et al. 1997
// workload model of the CTC SP2 ("Modeling of workload in MPPs", JSSPP 1997,
// LNCS 1291:95–116) as used by seed 000 (Table 1, §3.1).
//
// Jann's parameter table was not available. This package implements the
// published structure — for each size range (1, 2, 3–4, 5–8, 9–16, 17–32,
// 33–64, 65–128, 129–256, 257–P) a renewal arrival stream whose interarrival
// times, and a service time, follow hyper-Erlang distributions of common
// order; the streams are merged by time — and calibrates it to the figures
// seed 000 publishes for its 320-processor machine:
//
//   - job-size histogram of Table 1 (=1 40.8%, =2 7.4%, (2,4] 12.2%,
//     (4,8] 10.9%, (8,16] 13.6%, (16,32] 7.9%, (32,64] 5.2%, (64,128] 1.4%,
//     >128 0.7%): each range's arrival rate is its share of the total (the
//     >128 share is split between 129–256 and 257–P by range width);
//   - mean parallelism 10.5: within a range the size is drawn ∝ n^−a, with
//     a = 0.7645 calibrated to give 10.5 on 320 processors (a = 0 is uniform);
//   - mean runtime 11267.0 s: every range's service-time mean is this value
//     (Jann's per-range means are unknown, so no size–runtime correlation is
//     invented).
//
// The hyper-Erlang shapes (order and coefficient of variation, balanced
// means) are assumptions exposed as parameters. The default arrival rate is
// Jann's data set's: 17,440 jobs in 79 days, a mean interarrival of 391.4 s.
// It is not Jann's fitted model; it reproduces those marginal statistics.
package jwload
