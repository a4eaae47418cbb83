package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/workload/tsafrir05"
)

// swfJob is one job line of an SWF file, as fields.
type swfJob []string

func (j swfJob) num(field int) float64 {
	v, err := strconv.ParseFloat(j[field-1], 64)
	if err != nil {
		panic(err)
	}
	return v
}

// readSWFText splits an SWF file (plain or gzip) into header lines and jobs.
func readSWFText(t *testing.T, path string) (header []string, jobs []swfJob) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasSuffix(path, ".gz") {
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		if data, err = io.ReadAll(zr); err != nil {
			t.Fatal(err)
		}
	}
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if strings.HasPrefix(l, ";") {
			header = append(header, l)
		} else {
			jobs = append(jobs, strings.Fields(l))
		}
	}
	return header, jobs
}

// estimateInput generates n Lublin jobs without estimates, gives job 2 a
// runtime of 100000 s (above Tmax = 64800 s) and marks every job whose
// number is a multiple of unknownEvery (0: none) as of unknown runtime with
// requested time 4242.
func estimateInput(t *testing.T, n, unknownEvery int) (path string, unknown int) {
	t.Helper()
	dir := t.TempDir()
	gen := filepath.Join(dir, "gen.swf")
	if code, _, errs := runCLI("workload", "generate", "--model", "lublin99", "--jobs", strconv.Itoa(n), "--procs", "64", "--seed", "3", "-o", gen); code != 0 {
		t.Fatalf("generate: exit %d: %s", code, errs)
	}
	header, jobs := readSWFText(t, gen)
	var b strings.Builder
	for _, h := range header {
		b.WriteString(h + "\n")
	}
	for i, j := range jobs {
		if i == 1 {
			j[3] = "100000"
		}
		if unknownEvery > 0 && (i+1)%unknownEvery == 0 {
			j[3], j[8] = "-1", "4242"
			unknown++
		}
		b.WriteString(strings.Join(j, " ") + "\n")
	}
	path = filepath.Join(dir, "in.swf")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, unknown
}

func TestWorkloadEstimates(t *testing.T) {
	// 1003 jobs, 3 of unknown runtime: N = 1000.
	in, unknown := estimateInput(t, 1003, 334)
	if unknown != 3 {
		t.Fatalf("%d unknown runtimes", unknown)
	}
	_, inJobs := readSWFText(t, in)
	dir := t.TempDir()
	out := filepath.Join(dir, "out.swf")
	code, _, errs := runCLI("workload", "estimates", "--model", "tsafrir05", "--max-estimate", "64800", "--seed", "5", "-o", out, in)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	header, jobs := readSWFText(t, out)
	if len(jobs) != len(inJobs) {
		t.Fatalf("%d jobs out of %d", len(jobs), len(inJobs))
	}
	got := map[float64]int{}
	capped := 0
	for i, j := range jobs {
		in := inJobs[i]
		for f := 1; f <= 18; f++ {
			if f != 4 && f != 9 && j[f-1] != in[f-1] {
				t.Fatalf("job %s: field %d changed from %s to %s", j[0], f, in[f-1], j[f-1])
			}
		}
		if in.num(4) < 0 {
			if j.num(4) != -1 || j.num(9) != 4242 {
				t.Errorf("job %s of unknown runtime: fields 4, 9 = %s, %s; want them kept", j[0], j[3], j[8])
			}
			continue
		}
		rt, est := j.num(4), j.num(9)
		if est < rt {
			t.Fatalf("job %s: estimate %g < runtime %g", j[0], est, rt)
		}
		if in.num(4) > 64800 {
			capped++
			if rt != 64800 {
				t.Errorf("job %s: runtime %s above Tmax became %g, want 64800", j[0], in[3], rt)
			}
		} else if rt != in.num(4) {
			t.Errorf("job %s: runtime %s became %g", j[0], in[3], rt)
		}
		got[est]++
	}
	// The estimates are the histogram of N = 1000, Tmax = 64800 drawn from
	// PCG(seed, seed); spec §4.8 vector A puts 218 jobs at Tmax.
	hist, err := tsafrir05.Default(1000, 64800).Histogram(rand.New(rand.NewPCG(5, 5)))
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range hist {
		if got[float64(b.Time)] != b.Jobs {
			t.Errorf("estimate %d s: %d jobs, histogram %d", b.Time, got[float64(b.Time)], b.Jobs)
		}
	}
	if got[64800] != 218 {
		t.Errorf("%d jobs at Tmax, want 218", got[64800])
	}
	note := ""
	for _, h := range header {
		if strings.HasPrefix(h, "; Note: Requested time (field 9) = ") {
			if note != "" {
				t.Errorf("two field-9 notes:\n%s\n%s", note, h)
			}
			note = h
		}
	}
	for _, w := range []string{"tsafrir05 user runtime estimates", "Tmax 64800 s", fmt.Sprintf("; %d runtimes capped to Tmax", capped),
		"no user bins", "seed 5 (math/rand/v2 PCG(seed, seed))", "N = 1000 jobs with a runtime", "3 jobs with unknown runtime (-1) keep their field 9"} {
		if !strings.Contains(note, w) {
			t.Errorf("note %q lacks %q", note, w)
		}
	}
	if capped == 0 {
		t.Error("no runtime above Tmax in the input")
	}
	if !strings.Contains(strings.Join(header, "\n"), "; Computer: schedfarm synthetic workload, model lublin99") {
		t.Errorf("the input's header is not kept:\n%s", strings.Join(header, "\n"))
	}

	// Same seed: the same file (also through gzip); another seed: another.
	again := filepath.Join(dir, "again.swf.gz")
	if code, _, errs := runCLI("workload", "estimates", "--max-estimate", "64800", "--seed", "5", "-o", again, in); code != 0 {
		t.Fatalf("again: exit %d: %s", code, errs)
	}
	h2, j2 := readSWFText(t, again)
	if strings.Join(h2, "\n") != strings.Join(header, "\n") || fmt.Sprint(j2) != fmt.Sprint(jobs) {
		t.Error("same seed, different output")
	}
	other := filepath.Join(dir, "other.swf")
	if code, _, errs := runCLI("workload", "estimates", "--max-estimate", "64800", "--seed", "6", "-o", other, in); code != 0 {
		t.Fatalf("other: exit %d: %s", code, errs)
	}
	_, j3 := readSWFText(t, other)
	if fmt.Sprint(j3) == fmt.Sprint(jobs) {
		t.Error("seeds 5 and 6 gave the same estimates")
	}

	// User bins and the automatic Tmax; re-estimating replaces the note.
	binned := filepath.Join(dir, "binned.swf")
	if code, _, errs := runCLI("workload", "estimates", "--est-bins", "3600=30", "-o", binned, out); code != 0 {
		t.Fatalf("bins: exit %d: %s", code, errs)
	}
	h4, j4 := readSWFText(t, binned)
	n3600 := 0
	for _, j := range j4 {
		if j.num(9) == 3600 && j.num(4) >= 0 {
			n3600++
		}
	}
	notes := 0
	for _, h := range h4 {
		if strings.HasPrefix(h, "; Note: Requested time (field 9) = ") {
			notes++
			if !strings.Contains(h, "user bins (est_bins): 3600 s × 300 jobs") {
				t.Errorf("note %q lacks the user bin", h)
			}
		}
	}
	if n3600 != 300 || notes != 1 {
		t.Errorf("%d jobs at 3600 s (want 300), %d field-9 notes (want 1)", n3600, notes)
	}
}

