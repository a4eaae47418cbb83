package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/schedfarm/schedfarm/claims"
	"github.com/schedfarm/schedfarm/internal/yamlnode"
	"github.com/schedfarm/schedfarm/results"
	"github.com/schedfarm/schedfarm/worker"
)

// claimsDir is where the papers' claims files live, relative to a checkout.
const claimsDir = "experiments/claims"

// runReproduce implements "schedfarm reproduce [--quick] [paper…]": it
// runs every figure spec of the chosen papers' claims files on the farm,
// judges every claim and writes REPRODUCTION.md with the verdicts and
// plots.
func runReproduce(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("reproduce", flag.ContinueOnError)
	fs.SetOutput(stderr)
	quick := fs.Bool("quick", false, "the specs' quick versions: fewer jobs and replications, the same structure (a smoke test of the pipeline; its verdicts mean little)")
	out := fs.String("o", "", "output directory (default reproduction/, or reproduction-quick/ with --quick)")
	workers := fs.Int("workers", runtime.NumCPU(), "cells simulated at once in this process, shared by the specs run side by side (0 with --nats: only remote workers)")
	natsURL := fs.String("nats", os.Getenv("SCHEDFARM_NATS"), "NATS server URL of a farm to run on (credentials as for run, from the environment); default: an embedded server")
	var dataRoot string
	registerDataRoot(fs, &dataRoot)
	judgeOnly := fs.Bool("judge-only", false, "run nothing: judge the claims again from an earlier run's results in the output directory (after a claims file's causes or bands changed), each spec under the sequential design (first look, cap) its run used, read from its log; the wall clocks reported are that run's, read from the same log")
	specsAtOnce := fs.Int("specs-at-once", 2, "specs run side by side, of one paper or, while a paper waits for its last spec before judging, of the next, sharing the --workers cells at once, so that one spec's last, longest cells do not leave the cores idle (embedded server only: 1 with --nats)")
	maxReps := fs.Int("max-replications", 0, "cap on the replications undecided points may reach, for every spec (0: each claims file's specs[].replications.max; the first look only where it gives none)")
	before := fs.String("before", "", "an earlier run's verdicts.json: the report adds a before → after table of the verdicts, each change attributed to the rule or to the results")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of this process to this file for go tool pprof: every spec's cells (simulated in this process), the coordinators, the embedded server and the judging")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: schedfarm reproduce [--quick] [-o dir] [--workers N] [--nats URL] [paper…]")
		fmt.Fprintln(stderr, "  paper: a claims file, or its name in "+claimsDir+" (e.g. seed002); default: every one there")
		fs.PrintDefaults()
	}
	pos, exit := farmParseArgs(fs, args, stdout)
	if exit >= 0 {
		return exit
	}
	if *specsAtOnce < 1 {
		fmt.Fprintf(stderr, "schedfarm reproduce: --specs-at-once %d; accepted: 1 or more\n", *specsAtOnce)
		return 2
	}
	if *maxReps < 0 || *maxReps == 1 {
		fmt.Fprintf(stderr, "schedfarm reproduce: --max-replications %d; accepted: 0 (the claims files' caps) or at least 2\n", *maxReps)
		return 2
	}
	if *cpuProfile != "" {
		stopProfile, err := startCPUProfile(*cpuProfile, worker.Budget{})
		if err != nil {
			fmt.Fprintf(stderr, "schedfarm reproduce: --cpuprofile %s: %v\n", *cpuProfile, err)
			return 2
		}
		defer stopProfile()
	}
	var earlier []claims.Verdicts
	if *before != "" {
		var err error
		if earlier, err = readVerdicts(*before); err != nil {
			fmt.Fprintf(stderr, "schedfarm reproduce: --before: %v\n", err)
			return 2
		}
	}
	files, err := claimsFiles(pos)
	if err != nil {
		fmt.Fprintf(stderr, "schedfarm reproduce: %v\n", err)
		return 2
	}
	var papers []*claims.File
	for _, p := range files {
		f, err := claims.Load(p)
		if err == nil {
			err = checkAppendices(f)
		}
		if err != nil {
			fmt.Fprintf(stderr, "schedfarm reproduce: %v\n", err)
			return 2
		}
		papers = append(papers, f)
	}
	dir := *out
	if dir == "" {
		dir = "reproduction"
		if *quick {
			dir += "-quick"
		}
	}
	if dir, err = filepath.Abs(dir); err == nil {
		err = os.MkdirAll(filepath.Join(dir, "specs"), 0o755)
	}
	if err != nil {
		fmt.Fprintf(stderr, "schedfarm reproduce: %v\n", err)
		return 1
	}
	var runFlags []string
	runFlags = append(runFlags, "--workers", strconv.Itoa(*workers), "--progress-every", "60s")
	if dataRoot != "" {
		runFlags = append(runFlags, "--data-root", dataRoot)
	}
	stateDir := ""
	if *natsURL != "" {
		runFlags = append(runFlags, "--nats", *natsURL)
		*specsAtOnce = 1
	} else {
		stateDir = filepath.Join(dir, ".schedfarm")
	}
	if *specsAtOnce > 1 && !*judgeOnly {
		// Each spec's run takes up to --workers cells; they simulate
		// --workers at a time in all.
		defer shareCellSlots(*workers)()
	}
	start := time.Now()
	var sections []paperSection
	code := 0
	// Papers run side by side, their output lines whole.
	linesOut, linesErr := &lineWriter{w: stdout}, &lineWriter{w: stderr}
	opts := reproduceOpts{dir: dir, quick: *quick, judgeOnly: *judgeOnly, runFlags: runFlags, stateDir: stateDir, gate: newSpecGate(*specsAtOnce), maxReps: *maxReps, stdout: linesOut, stderr: linesErr}
	if err := refuseOtherCaps(papers, opts); err != nil {
		fmt.Fprintf(stderr, "schedfarm reproduce: %v\n", err)
		return 2
	}
	sections = make([]paperSection, len(papers))
	oks := make([]bool, len(papers))
	var wg sync.WaitGroup
	for i, f := range papers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			po := opts
			po.paper = i
			sections[i], oks[i] = reproducePaper(f, po)
		}()
	}
	wg.Wait()
	for _, ok := range oks {
		if !ok {
			code = 1
		}
	}
	report := filepath.Join(dir, "REPRODUCTION.md")
	var b bytes.Buffer
	wall := time.Since(start)
	if *judgeOnly {
		wall = 0
		for _, s := range sections {
			for _, r := range s.runs {
				wall += r.wall
			}
		}
	}
	var all []claims.Verdicts
	for _, s := range sections {
		all = append(all, s.verdicts)
	}
	writeReproduction(&b, sections, earlier, *quick, *judgeOnly, wall, *workers, *specsAtOnce, *natsURL != "", *maxReps)
	if err := os.WriteFile(report, b.Bytes(), 0o644); err != nil {
		fmt.Fprintf(stderr, "schedfarm reproduce: %v\n", err)
		return 1
	}
	if err := writeVerdicts(filepath.Join(dir, verdictsFile), all); err != nil {
		fmt.Fprintf(stderr, "schedfarm reproduce: %v\n", err)
		return 1
	}
	for _, s := range sections {
		fmt.Fprintf(stdout, "%s: %s\n", s.file.Paper, s.verdicts.Headline())
	}
	fmt.Fprintf(stdout, "wrote %s and %s (%s)\n", report, verdictsFile, time.Since(start).Round(time.Second))
	return code
}

