package stms

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/schedfarm/schedfarm/param"
	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/strategies"
	"github.com/schedfarm/schedfarm/workload/models"
)

// World is what a scheduler of this family is built for: the resources,
// the jobs' attributes (by sim job ID − 1), the settings that are part of
// the experiment rather than of the scheduler (Base: α, interval, batch,
// state tracking), and the random sources: the mGA draws from PCG(GASeed),
// failures from Base.FailureSeed.
type World struct {
	Resources []Resource
	Jobs      []Job
	Base      Config
	GASeed    [2]uint64
}

func gaParams() []param.Spec {
	return []param.Spec{
		{Name: "population", Kind: param.Int, Default: int64(30), Min: 2, Max: 100000, Doc: "mGA population size (Table 2: 30)"},
		{Name: "generations", Kind: param.Int, Default: int64(100), Min: 0, Max: 1000000, Doc: "mGA generations (Table 2: 100)"},
		{Name: "p_cut", Kind: param.Float, Default: 0.18, Min: 0, Max: 1, Doc: "cut-and-splice probability (Table 2: 0.18)"},
		{Name: "p_mut", Kind: param.Float, Default: 0.25, Min: 0, Max: 1, Doc: "mutation probability (Table 2: 0.25)"},
		{Name: "delta", Kind: param.Float, Default: 0.5, Min: 0, Max: 1, Doc: "weight δ of the normalised makespan in the fitness (eq. 8; δ + ω = 1)"},
		{Name: "omega", Kind: param.Float, Default: 0.5, Min: 0, Max: 1, Doc: "weight ω of the normalised utilisation in the fitness (eq. 8; δ + ω = 1)"},
		{Name: "kappa", Kind: param.Float, Default: -0.5, Min: -1000, Max: 0, Doc: "coefficient κ ≤ 0 of 1 − IJF in the fitness (eq. 10)"},
		{Name: "phi", Kind: param.Float, Default: 0.0, Min: 0, Max: 1000, Doc: "weight φ of the normalised mean expected completion time of a batch's jobs in the fitness (not in the paper; 0 = eq. 10 as printed)"},
		{Name: "rho", Kind: param.Float, Default: 1.0, Min: 0, Max: 1e6, Doc: "penalty per unit share of jobs violating Condition 1 (finite)"},
		{Name: "utilization", Kind: param.String, Default: "seconds", Choices: []string{"seconds", "capacity"}, Doc: "the mGA's utilisation objective au (eq. 7–8): seconds = busy resource-seconds / (resources × makespan) as printed, which favours spreading jobs onto slow idle resources; capacity = busy time weighted by resource speed (the share of the platform's flops busy)"},
		{Name: "max_chain", Kind: param.Int, Default: int64(3), Min: 1, Max: 100, Doc: "most resources in one job's chain (primary + backups)"},
	}
}

// SharedParams lists the parameters every scheme accepts (the mGA's): an
// STMS baseline of a cell (eq. 12) runs with these of the cell's scheme.
func SharedParams() []string {
	var n []string
	for _, p := range gaParams() {
		n = append(n, p.Name)
	}
	return n
}

// checkWeights requires δ + ω = 1 (eq. 8).
func checkWeights(p param.Values) error {
	d, o := p.Float("delta"), p.Float("omega")
	if math.Abs(d+o-1) > 1e-9 {
		return fmt.Errorf("delta + omega = %g + %g = %g; accepted: weights that sum to 1 (eq. 8), e.g. delta %.6g with omega %.6g", d, o, d+o, d, 1-d)
	}
	return nil
}

// Output is what the family's workload model (seed002) generates and its
// schedulers run on: failing heterogeneous resources and jobs with sizes,
// data and deadlines (World).
const Output = models.Output("grid")

