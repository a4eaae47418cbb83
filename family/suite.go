package family

import "github.com/schedfarm/schedfarm/sim"

// SuiteCase is one workload on which the shared invariant suite
// (family/familytest.Families) runs schedulers of a family: every
// named scheduler is simulated twice from scratch and must end every job,
// never over-commit the platform, keep every reservation it promised, pass
// the family's own checks and give the same schedule both times.
type SuiteCase struct {
	// Name identifies the case in test names.
	Name string
	// Platform is the machine the jobs run on (the capacity check).
	Platform sim.Platform
	// Schedulers are the names to run, each a registry name optionally
	// followed by "+reading" (a variant the case's Run understands); nil
	// runs every scheduler of the family.
	Schedulers []string
	// Run simulates the named scheduler from scratch on the case's
	// workload, the scheduler wrapped by wrap (the suite's recorder), and
	// returns the simulated jobs and every violation of the family's own
	// rules (one VM per task, deadlines kept, …); err is a failed run.
	Run func(scheduler string, wrap func(sim.Scheduler) sim.Scheduler) (jobs []*sim.Job, violations []error, err error)
	// Preemptive marks workloads whose jobs may stop and resume (failures,
	// suspension, migration with progress): the suite's capacity check
	// over each job's first start and last end does not apply, and Run's
	// own checks must cover occupancy.
	Preemptive bool
	// Rated marks workloads whose jobs progress at rates other than one
	// (tasks on VMs of different speeds): a finished job's served time is
	// not its work, and Run's own checks must cover durations.
	Rated bool
}

// SuiteProvider is implemented by a family whose schedulers need workloads
// of their own for the shared invariant suite: a platform of its own
// (PlatformRunner), projects, per-process CPU usage. Families without it
// get the suite's random rigid-job workloads for their Schedulers.
type SuiteProvider interface {
	// SuiteCases returns the cases for one seed; the same seed gives the
	// same cases.
	SuiteCases(seed uint64) []SuiteCase
}
