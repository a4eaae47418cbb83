package classic

import (
	"github.com/schedfarm/schedfarm/family"
	"github.com/schedfarm/schedfarm/param"
	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/strategies"
)

// Family returns the classic family: P identical processors (or counted
// resource pools) and the space-sharing schedulers every paper cites —
// FCFS, EASY, CONS, SJBF and reservation depth k. Its workloads are the
// shared SWF models of workload/models (lublin99, …) and real traces.
func Family() family.Family { return fam{} }

type fam struct{}

// The capabilities the family has, checked by the compiler.
var (
	_ family.Family = fam{}
)

func (fam) Name() string { return "classic" }
func (fam) Doc() string {
	return "P identical processors; FCFS, EASY, CONS, SJBF, reservation depth k"
}

// Schedulers registers FCFS, EASY, SJBF, CONS and depth-k.
func (fam) Schedulers() []strategies.Entry {
	fixed := func(cfg Config) strategies.Factory {
		return func(b strategies.Build) (sim.Scheduler, error) { return New(b.Platform, cfg) }
	}
	return []strategies.Entry{
		{Name: "fcfs", Summary: "first come, first served: jobs start strictly in submit order", New: fixed(FCFS())},
		{Name: "easy", Summary: "EASY (aggressive) backfilling: reservation for the queue head only, backfill in submit order", New: fixed(EASY())},
		{Name: "sjbf", Summary: "EASY with backfill candidates tried shortest estimate first", New: fixed(SJBF())},
		{Name: "cons", Summary: "conservative backfilling (Mu'alem & Feitelson): every job reserved on arrival, compressed on early ends", New: fixed(Conservative())},
		{
			Name:    "depth",
			Summary: "backfilling with reservations for the first k waiting jobs (0 none, 1 = easy, unlimited = cons)",
			Params: []param.Spec{{
				Name: "k", Kind: param.Int, Default: int64(2), Min: 0, Max: param.NoMax,
				Words: map[string]float64{"unlimited": Unlimited, "all": Unlimited},
				Doc:   "reservation depth: how many waiting jobs hold a reservation",
			}},
			New: func(b strategies.Build) (sim.Scheduler, error) {
				p, ps := b.Platform, b.Params
				return New(p, Depth(ps.Int("k")))
			},
		},
	}
}