// schemes declares the family's schedulers, one row each, in the paper's
// order (Scheme is the row's index): name, summary, the parameters beyond
// the mGA's (gaParams) and what they set in the scheme's Config. Adding a
// scheme is its row here and its behaviour where the scheduler asks
// cfg.Scheme.
var schemes = [...]struct {
	name, summary string
	params        func() []param.Spec
	apply         func(cfg *Config, p param.Values)
}{
	STMS: {name: "stms",
		summary: "seed 002 STMS: batch mGA mapping (Min-Min for short windows); a failed job moves with its state to a backup resource",
		params:  func() []param.Spec { return nil },
		apply:   func(*Config, param.Values) {}},
	IRSTMS: {name: "ir-stms",
		summary: "seed 002 IR-STMS: STMS, and jobs the mGA maps to one resource restart there after a failure (IRS, eq. 4)",
		params: func() []param.Spec {
			return []param.Spec{maxRestartsSpec,
				{Name: "irs_fill", Kind: param.String, Default: FillVoids.String(), Choices: IRSFillNames(),
					Doc: "how IRS-ruled jobs fill inter-job voids (reading of §3.1, §5.2, §6): voids = a job the mGA maps to one resource also starts early in a void there when its α·PET (eq. 4) fits (\"fitting IRS-ruled jobs rather than new jobs into the void-intervals\", §6); restart = only by restarting in place after its own failure (Fig. 3)"}}
		},
		apply: func(cfg *Config, p param.Values) {
			cfg.MaxRestarts = p.Int("max_restarts")
			cfg.IRSFill, _ = IRSFillOf(p.Str("irs_fill"))
		}},
	GBSTMS: {name: "gb-stms",
		summary: "seed 002 GB-STMS: STMS with greedy backfilling of ready jobs into voids by WSEPT under Condition 2",
		params:  func() []param.Spec { return []param.Spec{maxRestartsSpec} },
		apply:   func(cfg *Config, p param.Values) { cfg.MaxRestarts = p.Int("max_restarts") }},
	SPSTMS: {name: "sp-stms",
		summary: "seed 002 SP-STMS: STMS where a migrant may preempt the backup resource's job (PP eq. 5, PF > c eq. 6)",
		params: func() []param.Spec {
			return []param.Spec{
				{Name: "c", Kind: param.Float, Default: 2.5, Min: 1e-9, Max: 1e9, Unit: "ratio", Doc: "preemption coefficient c: a contender preempts when PF = PP(Jm)/PP(Jp) > c (Table 2: 2.5)"},
				{Name: "slot", Kind: param.Float, Default: 300.0, Min: 1e-3, Max: 1e9, Unit: "s", Doc: "seconds between PF comparisons of a waiting contender and the running job"}}
		},
		apply: func(cfg *Config, p param.Values) { cfg.C, cfg.Slot = p.Float("c"), p.Float("slot") }},
}

// maxRestartsSpec is IR-STMS's and GB-STMS's bound on in-place restarts.
var maxRestartsSpec = param.Spec{Name: "max_restarts", Kind: param.Int, Default: int64(20), Min: 0, Max: 1000000, Unit: "count", Doc: "IRS restarts of one job before it migrates instead"}

// schedulers returns the family's registry entries, one per scheme. Their
// factories build a Scheduler for the *World of strategies.Build.
func schedulers() []strategies.Entry {
	var out []strategies.Entry
	for i, row := range schemes {
		scheme, apply := Scheme(i), row.apply
		out = append(out, strategies.Entry{Name: row.name, Summary: row.summary, Platform: string(Output),
			Params: append(gaParams(), row.params()...), Validate: checkWeights,
			New: func(b strategies.Build) (sim.Scheduler, error) {
				w, ok := b.World.(*World)
				if !ok || w == nil {
					return nil, fmt.Errorf("stms: %s runs seed002 workloads only (a *stms.World), got %T", scheme, b.World)
				}
				p := b.Params
				cfg := w.Base
				cfg.Scheme = scheme
				cfg.GA.Population, cfg.GA.Generations = p.Int("population"), p.Int("generations")
				cfg.GA.PCut, cfg.GA.PMut = p.Float("p_cut"), p.Float("p_mut")
				cfg.GA.Delta, cfg.GA.Omega = p.Float("delta"), p.Float("omega")
				cfg.GA.Kappa, cfg.GA.Rho, cfg.GA.Phi = p.Float("kappa"), p.Float("rho"), p.Float("phi")
				cfg.MaxChain = p.Int("max_chain")
				cfg.CapacityUtil = p.Str("utilization") == "capacity"
				cfg.GA.MaxGenesPerJob = cfg.MaxChain
				apply(&cfg, p)
				return New(cfg, w.Resources, w.Jobs, rand.New(rand.NewPCG(w.GASeed[0], w.GASeed[1])))
			}})
	}
	return out
}

// Registry returns the registry of the four schemes.
func Registry() *strategies.Registry {
	r, err := strategies.NewRegistry(schedulers()...)
	if err != nil {
		panic(err) // the names are fixed and distinct
	}
	return r
}
