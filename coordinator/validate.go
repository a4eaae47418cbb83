package coordinator

import (
	"cmp"
	"crypto/sha256"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"github.com/schedfarm/schedfarm/broker"
	"github.com/schedfarm/schedfarm/internal/wire"
	"github.com/schedfarm/schedfarm/runner"
)

// DefaultMaxResultBytes bounds a result message the coordinator decodes (a
// NATS server's max_payload is at most 64 MiB).
const DefaultMaxResultBytes = 64 << 20

// Limits on the free-text fields of a result.
const (
	maxErrorBytes = 64 << 10
	maxFieldBytes = 1 << 10
)

// maxRejections bounds Summary.Rejections; Summary.Rejected counts them all.
const maxRejections = 100

// Rejection is one message the coordinator refused to record: it was not
// a well-formed result of a cell this coordinator published.
type Rejection struct {
	// Subject is the message's subject.
	Subject string
	// CellID is the cell the message claims ("" when it did not decode).
	CellID string
	// Reason says what is wrong and what would have been accepted.
	Reason string
}

// metricName reports whether name is a metric name: lower-case letters,
// digits and '_', starting with a letter (^[a-z][a-z0-9_]*$). It and
// hexDigest are byte loops, not regular expressions: the coordinator
// checks every result's forty or so names (the two expressions were 1.8%
// of the farm benchmark's samples in the twenty-first session's profile,
// CheckResult as a whole 0.77% in the twenty-second's:
// docs/performance-log.md);
// TestNameChecksMatchTheExpressions holds them to the expressions.
func metricName(name string) bool {
	if name == "" || name[0] < 'a' || name[0] > 'z' {
		return false
	}
	for i := 1; i < len(name); i++ {
		if c := name[i]; !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// hexDigest reports whether s is a SHA-256 in lower-case hex
// (^[0-9a-f]{64}$).
func hexDigest(s string) bool {
	if len(s) != 64 {
		return false
	}
	for i := range len(s) {
		if c := s[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// DecodeResult decodes a result message strictly: at most maxBytes
// (DefaultMaxResultBytes when ≤ 0), valid UTF-8, one JSON object with the
// fields of runner.CellResult and no others, nothing after it. It
// does not check the values (CheckResult does).
func DecodeResult(data []byte, maxBytes int) (runner.CellResult, error) {
	if maxBytes <= 0 {
		maxBytes = DefaultMaxResultBytes
	}
	if len(data) <= maxBytes {
		// The form a worker writes, read without reflection; it decodes
		// to what the strict decoder would (runner.DecodeResultWire).
		if r, ok := runner.DecodeResultWire(data); ok {
			return r, nil
		}
	}
	return wire.DecodeStrict[runner.CellResult](data, maxBytes, "result", "runner.CellResult")
}

// CheckResult checks the values of a decoded result of the experiment
// that arrived on subject ("" skips the subject check): a cell id whose
// result subject it is, status ok or failed (failed with an error), finite
// numbers (metrics, wall time, per-job records), unique metric names of
// lower-case letters, digits and '_', the digest of the cell message, a
// jobs object named for this cell or per-job records but not both, and
// bounded text fields. The error lists every problem.
func CheckResult(r runner.CellResult, experiment, subject string) error {
	var errs []string
	bad := func(format string, args ...any) { errs = append(errs, fmt.Sprintf(format, args...)) }
	if r.CellID == "" {
		bad("cell_id: empty; accepted: the id of a cell of experiment %s", experiment)
	} else if subject != "" {
		if want := broker.ResultSubject(experiment, r.CellID); subject != want {
			bad("cell_id %s arrived on subject %s; accepted: its own subject %s", r.CellID, subject, want)
		}
	}
	switch r.Status {
	case runner.StatusOK:
	case runner.StatusFailed:
		if strings.TrimSpace(r.Error) == "" {
			bad("status failed without an error; accepted: the reason in error")
		}
	default:
		bad("status %q; accepted: %q or %q", r.Status, runner.StatusOK, runner.StatusFailed)
	}
	if len(r.Error) > maxErrorBytes {
		bad("error is %d bytes; accepted: at most %d", len(r.Error), maxErrorBytes)
	}
	for _, f := range []struct{ name, v string }{{"worker", r.Worker}, {"version", r.Version}, {"go_version", r.GoVersion}, {"commit", r.Commit}} {
		if len(f.v) > maxFieldBytes {
			bad("%s is %d bytes; accepted: at most %d", f.name, len(f.v), maxFieldBytes)
		}
	}
	if !finite(r.WallSeconds) || r.WallSeconds < 0 {
		bad("wall_seconds %v; accepted: a finite number ≥ 0", r.WallSeconds)
	}
	seen := map[string]bool{}
	for i, m := range r.Metrics {
		switch {
		case !metricName(m.Name):
			bad("metrics[%d]: name %q; accepted: lower-case letters, digits and '_', starting with a letter", i, m.Name)
		case seen[m.Name]:
			bad("metrics[%d]: %s repeats; accepted: each metric once", i, m.Name)
		case !finite(m.Value):
			bad("metrics[%d]: %s is %v; accepted: a finite number", i, m.Name, m.Value)
		}
		seen[m.Name] = true
	}
	if !hexDigest(r.CellDigest) {
		bad("cell_digest %q; accepted: the hex SHA-256 of the cell message the worker ran", r.CellDigest)
	}
	if r.JobsObject != "" {
		if len(r.Jobs) > 0 {
			bad("jobs and jobs_object both set; accepted: one of them")
		}
		if !jobsObjectFor(experiment, r.CellID, r.JobsObject) {
			bad("jobs_object %q; accepted: %s<stream sequence>", r.JobsObject, strings.TrimSuffix(broker.JobsObjectName(experiment, r.CellID, 0), "0"))
		}
	}
	if err := checkJobs(r.Jobs); err != nil {
		bad("%v", err)
	}
	if len(errs) > 0 {
		return errors.New(strings.Join(errs, "; "))
	}
	return nil
}

// checkJobs checks per-job records: finite times and a short state name.
func checkJobs(jobs []runner.JobRecord) error {
	for i, j := range jobs {
		for _, f := range []struct {
			name string
			v    float64
		}{{"submit", j.Submit}, {"start", j.Start}, {"end", j.End}, {"wait", j.Wait}, {"bsld", j.Bsld}} {
			if !finite(f.v) {
				return fmt.Errorf("jobs[%d].%s is %v; accepted: a finite number", i, f.name, f.v)
			}
		}
		if len(j.State) > 64 {
			return fmt.Errorf("jobs[%d].state is %d bytes; accepted: a job state name", i, len(j.State))
		}
	}
	return nil
}

// jobsObjectFor reports whether name is a jobs object of the cell
// (broker.JobsObjectName with some stream sequence).
func jobsObjectFor(experiment, cellID, name string) bool {
	prefix := strings.TrimSuffix(broker.JobsObjectName(experiment, cellID, 0), "0")
	seq, ok := strings.CutPrefix(name, prefix)
	if !ok || seq == "" || len(seq) > 20 {
		return false
	}
	for _, r := range seq {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

func finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }

// cellDigest is the SHA-256 of a cell message.
func cellDigest(data []byte) [32]byte { return sha256.Sum256(data) }

// CheckDataRoot reports whether workers whose data root mirrors root
// ("" for the working directory) can reach every file the cells name: the
// error groups the cells by problem, naming the first cell, the path and
// what is accepted. Run makes the same check before it publishes anything.
func CheckDataRoot(root string, cells []runner.Cell) error {
	abs, err := filepath.Abs(cmp.Or(root, "."))
	if err != nil {
		return fmt.Errorf("data root: %w", err)
	}
	var order []string
	count := map[string]int{}
	first := map[string]string{}
	for _, c := range cells {
		if _, err := wireCell(abs, c); err != nil {
			msg := err.Error()
			if count[msg] == 0 {
				order = append(order, msg)
				first[msg] = c.ID
			}
			count[msg]++
		}
	}
	var errs []error
	for _, msg := range order {
		if count[msg] == 1 {
			errs = append(errs, fmt.Errorf("cell %s: %s", first[msg], msg))
		} else {
			errs = append(errs, fmt.Errorf("cell %s and %d more: %s", first[msg], count[msg]-1, msg))
		}
	}
	return errors.Join(errs...)
}

// wireCell is the form of a cell published to workers: its Dir relative to
// the data root (slash-separated), or empty when the cell names no file.
// Every file a cell names must lie under root: a relative path (absolute
// paths are refused by workers) that stays inside it.
func wireCell(root string, c runner.Cell) (runner.Cell, error) {
	var files [][2]string
	for _, p := range c.Params {
		if p.Name == "workload.trace" {
			s, _ := p.Value.(string)
			files = append(files, [2]string{p.Name, s})
		}
	}
	if c.Plugin != nil {
		files = append(files, [2]string{"plugin", c.Plugin.Path})
	}
	if len(files) == 0 {
		c.Dir = ""
		return c, nil
	}
	dir := c.Dir
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(root, dir)
	}
	rel, err := filepath.Rel(root, dir)
	if err != nil || !filepath.IsLocal(rel) {
		return c, fmt.Errorf("the spec's directory %s is outside the data root %s; accepted: a spec under the data root (--data-root, default the working directory), which workers mirror", c.Dir, root)
	}
	for _, f := range files {
		if filepath.IsAbs(f[1]) {
			return c, fmt.Errorf("%s %q: an absolute path, which workers refuse; accepted: a path relative to the spec file, inside the data root %s", f[0], f[1], root)
		}
		if !filepath.IsLocal(filepath.Join(rel, f[1])) {
			return c, fmt.Errorf("%s %q: resolves to %s, outside the data root %s; accepted: files under the data root (--data-root, default the working directory), which workers mirror", f[0], f[1], filepath.Join(dir, f[1]), root)
		}
	}
	c.Dir = filepath.ToSlash(rel)
	return c, nil
}