// reproduceOpts are the settings every paper of a reproduce run shares.
type reproduceOpts struct {
	dir              string
	quick, judgeOnly bool
	runFlags         []string
	// stateDir holds each spec's embedded server store (a folder per
	// spec, so that specs can run side by side); empty with --nats.
	stateDir string
	// gate lets specs run side by side, --specs-at-once of them across
	// papers; paper is this paper's position, its specs' priority there.
	gate           *specGate
	paper          int
	maxReps        int
	stdout, stderr io.Writer
}

// reproducePaper runs a paper's specs, judges its claims and, while some
// are undecided and their specs' schedules allow, runs the replications
// their undecided points need and judges again. It reports false when a
// spec could not run or had failed cells.
func reproducePaper(f *claims.File, o reproduceOpts) (paperSection, bool) {
	sec := paperSection{file: f, schedules: map[string]claims.Schedule{}}
	ok := true
	var plans []*specPlan
	for _, sp := range f.Specs {
		pl, err := planSpec(f, sp, o)
		if err != nil {
			fmt.Fprintf(o.stderr, "schedfarm reproduce: %v\n", err)
			ok = false
			continue
		}
		plans = append(plans, pl)
	}
	var ran []*specPlan
	for i, err := range runPlans(plans, o) {
		if err != nil {
			fmt.Fprintf(o.stderr, "schedfarm reproduce: %v\n", err)
			ok = false
			continue
		}
		ran = append(ran, plans[i])
		sec.schedules[plans[i].name] = plans[i].sched
	}
	plans = ran
	rule := claims.DefaultRule
	rule.Looks = map[string]int{}
	for name, s := range sec.schedules {
		rule.Looks[name] = s.Looks()
	}
	judge := func() {
		recs := claims.Records{}
		for _, pl := range plans {
			recs.Add(pl.recs)
		}
		sec.results = claims.EvaluateRule(f, recs, rule)
	}
	judge()
	for look := 1; !o.judgeOnly; look++ {
		wants := claims.Wants(sec.results, sec.schedules)
		if len(wants) == 0 {
			break
		}
		var more []*specPlan
		for _, pl := range plans {
			if !pl.want(wants) {
				continue
			}
			fmt.Fprintf(o.stdout, "%s: look %d: %d cell groups (a side of an undecided point each) to up to %d replications\n", pl.name, look+1, pl.moreCells(), pl.topTarget())
			more = append(more, pl)
		}
		ran := false
		for _, err := range runPlans(more, o) {
			if err != nil {
				fmt.Fprintf(o.stderr, "schedfarm reproduce: %v\n", err)
				ok = false
				continue
			}
			ran = true
		}
		if !ran {
			break
		}
		judge()
	}
	for _, pl := range plans {
		fmt.Fprintf(o.stdout, "%s: %d cells, %d failed, %s\n", pl.name, pl.cells, pl.failed, pl.wall.Round(time.Second))
		if pl.failed > 0 {
			ok = false
		}
		// The plots are drawn here, while the other papers' cells still
		// run, rather than all in writeReproduction after the last cell.
		pl.plots = plotRun(pl.specRun, filepath.Join(filepath.Dir(pl.output), pl.name+"-plots"))
		sec.runs = append(sec.runs, pl.specRun)
	}
	sec.verdicts = claims.Summarize(f, sec.results, rule.Alpha)
	return sec, ok
}

