package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/schedfarm/schedfarm/results"
)

// A sweep in which every cell fails exits 3, with the failures grouped by
// message (numbers aside), not 0.
func TestFailedSweepExitsThree(t *testing.T) {
	f := newFarmFixture(t, false)
	p := f.start(t, []string{"SCHEDFARM_FAULT_DELAY=1s"}, "run", "--workers", "2", "--cell-timeout", "5ms", f.spec)
	if code := p.wait(t, 3*time.Minute); code != exitCellsFailed {
		t.Fatalf("run --cell-timeout 5ms: exit %d; want %d:\n%s", code, exitCellsFailed, p.out.String())
	}
	out := p.out.String()
	for _, want := range []string{"0 ok, 12 failed", "12 cells failed, 1 distinct messages:", "12 × exceeded its wall-time budget of 5ms", "12 of 12 cells failed (exit status 3)"} {
		if !strings.Contains(out, want) {
			t.Errorf("output does not say %q:\n%s", want, out)
		}
	}
}

// A malformed trace named by a spec fails the sweep before anything is
// published or written: exit 1, the file and line named.
func TestMalformedTraceCheckedBeforePublishing(t *testing.T) {
	f := newFarmFixture(t, true)
	bad := filepath.Join(f.dir, "trace.swf")
	b, err := os.ReadFile(bad)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	lines[9] = "8 240 -1 five 3 -1 -1 3 100 -1 1 1 1 1 1 -1 -1 -1\n" // line 10
	if err := os.WriteFile(bad, []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"run", "--workers", "1", f.spec}, f.natsArgs("coordinator", f.spec)} {
		p := f.start(t, nil, args...)
		if code := p.wait(t, time.Minute); code != exitError {
			t.Errorf("%s: exit %d; want %d", args[0], code, exitError)
		}
		if out := p.out.String(); !strings.Contains(out, "trace.swf:10") || !strings.Contains(out, "checked before anything was published") {
			t.Errorf("%s: output does not name trace.swf:10 before publishing:\n%s", args[0], out)
		}
	}
	if _, err := os.Stat(filepath.Join(f.dir, "out.parquet")); err == nil {
		t.Error("an output was written")
	}
	if _, err := os.Stat(results.JournalPath(filepath.Join(f.dir, "out.parquet"))); err == nil {
		t.Error("a journal was written")
	}
	if _, err := os.Stat(filepath.Join(f.dir, ".schedfarm")); err == nil {
		t.Error("run started its embedded server")
	}
	if _, err := f.js.Stream(t.Context(), "SCHEDFARM_CELLS"); err == nil && f.streamMsgs(t, "SCHEDFARM_CELLS") != 0 {
		t.Error("cells published")
	}
}

// Rows of another build in the output: a rerun says so and refuses (exit
// 5) until told to accept them; every row carries a build, never
// "unknown".
func TestResumeOfAnotherBuildRefused(t *testing.T) {
	f := newFarmFixture(t, false)
	p := f.start(t, nil, "run", "--workers", "2", f.spec)
	if code := p.wait(t, 2*time.Minute); code != exitOK {
		t.Fatalf("first run: exit %d", code)
	}
	out := filepath.Join(f.dir, "out.parquet")
	recs, err := results.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	build := regexp.MustCompile(`^sha256:[0-9a-f]{64}$|^[0-9a-f]{40}`)
	for _, r := range recs {
		if !build.MatchString(r.Result.Commit) {
			t.Fatalf("row of cell %s: build %q; want a commit or sha256:<hex>", r.Cell.ID, r.Result.Commit)
		}
	}
	// Make every row another build's, as if an earlier binary had made it.
	j := results.JournalPath(out)
	b, err := os.ReadFile(j)
	if err != nil {
		t.Fatal(err)
	}
	b = []byte(strings.ReplaceAll(string(b), `"commit":"`+recs[0].Result.Commit+`"`, `"commit":"sha256:0123456789abcdef"`))
	if err := os.WriteFile(j, b, 0o644); err != nil {
		t.Fatal(err)
	}
	os.Remove(out)
	p = f.start(t, nil, "run", "--workers", "2", f.spec)
	if code := p.wait(t, time.Minute); code != exitOtherBuild {
		t.Fatalf("rerun with another build's rows: exit %d; want %d:\n%s", code, exitOtherBuild, p.out.String())
	}
	for _, want := range []string{"holds 12 rows of build sha256:0123456789abcdef", "this is build " + recs[0].Result.Commit, "--accept-builds"} {
		if !strings.Contains(p.out.String(), want) {
			t.Errorf("refusal does not say %q:\n%s", want, p.out.String())
		}
	}
	p = f.start(t, nil, "run", "--workers", "2", "--accept-builds", f.spec)
	if code := p.wait(t, time.Minute); code != exitOK || !strings.Contains(p.out.String(), "12 done before") {
		t.Fatalf("rerun --accept-builds: exit %d; want 0 with 12 done before:\n%s", code, p.out.String())
	}
}

// A journal damaged in its middle is refused with the one command that
// recovers it; that command keeps every good result and runs the rest.
func TestDamagedJournalRefusedThenRepaired(t *testing.T) {
	f := newFarmFixture(t, false)
	p := f.start(t, nil, "run", "--workers", "2", f.spec)
	if code := p.wait(t, 2*time.Minute); code != exitOK {
		t.Fatalf("first run: exit %d", code)
	}
	j := filepath.Join(f.dir, results.JournalPath("out.parquet"))
	b, err := os.ReadFile(j)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	lines[4] = `dd{"cell": torn by something else` + "\n" // line 5 of 12
	if err := os.WriteFile(j, []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	p = f.start(t, nil, "run", "--workers", "2", f.spec)
	if code := p.wait(t, time.Minute); code != exitError {
		t.Fatalf("run on a damaged journal: exit %d; want %d", code, exitError)
	}
	if out := p.out.String(); !strings.Contains(out, "out.parquet.journal.jsonl:5: damaged journal line") || !strings.Contains(out, "schedfarm run --repair "+f.spec) {
		t.Fatalf("refusal does not name the line and the command:\n%s", out)
	}
	p = f.start(t, nil, "run", "--workers", "2", "--repair", f.spec)
	if code := p.wait(t, 2*time.Minute); code != exitOK {
		t.Fatalf("run --repair: exit %d:\n%s", code, p.out.String())
	}
	if out := p.out.String(); !strings.Contains(out, "11 done before, 1 ok") {
		t.Errorf("run --repair: want the 11 good results kept and the damaged line's cell run again:\n%s", out)
	}
	checkAllOK(t, f.readExactlyOnce(t, f.dir))
}
