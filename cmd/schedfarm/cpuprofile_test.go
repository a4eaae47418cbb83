package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// schedfarm run --cpuprofile writes a profile of the run that go tool
// pprof reads (a gzip-compressed protocol buffer), and refuses the flag
// with a cell budget, whose cells would run outside the profile.
func TestRunCPUProfile(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "tiny.swf")
	if err := os.WriteFile(trace, []byte(tinyTrace), 0o644); err != nil {
		t.Fatal(err)
	}
	spec := filepath.Join(dir, "s.yaml")
	text := "name: prof\nplatform: {procs: 4}\nworkload: {trace: tiny.swf}\nschedulers: [fcfs, easy]\noutput: " + filepath.Join(dir, "out.parquet") + "\n"
	if err := os.WriteFile(spec, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	prof := filepath.Join(dir, "cpu.pprof")
	code, stdout, stderr := runCLI("run", "--workers", "1", "--state", filepath.Join(dir, "state"), "--data-root", dir, "--cpuprofile", prof, spec)
	if code != 0 || !strings.Contains(stdout, "2 ok, 0 failed") {
		t.Fatalf("run --cpuprofile: exit %d; want 0 with 2 ok cells\n%s\n%s", code, stdout, stderr)
	}
	checkProfile(t, prof)

	code, _, stderr = runCLI("run", "--workers", "1", "--state", filepath.Join(dir, "state2"), "--data-root", dir, "--cell-timeout", "1m", "--cpuprofile", filepath.Join(dir, "cpu2.pprof"), spec)
	if code != exitUsage || !strings.Contains(stderr, "--cpuprofile") || !strings.Contains(stderr, "child process") {
		t.Fatalf("run --cpuprofile with --cell-timeout: exit %d; want %d naming the flag and why\n%s", code, exitUsage, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "cpu2.pprof")); err == nil {
		t.Fatal("a refused --cpuprofile still created its file")
	}
}

// schedfarm reproduce --cpuprofile writes a profile of the whole
// reproduction (every spec's cells run in this process), as run's does; a
// path it cannot create stops it before anything runs, naming the flag.
func TestReproduceCPUProfile(t *testing.T) {
	out := t.TempDir()
	prof := filepath.Join(out, "cpu.pprof")
	var stdout, stderr bytes.Buffer
	if code := runReproduce([]string{"--quick", "-o", out, "--workers", "2", "--cpuprofile", prof, "testdata/reproduce/claims.yaml"}, &stdout, &stderr); code != 0 {
		t.Fatalf("reproduce --cpuprofile: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout.String(), stderr.String())
	}
	checkProfile(t, prof)

	out2 := t.TempDir()
	stdout.Reset()
	stderr.Reset()
	bad := filepath.Join(out2, "no-such-dir", "cpu.pprof")
	code := runReproduce([]string{"--quick", "-o", out2, "--workers", "2", "--cpuprofile", bad, "testdata/reproduce/claims.yaml"}, &stdout, &stderr)
	if code != 2 || !strings.Contains(stderr.String(), "--cpuprofile "+bad) {
		t.Fatalf("reproduce --cpuprofile %s: exit %d; want 2 naming the flag\n%s", bad, code, stderr.String())
	}
	if _, err := os.Stat(filepath.Join(out2, "mini-repro.parquet")); err == nil {
		t.Fatal("a refused --cpuprofile still ran the specs")
	}
}

// checkProfile fails t unless path holds what pprof writes: a
// gzip-compressed, non-empty protocol buffer.
func checkProfile(t *testing.T, path string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("no profile written: %v", err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("the profile (%d bytes) is not gzip-compressed as pprof writes it: %v", len(data), err)
	}
	if body, err := io.ReadAll(zr); err != nil || len(body) == 0 {
		t.Fatalf("the profile does not decompress to a protocol buffer: %d bytes, %v", len(body), err)
	}
}
