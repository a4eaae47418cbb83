package models

import (
	"math/rand/v2"

	"github.com/schedfarm/schedfarm/workload"
	"github.com/schedfarm/schedfarm/workload/lublin99"
)

func lublinModel() Model {
	params := append(commonParams(1000, lublin99.ReferenceProcs),
		ParamSpec{Name: "typed", Kind: Bool, Default: true, Doc: "two job types (batch, interactive; queue 1/0) as published; false = the typeless variant"},
		ParamSpec{Name: "legacy_clock", Kind: Bool, Default: false, Doc: "reproduce the original program's per-arrival truncation of the clock (drifts ≈12 h per 100k jobs)"},
		ParamSpec{Name: "bit_exact", Kind: Bool, Default: false, Doc: "draw from drand48 seeded with legacy_seed and use Jain's gamma method, reproducing the C program job for job (with legacy_clock)"},
		ParamSpec{Name: "legacy_seed", Kind: Int, Default: int64(1), Min: 0, Max: 1<<32 - 1, Doc: "srand48 seed used when bit_exact is true (the run's seed is then ignored)"},
		ParamSpec{Name: "arrival_scale", Kind: Float, Default: 1.0, Min: 1e-6, Max: 1e6, Doc: "multiply every interarrival's points by this factor (mean interarrival ×c, load ÷c); ignored when load > 0 with load_method model"},
		ParamSpec{Name: "req_procs", Kind: Bool, Default: false, Doc: "also write the size to field 8 (requested processors); the original leaves −1"},
	)
	return Model{
		Name:    "lublin99",
		Summary: "Lublin & Feitelson 1999/2003 rigid-job model (batch/interactive, daily cycle), PWA m_lublin99 with the arrival clock fixed",
		Output:  SWF,
		Params:  params,
		build: func(v values, seed [2]uint64) (built, error) {
			p := lublin99.Default()
			p.Jobs = v.int("jobs")
			p.Procs = v.int("procs")
			p.Typed = v.bool("typed")
			p.LegacyClock = v.bool("legacy_clock")
			p.BitExact = v.bool("bit_exact")
			p.ArrivalScale = v.float("arrival_scale")
			p.SetReqProcs = v.bool("req_procs")
			if l := v.float("load"); l > 0 && v.str("load_method") == "model" {
				p.TargetLoad = l
			}
			if err := p.Validate(); err != nil {
				return built{}, err
			}
			legacySeed := int64(v.int("legacy_seed"))
			mk := func() (workload.Source, error) {
				rng := rand.New(rand.NewPCG(seed[0], seed[1]))
				if p.BitExact {
					rng = lublin99.NewLegacyRand(legacySeed)
				}
				return lublin99.New(p, rng)
			}
			g, err := mk()
			if err != nil {
				return built{}, err
			}
			return built{make: mk, procs: p.Procs, jobs: p.Jobs, notes: g.(*lublin99.Generator).Notes()}, nil
		},
	}
}