func TestWorkloadEstimatesErrors(t *testing.T) {
	small, _ := estimateInput(t, 250, 10) // 225 jobs with a runtime
	code, _, errs := runCLI("workload", "estimates", small)
	if code != 1 || !strings.Contains(errs, "225 jobs with a known runtime (field 4 ≥ 0) of 250; the tsafrir05 model needs more than 226") {
		t.Errorf("N = 225: exit %d: %s", code, errs)
	}

	// Four jobs in five run 30000 s: at Tmax = 36000 s at most about 71%
	// of the estimates are that long (the Tmax bin, the head bins from
	// 30000 to 34800 s, the tail).
	var b strings.Builder
	for i := 1; i <= 300; i++ {
		rt := 30000
		if i%5 == 0 {
			rt = 100
		}
		fmt.Fprintf(&b, "%d %d -1 %d 1 -1 -1 1 -1 -1 1 1 1 1 1 1 -1 -1\n", i, i, rt)
	}
	long := filepath.Join(t.TempDir(), "long.swf")
	if err := os.WriteFile(long, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "o.swf")
	code, _, errs = runCLI("workload", "estimates", "--max-estimate", "36000", "-o", out, long)
	if code != 1 || !strings.Contains(errs, "with max_estimate 36000 s some runtimes cannot get an estimate at least as long") {
		t.Errorf("infeasible Tmax: exit %d: %s", code, errs)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a failed run left its output")
	}

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--model", "tsafrir06", long}, `--model: user estimate model "tsafrir06" unknown; accepted: tsafrir05`},
		{[]string{"--max-estimate", "5000", long}, "--max-estimate 5000: want 0 (automatic) or an integer > 5700"},
		{[]string{"--est-bins", "3600=abc", long}, `--est-bins "3600=abc": bin 1 "3600=abc": percent "abc": want a number in (0, 100]`},
		{[]string{"--max-estimate", "36000", "--est-bins", "40000=10", long}, "--est-bins bin 40000=10: time 40000 s exceeds max_estimate = 36000 s"},
		{[]string{"-o", long, long}, "is the input file"},
	} {
		code, _, errs := runCLI(append([]string{"workload", "estimates"}, c.args...)...)
		if code != 2 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d: %s; want %q", c.args, code, errs, c.want)
		}
	}
	if code, _, _ := runCLI("workload", "estimates"); code != 2 {
		t.Errorf("no input: exit %d", code)
	}
}
