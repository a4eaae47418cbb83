package results

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/schedfarm/schedfarm/families"
	"github.com/schedfarm/schedfarm/param"
	"github.com/schedfarm/schedfarm/runner"
)

// ColumnDoc is what a column holds: its unit ("s" for seconds of
// simulated time, "count", "ratio", "fraction 0–1", "—" for a label, …)
// and its meaning.
type ColumnDoc struct {
	Unit    string `json:"unit"`
	Meaning string `json:"meaning"`
}

// Glossary is one lookup, column name → ColumnDoc: the fixed columns
// (fixedDocs), the metrics (metricDocs, by metric name), and the
// parameters — every one declared with the one parameter model
// (param.Spec: Doc and Unit): the spec's own fields (runner.Fields), the
// families' workload fields, the schedulers' and the workload models'
// parameters, all from the family catalog it is built with.
// Describe looks a column up; the Parquet writer stores each column's
// entry in the file's key-value metadata (MetaColumnPrefix + column), the
// report's plots label their axes with the units, and docs/columns.md is
// generated from the same lookup (ColumnsMarkdown).
type Glossary struct {
	cat *families.Catalog
}

// NewGlossary returns the glossary of cat's families; a nil cat knows the
// fixed columns, the runner's fields and metrics, and no family's.
func NewGlossary(cat *families.Catalog) *Glossary { return &Glossary{cat: cat} }

// MetaColumnPrefix starts the Parquet key-value metadata key of a column's
// glossary entry: "schedfarm.column.m_wait_mean" holds
// {"unit":"s","meaning":"…"}.
const MetaColumnPrefix = "schedfarm.column."

var fixedDocs = []struct {
	name string
	doc  ColumnDoc
}{
	{ColExperiment, ColumnDoc{"—", "the spec's name"}},
	{ColScheduler, ColumnDoc{"—", "scheduler name as registered (schedfarm schedulers), or a plugin's name"}},
	{ColReplication, ColumnDoc{"index", "replication number, from 0; cells of one grid point and replication share their workload and random draws across schedulers (a paired comparison)"}},
	{ColStatus, ColumnDoc{"—", `"ok", or "failed" (then every m_ column is null and error says why)`}},
	{ColError, ColumnDoc{"—", `why the cell failed ("" when ok)`}},
	{ColCellID, ColumnDoc{"—", "the cell's stable ID: 16 hex digits hashing its experiment, parameters and replication"}},
	{ColCellIndex, ColumnDoc{"index", "the cell's position in the spec's expansion"}},
	{ColSeed, ColumnDoc{"—", "the cell's random seed, derived from experiment name, base seed, parameters (not the scheduler) and replication"}},
	{ColWallSeconds, ColumnDoc{"s (wall clock)", "time the worker spent simulating the cell"}},
	{ColWorker, ColumnDoc{"—", "the worker (host-pid/slot) that ran the cell"}},
	{ColVersion, ColumnDoc{"—", "schedfarm version of the worker binary"}},
	{ColGoVersion, ColumnDoc{"—", "Go version the worker binary was built with"}},
	{ColGitCommit, ColumnDoc{"—", `build of the worker binary: the git commit it was built from ("<commit>-dirty+sha256:<16 hex>" for a modified tree), or "sha256:<hex>" of the binary where no commit was stamped (go run, go test)`}},
	{ColPluginSHA256, ColumnDoc{"—", `SHA-256 of a scheduler plugin's executable ("" for a built-in scheduler)`}},
}

// Units used below.
const (
	uCount = "count"
	uSec   = "s"
	uRatio = "ratio"
	uFrac  = "fraction 0–1"
	// unitInMeaning: a registry parameter, whose unit its doc states.
	unitInMeaning = "as its meaning says"
)

const timeNote = " (seconds for trace and SWF-model workloads; seed001 and seed004 cells count in their model's time units)"

