package runner

import (
	"fmt"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/strategies"
)

// prepare lets the scheduler's entry ready the run (strategies.Entry.Prepare:
// the VM-tier families make the platform tiered and give every job its CPU
// usage from the workload fields). Without a Prepare the run is dedicated
// processors and the jobs as read.
func prepare(cfg Config, e strategies.Entry, plat *sim.Platform, jobs []*sim.Job) error {
	if e.Prepare == nil {
		if e.Tiers > 1 {
			return fmt.Errorf("scheduler %s needs %d VM tiers per processor, but its registry entry does not prepare them (strategies.Entry.Prepare)", e.Name, e.Tiers)
		}
		return nil
	}
	ps, err := cfg.Registry.Resolve(e.Name, cfg.SchedulerParams)
	if err != nil {
		return err
	}
	return e.Prepare(&strategies.RunSetup{Params: ps, Fields: cfg.FamilyFields, Seed: cfg.Seed, Platform: plat, Jobs: jobs})
}