// runPlans runs plans as o.gate lets them (--specs-at-once at a time,
// shared with the other papers' specs; earlier papers' first) and returns
// each one's error in the order of plans. Specs are independent
// experiments (their own output, log and embedded server store), so the
// order they run in changes no result; side by side, the cells of one keep
// the cores busy while the last, longest cells of another finish.
func runPlans(plans []*specPlan, o reproduceOpts) []error {
	errs := make([]error, len(plans))
	var wg sync.WaitGroup
	for i, pl := range plans {
		wg.Add(1)
		o.gate.acquire(o.paper*1000 + i)
		go func() {
			defer wg.Done()
			defer o.gate.release()
			errs[i] = pl.run(o)
		}()
	}
	wg.Wait()
	return errs
}

// claimsFiles resolves the papers named on the command line: a file path,
// or a name in claimsDir; none means every file there.
func claimsFiles(args []string) ([]string, error) {
	if len(args) == 0 {
		m, err := filepath.Glob(filepath.Join(claimsDir, "*.yaml"))
		if err != nil || len(m) == 0 {
			return nil, fmt.Errorf("no claims files in %s (run from a checkout, or name the files)", claimsDir)
		}
		sort.Strings(m)
		return m, nil
	}
	var out []string
	for _, a := range args {
		if _, err := os.Stat(a); err == nil {
			out = append(out, a)
			continue
		}
		p := filepath.Join(claimsDir, a+".yaml")
		if _, err := os.Stat(p); err != nil {
			known, _ := filepath.Glob(filepath.Join(claimsDir, "*.yaml"))
			for i, k := range known {
				known[i] = strings.TrimSuffix(filepath.Base(k), ".yaml")
			}
			return nil, fmt.Errorf("%s: no such claims file, nor %s; accepted: a file, or one of %s", a, p, strings.Join(known, ", "))
		}
		out = append(out, p)
	}
	return out, nil
}

// specRun is what one spec's runs left.
type specRun struct {
	name, output  string
	cells, failed int
	wall          time.Duration
	recs          []*results.Record
	metrics       []string // the metrics its claims read
	// sched is the spec's sequential design and atCap the cells it would
	// have had with every cell at the cap.
	sched claims.Schedule
	atCap int
	// plots are the PNG files drawn of its results (plotRun).
	plots []string
}

type paperSection struct {
	file      *claims.File
	runs      []specRun
	schedules map[string]claims.Schedule
	results   []claims.Result
	verdicts  claims.Verdicts
}

