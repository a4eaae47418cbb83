package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/schedfarm/schedfarm/claims"
	"github.com/schedfarm/schedfarm/internal/buildinfo"
	"github.com/schedfarm/schedfarm/internal/yamlnode"
	"github.com/schedfarm/schedfarm/results"
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
	workers := fs.Int("workers", runtime.NumCPU(), "cells simulated concurrently in this process (0 with --nats: only remote workers)")
	natsURL := fs.String("nats", os.Getenv("SCHEDFARM_NATS"), "NATS server URL of a farm to run on (credentials as for run, from the environment); default: an embedded server")
	var dataRoot string
	registerDataRoot(fs, &dataRoot)
	judgeOnly := fs.Bool("judge-only", false, "run nothing: judge the claims again from an earlier run's results in the output directory (after a claims file's causes or bands changed); the wall clocks reported are that run's, read from each spec's log")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: schedfarm reproduce [--quick] [-o dir] [--workers N] [--nats URL] [paper…]")
		fmt.Fprintln(stderr, "  paper: a claims file, or its name in "+claimsDir+" (e.g. seed002); default: every one there")
		fs.PrintDefaults()
	}
	pos, exit := farmParseArgs(fs, args, stdout)
	if exit >= 0 {
		return exit
	}
	files, err := claimsFiles(pos)
	if err != nil {
		fmt.Fprintf(stderr, "schedfarm reproduce: %v\n", err)
		return 2
	}
	var papers []*claims.File
	for _, p := range files {
		f, err := claims.Load(p)
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
	if *natsURL != "" {
		runFlags = append(runFlags, "--nats", *natsURL)
	} else {
		runFlags = append(runFlags, "--state", filepath.Join(dir, ".schedfarm"))
	}
	start := time.Now()
	var sections []paperSection
	code := 0
	for _, f := range papers {
		sec := paperSection{file: f, recs: claims.Records{}}
		for _, sp := range f.Specs {
			r, err := reproduceSpec(f, sp, dir, *quick, *judgeOnly, runFlags, stderr)
			if err != nil {
				fmt.Fprintf(stderr, "schedfarm reproduce: %v\n", err)
				code = 1
				continue
			}
			fmt.Fprintf(stdout, "%s: %d cells, %d failed, %s\n", r.name, r.cells, r.failed, r.wall.Round(time.Second))
			if r.failed > 0 {
				code = 1
			}
			sec.runs = append(sec.runs, r)
			sec.recs.Add(r.recs)
		}
		sec.results = claims.Evaluate(f, sec.recs)
		sections = append(sections, sec)
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
	writeReproduction(&b, sections, *quick, *judgeOnly, wall, *workers, *natsURL != "")
	if err := os.WriteFile(report, b.Bytes(), 0o644); err != nil {
		fmt.Fprintf(stderr, "schedfarm reproduce: %v\n", err)
		return 1
	}
	for _, s := range sections {
		fmt.Fprintf(stdout, "%s: %s\n", s.file.Paper, tally(s.results))
	}
	fmt.Fprintf(stdout, "wrote %s (%s)\n", report, time.Since(start).Round(time.Second))
	return code
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

// specRun is what one spec's run left.
type specRun struct {
	name, output  string
	cells, failed int
	wall          time.Duration
	recs          []*results.Record
	metrics       []string // the metrics its claims read
}

type paperSection struct {
	file    *claims.File
	runs    []specRun
	recs    claims.Records
	results []claims.Result
}

// reproduceSpec writes the spec (its quick version with --quick) into
// dir/specs with its output in dir, runs it with `schedfarm run` and reads
// its results. With judgeOnly it runs nothing: it reads the results an
// earlier run left in dir, and that run's wall clock from the spec's log.
func reproduceSpec(f *claims.File, sp claims.Spec, dir string, quick, judgeOnly bool, runFlags []string, stderr io.Writer) (specRun, error) {
	src := filepath.Join(filepath.Dir(f.Path), sp.Path)
	data, err := os.ReadFile(src)
	if err != nil {
		return specRun{}, err
	}
	var edits []claims.Edit
	if quick {
		edits = sp.Quick
	}
	name, rewritten, err := rewriteSpec(data, filepath.Dir(src), dir, filepath.Join(dir, "specs"), edits)
	if err != nil {
		return specRun{}, fmt.Errorf("%s: %w", src, err)
	}
	r := specRun{name: name, output: filepath.Join(dir, name+".parquet")}
	logPath := filepath.Join(dir, name+".log")
	if judgeOnly {
		if r.wall, err = loggedWall(logPath, name); err != nil {
			return specRun{}, err
		}
	} else {
		path := filepath.Join(dir, "specs", name+".yaml")
		if err := os.WriteFile(path, rewritten, 0o644); err != nil {
			return specRun{}, err
		}
		log, err := os.Create(logPath)
		if err != nil {
			return specRun{}, err
		}
		defer log.Close()
		t0 := time.Now()
		if code := runRun(append(slices.Clone(runFlags), path), log, log); code != 0 {
			return specRun{}, fmt.Errorf("%s: schedfarm run exited %d (see %s)", name, code, log.Name())
		}
		r.wall = time.Since(t0)
	}
	if r.recs, err = results.ReadFile(r.output); err != nil {
		return specRun{}, err
	}
	r.cells = len(r.recs)
	for _, rec := range r.recs {
		if rec.Result.Status != "ok" {
			r.failed++
		}
	}
	for _, c := range f.Claims {
		for _, k := range append([]claims.Check{c.Check}, c.Checks...) {
			if k.Experiment == name && k.Metric != "" && !slices.Contains(r.metrics, k.Metric) {
				r.metrics = append(r.metrics, k.Metric)
			}
		}
	}
	return r, nil
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
// run` output is in logPath: its line "experiment <name>: … in <duration>"
// (the last one, should the log hold several).
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
			wall, found = d, true
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

// tally counts a paper's verdicts.
func tally(rs []claims.Result) string {
	n := map[string]int{}
	for _, r := range rs {
		n[r.Verdict]++
	}
	var parts []string
	for _, v := range []string{claims.Holds, claims.DoesNotHold, claims.Inconclusive, claims.NoData} {
		if n[v] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n[v], v))
		}
	}
	return strings.Join(parts, ", ")
}