var metricDocs = map[string]ColumnDoc{
	"jobs":         {uCount, "jobs in the cell's workload"},
	"measured":     {uCount, "jobs that ran and count in the distributions (after the warm-up jobs)"},
	"finished":     {uCount, "jobs that ran to their end (seed001: ended by their deadline)"},
	"killed":       {uCount, "jobs killed at their requested time (estimates user, overrun kill)"},
	"rejected":     {uCount, "jobs the scheduler rejected (e.g. larger than the machine)"},
	"dropped":      {uCount, "trace records dropped by the estimate semantics (unknown runtime or size)"},
	"altered":      {uCount, "trace records altered by the estimate semantics (e.g. pyss's runtime ≤ 0 → 1 s)"},
	"backfilled":   {uCount, "jobs started ahead of an earlier-submitted waiting job"},
	"utilization":  {uFrac, "busy capacity over capacity × makespan (SWF: used processor-seconds of the first pool; seed001: VM time held; seed002: resource busy time, wasted runs included)"},
	"makespan":     {uSec, "last end − first submit" + timeNote},
	"offered_load": {uFrac, "offered load of the simulated workload: Σ runtime × processors / (processors × submit span); seed002: Σ work / (Σ speed × submit span)"},
	"load_factor":  {uRatio, "factor applied to the interarrival times to reach workload.load (submit times × load_factor; > 1 spreads arrivals out, lowering the load; 1 when no load was asked)"},
	"migrations":   {uCount, "job relocations to other processors with progress kept (MEASY on VM tiers; seed002: state migrations); 0 elsewhere"},
	"restarts":     {uCount, "jobs killed and restarted from scratch elsewhere (KEASY on VM tiers; seed002: in-place restarts); 0 elsewhere"},
	"swaps":        {uCount, "tier changes of a job on its own processors (background → foreground on VM tiers); 0 elsewhere"},
	"suspensions":  {uCount, "jobs suspended by CMBF to make room (seed 003; null for other schedulers)"},
	// seed001 (multi-attribute cloud)
	"ufj":            {uCount, "seed001 UFJ: unfinished jobs (not ended by their deadline)"},
	"infeasible":     {uCount, "seed001: unfinished jobs no VMs could have finished in time even at arrival (the same for every scheduler)"},
	"finished_ratio": {uFrac, "seed001: finished / jobs"},
	"ave":            {"model time units", "seed001 AVE: mean end − submit of the finished jobs (execution including waiting)"},
	"awt":            {"model time units", "seed001 AWT: mean wait of the finished jobs"},
	"run_mean":       {"model time units", "seed001: mean time computing of the finished jobs"},
	"sin":            {"instructions", "seed001 SIN: total instructions of the finished jobs"},
	"vms_per_task":   {uRatio, "seed001: mean VMs a finished job's task held (> 1 only under Fair)"},
	// seed002 (state-tracking migration)
	"throughput":             {"jobs/h", "seed002: finished jobs per hour of makespan"},
	"jfr":                    {uFrac, "seed002 JFR: share of finished jobs ending after their deadline"},
	"ijf":                    {uRatio, "seed002 IJF (eq. 9): 1 − standard deviation of the per-batch JFR"},
	"cost_overhead":          {"flops/s (weighted)", "seed002 eq. 11: Σ_k RA_k · √(t_c^k / 1 h) / m over the m resources used (RA in flops/s)"},
	"cost_effectiveness":     {"percentage points", "seed002 eq. 12: (v_i · c_s / c_i − v_s) · 100 against STMS's run of the same cell (0 for STMS)"},
	"cost_effectiveness_rel": {"percent", "seed002 eq. 12 relative to STMS's utilisation: (v_i · c_s / (c_i · v_s) − 1) · 100, the percent improvement in utilisation per unit cost over STMS's (0 for STMS)"},
	"drain_time":             {uSec, "seed002: last end − last submit"},
	"void_fills":             {uCount, "seed002: IRS-ruled jobs IR-STMS started early in a void (irs_fill voids)"},
	"failures":               {uCount, "seed002: resource failures that hit a running job"},
	"preemptions":            {uCount, "seed002: jobs preempted by a migrant (SP-STMS)"},
	"fallbacks":              {uCount, "seed002: migrations with no backup left in the job's chain"},
	"batches":                {uCount, "seed002: mGA batches mapped"},
	"windows":                {uCount, "seed002: Min-Min (sliding-window) groups mapped"},
	"cycles":                 {uCount, "seed002: scheduling cycles"},
	"condition1":             {uCount, "seed002: committed jobs whose PET exceeds α × their slot (Condition 1)"},
	"plan_gain":              {uFrac, "seed002: mean relative reduction of the planned batch makespan by the mGA against its Min-Min template"},
	"transfer_mean":          {"s", "seed002: mean migration delay per migration"},
	// seed004 (two-tier projects)
	"projects":          {uCount, "seed004: projects in the workload"},
	"projects_rejected": {uCount, "seed004: projects rejected"},
	"pta":               {"model time units", "seed004 PTA (eq. 6): mean project turn-around time"},
	"jta":               {"model time units", "seed004 JTA (eq. 8): mean job turn-around time"},
	"project_wait_mean": {"model time units", "seed004: mean project waiting time (first job start − project submit)"},
	"project_run_mean":  {"model time units", "seed004: mean project running time (last job end − first job start)"},
	"projects_high":     {uCount, "seed004: projects of the high-priority class (2TPB)"},
	"pta_high":          {"model time units", "seed004: PTA of the high-priority projects"},
	"projects_low":      {uCount, "seed004: projects of the low-priority class"},
	"pta_low":           {"model time units", "seed004: PTA of the low-priority projects"},
}

