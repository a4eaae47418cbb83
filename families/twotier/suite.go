package twotier

import (
	"math/rand/v2"

	"github.com/schedfarm/schedfarm/family"
	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/strategies"
)

// suiteVariant is one scheduler setting the invariant suite runs.
type suiteVariant struct {
	label, name string
	params      map[string]any
}

// suiteVariants are every scheduler with its defaults, 2TFB-SF and 2TPB
// with other slack factors and preemption limits, and every reading of
// doc.go that is a scheduler parameter.
func suiteVariants(reg *strategies.Registry) []suiteVariant {
	var vs []suiteVariant
	for _, n := range reg.Names() {
		vs = append(vs, suiteVariant{n, n, nil})
	}
	vs = append(vs,
		suiteVariant{"2tfb-sf(sf=2,pl=0)", "2tfb-sf", map[string]any{"sf": 2.0, "pl": int64(0)}},
		suiteVariant{"2tpb(sf=1)", "2tpb", map[string]any{"sf": 1.0}},
		suiteVariant{"2tpb(sf=0.5,pl=1)", "2tpb", map[string]any{"sf": 0.5, "pl": int64(1)}},
		suiteVariant{"2tfb(victim=first)", "2tfb", map[string]any{"victim": "first"}},
		suiteVariant{"2tfb-sf(victim=first)", "2tfb-sf", map[string]any{"victim": "first"}},
	)
	for _, c := range plCountNames[1:] {
		vs = append(vs,
			suiteVariant{"2tfb-sf(pl=1,pl_count=" + c + ")", "2tfb-sf", map[string]any{"pl": int64(1), "pl_count": c}},
			suiteVariant{"2tpb(pl=1,pl_count=" + c + ")", "2tpb", map[string]any{"pl": int64(1), "pl_count": c}})
	}
	for _, o := range ownLTSNames[1:] {
		vs = append(vs,
			suiteVariant{"2tfb(own_lts=" + o + ")", "2tfb", map[string]any{"own_lts": o}},
			suiteVariant{"2tfb-sf(own_lts=" + o + ")", "2tfb-sf", map[string]any{"own_lts": o}},
			suiteVariant{"2tpb(own_lts=" + o + ")", "2tpb", map[string]any{"own_lts": o}})
	}
	return append(vs,
		suiteVariant{"2tfb-sf(lts_tn=job)", "2tfb-sf", map[string]any{"lts_tn": "job"}},
		suiteVariant{"2tpb(lts_tn=job)", "2tpb", map[string]any{"lts_tn": "job"}},
	)
}

// SuiteCases gives the shared invariant suite random project workloads
// (two resource types, 200 projects of up to five jobs with integer times:
// many ties, one project in five high-priority).
func (fam) SuiteCases(seed uint64) []family.SuiteCase {
	p := sim.Platform{Pools: []sim.Pool{{Name: "a", Capacity: 5}, {Name: "b", Capacity: 3}}}
	reg, err := strategies.NewRegistry(fam{}.Schedulers()...)
	if err != nil {
		panic(err) // the family's table is fixed
	}
	vs := suiteVariants(reg)
	c := family.SuiteCase{Name: "projects", Platform: p}
	for _, v := range vs {
		c.Schedulers = append(c.Schedulers, v.label)
	}
	c.Run = func(label string, wrap func(sim.Scheduler) sim.Scheduler) ([]*sim.Job, []error, error) {
		for _, v := range vs {
			if v.label != label {
				continue
			}
			s, err := reg.New(v.name, p, v.params)
			if err != nil {
				return nil, nil, err
			}
			jobs := randomProjects(rand.New(rand.NewPCG(seed, 77)), p, 200, 4)
			out, _, err := sim.Run(p, wrap(s), sim.NewSliceStream(jobs), nil)
			return out, nil, err
		}
		return nil, nil, reg.Check(label, nil)
	}
	return []family.SuiteCase{c}
}

// randomProjects draws n projects with integer times (many ties) on p, one
// in five high-priority.
func randomProjects(rng *rand.Rand, p sim.Platform, n int, gap int) []*sim.Job {
	var jobs []*sim.Job
	t := 0.0
	id := int64(0)
	for u := 1; u <= n; u++ {
		t += float64(rng.IntN(gap + 1))
		pi := 0.0
		if rng.IntN(5) == 0 {
			pi = 1
		}
		for range 1 + rng.IntN(5) {
			id++
			q := make([]int, len(p.Pools))
			for k, pool := range p.Pools {
				q[k] = rng.IntN(pool.Capacity/2 + 1)
			}
			te := float64(1 + rng.IntN(20))
			j := sim.NewJob(id, t, q, te, te, 0)
			j.Project, j.Priority = int64(u), pi
			jobs = append(jobs, j)
		}
	}
	return jobs
}
