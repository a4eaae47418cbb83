// Package tune searches an experiment's parameter space with a genetic
// algorithm (github.com/MaxHalford/eaopt) whose every evaluation is farm
// cells: `schedfarm tune spec.yaml`.
//
// # Spec
//
// A tune spec names a base experiment (an experiment spec's platform,
// workload, one scheduler, fixed grid points as axes, replications and
// seed), the search space (continuous and integer ranges, categorical
// lists; the scheduler itself may be one), the objective (a metric's mean
// over the grid points and replications, minimised or maximised),
// constraints such as `utilization >= 0.8`, an optional second objective
// (its Pareto front is reported), the algorithm and its budget, and a
// confirmation run. Every problem of a spec is reported at once, each with
// its line and field; the search space is validated by building trial
// experiments at its bounds, so a parameter that does not apply to the
// scheduler or the model, or a bound out of range, is an error before
// anything runs.
//
// The fields:
//
//	name: tune-depth                  # enters every cell ID and seed
//	base:                             # an experiment spec without name and output
//	  platform: {procs: 128}
//	  workload: {...}
//	  schedulers: [depth]             # one (the search may vary it)
//	  axes: [{param: workload.load, values: [0.7, 0.9]}]  # fixed grid points
//	  replications: 3
//	  seed: 1
//	search:
//	  - {param: scheduler.k, int: [0, 32]}
//	  - {param: scheduler.threshold, float: [0.5, 1.0]}
//	  - {param: scheduler, choices: [depth, easy]}
//	  - {param: scheduler.depth.k, int: [0, 8]}   # applies to depth's cells only
//	  - {param: scheduler.delta, float: [0, 1], complement: scheduler.omega}
//	objective: {metric: wait_mean, goal: minimize}  # mean over points and replications
//	constraints: ["utilization >= 0.8"]
//	second: {metric: bsld_mean, goal: minimize}     # optional: Pareto front
//	algorithm: {name: ga, population: 8, generations: 5, budget: 40}
//	confirm: {replications: 10}       # the best again, fresh seeds, and the base as written
//	race: {min: 2, max: 10, alpha: 0.05, indifference: 1%, final: 20, elite: 3}  # optional: race each generation (below)
//	output: tune-depth.parquet        # per-cell results; evaluations in tune-depth.evals.parquet
//
// # Evaluations are farm cells
//
// A genome (one value per search parameter) becomes the base experiment's
// cells with those values: one per grid point and replication. Every
// searched parameter is a common-random-numbers parameter of its cells
// (runner.Cell.CRN, out of the seed), so a cell's seed comes from its
// grid point and replication only — never from the genome — and every
// genome of every generation meets the same workloads: differences are the
// parameters'. IDs and seeds are derived by experiments.CellID and CellSeed
// from the cell's own parameters, base seed and CRN names, as a worker
// re-derives them before it runs a cell. A cell's ID covers its parameters,
// so identical genomes are the same cells: evaluated once (the search keeps
// a cache of genomes, the runner one of cells). A generation's new cells are
// published together and the generation waits for them: every generation is
// one run of a coordinator.Session that the runner opens at its first cells
// and keeps for the whole tune, so the streams, the object store and the
// experiment's durable consumers are looked up and created once, not once
// a generation; each generation's results are still fsynced (the journal)
// before they are acked.
// An evaluation has at most MaxEvalCells cells.
//
// # Determinism and resumption
//
// The search draws from PCG(seed) only (eaopt takes a *math/rand.Rand: a
// PCG from math/rand/v2 behind it), never from the wall clock, and an
// evaluation depends only on its cells' results, which are deterministic;
// so the same spec gives the same search on one worker or many. The
// per-cell results are journalled; rerunning a killed tune replays the
// search from the start, taking every finished cell from the journal, and
// continues where it stopped with the same result as an uninterrupted run.
//
// # Algorithms
//
// All three run on eaopt's GA driver (populations, sorting, hall of fame,
// early stop) with a model of this package that evaluates a generation's
// genomes together as one batch of cells, on the genome's [0, 1]^d encoding
// (a Float gene maps linearly to [lo, hi], an Int gene to one of the hi −
// lo + 1 integers in equal slices, a Choice gene to one of k choices):
//
//   - "ga": elitism (the best is kept), tournament selection of 3, uniform
//     crossover with probability p_cross (0.7), Gaussian mutation of each
//     gene with probability p_mut (0.3) and deviation sigma (0.2).
//   - "de": differential evolution, DE/rand/1/bin: a trial x_a + f·(x_b −
//     x_c) crossed gene by gene with probability cr (defaults f 0.8, cr
//     0.9); a trial replaces its parent when no worse.
//   - "pso": particle swarm (inertia weight w 0.7, coefficients c1 and c2
//     1.5, velocities bounded to ±0.5).
//
// eaopt's own GA model evaluates genomes one by one inside its loop and
// keeps the second child of a crossover unevaluated, and its DiffEvo and
// SPSO helpers minimise a func([]float64) float64 called once per agent:
// neither can hand a generation to the farm as one batch, so the three
// models are this package's, through eaopt's public Model interface.
// Infeasible genomes (a constraint violated or a cell failed) get a finite
// penalty, never ±Inf.
//
// The budget, when given, counts distinct genomes and is never exceeded: a
// generation's genomes past it are replaced by genomes already evaluated.
// A search also stops after 25 generations without a new genome (a
// converged population).
//
// # Racing
//
// Without race every genome gets the base's replications. With race: {min,
// max, alpha} (defaults 2, base.replications, 0.05; min ≥ 2, max ≥ min,
// alpha in (0, 0.5]; base.more_replications is refused) each
// generation's evaluation is a race, after irace (López-Ibáñez et al.
// 2016, iterated racing): the candidates are the generation's new
// distinct genomes, its genomes evaluated before and never eliminated, and
// the incumbent (the best evaluation so far, never eliminated). Round
// after round, r = min, min + 1, …, max, every surviving candidate gets
// the replications it lacks up to r at every grid point — only those new
// cells are published, as one batch: replication indices the candidate
// has not run, with the seeds of the grid point and replication (CRN,
// the same for every candidate and the same cells as a non-racing tune's
// first replications), so a replication is never asked for twice. After
// each round:
//
//   - the round's best is the survivor of lowest fitness over the first r
//     replications, which every survivor has (feasible ones first; ties:
//     the incumbent, then the batch's order);
//   - every other survivor's paired differences to it — of the objective,
//     as minimised, per grid point and replication (points: mean) or per
//     replication of the aggregate over the points (max, min) — get a
//     one-sided paired t test, H₀: not worse (stats.Sample.Greater(0));
//   - Holm's step-down procedure (stats.Holm) across the survivors
//     compared in that round, at family-wise level alpha, eliminates those
//     it rejects.
//
// With an indifference zone (indifference: δ, or P% of the round's best's
// objective) each compared survivor also gets H₀: |μ| ≥ δ, tested by two
// one-sided t tests (stats.Sample.Within(−δ, δ), the claims judge's
// equivalence test), and Holm's procedure runs over the round's
// hypotheses of both kinds at once (family-wise level alpha for all a
// round decides). A survivor decided equivalent to the best is stopped,
// not eliminated: whichever of the two is chosen, the objective differs
// by less than δ. It keeps the replications it got; a later race (bred
// again) runs it on from there. It is never the search's best nor the
// incumbent: its mean over fewer replications would win by noise.
//
// The race ends after the round at max, or as soon as one candidate is
// left. The statistics are package stats', the claims judge's: the same t
// test and the same Holm. Paired t with Holm, not Friedman with post-hoc
// tests (irace's default): the objective is a mean over replications and
// the differences are paired by common random numbers, so the t test
// tests exactly the difference of the objectives the search compares,
// while Friedman's ranks (across candidates, per replication) test a
// difference of rank sums that can disagree with the means and, with two
// to five candidates a round and a handful of replications, has little
// power; Holm controls the family-wise error whatever the dependence
// between the comparisons (they share the best). One more replication a
// round rather than doubling: a candidate is tested as soon as one more
// replication could decide it, so it is dropped after the fewest cells;
// a round is a batch, so racing trades cells for batches (max − min + 1
// at most per generation).
//
// A raced genome's evaluation is over the replications it got: its
// objective, CI, constraints and fitness are the mean over them, for the
// algorithm as for the table; an eliminated genome keeps the fitness of
// the replications it had when eliminated (it was decided worse than the
// round's best, so its noisier mean rarely makes it a parent) and is never
// raced again (a later generation that breeds it again takes it from the
// cache). Constraints still apply: an infeasible genome's fitness carries
// the penalty, the best of a round is feasible when any survivor is, and
// the search's best is the feasible genome of lowest fitness never
// eliminated. A genome run further by a later race has its fitness
// updated in the population (GA and DE; a PSO particle keeps the
// personal best it recorded). The budget still counts distinct genomes.
// Races are deterministic functions of the cells' results, so a killed
// racing tune replays like any other: every round's cells come from the
// journal until the first round not finished.
//
// With race.final: F (> max) a final race of the elite follows the last
// generation (the "or a final race of the elite"): the
// race.elite best distinct genomes never eliminated (feasible first, then
// fitness; default ⌊2 + log₂ d⌋ for d searched parameters, irace's
// number of a race's survivors) race on with the same rule in rounds r =
// max + 1, …, F (the rounds up to max were the generations'), and the
// winner — the last
// left, or the survivor of lowest fitness over F — is the search's best.
// The generations then race cheaply to max, and only the genomes that can
// still be the answer get F replications; a genome outside the elite,
// whose mean is over at most max, is never the best however low it is
// (the winner's curse). Its eliminations are recorded as of the
// generation after the last.
//
// # Results
//
// Besides the ordinary per-cell Parquet file, an evaluations table
// (<output>.evals.parquet): one row per evaluation with its generation and
// index, every parameter as a typed column, the objective with its 95% CI,
// the constraint values, the second objective and every metric's mean and
// CI; then a confirmation of the best genome with fresh seeds and more
// replications (no winner's curse). A racing tune's table also has, per
// evaluation, the replications it got and, for a genome a race
// eliminated, the generation of that race (the last + 1: the final race),
// its round, the test
// (paired-t-holm) and the test's p-value before Holm (null otherwise),
// and with an indifference zone, for a genome its last race stopped as
// equivalent, that race's generation and round and the TOST p-value; its
// convergence plot (schedfarm report) marks the eliminated and the stopped
// genomes.
package tune