// writeReproduction renders the reproduction report: per paper its specs'
// runs, the claims table and the plots of the metrics the claims read.
func writeReproduction(w *bytes.Buffer, secs []paperSection, quick, judgeOnly bool, wall time.Duration, workers int, remote bool) {
	mode := "full"
	if quick {
		mode = "quick (fewer jobs and replications; the verdicts are a smoke test, not findings)"
	}
	if judgeOnly {
		mode += ", judged again from an earlier run's results (--judge-only: the wall clocks are that run's, the sum of its specs')"
	}
	where := fmt.Sprintf("an embedded broker, %d local workers", workers)
	if remote {
		where = "a remote farm"
	}
	fmt.Fprintf(w, "# Reproduction of the papers' claims\n\n")
	fmt.Fprintf(w, "schedfarm %s (commit %s), run %s: %s, on %s, %s wall clock.\n\n", buildinfo.Version, buildinfo.Commit(), mode, time.Now().UTC().Format("2006-01-02"), where, wall.Round(time.Second))
	fmt.Fprintf(w, "Each claim: the comparison its claims file states, paired by replication (the schedulers of one grid point and replication see the same jobs and random draws), mean ± 95%% CI per point; holds when the interval lies on the claimed side (or the mean in the band), does not hold when it lies on the other side (✗), inconclusive otherwise.\n\n")
	for _, s := range secs {
		fmt.Fprintf(w, "## %s\n\n", s.file.Paper)
		if s.file.Rules != "" {
			fmt.Fprintf(w, "Rules, settings and the reasons for the bands: `%s`. Verdicts: %s.\n\n", filepath.Join(filepath.Dir(s.file.Path), s.file.Rules), tally(s.results))
		}
		fmt.Fprintf(w, "| spec | cells | failed | wall clock |\n|---|---:|---:|---:|\n")
		for _, r := range s.runs {
			fmt.Fprintf(w, "| %s | %d | %d | %s |\n", r.name, r.cells, r.failed, r.wall.Round(time.Second))
		}
		fmt.Fprintln(w)
		_ = claims.WriteMarkdown(w, s.results)
		fmt.Fprintln(w)
		for _, r := range s.runs {
			plots := plotRun(r, filepath.Join(filepath.Dir(r.output), r.name+"-plots"))
			if len(plots) == 0 {
				continue
			}
			fmt.Fprintf(w, "### %s\n\n", r.name)
			for _, p := range plots {
				rel, _ := filepath.Rel(filepath.Dir(r.output), p)
				fmt.Fprintf(w, "![%s](%s)\n", strings.TrimSuffix(filepath.Base(p), ".png"), rel)
			}
			fmt.Fprintln(w)
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
