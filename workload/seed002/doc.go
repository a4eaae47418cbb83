// Package seed002 generates the workload of seed 002 (state-tracking
// migration; Table 2, Table 3, §2.1, §5): heterogeneous resources and jobs
// with deadlines arriving at a mean rate.
//
// From the paper: resource availability (speed) 100–500 flops/s; average
// bandwidth 10–50 Mbps; job size 0.1–1 Mflops; job data size 300–1,000 MB;
// mean arrival rate 1.67 jobs/s; 30–50 resources and 2,000–10,000 jobs
// (4,000 and 30 for the lifetime study). Lifetime classes (Table 3): the
// short:long ratio 8:2, 5:5 or 2:8, with short jobs below 0.15 Mflops and
// long ones in [0.85, 1] Mflops. §2.1: a job carries a service demand value
// SDV, a resource an availability level RAL and a failure coefficient λ;
// P_fail = 1 − e^(−λ·t·(SDV − RAL)) when SDV > RAL.
//
// Arrival regimes: read literally (Literal), 1.67 jobs/s is 60–100 times
// what the resources can serve, so a run only drains a backlog and almost
// every job misses its deadline under every scheme; Calibrated reads the
// rate per minute, which matches the paper's other numbers (two batches of
// 50 per one-hour cycle, offered load about 1 on 50 resources). Load sets
// the rate from a target offered load instead (rate × MeanSize / Σ speed of
// the drawn resources); interarrival times are one exponential draw each,
// scaled by the rate, so runs that differ only in rate, regime or load see
// the same jobs, arriving faster or slower.
//
// Assumptions (the paper gives no values; all are parameters): every range is
// uniform; arrivals are Poisson; SDV and RAL are uniform in [0, 1]; λ is
// uniform in [1e-5, 1e-4] per second; a job's deadline is its submit time
// plus a slack factor uniform in [1.5, 3] times its size divided by the mean
// resource availability (Condition 1 bounds the pessimistic runtime by α =
// 1.75 times the demanded flow time, so slack around α is the natural
// scale); short jobs are uniform in [0.1, 0.15) Mflops.
package seed002
