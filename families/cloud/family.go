package cloud

import (
	"github.com/schedfarm/schedfarm/family"
	"github.com/schedfarm/schedfarm/strategies"
	"github.com/schedfarm/schedfarm/workload/models"
)

// Family returns the multi-attribute cloud family of seed 001: the seed001
// workload model brings its own VMs (Output), and its cells run CPLMT,
// FIFO, Fair, ASJS or CMMS — its schedulers, one file each, which run on
// that platform only — through Run (cell.go).
func Family() family.Family { return fam{} }

type fam struct{}

// The capabilities the family has, checked by the compiler.
var (
	_ family.Family         = fam{}
	_ family.PlatformRunner = fam{}
	_ family.ModelOwner     = fam{}
	_ family.SuiteProvider  = fam{}
)

func (fam) Name() string { return "cloud" }
func (fam) Doc() string {
	return "seed 001: VMs with CPU speed, memory and bandwidth; tasks with demands and deadlines; CPLMT, FIFO, Fair, ASJS, CMMS"
}
func (fam) Schedulers() []strategies.Entry { return schedulers() }

// The family.PlatformRunner of Output (cloud).
func (fam) Output() models.Output                     { return Output }
func (fam) MetricNames() []string                     { return cellMetricNames() }
func (fam) Run(c family.Cell) (*family.Result, error) { return runCell(c) }

// Models returns the family's workload model, seed001 (family.ModelOwner).
func (fam) Models() []models.Model { return []models.Model{WorkloadModel()} }
