package stms

import (
	"github.com/schedfarm/schedfarm/family"
	"github.com/schedfarm/schedfarm/strategies"
	"github.com/schedfarm/schedfarm/workload/models"
)

// Family returns the state-tracking migration family of seed 002: the
// seed002 workload model brings its own failing heterogeneous resources,
// and its cells run STMS, IR-STMS, GB-STMS or SP-STMS (with the messy GA
// of package ga) through Run (cell.go); they run on that platform only.
func Family() family.Family { return fam{} }

type fam struct{}

// The capabilities the family has, checked by the compiler.
var (
	_ family.Family         = fam{}
	_ family.PlatformRunner = fam{}
	_ family.ModelOwner     = fam{}
	_ family.SuiteProvider  = fam{}
)

func (fam) Name() string { return "stms" }
func (fam) Doc() string {
	return "seed 002: heterogeneous failing resources, deadlines, batch intervals; STMS, IR-STMS, GB-STMS, SP-STMS with the messy GA"
}
func (fam) Schedulers() []strategies.Entry { return schedulers() }

// The family.PlatformRunner of Output (grid).
func (fam) Output() models.Output                     { return Output }
func (fam) MetricNames() []string                     { return MetricNames() }
func (fam) Run(c family.Cell) (*family.Result, error) { return runCell(c) }

// Models returns the family's workload model, seed002 (family.ModelOwner).
func (fam) Models() []models.Model { return []models.Model{WorkloadModel()} }
