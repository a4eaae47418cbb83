package results

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/schedfarm/schedfarm/families"
	"github.com/schedfarm/schedfarm/families/stms"
	"github.com/schedfarm/schedfarm/runner"
	"github.com/schedfarm/schedfarm/strategies"
)

// ColumnDoc is what a column holds: its unit ("s" for seconds of
// simulated time, "count", "ratio", "fraction 0–1", "—" for a label, …)
// and its meaning.
type ColumnDoc struct {
	Unit    string `json:"unit"`
	Meaning string `json:"meaning"`
}

// The glossary is one table, name → ColumnDoc, for the fixed columns
// (fixedDocs), the metrics (metricDocs, by metric name) and the
// parameters of the spec itself (paramDocs, by dotted name). The
// parameters of schedulers and workload models take their meaning from
// the registries' ParamSpec.Doc. Describe looks a column up; the Parquet
// writer stores each column's entry in the file's key-value metadata
// (MetaColumnPrefix + column), and docs/columns.md is generated from the
// same table (ColumnsMarkdown). A typed parameter model that declares
// units can feed paramDocs later without changing any of its readers.

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
	"throughput":         {"jobs/h", "seed002: finished jobs per hour of makespan"},
	"jfr":                {uFrac, "seed002 JFR: share of finished jobs ending after their deadline"},
	"ijf":                {uRatio, "seed002 IJF (eq. 9): 1 − standard deviation of the per-batch JFR"},
	"cost_overhead":      {"flops/s (weighted)", "seed002 eq. 11: Σ_k RA_k · √(t_c^k / 1 h) / m over the m resources used (RA in flops/s)"},
	"cost_effectiveness": {"percentage points", "seed002 eq. 12: (v_i · c_s / c_i − v_s) · 100 against STMS's run of the same cell (0 for STMS)"},
	"failures":           {uCount, "seed002: resource failures that hit a running job"},
	"preemptions":        {uCount, "seed002: jobs preempted by a migrant (SP-STMS)"},
	"fallbacks":          {uCount, "seed002: migrations with no backup left in the job's chain"},
	"batches":            {uCount, "seed002: mGA batches mapped"},
	"windows":            {uCount, "seed002: Min-Min (sliding-window) groups mapped"},
	"cycles":             {uCount, "seed002: scheduling cycles"},
	"condition1":         {uCount, "seed002: committed jobs whose PET exceeds α × their slot (Condition 1)"},
	"plan_gain":          {uFrac, "seed002: mean relative reduction of the planned batch makespan by the mGA against its Min-Min template"},
	"transfer_mean":      {"s", "seed002: mean migration delay per migration"},
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

var paramDocs = map[string]ColumnDoc{
	"platform.procs":           {"processors", "machine size (for VM tiers: physical processors)"},
	"workload.load":            {uFrac, "target offered load: submit times are scaled to reach it (see m_load_factor, m_offered_load)"},
	"workload.jobs":            {uCount, "jobs read from the trace or generated (0: all)"},
	"workload.warmup":          {uCount, "first jobs left out of the distributions (still simulated)"},
	"workload.trace":           {"—", "SWF trace file, relative to the spec's directory"},
	"workload.estimates":       {"—", "runtime estimates the scheduler sees: exact, user (requested time) or pyss"},
	"workload.overrun":         {"—", "a job running past its estimate: kill (at the requested time) or extend"},
	"workload.lenient":         {"—", "skip (and count) malformed SWF lines instead of failing"},
	"workload.user_estimates":  {"—", "model drawing user estimates onto the trace (tsafrir05)"},
	"workload.max_estimate":    {"s", "largest user estimate the estimate model draws"},
	"workload.est_bins":        {"—", "user-estimate bins, seconds=percent pairs (tsafrir05 -b)"},
	"workload.generator.model": {"—", "synthetic workload model (schedfarm workload models)"},
	"workload.cpu_usage":       {uFrac, "seed 000: mean per-process CPU usage (1 = every process at 100%, §3.5.2)"},
	"workload.cpu_estimate":    {"—", "seed 000: the CPU-usage information a VM-tier scheduler sees: exact, noisy or none"},
	"workload.cpu_error":       {uFrac, "seed 000: relative error of noisy CPU-usage estimates"},
}

