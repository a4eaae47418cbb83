package strategies

import (
	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/strategies/consolidation"
)

// consolidationEntries registers seed 000's schedulers for processors split
// into a foreground and a background VM: KEASY, REASY and MEASY.
func consolidationEntries() []Entry {
	threshold := ParamSpec{
		Name: "threshold", Kind: Float, Default: consolidation.DefaultThreshold, Min: 0.01, Max: 1,
		Doc: "foreground CPU usage at or above which a processor's background VM takes no process (§2.1: 96%)",
	}
	build := func(d consolidation.Deploy) Factory {
		return func(p sim.Platform, ps Params) (sim.Scheduler, error) {
			cfg := consolidation.Config{Deploy: d, Threshold: ps.Float("threshold")}
			if d == consolidation.Migrate {
				cfg.MigrationCost = ps.Float("migration_cost")
			}
			return consolidation.New(p, cfg)
		}
	}
	return []Entry{
		{
			Name:    "keasy",
			Summary: "FCFS + EASY over two-tier VMs with SJF to the background; a background job moving to other processors is killed and restarted (seed 000)",
			Params:  []ParamSpec{threshold},
			New:     build(consolidation.Kill),
			Tiers:   2,
		},
		{
			Name:    "reasy",
			Summary: "as keasy, but a background job only moves up on its own processors and holds a reservation for them (seed 000)",
			Params:  []ParamSpec{threshold},
			New:     build(consolidation.Reserve),
			Tiers:   2,
		},
		{
			Name:    "measy",
			Summary: "as keasy, but a background job moving to other processors migrates with its progress, at migration_cost seconds (seed 000)",
			Params: []ParamSpec{threshold, {
				Name: "migration_cost", Kind: Float, Default: float64(consolidation.DefaultMigrationCost), Min: 0, Max: 1e9,
				Doc: "seconds a migrated job makes no progress (§3: 20; §3.5.3 sweeps up to 1500+)",
			}},
			New:   build(consolidation.Migrate),
			Tiers: 2,
		},
	}
}