// rewriteSpec returns the spec's name and its YAML, to be written into
// newDir, with the output (and per-job output) in outDir, a relative trace
// path that named a file beside specDir rewritten to name the same file
// from newDir, and the edits applied. The trace path stays relative: the
// farm sends cells' files relative to its data root and refuses absolute
// paths, so the rewritten spec runs under the same --data-root as the
// original.
func rewriteSpec(data []byte, specDir, outDir, newDir string, edits []claims.Edit) (string, []byte, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return "", nil, err
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return "", nil, fmt.Errorf("not a mapping")
	}
	root := doc.Content[0]
	nameNode := yamlnode.Get(root, "name")
	if nameNode == nil || nameNode.Value == "" {
		return "", nil, fmt.Errorf("no name")
	}
	name := nameNode.Value
	setScalar(root, "output", filepath.Join(outDir, name+".parquet"))
	if yamlnode.Get(root, "jobs_output") != nil {
		setScalar(root, "jobs_output", filepath.Join(outDir, name+"-jobs.parquet"))
	}
	if w := yamlnode.Get(root, "workload"); w != nil {
		if t := yamlnode.Get(w, "trace"); t != nil && t.Value != "" && !filepath.IsAbs(t.Value) {
			rel, err := relativeTo(newDir, filepath.Join(specDir, t.Value))
			if err != nil {
				return "", nil, fmt.Errorf("workload.trace %q: %w", t.Value, err)
			}
			t.Value = rel
		}
	}
	for _, e := range edits {
		if err := applyEdit(root, e); err != nil {
			return "", nil, fmt.Errorf("quick edit %s: %w", e.Set, err)
		}
	}
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(&doc); err != nil {
		return "", nil, err
	}
	return name, b.Bytes(), nil
}

// loggedWall returns the sweep time of the earlier run whose `schedfarm
// run` output is in logPath: the sum of its lines "experiment <name>: … in
// <duration>" (one per look of the sequential design).
func loggedWall(logPath, name string) (time.Duration, error) {
	data, err := os.ReadFile(logPath)
	if err != nil {
		return 0, fmt.Errorf("%s: no earlier run to judge (%w); run reproduce without --judge-only first", name, err)
	}
	var wall time.Duration
	found := false
	for _, line := range strings.Split(string(data), "\n") {
		if !strings.HasPrefix(line, "experiment "+name+": ") {
			continue
		}
		i := strings.LastIndex(line, " in ")
		if i < 0 {
			continue
		}
		if d, err := time.ParseDuration(line[i+len(" in "):]); err == nil {
			wall, found = wall+d, true
		}
	}
	if !found {
		return 0, fmt.Errorf("%s: %s has no finished run (no line \"experiment %s: … in <duration>\"); run reproduce without --judge-only first", name, logPath, name)
	}
	return wall, nil
}

// relativeTo returns the path of target as seen from dir, both made
// absolute first (so a relative output directory works too).
func relativeTo(dir, target string) (string, error) {
	absDir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	absTarget, err := filepath.Abs(target)
	if err != nil {
		return "", err
	}
	return filepath.Rel(absDir, absTarget)
}

// applyEdit sets the value at a dotted path of a spec ("axes.<param>"
// names the values of the axis over <param>).
func applyEdit(root *yaml.Node, e claims.Edit) error {
	var val yaml.Node
	if err := val.Encode(e.Value); err != nil {
		return err
	}
	if param, ok := strings.CutPrefix(e.Set, "axes."); ok {
		axes := yamlnode.Get(root, "axes")
		if axes == nil {
			return fmt.Errorf("the spec has no axes")
		}
		for _, ax := range axes.Content {
			if p := yamlnode.Get(ax, "param"); p != nil && p.Value == param {
				deleteKey(ax, "range")
				yamlnode.Set(ax, "values", &val)
				return nil
			}
		}
		return fmt.Errorf("no axis over %s", param)
	}
	keys := strings.Split(e.Set, ".")
	m := root
	for _, k := range keys[:len(keys)-1] {
		next := yamlnode.Get(m, k)
		if next == nil {
			next = &yaml.Node{Kind: yaml.MappingNode}
			yamlnode.Set(m, k, next)
		}
		if next.Kind != yaml.MappingNode {
			return fmt.Errorf("%s is not a mapping", k)
		}
		m = next
	}
	yamlnode.Set(m, keys[len(keys)-1], &val)
	return nil
}

func setScalar(m *yaml.Node, key, value string) {
	yamlnode.Set(m, key, &yaml.Node{Kind: yaml.ScalarNode, Value: value})
}

func deleteKey(m *yaml.Node, key string) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			m.Content = append(m.Content[:i], m.Content[i+2:]...)
			return
		}
	}
}

// plotRun draws the metrics a spec's claims read against its axes and
// returns the PNG files.
func plotRun(r specRun, dir string) []string {
	s := results.Summarise(r.recs)
	if len(s.Axes) == 0 || len(r.metrics) == 0 {
		return nil
	}
	files, err := s.Plot(dir, r.metrics)
	if err != nil {
		return nil
	}
	var pngs []string
	for _, f := range files {
		if strings.HasSuffix(f, ".png") {
			pngs = append(pngs, f)
		}
	}
	return pngs
}
