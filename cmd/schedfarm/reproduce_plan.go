package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/schedfarm/schedfarm/claims"
	"github.com/schedfarm/schedfarm/internal/yamlnode"
	"github.com/schedfarm/schedfarm/results"
)

// specPlan is one figure spec of a reproduce run: its rewritten YAML, its
// sequential design and the more_replications its undecided points have
// asked for so far.
type specPlan struct {
	specRun
	doc  []byte // the rewritten spec, without more_replications
	path string // where the spec to run is written
	log  string
	// more are the cells' targets, by claims.Want.Key.
	more map[string]claims.Want
	// ran is set once the spec has run in this invocation: its log is then
	// appended to, not started anew.
	ran bool
}

// planSpec rewrites a claims file's spec for the run (its quick edits
// with --quick, the schedule's first look as its replications) and sets
// its schedule: min from the claims file (default the spec's own
// replications), max from --max-replications or the claims file (default
// min). With --quick the cap is at most twice the first look.
func planSpec(f *claims.File, sp claims.Spec, o reproduceOpts) (*specPlan, error) {
	src := filepath.Join(filepath.Dir(f.Path), sp.Path)
	data, err := os.ReadFile(src)
	if err != nil {
		return nil, err
	}
	var edits []claims.Edit
	if o.quick {
		edits = sp.Quick
	}
	r := sp.Replications
	if r != nil && r.Min > 0 && !o.quick {
		edits = append(slices.Clone(edits), claims.Edit{Set: "replications", Value: r.Min})
	}
	name, rewritten, err := rewriteSpec(data, filepath.Dir(src), o.dir, filepath.Join(o.dir, "specs"), edits)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", src, err)
	}
	first, err := specReplications(rewritten)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", src, err)
	}
	sched := claims.Schedule{Min: first, Max: first}
	switch {
	case o.maxReps > 0:
		sched.Max = max(first, o.maxReps)
	case r != nil && r.Max > 0:
		sched.Max = max(first, r.Max)
	}
	if o.quick {
		sched.Max = min(sched.Max, 2*first)
	}
	pl := &specPlan{doc: rewritten, more: map[string]claims.Want{},
		path: filepath.Join(o.dir, "specs", name+".yaml"), log: filepath.Join(o.dir, name+".log")}
	pl.name, pl.output, pl.sched = name, filepath.Join(o.dir, name+".parquet"), sched
	for _, c := range f.Claims {
		for _, k := range append([]claims.Check{c.Check}, c.Checks...) {
			if k.Experiment == name && k.Metric != "" && !slices.Contains(pl.metrics, k.Metric) {
				pl.metrics = append(pl.metrics, k.Metric)
			}
		}
	}
	return pl, nil
}

// specReplications returns a spec's replications (1 when it gives none).
func specReplications(doc []byte) (int, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(doc, &root); err != nil {
		return 0, err
	}
	n := yamlnode.Get(root.Content[0], "replications")
	if n == nil {
		return 1, nil
	}
	v, err := strconv.Atoi(n.Value)
	if err != nil || v < 1 {
		return 0, fmt.Errorf("replications %q; accepted: an integer ≥ 1", n.Value)
	}
	return v, nil
}

// run runs the spec as it now stands (its first look, or the
// more_replications asked for since: the farm runs only the cells the
// journal lacks) and reads all its results; with judgeOnly it runs
// nothing and reads the earlier run's results and wall clock.
func (pl *specPlan) run(o reproduceOpts) error {
	if o.judgeOnly {
		wall, err := loggedWall(pl.log, pl.name)
		if err != nil {
			return err
		}
		pl.wall = wall
		if err := pl.judgeUnderLoggedSchedule(o); err != nil {
			return err
		}
	} else {
		doc, err := pl.specWithMore()
		if err != nil {
			return fmt.Errorf("%s: %w", pl.name, err)
		}
		if err := os.WriteFile(pl.path, doc, 0o644); err != nil {
			return err
		}
		mode := os.O_CREATE | os.O_WRONLY | os.O_TRUNC
		if pl.ran {
			mode = os.O_CREATE | os.O_WRONLY | os.O_APPEND
		}
		log, err := os.OpenFile(pl.log, mode, 0o644)
		if err != nil {
			return err
		}
		defer log.Close()
		if !pl.ran {
			if _, err := fmt.Fprintf(log, "%s%s: replications first look %d, cap %d\n", scheduleLinePrefix, pl.name, pl.sched.Min, pl.sched.Max); err != nil {
				return err
			}
		}
		pl.ran = true
		t0 := time.Now()
		flags := slices.Clone(o.runFlags)
		if o.stateDir != "" {
			flags = append(flags, "--state", filepath.Join(o.stateDir, pl.name))
		}
		if code := runRun(append(flags, pl.path), log, log); code != exitOK && code != exitCellsFailed { // failed cells are counted below
			return fmt.Errorf("%s: schedfarm run exited %d (see %s)", pl.name, code, log.Name())
		}
		pl.wall += time.Since(t0)
	}
	recs, err := results.ReadFile(pl.output)
	if err != nil {
		return err
	}
	pl.recs, pl.cells, pl.failed = recs, len(recs), 0
	rep0 := 0
	for _, rec := range recs {
		if rec.Result.Status != "ok" {
			pl.failed++
		}
		if rec.Cell.Replication == 0 {
			rep0++
		}
	}
	pl.atCap = rep0 * pl.sched.Max
	return nil
}

