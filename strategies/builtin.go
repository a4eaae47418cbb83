package strategies

import (
	"slices"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/strategies/classic"
)

// Builtin returns the registry of every scheduler shipped with schedfarm.
func Builtin() *Registry {
	r, err := NewRegistry(slices.Concat(classicEntries(), twotierEntries(), consolidationEntries())...)
	if err != nil {
		panic(err) // the built-in table is fixed; a duplicate is a programming error caught by tests
	}
	return r
}

func classicEntries() []Entry {
	fixed := func(cfg classic.Config) Factory {
		return func(p sim.Platform, _ Params) (sim.Scheduler, error) { return classic.New(p, cfg) }
	}
	return []Entry{
		{Name: "fcfs", Summary: "first come, first served: jobs start strictly in submit order", New: fixed(classic.FCFS())},
		{Name: "easy", Summary: "EASY (aggressive) backfilling: reservation for the queue head only, backfill in submit order", New: fixed(classic.EASY())},
		{Name: "sjbf", Summary: "EASY with backfill candidates tried shortest estimate first", New: fixed(classic.SJBF())},
		{Name: "cons", Summary: "conservative backfilling (Mu'alem & Feitelson): every job reserved on arrival, compressed on early ends", New: fixed(classic.Conservative())},
		{
			Name:    "depth",
			Summary: "backfilling with reservations for the first k waiting jobs (0 none, 1 = easy, unlimited = cons)",
			Params: []ParamSpec{{
				Name: "k", Kind: Int, Default: int64(2), Min: 0,
				Words: map[string]float64{"unlimited": classic.Unlimited, "all": classic.Unlimited},
				Doc:   "reservation depth: how many waiting jobs hold a reservation",
			}},
			New: func(p sim.Platform, ps Params) (sim.Scheduler, error) {
				return classic.New(p, classic.Depth(ps.Int("k")))
			},
		},
	}
}
