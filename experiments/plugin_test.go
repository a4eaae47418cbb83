package experiments

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/families"
	"github.com/schedfarm/schedfarm/runner"
	"github.com/schedfarm/schedfarm/strategies/plugin"
	"github.com/schedfarm/schedfarm/strategies/plugin/plugintest"
)

// pluginDir returns a directory with the EASY example plugin (as
// easy-plugin) and the tiny test trace, for specs that name both
// relatively.
func pluginDir(t *testing.T) (dir string, bin plugin.Binary) {
	t.Helper()
	dir = t.TempDir()
	path := plugintest.Copy(t, plugintest.Build(t, "./examples/plugins/easy"), dir, "easy-plugin")
	data, err := os.ReadFile(filepath.Join("testdata", "tiny.swf"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "tiny.swf"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	bin, err = plugin.Hash(path)
	if err != nil {
		t.Fatal(err)
	}
	return dir, bin
}

const pluginSpec = `
name: plug
workload: {trace: tiny.swf, estimates: pyss}
schedulers:
  - easy
  - {plugin: ./easy-plugin, pass_timeout: 10}
axes:
  - param: scheduler.easy-plugin.backfill
    values: [submit, shortest]
`

func TestPluginSpecCells(t *testing.T) {
	dir, bin := pluginDir(t)
	specPath := filepath.Join(dir, "s.yaml")
	os.WriteFile(specPath, []byte(pluginSpec), 0o644)
	s, err := Load(specPath, NewCatalog(families.Builtin()))
	if err != nil {
		t.Fatal(err)
	}
	cells := s.Cells()
	if len(cells) != 3 {
		t.Fatalf("%d cells; want easy + the plugin at 2 backfill orders", len(cells))
	}
	var easy runner.Cell
	var plug []runner.Cell
	for _, c := range cells {
		if c.Plugin == nil {
			easy = c
			continue
		}
		plug = append(plug, c)
		if c.Scheduler != "easy-plugin" || c.Plugin.Path != "./easy-plugin" || c.Plugin.SHA256 != bin.SHA256 || c.Plugin.PassTimeout != 10 {
			t.Errorf("plugin cell: scheduler %q, plugin %+v", c.Scheduler, c.Plugin)
		}
		if c.ID != CellID("plug", 0, "easy-plugin@sha256:"+bin.SHA256, c.Params, 0) {
			t.Errorf("plugin cell ID %s is not computed with the binary's SHA-256", c.ID)
		}
		if c.Seed != easy.Seed {
			t.Errorf("plugin cell seed %d, easy's %d: schedulers of a point share the seed", c.Seed, easy.Seed)
		}
	}
	// Run the cells: the plugin with backfill=submit gives easy's metrics.
	want, err := runCell(context.Background(), easy)
	if err != nil || want.Status != runner.StatusOK {
		t.Fatalf("easy cell: %v %+v", err, want)
	}
	for _, c := range plug {
		got, err := runCell(context.Background(), c)
		if err != nil || got.Status != runner.StatusOK {
			t.Fatalf("plugin cell: %v %s", err, got.Error)
		}
		if v, _ := c.Lookup("scheduler.backfill"); v == "submit" {
			for i, m := range got.Metrics {
				if m != want.Metrics[i] {
					t.Errorf("metric %s: %g through the plugin, %g built in", m.Name, m.Value, want.Metrics[i].Value)
				}
			}
		}
	}

	// Another build of the plugin: new IDs for its cells, the same for
	// the built-in's; and a cell made for the old build is refused.
	f, _ := os.OpenFile(bin.Path, os.O_APPEND|os.O_WRONLY, 0)
	f.Write([]byte("another build"))
	f.Close()
	s2, err := Load(specPath, NewCatalog(families.Builtin()))
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range s2.Cells() {
		if (c.ID == cells[i].ID) != (c.Plugin == nil) {
			t.Errorf("cell %d (%s): ID %s before the rebuild, %s after", i, c.Scheduler, cells[i].ID, c.ID)
		}
	}
	res, err := runCell(context.Background(), plug[0])
	if err != nil || res.Status != runner.StatusFailed || !strings.Contains(res.Error, "worker refuses the cell: plugin "+bin.Path+": the binary here has SHA-256") {
		t.Errorf("old cell on the new build: %v, %s %q", err, res.Status, res.Error)
	}
}

func TestPluginSpecErrors(t *testing.T) {
	dir, _ := pluginDir(t)
	specPath := filepath.Join(dir, "bad.yaml")
	os.WriteFile(specPath, []byte(`
name: bad
workload: {trace: tiny.swf}
schedulers:
  - {plugin: ./missing}
  - {plugin: ./easy-plugin, params: {depth: 3}}
  - {plugin: ./easy-plugin, name: easy}
  - {plugin: ./easy-plugin, pass_timeout: -1}
  - {name: fcfs, pass_timeout: 3}
  - {plugin: ./easy-plugin, name: mine}
axes:
  - param: scheduler.mine.backfill
    values: [submit, sideways]
`), 0o644)
	_, err := Load(specPath, NewCatalog(families.Builtin()))
	if err == nil {
		t.Fatal("no error")
	}
	for _, w := range []string{
		"line 5: schedulers[0].plugin: plugin " + filepath.Join(dir, "missing") + ": no such file or directory; accepted: the path of an executable scheduler plugin",
		`line 6: schedulers[1].params: plugin "easy-plugin": easy-plugin: unknown parameter "depth"; accepted: backfill`,
		`line 7: schedulers[2].name: "easy" is a built-in scheduler's name; give the plugin a name of its own`,
		"line 8: schedulers[3].pass_timeout: -1; accepted: seconds > 0, or a duration such as 30s or 2m",
		"line 9: schedulers[4].pass_timeout: applies to plugins only",
		`line 13: axes[0].values[1]: scheduler "mine": easy-plugin: parameter backfill = "sideways": not an accepted value`,
	} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error\n%v\nlacks\n%s", err, w)
		}
	}
	os.WriteFile(specPath, []byte(`
name: proj
workload: {generator: {model: seed004, projects: 10}}
schedulers: [{plugin: ./easy-plugin}]
`), 0o644)
	if _, err := Load(specPath, NewCatalog(families.Builtin())); err == nil || !strings.Contains(err.Error(), "scheduler plugins run on SWF workloads") {
		t.Errorf("plugin on a project workload: %v", err)
	}
}
