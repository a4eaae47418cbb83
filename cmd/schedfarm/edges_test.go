package main

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/results"
)

// An output path that is a directory is refused before anything is
// created: no journal, no .schedfarm/ store left behind.
func TestOutputThatIsADirectoryLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	writeFarmTrace(t, filepath.Join(dir, "trace.swf"))
	if err := os.Mkdir(filepath.Join(dir, "out.parquet"), 0o755); err != nil {
		t.Fatal(err)
	}
	spec := filepath.Join(dir, "spec.yaml")
	if err := os.WriteFile(spec, []byte(farmSpecText), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir) // the output path is relative to the working directory
	code, _, stderr := runCLI("run", "--workers", "1", spec)
	if code != exitError || !strings.Contains(stderr, "is a directory; want a file path such as") {
		t.Fatalf("run with a directory as output: exit %d, %s", code, stderr)
	}
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if strings.Join(names, " ") != "out.parquet spec.yaml trace.swf" {
		t.Errorf("the directory holds %v afterwards; want only out.parquet, spec.yaml and trace.swf", names)
	}
}

// A gzip trace cut short is said to be cut off, not "unexpected EOF" alone.
func TestTruncatedGzipTraceSaidCutOff(t *testing.T) {
	dir := t.TempDir()
	writeFarmTrace(t, filepath.Join(dir, "trace.swf"))
	plain, err := os.ReadFile(filepath.Join(dir, "trace.swf"))
	if err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(plain)
	zw.Close()
	cut := filepath.Join(dir, "cut.swf.gz")
	if err := os.WriteFile(cut, gz.Bytes()[:gz.Len()/2], 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runCLI("sim", "--trace", cut, "--scheduler", "easy")
	if code == 0 || !strings.Contains(stderr, "cut.swf.gz:") || !strings.Contains(stderr, "the file is cut off") {
		t.Errorf("sim on a truncated gzip: exit %d, %q; want the file named as cut off", code, stderr)
	}
}

// Under docker compose an unwritable output directory names the variables
// that set the coordinator's user.
func TestUnwritableOutputUnderComposeNamesTheUID(t *testing.T) {
	t.Setenv("SCHEDFARM_COMPOSE", "1")
	if h := results.WritableHint(); !strings.Contains(h, "export SCHEDFARM_UID=$(id -u) SCHEDFARM_GID=$(id -g)") || !strings.Contains(h, "this process runs as uid") {
		t.Errorf("hint %q; want the uid and SCHEDFARM_UID/GID", h)
	}
	t.Setenv("SCHEDFARM_COMPOSE", "")
	if h := results.WritableHint(); strings.Contains(h, "SCHEDFARM_UID") {
		t.Errorf("outside compose the hint %q mentions SCHEDFARM_UID", h)
	}
}

// --dispatch and SCHEDFARM_DISPATCH take longest-first or grid; anything
// else is a usage error that names the accepted values, before anything
// runs.
func TestDispatchFlagRefusesUnknownOrders(t *testing.T) {
	for _, c := range []struct {
		env  string
		args []string
	}{
		{"", []string{"run", "--dispatch", "lpt", "spec.yaml"}},
		{"shortest-first", []string{"run", "spec.yaml"}},
		{"", []string{"coordinator", "--nats", "nats://127.0.0.1:1", "--dispatch", "random", "spec.yaml"}},
	} {
		t.Setenv("SCHEDFARM_DISPATCH", c.env)
		code, _, errs := runCLI(c.args...)
		if code != 2 || !strings.Contains(errs, "want longest-first or grid") {
			t.Errorf("SCHEDFARM_DISPATCH=%q schedfarm %v: exit %d, stderr %q; want 2 and the accepted values", c.env, c.args, code, errs)
		}
	}
}

// schedfarm broker --max-payload takes 0 (8 MiB) or 4 KiB..64 MiB; anything
// else is refused before the server starts, with the accepted values.
func TestBrokerMaxPayloadBounds(t *testing.T) {
	store := t.TempDir()
	for _, c := range []struct {
		value string
		code  int
		want  string
	}{
		{"-5", exitError, "max payload -5 bytes: want 0 (the default, 8388608) or 4096..67108864"},
		{"100", exitError, "max payload 100 bytes: want 0 (the default, 8388608) or 4096..67108864"},
		{"67108865", exitError, "max payload 67108865 bytes: want 0"},
		{"4294967296", exitError, "max payload 4294967296 bytes: want 0"},
	} {
		code, _, errs := runCLI("broker", "--listen", "127.0.0.1:-1", "--store", store, "--max-payload", c.value)
		if code != c.code || !strings.Contains(errs, c.want) {
			t.Errorf("schedfarm broker --max-payload %s: exit %d, stderr %q; want %d and %q", c.value, code, errs, c.code, c.want)
		}
	}
}