// scheduleLinePrefix starts the first line reproduce writes into a spec's
// log: the sequential design (first look, cap) its data were made under.
// --judge-only reads it back, because the design fixes α′ = α/L: the same
// data judged under another cap would spend α on looks that never
// happened, or on fewer than did.
const scheduleLinePrefix = "reproduce: sequential design of "

// loggedSchedule returns the sequential design the earlier run of the
// spec in logPath wrote; found is false for a log without one (written
// before the line existed).
func loggedSchedule(logPath, name string) (s claims.Schedule, found bool, err error) {
	data, err := os.ReadFile(logPath)
	if err != nil {
		return s, false, err
	}
	prefix := scheduleLinePrefix + name + ": "
	for i, line := range strings.Split(string(data), "\n") {
		if !strings.HasPrefix(line, prefix) {
			continue
		}
		if _, err := fmt.Sscanf(line[len(prefix):], "replications first look %d, cap %d", &s.Min, &s.Max); err != nil || s.Min < 1 || s.Max < s.Min {
			return claims.Schedule{}, false, fmt.Errorf("%s:%d: %q; accepted: \"%sreplications first look N, cap M\" with 1 ≤ N ≤ M", logPath, i+1, line, prefix)
		}
		return s, true, nil
	}
	return s, false, nil
}

// judgeUnderLoggedSchedule sets the plan's schedule to the one its earlier
// run used, read from its log (an explicit --max-replications with another
// cap was refused before, by refuseOtherCaps). A log without the line (a
// run made before it was written) keeps the schedule from the claims file
// and flags, with a warning.
func (pl *specPlan) judgeUnderLoggedSchedule(o reproduceOpts) error {
	logged, found, err := loggedSchedule(pl.log, pl.name)
	switch {
	case err != nil:
		return fmt.Errorf("%s: %w", pl.name, err)
	case !found:
		fmt.Fprintf(o.stderr, "schedfarm reproduce: %s: %s names no sequential design (a run made before reproduce wrote it); judged under replications first look %d, cap %d from the claims file and flags: pass the run's --max-replications if it had one\n", pl.name, pl.log, pl.sched.Min, pl.sched.Max)
	default:
		pl.sched = logged
	}
	return nil
}

// refuseOtherCaps, for --judge-only with --max-replications, returns an
// error naming the first spec whose earlier run used another cap (the data
// were made under the run's design), before anything is judged or
// written: a flag that cannot apply is a usage error, and the earlier
// run's report stays as it was. Specs without a run or without the logged
// design are left to the judging, which reports them.
func refuseOtherCaps(papers []*claims.File, o reproduceOpts) error {
	if !o.judgeOnly || o.maxReps == 0 {
		return nil
	}
	for _, f := range papers {
		for _, sp := range f.Specs {
			pl, err := planSpec(f, sp, o)
			if err != nil {
				continue
			}
			if logged, found, err := loggedSchedule(pl.log, pl.name); err == nil && found && logged.Max != pl.sched.Max {
				return fmt.Errorf("%s: its run's sequential design was replications first look %d, cap %d (%s), not the cap %d of --max-replications %d: its data judged under that cap would count looks that did not happen; accepted: no --max-replications (the run's design is used) or --max-replications %d", pl.name, logged.Min, logged.Max, pl.log, pl.sched.Max, o.maxReps, logged.Max)
			}
		}
	}
	return nil
}

// want adds the wants that concern this spec; it reports whether any
// raised a target.
func (pl *specPlan) want(ws []claims.Want) bool {
	raised := false
	for _, w := range ws {
		if w.Experiment != pl.name {
			continue
		}
		k := w.Key()
		if old, ok := pl.more[k]; !ok || old.Replications < w.Replications {
			pl.more[k] = w
			raised = true
		}
	}
	return raised
}

// moreCells returns the number of more_replications entries and
// topTarget the largest target among them (for the progress line).
func (pl *specPlan) moreCells() int { return len(pl.more) }

func (pl *specPlan) topTarget() int {
	n := 0
	for _, w := range pl.more {
		n = max(n, w.Replications)
	}
	return n
}

// specWithMore returns the spec with its more_replications entries, in the
// order of their keys.
func (pl *specPlan) specWithMore() ([]byte, error) {
	if len(pl.more) == 0 {
		return pl.doc, nil
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(pl.doc, &doc); err != nil {
		return nil, err
	}
	type entry struct {
		Where        map[string]any `yaml:"where"`
		Replications int            `yaml:"replications"`
	}
	var entries []entry
	for _, k := range claims.SortedKeys(pl.more) {
		w := pl.more[k]
		entries = append(entries, entry{Where: w.Where, Replications: w.Replications})
	}
	var val yaml.Node
	if err := val.Encode(entries); err != nil {
		return nil, err
	}
	yamlnode.Set(doc.Content[0], "more_replications", &val)
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(&doc); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
