package ktier

import (
	"github.com/schedfarm/schedfarm/families/consolidation"
	"github.com/schedfarm/schedfarm/family"
	"github.com/schedfarm/schedfarm/param"
	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/strategies"
)

// Family returns the K-tier VM family of seed 003: every node split into
// one foreground VM and K−1 background VMs (Sharing), and modified CMBF
// (Scheduler). Its workloads are the shared SWF models (FWload, JWload) and
// real traces, with seed 000's per-process CPU usage (workload.cpu_*).
func Family() family.Family { return fam{} }

type fam struct{}

// The capabilities the family has, checked by the compiler.
var (
	_ family.Family        = fam{}
	_ family.MetricNamer   = fam{}
	_ family.SuiteProvider = fam{}
)

func (fam) Name() string { return "ktier" }
func (fam) Doc() string {
	return "seed 003: K VMs per node (one foreground, K−1 background, CPU priority); modified CMBF with suspension of later backfilled jobs"
}

// Schedulers registers CMBF.
func (fam) Schedulers() []strategies.Entry {
	return []strategies.Entry{{
		Name:    "cmbf",
		Summary: "modified CMBF on K-tier VMs (seed 003): FCFS + backfilling to the foreground, later backfilled jobs suspended (progress kept) for an earlier one, background VMs below the threshold, background jobs promoted to any idle foreground VMs",
		Params: []param.Spec{
			{Name: "k", Kind: param.Int, Default: int64(4), Min: 1, Max: sim.MaxTiers,
				Doc: "VMs per node K: one foreground and K−1 background (1 = dedicated nodes: the paper's Basic CMBF; 2 = seed 000's platform)"},
			{Name: "threshold", Kind: param.Float, Default: DefaultThreshold, Min: 0.01, Max: 1,
				Doc: "foreground CPU usage at or above which a node's background VMs take no process (§3.2; seed 000: 96%)"},
			{Name: "migration_cost", Kind: param.Float, Default: DefaultMigrationCost, Min: 0, Max: 1e9,
				Doc: "seconds without progress of a background job promoted to other nodes' foreground VMs (§3.2's promotion; seed 003 names no cost: seed 000's 20 s)"},
		},
		New: func(b strategies.Build) (sim.Scheduler, error) {
			p, ps := b.Platform, b.Params
			return New(p, Config{Threshold: ps.Float("threshold"), MigrationCost: ps.Float("migration_cost")})
		},
		// Tiers marks a scheduler of VM tiers for the shared suite's random
		// workloads (run at K = 2); runs get K from the parameter k.
		Tiers:      2,
		Preemptive: true,
		Prepare:    prepare,
	}}
}

// prepare is CMBF's Entry.Prepare: K = k VMs per node with the K-tier
// sharing model and seed 000's per-process CPU usage, drawn as for the
// two-tier schedulers (consolidation.Tier: same streams, so CMBF at K = 2
// and MEASY see the same usages and overheads); K = 1 leaves dedicated
// nodes and the jobs without CPU usage.
func prepare(r *strategies.RunSetup) error {
	k := r.Params.Int("k")
	if k <= 1 {
		return nil
	}
	return consolidation.Tier(r, k, func(seed uint64) sim.Sharing { return NewSharing(seed) })
}

// ExtraMetricNames implements family.MetricNamer: CMBF reports its
// suspensions (Scheduler.ExtraMetrics).
func (fam) ExtraMetricNames() []string { return []string{MetricSuspensions} }
