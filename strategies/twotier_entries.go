package strategies

import (
	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/strategies/twotier"
)

// twotierEntries registers the two-tier project/job backfilling family of
// seed 004: 2TSB, 2TFB, 2TFB-SF and 2TPB.
func twotierEntries() []Entry {
	sf := func(def float64) ParamSpec {
		return ParamSpec{
			Name: "sf", Kind: Float, Default: def, Min: 0, Max: 100,
			Doc: "slack factor SF: a project may depart up to SF × its turn-around time later than first planned (eq. 7)",
		}
	}
	pl := ParamSpec{
		Name: "pl", Kind: Int, Default: int64(twotier.Unlimited), Min: 0,
		Words: map[string]float64{"unlimited": twotier.Unlimited},
		Doc:   "preemption limit PL: how many projects one arrival may make depart later",
	}
	return []Entry{
		{
			Name:    "2tsb",
			Summary: "two-tier strict backfilling (seed 004): each job of an arriving project at its earliest start, no reservation moves",
			New: func(p sim.Platform, _ Params) (sim.Scheduler, error) {
				return twotier.New(p, twotier.TSB())
			},
		},
		{
			Name:    "2tfb",
			Summary: "two-tier flexible backfilling, SF = 0 (seed 004): jobs may delay queued jobs without delaying any project's departure",
			New: func(p sim.Platform, _ Params) (sim.Scheduler, error) {
				return twotier.New(p, twotier.TFB())
			},
		},
		{
			Name:    "2tfb-sf",
			Summary: "two-tier flexible backfilling with slack factor SF and preemption limit PL (seed 004)",
			Params:  []ParamSpec{sf(0.5), pl},
			New: func(p sim.Platform, ps Params) (sim.Scheduler, error) {
				return twotier.New(p, twotier.TFBSF(ps.Float("sf"), ps.Int("pl")))
			},
		},
		{
			Name:    "2tpb",
			Summary: "two-tier priority backfilling (seed 004): high-priority projects by 2TFB-SF with SF·(1−pi), the rest by 2TSB",
			Params:  []ParamSpec{sf(0.5), pl},
			New: func(p sim.Platform, ps Params) (sim.Scheduler, error) {
				return twotier.New(p, twotier.TPB(ps.Float("sf"), ps.Int("pl")))
			},
		},
	}
}
