package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// schedfarm run resolves a spec's trace under --data-root: a spec below
// the root runs (its trace travels as a path relative to the root), and a
// root that does not contain the spec is refused before anything is
// published, naming the data root.
func TestRunDataRoot(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "specs", "traces"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "specs", "traces", "tiny.swf"), []byte(tinyTrace), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.parquet")
	spec := filepath.Join(dir, "specs", "s.yaml")
	text := "name: dataroot\nplatform: {procs: 4}\nworkload: {trace: traces/tiny.swf}\nschedulers: [fcfs, easy]\noutput: " + out + "\n"
	if err := os.WriteFile(spec, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	state := filepath.Join(dir, "state")
	code, stdout, stderr := runCLI("run", "--workers", "1", "--state", state, "--data-root", filepath.Join(dir, "specs", "traces"), spec)
	if code != 1 || !strings.Contains(stderr, "outside the data root") {
		t.Fatalf("run with a data root below the spec: exit %d; want 1 naming the data root\n%s\n%s", code, stdout, stderr)
	}
	code, stdout, stderr = runCLI("run", "--workers", "1", "--state", state, "--data-root", dir, spec)
	if code != 0 || !strings.Contains(stdout, "2 ok, 0 failed") {
		t.Fatalf("run with the data root above the spec: exit %d; want 0 with 2 ok cells\n%s\n%s", code, stdout, stderr)
	}
}
