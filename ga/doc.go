// Package ga is the messy genetic algorithm (mGA) of seed 002 §4: a
// schedule is a variable-length string of (job, resource) genes; search
// is roulette-wheel selection, cut-and-splice and mutation; the fitness is
// the weighted sum of normalised makespan and utilisation with a fairness
// penalty (eq. 7–10).
//
// # Encoding (§4.1)
//
// A Gene names a job of the batch and a resource, both as indexes. The
// genes of one job, in order of appearance, are its resource chain: the
// first is where it runs, the others the backup resources it migrates to
// after failures (state-tracking migration); a job with one gene is run by
// the immediate-restart strategy where the caller's scheme allows it. Chains
// returns the chains and the order in which jobs first appear, which is
// the order in which a resource runs the jobs placed on it. A job may be
// missing (under-specified) or listed on many resources
// (over-specified): as in Goldberg's messy GA, a Decoder fills missing jobs
// from a competitive template (the caller's heuristic mapping) and ignores
// genes beyond MaxChain; it reuses its buffers, so decoding allocates
// nothing.
//
// # Operators (§4.2)
//
// CutAndSplice cuts each parent at a point of its own and exchanges the
// tails, so children have new lengths (the sum of the lengths is kept).
// Mutate swaps two genes (the paper's mutation) and, with the same
// probability, gives one gene another resource: the paper's swap alone
// can never move a job to a resource that no parent proposed, so a
// population that lost a resource could not find it again (deviation).
// Children longer than MaxLen are cut to MaxLen.
//
// # Fitness (§4.3) and selection
//
// An Evaluator maps a genome to Objectives: makespan ms, average
// utilisation au, unfairness 1 − IJF, mean completion time and a finite
// penalty for violated constraints. Fitness normalises ms and au over the
// current population (eq. 7) and combines them (eq. 8, 10): f = δ·ms̄ +
// ω·āu + κ·(1 − IJF) − ρ·penalty with κ ≤ 0, plus φ times the normalised
// mean completion time, a term the paper does not have (φ = 0 is eq. 10). Eq. 7 prints āu = (au_min − au)/(au_max − au_min),
// which is ≤ 0 and would reward low utilisation; we use (au − au_min)/
// (au_max − au_min), which matches the stated intent ("a larger fitness
// value guarantees a better scheduling"). When every genome has the same
// ms (or au), that term is 1 for all.
//
// Roulette selection p_i = f_i / Σ f needs f ≥ 0, which κ < 0 and the
// penalty break, so weights are shifted: w_i = f_i − min f + ε with ε 1% of
// the fitness range (uniform when all are equal). Weights are finite by
// construction (objectives are checked, a NaN or infinite objective is a
// programming error and panics with the genome's index). The best genome of
// a generation is copied unchanged into the next (elitism, which the paper
// does not mention but a generational GA needs to keep its best) and not
// evaluated again. Nor is a child whose genome equals one of its parents'
// (no cut, or a cut at both ends, and no mutation or one that changed
// nothing: about 46% of the children at Table 2's p_cut 0.18 and p_mut
// 0.25): it gets that parent's objectives. An Evaluator is a deterministic
// function of the genome and evaluation draws no random numbers, so the
// populations, the random stream and the result are those of evaluating
// every child (Config.Reevaluate, which the tests compare against); every
// other child is evaluated, both children of a crossover included.
//
// Config.Observe sees every generation's objectives (the GA-effect
// benchmark of families/stms uses it).
//
// # Why not eaopt
//
// github.com/MaxHalford/eaopt v0.4.2 can carry this GA: a custom Model sees
// the whole population (so eq. 7 normalises there) and draws its own
// selection, and a math/rand/v2 PCG can drive its *math/rand.Rand.
// families/stms/eaopt_bench_test.go does exactly that with the same
// evaluator and operators. Measured on one 50-job batch (population 30,
// 100 generations, 50 resources; BenchmarkMGABatch against
// BenchmarkMGABatchEaopt, 2-vCPU development machine, two runs each): this
// package 4.1–4.4 ms, 0.97 MB and 462 allocations per batch; eaopt 7.1–7.5
// ms, 8.7 MB and 11,631 allocations, because it clones every individual each generation
// (with a random six-letter ID, which also consumes random draws), clones
// into a hall of fame, sorts the population and stamps wall-clock ages.
// With a batch every few simulated minutes and thousands of cells per
// sweep that is 1.7 times the CPU and nine times the garbage for the same
// search, so the loop here stays: about 100 lines, deterministic for a
// given *rand.Rand, double-buffered so a run allocates only while genomes
// grow. eaopt remains the product's library for searches over the farm
// (schedfarm tune), where an evaluation is a batch of cells, not
// microseconds.
package ga
