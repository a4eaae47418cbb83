package consolidation

import (
	"github.com/schedfarm/schedfarm/family"
	"github.com/schedfarm/schedfarm/param"
	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/strategies"
)

// Family returns the consolidation family of seed 000: processors split
// into a foreground and a background VM (sim.Platform.Tiers, sim.TwoTier
// sharing) and the schedulers KEASY, REASY and MEASY. Each entry prepares
// its runs (Entry.Prepare, tiers.go): the tiered platform and the
// per-process CPU usage of the workload fields (workload.cpu_*, spec.go);
// FWload and JWload are the shared SWF models of workload/models.
func Family() family.Family { return fam{} }

type fam struct{}

// The capabilities the family has, checked by the compiler.
var (
	_ family.Family        = fam{}
	_ family.SpecChecker   = fam{}
	_ family.FieldsChecker = fam{}
	_ family.SuiteProvider = fam{}
)

func (fam) Name() string { return "consolidation" }
func (fam) Doc() string {
	return "seed 000: two-tier VMs per processor (foreground/background, CPU priority), CPU usage, migration cost; KEASY, REASY, MEASY"
}

// Schedulers registers KEASY, REASY and MEASY.
func (fam) Schedulers() []strategies.Entry {
	threshold := param.Spec{
		Name: "threshold", Kind: param.Float, Default: DefaultThreshold, Min: 0.01, Max: 1,
		Doc: "foreground CPU usage at or above which a processor's background VM takes no process (§2.1: 96%)",
	}
	unknown := param.Spec{
		Name: "unknown_usage", Kind: param.String, Default: UnknownObserved.String(), Choices: unknownNames[:],
		Doc: "what a running process counts as when its job came without a CPU-usage estimate (cpu_estimate none, §3.5.1): observed = its observed usage, full = 100% (its background VM closed), ignore = threshold not applied (doc.go, Readings)",
	}
	pause := param.Spec{
		Name: "migration_pause", Kind: param.String, Default: PauseAtTarget.String(), Choices: pauseNames[:],
		Doc: "where a migrating job pays migration_cost (§3 gives only a cost): target = on its new foreground VMs, holding them; source = in its background VMs, then it moves (doc.go, Readings)",
	}
	build := func(d Deploy) strategies.Factory {
		return func(b strategies.Build) (sim.Scheduler, error) {
			p, ps := b.Platform, b.Params
			u, err := ParseUnknown(ps.Str("unknown_usage"))
			if err != nil {
				return nil, err
			}
			cfg := Config{Deploy: d, Threshold: ps.Float("threshold"), Unknown: u}
			if d == Migrate {
				cfg.MigrationCost = ps.Float("migration_cost")
				if cfg.PauseAt, err = ParsePauseAt(ps.Str("migration_pause")); err != nil {
					return nil, err
				}
			}
			return New(p, cfg)
		}
	}
	return []strategies.Entry{
		{
			Name:    "keasy",
			Summary: "FCFS + EASY over two-tier VMs with SJF to the background; a background job moving to other processors is killed and restarted (seed 000)",
			Params:  []param.Spec{threshold, unknown},
			New:     build(Kill),
			Tiers:   2,
			Prepare: prepareTwoTiers,
		},
		{
			Name:    "reasy",
			Summary: "as keasy, but a background job only moves up on its own processors and holds a reservation for them (seed 000)",
			Params:  []param.Spec{threshold, unknown},
			New:     build(Reserve),
			Tiers:   2,
			Prepare: prepareTwoTiers,
		},
		{
			Name:    "measy",
			Summary: "as keasy, but a background job moving to other processors migrates with its progress, at migration_cost seconds (seed 000)",
			Params: []param.Spec{threshold, unknown, {
				Name: "migration_cost", Kind: param.Float, Default: float64(DefaultMigrationCost), Min: 0, Max: 1e9,
				Doc: "seconds a migrated job makes no progress (§3: 20; §3.5.3 sweeps up to 1500+)",
			}, pause},
			New:     build(Migrate),
			Tiers:   2,
			Prepare: prepareTwoTiers,
		},
	}
}
