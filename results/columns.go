package results

import (
	"strings"

	"github.com/schedfarm/schedfarm/runner"
)

// Fixed column names of the per-cell Parquet file (see the package doc).
const (
	ColExperiment  = "experiment"
	ColCellID      = "cell_id"
	ColCellIndex   = "cell_index"
	ColScheduler   = "scheduler"
	ColReplication = "replication"
	ColSeed        = "seed"
	ColStatus      = "status"
	ColError       = "error"
	ColWallSeconds = "wall_seconds"
	ColWorker      = "worker"
	ColVersion     = "schedfarm_version"
	ColGoVersion   = "go_version"
	ColGitCommit   = "git_commit"
	// ColPluginSHA256 is the SHA-256 of a scheduler plugin's executable
	// ("" for a built-in scheduler).
	ColPluginSHA256 = "plugin_sha256"
)

// Column name prefixes of parameter and metric columns.
const (
	ParamPrefix  = "p_"
	MetricPrefix = "m_"
)

// ParamColumn returns the column name of a dotted parameter name: "p_"
// followed by the name with every "." replaced by "__", so
// "workload.load" is "p_workload__load" and "scheduler.k" is
// "p_scheduler__k". Parameter names never contain "__", so the mapping is
// reversible (ParamName).
func ParamColumn(param string) string {
	return ParamPrefix + strings.ReplaceAll(param, ".", "__")
}

// ParamName is the inverse of ParamColumn; ok is false for other columns.
func ParamName(column string) (name string, ok bool) {
	rest, ok := strings.CutPrefix(column, ParamPrefix)
	if !ok || rest == "" {
		return "", false
	}
	return strings.ReplaceAll(rest, "__", "."), true
}

// MetricColumn returns the column name of a metric: "m_" + name, e.g.
// "m_wait_mean".
func MetricColumn(metric string) string { return MetricPrefix + metric }

// MetricName is the inverse of MetricColumn; ok is false for other columns.
func MetricName(column string) (name string, ok bool) {
	rest, ok := strings.CutPrefix(column, MetricPrefix)
	return rest, ok && rest != ""
}

// Record is one cell and its result: one row of the per-cell Parquet file
// and one line of the journal.
type Record struct {
	Cell   runner.Cell       `json:"cell"`
	Result runner.CellResult `json:"result"`
}

// Metric returns the value of the named metric and whether the record has
// it.
func (r *Record) Metric(name string) (float64, bool) {
	for _, m := range r.Result.Metrics {
		if m.Name == name {
			return m.Value, true
		}
	}
	return 0, false
}