// Describe returns the glossary entry of a column of the per-cell Parquet
// file; ok is false for a column the glossary does not know.
func Describe(column string) (ColumnDoc, bool) {
	for _, f := range fixedDocs {
		if f.name == column {
			return f.doc, true
		}
	}
	if m, ok := MetricName(column); ok {
		return describeMetric(m)
	}
	if p, ok := ParamName(column); ok {
		return describeParam(p)
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

func describeParam(p string) (ColumnDoc, bool) {
	if d, ok := paramDocs[p]; ok {
		return d, true
	}
	if name, ok := strings.CutPrefix(p, "workload.generator."); ok {
		return fromSpecs(p, modelParamDocs(name))
	}
	if rest, ok := strings.CutPrefix(p, "scheduler."); ok {
		sched, name, scoped := strings.Cut(rest, ".")
		if !scoped {
			name, sched = rest, ""
		}
		return fromSpecs(p, schedulerParamDocs(sched, name))
	}
	return ColumnDoc{}, false
}

// fromSpecs makes an entry from the docs the registries give a parameter
// ("owner: doc"); their ParamSpecs declare no unit, so the meaning states
// it where the doc does.
func fromSpecs(p string, docs []string) (ColumnDoc, bool) {
	if len(docs) == 0 {
		return ColumnDoc{}, false
	}
	return ColumnDoc{Unit: unitInMeaning, Meaning: strings.Join(docs, "; ")}, true
}

// schedulerEntries lists every scheduler entry: the registry's and those of
// seed 002's grid, which its platform builds per cell (stms.Entries).
func schedulerEntries() []strategies.Entry {
	reg := families.Schedulers()
	var out []strategies.Entry
	for _, s := range reg.Names() {
		if e, err := reg.Lookup(s); err == nil {
			out = append(out, e)
		}
	}
	return append(out, stms.Registry().Entries()...)
}

func schedulerParamDocs(sched, name string) []string {
	var docs []string
	owners := map[string][]string{}
	for _, e := range schedulerEntries() {
		if sched != "" && e.Name != sched {
			continue
		}
		for _, ps := range e.Params {
			if ps.Name != name {
				continue
			}
			d := cmpOr(ps.Doc, "(no description)")
			if owners[d] == nil {
				docs = append(docs, d)
			}
			owners[d] = append(owners[d], e.Name)
		}
	}
	var out []string
	for _, d := range docs {
		out = append(out, fmt.Sprintf("scheduler parameter of %s: %s", strings.Join(owners[d], ", "), d))
	}
	if sched != "" && len(out) == 0 { // a plugin's parameter: described by the plugin
		out = append(out, fmt.Sprintf("parameter %s of the scheduler %s (a plugin's parameters are described by the plugin)", name, sched))
	}
	return out
}

func modelParamDocs(name string) []string {
	reg := families.Models()
	var out []string
	seen := map[string]bool{}
	for _, m := range reg.Names() {
		for _, ps := range reg.Specs(m) {
			if ps.Name == name && !seen[ps.Doc] {
				seen[ps.Doc] = true
				out = append(out, fmt.Sprintf("model %s: %s", m, cmpOr(ps.Doc, "(no description)")))
			}
		}
	}
	return out
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// columnMeta returns the key-value metadata entries of cols: one per
// column, MetaColumnPrefix + name → its ColumnDoc as JSON.
func columnMeta(cols []column) map[string]string {
	out := map[string]string{}
	for _, c := range cols {
		d, ok := Describe(c.name)
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
func AllMetricNames() ([]string, map[string][]string) {
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
	add(append(runner.MetricNames(), families.ExtraMetricNames()...), "swf")
	outs := map[string]bool{}
	for _, m := range families.Models().Names() {
		if o, ok := families.Models().OutputOf(m); ok {
			outs[o.String()] = true
		}
	}
	var os []string
	for o := range outs {
		os = append(os, o)
	}
	sort.Strings(os)
	for _, o := range os {
		add(runner.ModelMetricNames(o), o)
	}
	return order, where
}

// ColumnsMarkdown renders the glossary as docs/columns.md.
func ColumnsMarkdown() string {
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
	var ps []string
	for p := range paramDocs {
		ps = append(ps, p)
	}
	sort.Strings(ps)
	for _, p := range ps {
		d := paramDocs[p]
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", ParamColumn(p), d.Unit, esc(d.Meaning))
	}
	b.WriteString("\nScheduler parameters (`p_scheduler__<param>`, or `p_scheduler__<scheduler>__<param>` on one scheduler's own axis) and workload-model parameters (`p_workload__generator__<param>`) carry the description of the registry that defines them (`schedfarm schedulers`, `schedfarm workload models`), which states their unit; the registries declare no unit field yet, so the unit column there reads \"as its meaning says\".\n\n")
	b.WriteString("## Metrics (`m_<metric>`, double; null for a failed cell)\n\n| column | unit | meaning | reported for |\n|---|---|---|---|\n")
	names, where := AllMetricNames()
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
