package twotier

import (
	"errors"

	"github.com/schedfarm/schedfarm/family"
	"github.com/schedfarm/schedfarm/param"
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

// The capabilities the family has, checked by the compiler.
var (
	_ family.Family         = fam{}
	_ family.PlatformRunner = fam{}
	_ family.ModelOwner     = fam{}
	_ family.SuiteProvider  = fam{}
)

func (fam) Name() string { return "twotier" }
func (fam) Doc() string {
	return "seed 004: N resource types with capacities, projects made of jobs; 2TSB, 2TFB, 2TFB-SF, 2TPB"
}

// Schedulers registers 2TSB, 2TFB, 2TFB-SF and 2TPB.
func (fam) Schedulers() []strategies.Entry {
	sf := func(def float64) param.Spec {
		return param.Spec{
			Name: "sf", Kind: param.Float, Default: def, Min: 0, Max: 100,
			Doc: "slack factor SF: a project may depart up to SF × its turn-around time later than first planned (eq. 7)",
		}
	}
	pl := param.Spec{
		Name: "pl", Kind: param.Int, Default: int64(Unlimited), Min: 0, Max: param.NoMax,
		Words: map[string]float64{"unlimited": Unlimited},
		Doc:   "preemption limit PL: how many projects shiftReservations may delay (what counts: pl_count)",
	}
	choice := func(name string, names []string, doc string) param.Spec {
		return param.Spec{Name: name, Kind: param.String, Default: names[0], Choices: names, Doc: doc}
	}
	victim := choice("victim", victimNames, "which reservation shiftReservations delays (§4.3): next = the largest-lts one among those that could be delayed; first = only the largest-lts one, failing if it cannot move (before issue 21) (doc.go, Readings)")
	plCount := choice("pl_count", plCountNames, "what counts against PL: call = projects whose departure one shiftReservations call delays; job = projects any of whose jobs it delays; lifetime = times a project's departure is delayed over its life (doc.go, Readings)")
	ownLTS := choice("own_lts", ownLTSNames, "latest starting time of an arriving project's own jobs while it is planned: pinned = their planned start; infinite; provisional = eq. 7 so far (doc.go, Readings)")
	ltsTN := choice("lts_tn", turnaroundNames, "eq. 7's turn-around time: project = tn_u (eq. 7, §4.1); job = tn_{u,v} = tf_{u,v} − ta_u (Figs. 4–5) (doc.go, Readings)")
	readings := func(ps param.Values, cfg Config) (Config, error) {
		var errs []error
		pick := func(param string, names []string) int {
			w, ok := ps[param].(string)
			if !ok {
				return 0 // not a parameter of this scheduler: the default
			}
			i, err := parseWord(param, names, w)
			if err != nil {
				errs = append(errs, err)
			}
			return i
		}
		cfg.Rules.Victim = VictimRule(pick("victim", victimNames))
		cfg.Rules.Count = PLCount(pick("pl_count", plCountNames))
		cfg.Own = OwnLTS(pick("own_lts", ownLTSNames))
		cfg.Turnaround = LTSTurnaround(pick("lts_tn", turnaroundNames))
		return cfg, errors.Join(errs...)
	}
	build := func(base func(ps param.Values) Config) strategies.Factory {
		return func(b strategies.Build) (sim.Scheduler, error) {
			p, ps := b.Platform, b.Params
			cfg, err := readings(ps, base(ps))
			if err != nil {
				return nil, err
			}
			return New(p, cfg)
		}
	}
	flexible := []param.Spec{victim, ownLTS, ltsTN}
	return []strategies.Entry{
		{
			Name:    "2tsb",
			Summary: "two-tier strict backfilling (seed 004): each job of an arriving project at its earliest start, no reservation moves",
			New: func(b strategies.Build) (sim.Scheduler, error) {
				p := b.Platform
				return New(p, TSB())
			},
		},
		{
			Name:    "2tfb",
			Summary: "two-tier flexible backfilling, SF = 0 (seed 004): jobs may delay queued jobs without delaying any project's departure",
			Params:  flexible,
			New:     build(func(param.Values) Config { return TFB() }),
		},
		{
			Name:    "2tfb-sf",
			Summary: "two-tier flexible backfilling with slack factor SF and preemption limit PL (seed 004)",
			Params:  append([]param.Spec{sf(0.5), pl, plCount}, flexible...),
			New:     build(func(ps param.Values) Config { return TFBSF(ps.Float("sf"), ps.Int("pl")) }),
		},
		{
			Name:    "2tpb",
			Summary: "two-tier priority backfilling (seed 004): high-priority projects by 2TFB-SF with SF·(1−pi), the rest by 2TSB",
			Params:  append([]param.Spec{sf(0.5), pl, plCount}, flexible...),
			New:     build(func(ps param.Values) Config { return TPB(ps.Float("sf"), ps.Int("pl")) }),
		},
	}
}

// Models returns the family's workload model, seed004 (family.ModelOwner).
func (fam) Models() []models.Model { return []models.Model{WorkloadModel()} }

// The family.PlatformRunner of Output (projects).
func (fam) Output() models.Output                     { return Output }
func (fam) MetricNames() []string                     { return cellMetricNames() }
func (fam) Run(c family.Cell) (*family.Result, error) { return runCell(c) }
