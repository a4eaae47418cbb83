// Package dist holds the random-variate samplers and analytic helpers shared
// by the workload generators: gamma (Marsaglia–Tsang and Jain's method), its
// regularized incomplete-gamma CDF, hyper-Erlang, two-stage uniform and a
// drand48 source for bit-exact reproduction of the PWA reference programs.
//
// Every sampler takes an explicit *rand.Rand (math/rand/v2).
package dist
