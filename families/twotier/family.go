package twotier

import (
	"github.com/schedfarm/schedfarm/family"
	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/strategies"
	"github.com/schedfarm/schedfarm/workload/models"
)

// Family returns the two-tier project family of seed 004: N resource
// types with capacities, projects made of jobs (the seed004 workload
// model), and the schedulers 2TSB, 2TFB, 2TFB-SF and 2TPB. Its cells run
// through Run (cell.go): one pool per resource type, the project metrics.
func Family() family.Family { return fam{} }

type fam struct{}

func (fam) Name() string { return "twotier" }
func (fam) Doc() string {
	return "seed 004: N resource types with capacities, projects made of jobs; 2TSB, 2TFB, 2TFB-SF, 2TPB"
}

// Schedulers registers 2TSB, 2TFB, 2TFB-SF and 2TPB.
func (fam) Schedulers() []strategies.Entry {
	sf := func(def float64) strategies.ParamSpec {
		return strategies.ParamSpec{
			Name: "sf", Kind: strategies.Float, Default: def, Min: 0, Max: 100,
			Doc: "slack factor SF: a project may depart up to SF × its turn-around time later than first planned (eq. 7)",
		}
	}
	pl := strategies.ParamSpec{
		Name: "pl", Kind: strategies.Int, Default: int64(Unlimited), Min: 0,
		Words: map[string]float64{"unlimited": Unlimited},
		Doc:   "preemption limit PL: how many projects one arrival may make depart later",
	}
	return []strategies.Entry{
		{
			Name:    "2tsb",
			Summary: "two-tier strict backfilling (seed 004): each job of an arriving project at its earliest start, no reservation moves",
			New: func(p sim.Platform, _ strategies.Params) (sim.Scheduler, error) {
				return New(p, TSB())
			},
		},
		{
			Name:    "2tfb",
			Summary: "two-tier flexible backfilling, SF = 0 (seed 004): jobs may delay queued jobs without delaying any project's departure",
			New: func(p sim.Platform, _ strategies.Params) (sim.Scheduler, error) {
				return New(p, TFB())
			},
		},
		{
			Name:    "2tfb-sf",
			Summary: "two-tier flexible backfilling with slack factor SF and preemption limit PL (seed 004)",
			Params:  []strategies.ParamSpec{sf(0.5), pl},
			New: func(p sim.Platform, ps strategies.Params) (sim.Scheduler, error) {
				return New(p, TFBSF(ps.Float("sf"), ps.Int("pl")))
			},
		},
		{
			Name:    "2tpb",
			Summary: "two-tier priority backfilling (seed 004): high-priority projects by 2TFB-SF with SF·(1−pi), the rest by 2TSB",
			Params:  []strategies.ParamSpec{sf(0.5), pl},
			New: func(p sim.Platform, ps strategies.Params) (sim.Scheduler, error) {
				return New(p, TPB(ps.Float("sf"), ps.Int("pl")))
			},
		},
	}
}

// Models returns the family's workload model, seed004 (family.ModelOwner).
func (fam) Models() []models.Model { return []models.Model{WorkloadModel()} }

// The family.PlatformRunner of models.Projects.
func (fam) Output() models.Output    { return models.Projects }
func (fam) SchedulerNames() []string { return schedulerNames() }
func (fam) CheckScheduler(name string, params map[string]any) error {
	return checkScheduler(name, params)
}
func (fam) MetricNames() []string                     { return cellMetricNames() }
func (fam) Run(c family.Cell) (*family.Result, error) { return runCell(c) }
