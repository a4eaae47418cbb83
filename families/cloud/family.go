package cloud

import (
	"github.com/schedfarm/schedfarm/family"
	"github.com/schedfarm/schedfarm/strategies"
	"github.com/schedfarm/schedfarm/workload/models"
)

// Family returns the multi-attribute cloud family of seed 001: the seed001
// workload model brings its own VMs, and its cells run CPLMT, FIFO, Fair,
// ASJS or CMMS through Run (cell.go). It registers no engine scheduler.
func Family() family.Family { return fam{} }

type fam struct{}

func (fam) Name() string { return "cloud" }
func (fam) Doc() string {
	return "seed 001: VMs with CPU speed, memory and bandwidth; tasks with demands and deadlines; CPLMT, FIFO, Fair, ASJS, CMMS"
}
func (fam) Schedulers() []strategies.Entry { return schedulers() }

// The family.PlatformRunner of models.Cloud.
func (fam) Output() models.Output    { return Output }
func (fam) SchedulerNames() []string { return Names() }
func (fam) CheckScheduler(name string, params map[string]any) error {
	return registry().Check(name, params)
}
func (fam) MetricNames() []string                     { return cellMetricNames() }
func (fam) Run(c family.Cell) (*family.Result, error) { return runCell(c) }

// Models returns the family's workload model, seed001 (family.ModelOwner).
func (fam) Models() []models.Model { return []models.Model{WorkloadModel()} }
