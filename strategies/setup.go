package strategies

import (
	"github.com/schedfarm/schedfarm/param"
	"github.com/schedfarm/schedfarm/sim"
)

// RunSetup is an SWF run about to start, as Entry.Prepare sees it: the
// runner has read the jobs and built dedicated processors, and Prepare may
// change both before the scheduler is built.
type RunSetup struct {
	// Params are the scheduler's parameters, defaults filled in.
	Params param.Values
	// Fields are the run's values of the workload fields the families
	// define (family.SpecChecker), by full name ("workload.cpu_usage");
	// a field not given is absent. The runner has checked them.
	Fields map[string]any
	// Seed is the run's seed. Whatever Prepare draws comes from PCG
	// streams of its own on it, never from the scheduler's.
	Seed uint64
	// Platform is the machine, dedicated processors until Prepare makes it
	// tiered (sim.Platform.Tiers and Sharing).
	Platform *sim.Platform
	// Jobs are the jobs to simulate, in submit order; Prepare may give
	// them attributes (sim.Job.SetCPU).
	Jobs []*sim.Job
}
