package models

import (
	"math/rand/v2"

	"github.com/schedfarm/schedfarm/param"
	"github.com/schedfarm/schedfarm/workload"
	"github.com/schedfarm/schedfarm/workload/lublin99"
)

func lublinModel() Model {
	params := append(commonParams(1000, lublin99.ReferenceProcs),
		param.Spec{Name: "typed", Kind: param.Bool, Default: true, Doc: "two job types (batch, interactive; queue 1/0) as published; false = the typeless variant"},
		param.Spec{Name: "legacy_clock", Kind: param.Bool, Default: false, Doc: "reproduce the original program's per-arrival truncation of the clock (drifts ≈12 h per 100k jobs)"},
		param.Spec{Name: "bit_exact", Kind: param.Bool, Default: false, Doc: "draw from drand48 seeded with legacy_seed and use Jain's gamma method, reproducing the C program job for job (with legacy_clock)"},
		param.Spec{Name: "legacy_seed", Kind: param.Int, Default: int64(1), Min: 0, Max: 1<<32 - 1, Doc: "srand48 seed used when bit_exact is true (the run's seed is then ignored)"},
		param.Spec{Name: "arrival_scale", Kind: param.Float, Default: 1.0, Min: 1e-6, Max: 1e6, Doc: "multiply every interarrival's points by this factor (mean interarrival ×c, load ÷c); ignored when load > 0 with load_method model"},
		param.Spec{Name: "req_procs", Kind: param.Bool, Default: false, Doc: "also write the size to field 8 (requested processors); the original leaves −1"},
	)
	return Model{
		Name:    "lublin99",
		Summary: "Lublin & Feitelson 1999/2003 rigid-job model (batch/interactive, daily cycle), PWA m_lublin99 with the arrival clock fixed",
		Output:  SWF,
		Params:  params,
		build: func(v param.Values, seed [2]uint64) (built, error) {
			p := lublin99.Default()
			p.Jobs = v.Int("jobs")
			p.Procs = v.Int("procs")
			p.Typed = v.Bool("typed")
			p.LegacyClock = v.Bool("legacy_clock")
			p.BitExact = v.Bool("bit_exact")
			p.ArrivalScale = v.Float("arrival_scale")
			p.SetReqProcs = v.Bool("req_procs")
			if l := v.Float("load"); l > 0 && v.Str("load_method") == "model" {
				p.TargetLoad = l
			}
			if err := p.Validate(); err != nil {
				return built{}, err
			}
			legacySeed := int64(v.Int("legacy_seed"))
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
