package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/schedfarm/schedfarm/experiments"
	"github.com/schedfarm/schedfarm/results"
	"github.com/schedfarm/schedfarm/runner"
	"github.com/schedfarm/schedfarm/strategies/plugin"
	"github.com/schedfarm/schedfarm/strategies/plugin/plugintest"
)

// TestSimPlugin: schedfarm sim --plugin with the EASY example gives the
// built-in easy's schedule and names the plugin's binary.
func TestSimPlugin(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "tiny.swf")
	if err := os.WriteFile(trace, []byte(tinyTrace), 0o644); err != nil {
		t.Fatal(err)
	}
	path := plugintest.Copy(t, plugintest.Build(t, "./examples/plugins/easy"), dir, "easy-plugin")
	bin, _ := plugin.Hash(path)
	code, out, errs := runCLI("sim", "--trace", trace, "--plugin", path, "--estimates", "pyss", "--schedule", filepath.Join(dir, "p.swf"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, w := range []string{"scheduler   easy-plugin   estimates pyss", "plugin      " + path + "   sha256 " + bin.SHA256, "4 simulated: 4 finished", "1 backfilled"} {
		if !strings.Contains(out, w) {
			t.Errorf("summary lacks %q:\n%s", w, out)
		}
	}
	if code, _, errs := runCLI("sim", "--trace", trace, "--scheduler", "easy", "--estimates", "pyss", "--schedule", filepath.Join(dir, "b.swf")); code != 0 {
		t.Fatal(errs)
	}
	if p, b := jobLines(t, filepath.Join(dir, "p.swf")), jobLines(t, filepath.Join(dir, "b.swf")); p != b {
		t.Errorf("plugin schedule\n%s\nbuilt-in\n%s", p, b)
	}
	if code, _, errs := runCLI("sim", "--trace", trace, "--plugin", path, "--param", "backfill=sideways"); code != 1 ||
		!strings.Contains(errs, `easy-plugin: parameter backfill = "sideways": not an accepted value; accepted: one of submit, shortest`) {
		t.Errorf("bad parameter: exit %d, %s", code, errs)
	}
	if code, _, errs := runCLI("sim", "--trace", trace, "--plugin", path, "--scheduler", "easy"); code != 2 || !strings.Contains(errs, "not both") {
		t.Errorf("--plugin with --scheduler: exit %d, %s", code, errs)
	}
	if code, _, errs := runCLI("sim", "--trace", trace, "--plugin", filepath.Join(dir, "nope")); code != 1 || !strings.Contains(errs, "no such file") {
		t.Errorf("missing plugin: exit %d, %s", code, errs)
	}
}

func jobLines(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var keep []string
	for _, l := range strings.Split(string(b), "\n") {
		if !strings.HasPrefix(l, ";") {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}

// TestFarmPluginSweep runs a spec that sweeps the EASY example plugin's
// parameter on the farm (schedfarm run, two workers, a separate process):
// every plugin cell gives the metrics of the built-in scheduler it
// reimplements, and carries the binary's SHA-256.
func TestFarmPluginSweep(t *testing.T) {
	f := newFarmFixture(t, false)
	path := plugintest.Copy(t, plugintest.Build(t, "./examples/plugins/easy"), f.dir, "easy-plugin")
	bin, _ := plugin.Hash(path)
	f.spec = f.writeSpec(t, "plugin.yaml", `name: pluginsweep
platform: {procs: 16}
workload: {trace: trace.swf}
schedulers:
  - easy
  - sjbf
  - {plugin: ./easy-plugin, pass_timeout: 20s}
axes:
  - param: workload.load
    values: [0.5, 0.9]
  - param: scheduler.easy-plugin.backfill
    values: [submit, shortest]
seed: 3
output: out.parquet
`)
	run := f.start(t, nil, "run", "--workers", "2", f.spec)
	if code := run.wait(t, 3*time.Minute); code != 0 {
		t.Fatalf("run exit %d:\n%s", code, run.out.String())
	}
	recs, err := results.ReadFile(filepath.Join(f.dir, "out.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 8 {
		t.Fatalf("%d rows; want 8 (2 loads × easy, sjbf, plugin × 2 backfill orders)", len(recs))
	}
	builtin := map[string]*results.Record{} // scheduler + load
	load := func(r *results.Record) string {
		v, _ := r.Cell.Lookup("workload.load")
		return experiments.FormatValue(v)
	}
	for _, r := range recs {
		if r.Result.Status != runner.StatusOK {
			t.Fatalf("cell %s (%s): %s", r.Cell.ID, r.Cell.Scheduler, r.Result.Error)
		}
		if r.Cell.Plugin == nil {
			builtin[r.Cell.Scheduler+load(r)] = r
		}
	}
	plugins := 0
	for _, r := range recs {
		if r.Cell.Scheduler != "easy-plugin" {
			if r.Cell.PluginSHA256() != "" {
				t.Errorf("built-in %s has plugin_sha256 %q", r.Cell.Scheduler, r.Cell.PluginSHA256())
			}
			continue
		}
		plugins++
		if r.Cell.PluginSHA256() != bin.SHA256 {
			t.Errorf("plugin row has plugin_sha256 %q; want %s", r.Cell.PluginSHA256(), bin.SHA256)
		}
		order, _ := r.Cell.Lookup("scheduler.backfill")
		twin := builtin[map[any]string{"submit": "easy", "shortest": "sjbf"}[order]+load(r)]
		if twin == nil {
			t.Fatalf("no built-in twin for backfill %v at load %s", order, load(r))
		}
		for _, m := range []string{"wait_mean", "bsld_mean", "backfilled", "makespan"} {
			a, _ := r.Metric(m)
			b, _ := twin.Metric(m)
			if a != b {
				t.Errorf("load %s backfill %v: %s %g through the plugin, %g built in", load(r), order, m, a, b)
			}
		}
	}
	if plugins != 4 {
		t.Errorf("%d plugin rows; want 4", plugins)
	}
}

// TestFarmCrashingPlugin: a plugin that crashes in every cell gives failed
// cells with its stderr tail in the error column, and the one worker goes
// on to run every other cell.
func TestFarmCrashingPlugin(t *testing.T) {
	f := newFarmFixture(t, false)
	plugintest.Copy(t, plugintest.Build(t, "./strategies/plugin/internal/testplugin"), f.dir, "crasher")
	f.spec = f.writeSpec(t, "crash.yaml", `name: pluginscrash
platform: {procs: 16}
workload: {trace: trace.swf}
schedulers:
  - {plugin: ./crasher, params: {mode: crash, after: 3}}
  - fcfs
axes:
  - param: workload.load
    values: [0.5, 0.7, 0.9]
seed: 3
output: out.parquet
`)
	run := f.start(t, nil, "run", "--workers", "1", f.spec)
	if code := run.wait(t, 3*time.Minute); code != exitCellsFailed {
		t.Fatalf("run exit %d; want %d (every cell has a result, some failed):\n%s", code, exitCellsFailed, run.out.String())
	}
	if out := run.out.String(); !strings.Contains(out, "3 ok, 3 failed") {
		t.Errorf("summary does not report 3 failed cells:\n%s", out)
	}
	recs, err := results.ReadFile(filepath.Join(f.dir, "out.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 6 {
		t.Fatalf("%d rows; want 6", len(recs))
	}
	for _, r := range recs {
		switch r.Cell.Scheduler {
		case "testplugin":
			for _, w := range []string{"plugin testplugin (", "the process died or broke the connection", "panic: testplugin crashed on purpose", "testplugin: about to crash"} {
				if r.Result.Status != runner.StatusFailed || !strings.Contains(r.Result.Error, w) {
					t.Errorf("plugin cell: status %s, error lacks %q:\n%s", r.Result.Status, w, r.Result.Error)
				}
			}
		case "fcfs":
			if r.Result.Status != runner.StatusOK {
				t.Errorf("fcfs cell: %s %s", r.Result.Status, r.Result.Error)
			}
		default:
			t.Errorf("unexpected scheduler %q", r.Cell.Scheduler)
		}
	}
}