// distDocs describes the per-job distributions: <q>_{mean,median,p95,max}.
var distDocs = map[string]ColumnDoc{
	"wait":     {uSec, "wait: start − submit" + timeNote},
	"response": {uSec, "response: end − submit" + timeNote},
	"slowdown": {uRatio, "slowdown: response / runtime (a runtime of 0 counts as 1 s)"},
	"bsld":     {uRatio, "bounded slowdown: max(1, response / max(runtime, Γ)), Γ = 10 s (seed001: 1 time unit); heavy-tailed"},
}

var statWords = map[string]string{"mean": "mean", "median": "median", "p95": "95th percentile (nearest rank)", "max": "maximum"}

// modelParamDoc is the one parameter column no table declares: the
// generator's model name.
var modelParamDoc = ColumnDoc{"—", "synthetic workload model (schedfarm workload models)"}

// Describe returns the glossary entry of a column of the per-cell Parquet
// file; ok is false for a column the glossary does not know.
func (g *Glossary) Describe(column string) (ColumnDoc, bool) {
	for _, f := range fixedDocs {
		if f.name == column {
			return f.doc, true
		}
	}
	if m, ok := MetricName(column); ok {
		return describeMetric(m)
	}
	if p, ok := ParamName(column); ok {
		return g.describeParam(p)
	}
	return ColumnDoc{}, false
}

func describeMetric(m string) (ColumnDoc, bool) {
	if d, ok := metricDocs[m]; ok {
		return d, true
	}
	if i := strings.LastIndexByte(m, '_'); i > 0 {
		q, stat := m[:i], m[i+1:]
		word, okStat := statWords[stat]
		if d, ok := distDocs[q]; ok && okStat {
			return ColumnDoc{Unit: d.Unit, Meaning: word + " over the measured jobs of " + d.Meaning}, true
		}
	}
	return ColumnDoc{}, false
}

func (g *Glossary) describeParam(p string) (ColumnDoc, bool) {
	if p == "workload.generator.model" {
		return modelParamDoc, true
	}
	for _, f := range g.fields() {
		if f.Name == p {
			return ColumnDoc{Unit: cmpOr(f.Unit, unitInMeaning), Meaning: f.Doc}, true
		}
	}
	if name, ok := strings.CutPrefix(p, "workload.generator."); ok {
		return fromSpecs(g.modelParamDocs(name))
	}
	if rest, ok := strings.CutPrefix(p, "scheduler."); ok {
		sched, name, scoped := strings.Cut(rest, ".")
		if !scoped {
			name, sched = rest, ""
		}
		return fromSpecs(g.schedulerParamDocs(sched, name))
	}
	return ColumnDoc{}, false
}

