// Package results stores cell results as Parquet, reads them back, and
// summarises them (means, 95% confidence intervals, plots).
//
// # Per-cell Parquet file
//
// One row per cell, zstd-compressed, row groups of at most RowGroupRows
// rows, rows ordered by (experiment, cell index). Columns come in reading
// order (experiment, scheduler, p_*, replication, status, m_*, error, then
// bookkeeping and provenance); every column's unit and meaning are in the
// glossary (glossary.go: Describe), stored in the file's key-value
// metadata as MetaColumnPrefix+<column> and rendered as docs/columns.md.
// Columns (names are stable):
//
//	experiment         string  spec name
//	cell_id            string  experiments.CellID (16 hex digits)
//	cell_index         int64   position in the spec's expansion
//	scheduler          string  registry name
//	replication        int64   from 0
//	seed               uint64  experiments.CellSeed
//	status             string  "ok" or "failed"
//	error              string  error text of a failed cell ("" when ok)
//	wall_seconds       double  simulation wall time on the worker
//	worker             string  worker id
//	schedfarm_version  string  version of the worker binary
//	go_version         string  Go version of the worker binary
//	git_commit         string  build of the worker binary: its VCS revision,
//	                           or sha256:<hex> of the binary (buildinfo.Commit)
//	plugin_sha256      string  SHA-256 of a scheduler plugin's executable
//	                           ("" for a built-in scheduler)
//	p_<param>          typed   one per parameter, optional (null when a cell
//	                           lacks it, e.g. scheduler.k for fcfs)
//	m_<metric>         double  one per metric, optional (null for failed cells)
//
// A parameter column is named "p_" + the dotted parameter name with every
// "." replaced by "__": workload.load → p_workload__load, platform.procs →
// p_platform__procs, scheduler.k → p_scheduler__k,
// workload.generator.serial_prob → p_workload__generator__serial_prob. Its
// type is the parameter's kind: int64, double, string or boolean (a parameter
// mixing integers and floats is double; mixing numbers and words such as
// "unlimited" is string). A metric column is "m_" + the metric name, e.g.
// m_wait_mean, m_bsld_mean, m_utilization.
//
// # Per-job Parquet file (optional)
//
// cell_id, job_id, submit, start, end, procs, wait, bsld, state (see
// JobRow); jobs of one cell are contiguous, cells in cell order.
//
// # Crash safety and resume
//
// A Parquet file is only valid once its footer is written, so Writer never
// writes results into the Parquet file directly. Each Write appends one JSON
// line (a Record) to a journal next to the output, JournalPath(output) =
// "<output>.journal.jsonl", in a single write call: a killed process loses
// nothing that Write returned (a torn last line is cut off on the next
// Open). Flush and Close fsync the journal; Close, and Flush at most every
// Options.RewriteEvery (and never more often than ten times the last
// rebuild's duration, so large sweeps do not spend their time rewriting),
// rebuild the Parquet file from it into a temporary file that is renamed
// over the output. Reopening the
// same output resumes: Done (or ReadDone without opening) lists the cells
// finished with status ok, which a rerun skips; failed cells are retried.
// When a cell appears more than once, the last ok record wins over failures.
// If only the Parquet file exists, its rows seed a new journal first.
//
// # Summaries
//
// Summarise groups ok rows by (scheduler, plugin binary, parameters) across
// replications (a scheduler name that appears with several plugin binaries
// is shown as name@<first 12 hex digits of its SHA-256>)
// and computes per metric the mean and the 95% confidence half-width
// t(0.975, n−1)·s/√n (Student t, sample standard deviation s). Report and
// Plot print these and draw one chart per metric and axis.
package results
