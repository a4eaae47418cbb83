package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runCLI(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = dispatch(args, &out, &errb)
	return code, out.String(), errb.String()
}

const tinyTrace = `; MaxProcs: 4
1 0 -1 10 3 -1 -1 3 10 -1 1 1 1 1 1 1 -1 -1
2 1 -1 10 2 -1 -1 2 10 -1 1 1 1 1 1 1 -1 -1
3 2 -1 10 4 -1 -1 4 10 -1 1 1 1 1 1 1 -1 -1
4 3 -1 30 1 -1 -1 1 30 -1 1 1 1 1 1 1 -1 -1
`

func TestSimCommand(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "tiny.swf")
	if err := os.WriteFile(trace, []byte(tinyTrace), 0o644); err != nil {
		t.Fatal(err)
	}
	sched := filepath.Join(dir, "out.swf")
	code, out, errs := runCLI("sim", "--trace", trace, "--scheduler", "easy", "--estimates", "pyss", "--schedule", sched)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, w := range []string{"scheduler   easy   estimates pyss", "machine     4 processors (MaxProcs)", "4 simulated: 4 finished", "1 backfilled", "schedule    written to"} {
		if !strings.Contains(out, w) {
			t.Errorf("summary lacks %q:\n%s", w, out)
		}
	}
	data, err := os.ReadFile(sched)
	if err != nil {
		t.Fatal(err)
	}
	// EASY backfills job 4 at 3 (see the classic scenarios): wait 0, ran 30.
	if !strings.Contains(string(data), "\n4 3 0 30 1 ") {
		t.Errorf("schedule lacks job 4 backfilled at 3:\n%s", data)
	}

	code, out, _ = runCLI("sim", "--trace", trace, "--scheduler", "cons", "--json")
	if code != 0 {
		t.Fatalf("json: exit %d", code)
	}
	var js struct {
		Metrics map[string]float64 `json:"metrics"`
	}
	if err := json.Unmarshal([]byte(out), &js); err != nil {
		t.Fatalf("json output: %v\n%s", err, out)
	}
	// CONS: starts 0, 10, 20, 30 → waits 0, 9, 18, 27 → mean 13.5.
	if js.Metrics["wait_mean"] != 13.5 || js.Metrics["jobs"] != 4 {
		t.Errorf("metrics %v", js.Metrics)
	}
}

func TestSimCommandErrors(t *testing.T) {
	if code, _, errs := runCLI("sim"); code != 2 || !strings.Contains(errs, "--trace FILE is required") {
		t.Errorf("no trace: exit %d, %q", code, errs)
	}
	if code, _, errs := runCLI("sim", "--trace", "/nonexistent.swf"); code != 1 || !strings.Contains(errs, "nonexistent.swf") {
		t.Errorf("missing file: exit %d, %q", code, errs)
	}
	dir := t.TempDir()
	trace := filepath.Join(dir, "tiny.swf")
	os.WriteFile(trace, []byte(tinyTrace), 0o644)
	if code, _, errs := runCLI("sim", "--trace", trace, "--scheduler", "eazy"); code != 1 || !strings.Contains(errs, `unknown scheduler "eazy"; known:`) {
		t.Errorf("bad scheduler: exit %d, %q", code, errs)
	}
	if code, _, errs := runCLI("sim", "--trace", trace, "--scheduler", "depth", "--param", "k=x"); code != 1 || !strings.Contains(errs, `parameter k = "x": not an integer`) {
		t.Errorf("bad param: exit %d, %q", code, errs)
	}
	if code, _, _ := runCLI("frobnicate"); code != 2 {
		t.Errorf("unknown command: exit %d", code)
	}
}

func TestSchedulersCommand(t *testing.T) {
	code, out, _ := runCLI("schedulers")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, name := range []string{"fcfs", "easy", "cons", "sjbf", "depth", "param k"} {
		if !strings.Contains(out, name) {
			t.Errorf("listing lacks %q:\n%s", name, out)
		}
	}
}

// TestHelpOnEverySubcommand checks that --help works on each subcommand
// and exits 0.
func TestHelpOnEverySubcommand(t *testing.T) {
	for _, c := range commands() {
		code, out, errs := runCLI(c.name, "--help")
		if code != 0 {
			t.Errorf("%s --help: exit %d", c.name, code)
		}
		if !strings.Contains(out+errs, "Usage") && !strings.Contains(out+errs, "usage") {
			t.Errorf("%s --help printed no usage:\n%s%s", c.name, out, errs)
		}
	}
}