// fields are the spec's own fields and the families' workload fields.
func (g *Glossary) fields() []param.Spec {
	var out []param.Spec
	for _, f := range runner.Fields() {
		out = append(out, f.Spec)
	}
	if g.cat != nil {
		out = append(out, g.cat.WorkloadFields()...)
	}
	return out
}

// ownerDoc is a parameter's description by one or more owners (schedulers
// or models declaring the same doc), and its unit.
type ownerDoc struct {
	owners []string
	doc    string
	unit   string
}

// fromSpecs makes an entry from the declarations of a parameter: the
// unit when they all declare the same (else "as its meaning says"), the
// meanings joined.
func fromSpecs(docs []string, units []string) (ColumnDoc, bool) {
	if len(docs) == 0 {
		return ColumnDoc{}, false
	}
	unit := ""
	for i, u := range units {
		if i > 0 && u != unit {
			unit = ""
			break
		}
		unit = u
	}
	return ColumnDoc{Unit: cmpOr(unit, unitInMeaning), Meaning: strings.Join(docs, "; ")}, true
}

// schedulerParamDocs returns the docs and units every scheduler (the one
// named, when sched is set) declares for parameter name.
func (g *Glossary) schedulerParamDocs(sched, name string) ([]string, []string) {
	var docs []ownerDoc
	if g.cat != nil {
		for _, e := range g.cat.Schedulers().Entries() {
			if sched != "" && e.Name != sched {
				continue
			}
			s, ok := param.Find(e.Params, name)
			if !ok {
				continue
			}
			d := cmpOr(s.Doc, "(no description)")
			if i := slices.IndexFunc(docs, func(o ownerDoc) bool { return o.doc == d }); i >= 0 {
				docs[i].owners = append(docs[i].owners, e.Name)
				continue
			}
			docs = append(docs, ownerDoc{owners: []string{e.Name}, doc: d, unit: s.Unit})
		}
	}
	var out, units []string
	for _, d := range docs {
		out = append(out, fmt.Sprintf("scheduler parameter of %s: %s", strings.Join(d.owners, ", "), d.doc))
		units = append(units, d.unit)
	}
	if sched != "" && len(out) == 0 { // a plugin's parameter: described by the plugin
		out = append(out, fmt.Sprintf("parameter %s of the scheduler %s (a plugin's parameters are described by the plugin)", name, sched))
		units = append(units, "")
	}
	return out, units
}

