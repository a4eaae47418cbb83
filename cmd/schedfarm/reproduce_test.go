package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/schedfarm/schedfarm/claims"
	"github.com/schedfarm/schedfarm/experiments"
	"github.com/schedfarm/schedfarm/internal/buildinfo"
	"github.com/schedfarm/schedfarm/results"
)

// reproduce --quick runs a claims file's spec in its quick version (the
// edits applied: 400 jobs, 3 replications, loads 0.8 and 0.9), judges the
// claims and writes REPRODUCTION.md with the verdicts and plots; a claim
// whose records are missing is "no data".
func TestReproduceQuick(t *testing.T) {
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	code := runReproduce([]string{"--quick", "-o", out, "--workers", "2", "testdata/reproduce/claims.yaml"}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout.String(), stderr.String())
	}
	recs, err := results.ReadFile(filepath.Join(out, "mini-repro.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	// Claim w (load 0.9) is undecided at the first look (3 replications)
	// and its schedule (quick: 3 → at most 2·3 = 6) allows a second look:
	// EASY's and FCFS's cells at load 0.9 get replications 3–5, and
	// nothing else runs again.
	if len(recs) != 2*2*3+2*3 {
		t.Fatalf("%d cells, want 2 schedulers × 2 loads × 3 replications + 2 × 3 at load 0.9", len(recs))
	}
	reps := map[string]int{}
	for _, r := range recs {
		jobs, _ := r.Cell.Lookup("workload.generator.jobs")
		load, _ := r.Cell.Lookup("workload.load")
		l := experiments.FormatValue(load)
		if experiments.FormatValue(jobs) != "400" || l != "0.8" && l != "0.9" {
			t.Fatalf("cell %v: the quick edits were not applied", r.Cell.Params)
		}
		reps[r.Cell.Scheduler+" "+l]++
	}
	if fmt.Sprint(reps) != "map[easy 0.8:3 easy 0.9:6 fcfs 0.8:3 fcfs 0.9:6]" {
		t.Errorf("replications per scheduler and load: %v", reps)
	}
	if !strings.Contains(stdout.String(), "mini-repro: look 2: 2 cell groups (a side of an undecided point each) to up to 6 replications") {
		t.Errorf("no second look on stdout:\n%s", stdout.String())
	}
	vs, err := readVerdicts(filepath.Join(out, verdictsFile))
	if err != nil || len(vs) != 1 || len(vs[0].Claims) != 2 || vs[0].Claims[0].ID != "w" || vs[0].Claims[0].Readings[0].MaxReps != 6 {
		t.Errorf("verdicts.json: %+v, %v", vs, err)
	}
	md, err := os.ReadFile(filepath.Join(out, "REPRODUCTION.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## mini: a test paper", "| mini-repro | 18 | 24 | 0 | 3 → 6 (2) |", "| w | 1 | EASY waits less than FCFS at high load | load=0.9: ", "| none |  | a scheduler that did not run | no data (no record matches a = map[scheduler:cons]) | — | **no data** |", "![wait_mean_vs_", "**How a claim is judged**", "| mini: a test paper | 2 |"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("REPRODUCTION.md lacks %q:\n%s", want, md)
		}
	}
	if !strings.Contains(stdout.String(), "mini: a test paper: 1 ") {
		t.Errorf("no tally on stdout:\n%s", stdout.String())
	}
	// --judge-only runs nothing: the same results judged again give the
	// same verdicts, with the earlier run's wall clock from its log.
	journal, err := os.Stat(filepath.Join(out, "mini-repro.parquet.journal.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var jout, jerr bytes.Buffer
	if code := runReproduce([]string{"--quick", "--judge-only", "-o", out, "--workers", "2", "testdata/reproduce/claims.yaml"}, &jout, &jerr); code != 0 {
		t.Fatalf("--judge-only: exit %d\n%s%s", code, jout.String(), jerr.String())
	}
	if after, err := os.Stat(journal.Name()); err == nil && !after.ModTime().Equal(journal.ModTime()) {
		t.Errorf("--judge-only touched the journal")
	}
	judged, err := os.ReadFile(filepath.Join(out, "REPRODUCTION.md"))
	if err != nil {
		t.Fatal(err)
	}
	wall, err := loggedWall(filepath.Join(out, "mini-repro.log"), "mini-repro")
	if err != nil || wall <= 0 {
		t.Fatalf("the earlier run's wall clock from its log: %v, %v", wall, err)
	}
	if !strings.Contains(string(judged), "judged again from an earlier run's results") || !strings.Contains(string(judged), "| mini-repro | 18 | 24 | 0 | 3 → 6 (2) | "+wall.Round(time.Second).String()+" |") {
		t.Errorf("--judge-only report lacks its mode or the earlier run's wall clock %v:\n%s", wall, judged)
	}
	if !strings.Contains(string(judged), "The results were made by sha256:") && !strings.Contains(string(judged), "The results were made by "+buildinfo.Commit()) {
		t.Errorf("--judge-only report does not name the build that made the results:\n%.600s", judged)
	}
	verdicts := func(md []byte) string {
		return string(md[strings.Index(string(md), "### Claims"):strings.Index(string(md), "### mini-repro")])
	}
	if verdicts(judged) != verdicts(md) {
		t.Errorf("verdicts changed when judged again:\nbefore:\n%s\nafter:\n%s", verdicts(md), verdicts(judged))
	}
	empty := t.TempDir()
	var e bytes.Buffer
	if code := runReproduce([]string{"--judge-only", "-o", empty, "testdata/reproduce/claims.yaml"}, &e, &e); code == 0 || !strings.Contains(e.String(), "no earlier run to judge") {
		t.Errorf("--judge-only with no earlier run: exit %d, %s", code, e.String())
	}
	e.Reset()
	if code := runReproduce([]string{"-o", out, "nosuchpaper"}, &e, &e); code != 2 || !strings.Contains(e.String(), "nosuchpaper: no such claims file") {
		t.Errorf("unknown paper: exit %d, %s", code, e.String())
	}
}

// A claims file whose spec names a trace by a relative path runs under
// reproduce: the rewritten spec (in the output's specs/) still names the
// trace relatively, so the farm, which refuses absolute paths and files
// outside its data root, accepts it; the cells read the real trace.
func TestReproduceTraceSpec(t *testing.T) {
	src, err := filepath.Abs("testdata/reproduce-trace")
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "repro")
	var stdout, stderr bytes.Buffer
	code := runReproduce([]string{"-o", out, "--workers", "1", "--data-root", "/", filepath.Join(src, "claims", "tiny.yaml")}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout.String(), stderr.String())
	}
	spec, err := os.ReadFile(filepath.Join(out, "specs", "tiny-trace.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := filepath.Rel(filepath.Join(out, "specs"), filepath.Join(src, "traces", "tiny.swf"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(spec), "trace: "+want+"\n") {
		t.Errorf("rewritten spec does not name the trace as %s:\n%s", want, spec)
	}
	recs, err := results.ReadFile(filepath.Join(out, "tiny-trace.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 {
		t.Fatalf("%d cells; want 2", len(recs))
	}
	for _, r := range recs {
		if jobs, _ := r.Metric("jobs"); r.Result.Status != "ok" || jobs != 4 {
			t.Errorf("cell %s: status %s, %v jobs; want ok and the trace's 4 jobs", r.Cell.ID, r.Result.Status, jobs)
		}
	}
}

// Specs run side by side (--specs-at-once 2, the default) give what they
// give one after the other: a paper of two specs, each with an undecided
// claim that takes a second look, run both ways, has the same cells with
// the same metrics in each spec's output and the same verdicts; each spec
// had an embedded server store of its own.
func TestReproduceSpecsSideBySide(t *testing.T) {
	paper := t.TempDir()
	mini, err := os.ReadFile("testdata/reproduce/mini.yaml")
	if err != nil {
		t.Fatal(err)
	}
	write := func(name string, data string) {
		if err := os.WriteFile(filepath.Join(paper, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.yaml", string(mini))
	write("b.yaml", strings.NewReplacer("name: mini-repro", "name: mini-b", "output: mini-repro.parquet", "output: mini-b.parquet", "seed: 3", "seed: 5").Replace(string(mini)))
	spec := func(path string) string {
		return "  - path: " + path + `
    quick:
      - {set: replications, value: 3}
      - {set: workload.generator.jobs, value: 400}
      - {set: axes.workload.load, value: [0.8, 0.9]}
    replications: {max: 6}
`
	}
	claim := func(id, exp string) string {
		return "  - {id: " + id + ", says: EASY waits less, why: backfilling, experiment: " + exp +
			", metric: wait_mean, kind: diff, a: {scheduler: easy}, b: {scheduler: fcfs}, at: {workload.load: [0.9]}, expect: below}\n"
	}
	write("claims.yaml", "paper: \"two: specs side by side\"\nspecs:\n"+spec("a.yaml")+spec("b.yaml")+"claims:\n"+claim("wa", "mini-repro")+claim("wb", "mini-b"))
	run := func(atOnce string) (string, map[string]string) {
		out := t.TempDir()
		var stdout, stderr bytes.Buffer
		if code := runReproduce([]string{"--quick", "-o", out, "--workers", "2", "--specs-at-once", atOnce, filepath.Join(paper, "claims.yaml")}, &stdout, &stderr); code != 0 {
			t.Fatalf("--specs-at-once %s: exit %d\nstdout:\n%s\nstderr:\n%s", atOnce, code, stdout.String(), stderr.String())
		}
		for _, look := range []string{"mini-repro: look 2:", "mini-b: look 2:"} {
			if !strings.Contains(stdout.String(), look) {
				t.Errorf("--specs-at-once %s: no %q on stdout:\n%s", atOnce, look, stdout.String())
			}
		}
		for _, name := range []string{"mini-repro", "mini-b"} {
			if _, err := os.Stat(filepath.Join(out, ".schedfarm", name)); err != nil {
				t.Errorf("--specs-at-once %s: no store of its own for %s: %v", atOnce, name, err)
			}
		}
		return reproducedVerdicts(t, out), reproducedCells(t, out, "mini-repro", "mini-b")
	}
	vSeq, cSeq := run("1")
	vPar, cPar := run("2")
	if len(cSeq) != 2*(2*2*3+2*3) {
		t.Fatalf("%d cells one after the other, want 2 specs × (2 schedulers × 2 loads × 3 + 2 × 3)", len(cSeq))
	}
	if fmt.Sprint(cSeq) != fmt.Sprint(cPar) {
		t.Errorf("cells differ side by side:\none after the other: %v\nside by side: %v", cSeq, cPar)
	}
	if vSeq != vPar || !strings.Contains(vSeq, "wa ") || !strings.Contains(vSeq, "wb ") {
		t.Errorf("verdicts differ side by side:\none after the other:\n%s\nside by side:\n%s", vSeq, vPar)
	}
}

// --judge-only judges an earlier run's data under the sequential design
// that run used (its log's first line), not under the claims file's cap:
// a run capped at 2 (--max-replications 2: one look, at 3 replications)
// judged again without the flag keeps one look (α′ = α), where the claims
// file's cap (6: two looks, α′ = α/2) would count a look that did not
// happen. A --max-replications that differs from the run's cap is
// refused; a log from before the line existed keeps the old behaviour,
// with a warning.
func TestReproduceJudgeOnlyKeepsTheRunsDesign(t *testing.T) {
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	if code := runReproduce([]string{"--quick", "--max-replications", "2", "-o", out, "--workers", "2", "testdata/reproduce/claims.yaml"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	looks := func() (int, int) {
		t.Helper()
		vs, err := readVerdicts(filepath.Join(out, verdictsFile))
		if err != nil || len(vs) != 1 || len(vs[0].Claims) == 0 || vs[0].Claims[0].ID != "w" {
			t.Fatalf("verdicts.json: %+v, %v", vs, err)
		}
		r := vs[0].Claims[0].Readings[0]
		return r.Looks, r.MaxReps
	}
	if l, m := looks(); l != 1 || m != 3 {
		t.Fatalf("the run capped at 2: claim w judged with %d looks at up to %d replications, want 1 look at 3", l, m)
	}
	logPath := filepath.Join(out, "mini-repro.log")
	if s, found, err := loggedSchedule(logPath, "mini-repro"); err != nil || !found || s != (claims.Schedule{Min: 3, Max: 3}) {
		t.Fatalf("the log's sequential design: %+v, %v, %v; want first look 3, cap 3", s, found, err)
	}

	var jout, jerr bytes.Buffer
	if code := runReproduce([]string{"--quick", "--judge-only", "-o", out, "testdata/reproduce/claims.yaml"}, &jout, &jerr); code != 0 {
		t.Fatalf("--judge-only: exit %d\n%s%s", code, jout.String(), jerr.String())
	}
	if l, m := looks(); l != 1 || m != 3 {
		t.Errorf("judged again without --max-replications: %d looks at up to %d replications, want the run's 1 look at 3", l, m)
	}
	if md, err := os.ReadFile(filepath.Join(out, "REPRODUCTION.md")); err != nil || !strings.Contains(string(md), "| 3 → 3 (1) |") {
		t.Errorf("the report's table of runs does not give the run's design 3 → 3 (1): %v\n%s", err, md)
	}

	// The refusal is a usage error, made before anything is written: the
	// earlier report stays.
	before, err := os.ReadFile(filepath.Join(out, verdictsFile))
	if err != nil {
		t.Fatal(err)
	}
	jerr.Reset()
	if code := runReproduce([]string{"--quick", "--judge-only", "--max-replications", "6", "-o", out, "testdata/reproduce/claims.yaml"}, &jout, &jerr); code != 2 || !strings.Contains(jerr.String(), "its run's sequential design was replications first look 3, cap 3") || !strings.Contains(jerr.String(), "accepted: no --max-replications (the run's design is used) or --max-replications 3") {
		t.Errorf("--judge-only --max-replications 6 on a run capped at 3: exit %d, want 2; %s", code, jerr.String())
	}
	if after, err := os.ReadFile(filepath.Join(out, verdictsFile)); err != nil || !bytes.Equal(after, before) {
		t.Errorf("a refused --judge-only rewrote %s (%v)", verdictsFile, err)
	}

	// A log written before the line existed: the claims file's design,
	// said on stderr.
	data, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	first, rest, _ := strings.Cut(string(data), "\n")
	if !strings.HasPrefix(first, scheduleLinePrefix) {
		t.Fatalf("the log's first line is %q, not the sequential design", first)
	}
	if err := os.WriteFile(logPath, []byte(rest), 0o644); err != nil {
		t.Fatal(err)
	}
	jerr.Reset()
	if code := runReproduce([]string{"--quick", "--judge-only", "-o", out, "testdata/reproduce/claims.yaml"}, &jout, &jerr); code != 0 || !strings.Contains(jerr.String(), "names no sequential design") {
		t.Errorf("--judge-only on a log without the design: exit %d, %s", code, jerr.String())
	}
	if l, _ := looks(); l != 2 {
		t.Errorf("a log without the design: %d looks, want the claims file's 2", l)
	}
}