// modelParamDocs returns the docs and units the workload models declare
// for parameter name.
func (g *Glossary) modelParamDocs(name string) ([]string, []string) {
	if g.cat == nil {
		return nil, nil
	}
	reg := g.cat.Models()
	var out, units []string
	seen := map[string]bool{}
	for _, m := range reg.Names() {
		for _, ps := range reg.Specs(m) {
			if ps.Name == name && !seen[ps.Doc] {
				seen[ps.Doc] = true
				out = append(out, fmt.Sprintf("model %s: %s", m, cmpOr(ps.Doc, "(no description)")))
				units = append(units, ps.Unit)
			}
		}
	}
	return out, units
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// columnMeta returns the key-value metadata entries of cols: one per
// column, MetaColumnPrefix + name → its ColumnDoc as JSON.
func (g *Glossary) columnMeta(cols []column) map[string]string {
	out := map[string]string{}
	for _, c := range cols {
		d, ok := g.Describe(c.name)
		if !ok {
			d = ColumnDoc{Unit: "unknown", Meaning: "not in the glossary (results/glossary.go)"}
		}
		b, _ := json.Marshal(d)
		out[MetaColumnPrefix+c.name] = string(b)
	}
	return out
}

// AllMetricNames lists every metric any cell can report, each with the
// workloads that report it ("swf" for traces and SWF models, else the
// output of a family's own platform), in a stable order.
func (g *Glossary) AllMetricNames() ([]string, map[string][]string) {
	where := map[string][]string{}
	var order []string
	add := func(names []string, w string) {
		for _, n := range names {
			if where[n] == nil {
				order = append(order, n)
			}
			if !slices.Contains(where[n], w) {
				where[n] = append(where[n], w)
			}
		}
	}
	if g.cat == nil {
		add(runner.MetricNames(), "swf")
		return order, where
	}
	add(append(runner.MetricNames(), g.cat.ExtraMetricNames()...), "swf")
	for _, o := range g.cat.Outputs() {
		if pr, ok := g.cat.PlatformRunner(o); ok {
			add(pr.MetricNames(), o.String())
		}
	}
	return order, where
}

// ColumnsMarkdown renders the glossary as docs/columns.md.
func (g *Glossary) ColumnsMarkdown() string {
	var b strings.Builder
	b.WriteString("<!-- generated from results/glossary.go by `SCHEDFARM_UPDATE_DOCS=1 go test ./results -run TestColumnsDoc`; do not edit -->\n")
	b.WriteString("# Columns of the results Parquet file\n\n")
	b.WriteString("One row per cell. The same entries are in every file's key-value metadata, one key per column: `" + MetaColumnPrefix + "<column>` = `{\"unit\": …, \"meaning\": …}` (pandas: `pyarrow.parquet.read_schema(path).metadata`; DuckDB: `select * from parquet_kv_metadata('quickstart.parquet')`).\n\n")
	b.WriteString("Columns come in this order: experiment, scheduler, the `p_` parameters, replication, status, the `m_` metrics, error, then bookkeeping and provenance.\n\n")
	b.WriteString("## Fixed columns\n\n| column | unit | meaning |\n|---|---|---|\n")
	for _, f := range fixedDocs {
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", f.name, f.doc.Unit, esc(f.doc.Meaning))
	}
	b.WriteString("\n## Parameters (`p_<dotted name with . as __>`)\n\nOne column per parameter a cell has (null where a cell lacks it, e.g. `p_scheduler__k` for `fcfs`), typed int64, double, string or boolean. The spec's own fields:\n\n| column | unit | meaning |\n|---|---|---|\n")
	ps := []string{"workload.generator.model"}
	for _, f := range g.fields() {
		ps = append(ps, f.Name)
	}
	sort.Strings(ps)
	for _, p := range ps {
		d, _ := g.describeParam(p)
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", ParamColumn(p), d.Unit, esc(d.Meaning))
	}
	b.WriteString("\nScheduler parameters (`p_scheduler__<param>`, or `p_scheduler__<scheduler>__<param>` on one scheduler's own axis) and workload-model parameters (`p_workload__generator__<param>`) carry the description and unit their declaration gives (param.Spec: `schedfarm schedulers`, `schedfarm workload models`); where a declaration gives no unit, or declarations of one name disagree, the unit column reads \"as its meaning says\".\n\n")
	b.WriteString("## Metrics (`m_<metric>`, double; null for a failed cell)\n\n| column | unit | meaning | reported for |\n|---|---|---|---|\n")
	names, where := g.AllMetricNames()
	for _, n := range names {
		d, _ := describeMetric(n)
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", MetricColumn(n), d.Unit, esc(d.Meaning), strings.Join(where[n], ", "))
	}
	b.WriteString("\n\"reported for\": `swf` is every trace or SWF-model workload (lublin99, fwload, jwload); `cloud` is seed 001's model, `grid` seed 002's, `projects` seed 004's. A metric a scheduler does not report (`m_suspensions` outside CMBF) is null.\n")
	return b.String()
}

func esc(s string) string {
	return strings.NewReplacer("|", "\\|", "<", "&lt;", ">", "&gt;").Replace(s)
}
