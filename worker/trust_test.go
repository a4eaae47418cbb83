package worker

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/broker"
	"github.com/schedfarm/schedfarm/experiments"
	"github.com/schedfarm/schedfarm/families"
	"github.com/schedfarm/schedfarm/runner"
)

// checkSpecCells expands spec, sends up to n of its cells (spread over the
// grid and the replications) through JSON and the data root, and requires
// CheckCell to accept each.
func checkSpecCells(t *testing.T, spec *experiments.Spec, root *DataRoot, n int) {
	t.Helper()
	cells := spec.Cells()
	step := max(1, len(cells)/n)
	for i := 0; i < len(cells); i += step {
		c := cells[i]
		// What the coordinator publishes: the spec's directory relative
		// to the data root.
		rel, err := filepath.Rel(root.Dir(), c.Dir)
		if err != nil {
			t.Fatal(err)
		}
		c.Dir = filepath.ToSlash(rel)
		data, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		got, err := DecodeCell("", data, 0)
		if err != nil {
			t.Fatalf("%s: cell %d: decode: %v", spec.File, i, err)
		}
		if got, err = root.Resolve(got); err != nil {
			t.Fatalf("%s: cell %d: data root: %v", spec.File, i, err)
		}
		if err := experiments.CheckCell(got, experiments.NewCatalog(families.Builtin())); err != nil {
			t.Errorf("%s: cell %d (%s, replication %d) refused: %v\n%s", spec.File, i, c.Scheduler, c.Replication, err, data)
		}
	}
}

// Every committed spec's cells pass the worker's re-validation: the check
// refuses nothing that spec expansion produces.
func TestCheckCellAcceptsEveryShippedSpecsCells(t *testing.T) {
	specs, err := filepath.Glob("../experiments/*.yaml")
	if err != nil || len(specs) == 0 {
		t.Fatalf("no specs: %v", err)
	}
	root, err := OpenDataRoot("..")
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	n := 40
	if testing.Short() {
		n = 5
	}
	for _, p := range specs {
		spec, err := experiments.Load(p, experiments.NewCatalog(families.Builtin()))
		if err != nil {
			t.Logf("%s does not load (%v); skipped", p, strings.SplitN(err.Error(), "\n", 2)[0])
			continue
		}
		checkSpecCells(t, spec, root, n)
	}
}

// Sweeps that combine trace-estimate settings, common random numbers,
// scheduler-scoped axes and a trace below the spec's directory give cells
// the worker accepts.
func TestCheckCellAcceptsSweptCombinations(t *testing.T) {
	dir := t.TempDir()
	writeTrace(t, filepath.Join(dir, "traces", "t.swf"))
	spec := writeSpec(t, dir, "specs/s.yaml", `name: combos
platform: {procs: 16}
workload:
  trace: ../traces/t.swf
  max_estimate: 36000
  warmup: 20
schedulers: [easy, {name: depth, params: {k: 2}}]
axes:
  - param: workload.user_estimates
    values: [none, tsafrir05]
  - param: workload.load
    values: [0.5, 0.9]
    common_random_numbers: true
  - param: scheduler.depth.k
    values: [1, 3]
  - param: workload.jobs
    values: [10, 30]
replications: 3
seed: 5
`)
	root, err := OpenDataRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	checkSpecCells(t, spec, root, 1000)
}

// A family's workload fields (families.WorkloadFields: seed 000's CPU
// usage) ride in cells as workload.<field> parameters and are re-checked
// together, as the spec gave them: a sweep of cpu_error under
// cpu_estimate noisy and of cpu_usage passes, for tiered and plain
// schedulers alike.
func TestCheckCellAcceptsFamilyWorkloadFields(t *testing.T) {
	dir := t.TempDir()
	writeTrace(t, filepath.Join(dir, "traces", "t.swf"))
	spec := writeSpec(t, dir, "specs/s.yaml", `name: family-fields
platform: {procs: 16}
workload:
  trace: ../traces/t.swf
  cpu_estimate: noisy
schedulers: [easy, measy]
axes:
  - param: workload.cpu_error
    values: [0, 0.3]
  - param: workload.cpu_usage
    values: [0.5, 1]
replications: 2
seed: 5
`)
	root, err := OpenDataRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	if n := len(spec.Cells()); n != 2*2*2*2 {
		t.Fatalf("%d cells; want 16", n)
	}
	checkSpecCells(t, spec, root, 1000)
}

func writeSpec(t testing.TB, dir, name, text string) *experiments.Spec {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	spec, err := experiments.Load(p, experiments.NewCatalog(families.Builtin()))
	if err != nil {
		t.Fatal(err)
	}
	return spec
}

// writeTrace writes a small valid SWF trace for 16 processors.
func writeTrace(t testing.TB, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("; Version: 2.2\n; MaxProcs: 16\n")
	for i := 1; i <= 40; i++ {
		run, procs := 50+(i*37)%400, 1+(i*7)%8
		b.WriteString(strings.Join([]string{itoa(i), itoa(i * 30), "-1", itoa(run), itoa(procs), "-1", "-1", itoa(procs), itoa(run * 2), "-1", "1", "1", "1", "1", "1", "-1", "-1", "-1"}, " "))
		b.WriteByte('\n')
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

// BenchmarkCheckCell measures the worker's re-validation of one
// quickstart cell (decode, data root, spec validation, ID and seed).
func BenchmarkCheckCell(b *testing.B) {
	spec, err := experiments.Load("../experiments/quickstart.yaml", experiments.NewCatalog(families.Builtin()))
	if err != nil {
		b.Fatal(err)
	}
	root, err := OpenDataRoot("..")
	if err != nil {
		b.Fatal(err)
	}
	defer root.Close()
	c := spec.Cells()[7]
	c.Dir = ""
	data, err := json.Marshal(c)
	if err != nil {
		b.Fatal(err)
	}
	gate := NewTrust(root, experiments.NewCatalog(families.Builtin()), 0)
	for b.Loop() {
		if _, err := gate.Admit("", data); err != nil {
			b.Fatal(err)
		}
	}
}

// cacheSpec has 2 loads × 2 schedulers × 3 replications: 4 spec points.
const cacheSpec = `name: cache
platform: {procs: 16}
workload: {trace: t.swf}
schedulers: [fcfs, easy]
axes:
  - param: workload.load
    values: [0.5, 0.9]
replications: 3
seed: 2
`

// cacheMessages writes cacheSpec and its trace into a new data root and
// returns the root and the spec's cells as a coordinator publishes them
// (Dir relative to the root).
func cacheMessages(t *testing.T) (*DataRoot, []runner.Cell) {
	t.Helper()
	dir := t.TempDir()
	writeTrace(t, filepath.Join(dir, "t.swf"))
	spec := writeSpec(t, dir, "s.yaml", cacheSpec)
	root, err := OpenDataRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { root.Close() })
	cells := spec.Cells()
	for i := range cells {
		cells[i].Dir = "."
	}
	return root, cells
}

func encodeCell(t *testing.T, c runner.Cell) []byte {
	t.Helper()
	data, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// The gate's re-check cache cannot admit a forged cell: once a cell and a
// sibling (same point, replication 1) are admitted, each forged message of
// the sibling is refused with the error a gate with an empty cache gives,
// and the cache holds the one good point only.
func TestTrustCacheRejectsForgedSiblings(t *testing.T) {
	root, cells := cacheMessages(t)
	cat := experiments.NewCatalog(families.Builtin())
	good := cells[0]
	var sib runner.Cell
	for _, c := range cells {
		if c.Replication == 1 && c.Scheduler == good.Scheduler && reflect.DeepEqual(c.Params, good.Params) {
			sib = c
		}
	}
	gate := NewTrust(root, cat, 0)
	for _, c := range []runner.Cell{good, sib} {
		if _, err := gate.Admit(broker.CellSubject(c.Experiment, c.ID), encodeCell(t, c)); err != nil {
			t.Fatalf("replication %d refused: %v", c.Replication, err)
		}
	}
	if s := gate.check.Stats(); s.Hits != 1 || s.Len != 1 {
		t.Fatalf("re-check stats %+v; want the sibling admitted from the cache", s)
	}
	forged := map[string]func(c runner.Cell) runner.Cell{
		"wrong seed":           func(c runner.Cell) runner.Cell { c.Seed++; return c },
		"replication 0's seed": func(c runner.Cell) runner.Cell { c.Seed = good.Seed; return c },
		"replication 0's id":   func(c runner.Cell) runner.Cell { c.ID = good.ID; return c },
		"other replication":    func(c runner.Cell) runner.Cell { c.Replication = 2; return c },
		"replication too high": func(c runner.Cell) runner.Cell { c.Replication = experiments.MaxCells; return c },
		"changed load":         func(c runner.Cell) runner.Cell { return c.WithParam("workload.load", 0.7) },
		"procs as a float":     func(c runner.Cell) runner.Cell { return c.WithParam("platform.procs", 16.0) },
		"other scheduler":      func(c runner.Cell) runner.Cell { c.Scheduler = "easy"; return c },
		"plugin on a builtin": func(c runner.Cell) runner.Cell {
			c.Plugin = &runner.PluginRef{Path: "t.swf", SHA256: strings.Repeat("a", 64)}
			return c
		},
		"dir out of the root":   func(c runner.Cell) runner.Cell { c.Dir = ".."; return c },
		"absolute trace":        func(c runner.Cell) runner.Cell { return c.WithParam("workload.trace", "/etc/passwd") },
		"trace out of the root": func(c runner.Cell) runner.Cell { return c.WithParam("workload.trace", "../t.swf") },
	}
	for name, f := range forged {
		c := f(sib)
		// The subject of the cell's own ID: the forgery gets past the
		// subject check and meets the re-check.
		subject, data := broker.CellSubject(c.Experiment, c.ID), encodeCell(t, c)
		_, got := gate.Admit(subject, data)
		_, want := NewTrust(root, cat, 0).Admit(subject, data)
		switch {
		case got == nil:
			t.Errorf("%s: admitted", name)
		case want == nil || got.Error() != want.Error():
			t.Errorf("%s: error %q; a gate with an empty cache gives %v", name, got, want)
		}
	}
	if s := gate.check.Stats(); s.Len != 1 {
		t.Errorf("%d points cached; want only the good one (stats %+v)", s.Len, s)
	}
}

// The gate's re-check cache keeps at most its size of spec points.
func TestTrustCacheBounded(t *testing.T) {
	root, cells := cacheMessages(t)
	gate := newTrust(root, experiments.NewCatalog(families.Builtin()), 0, 2)
	for _, c := range cells {
		if _, err := gate.Admit("", encodeCell(t, c)); err != nil {
			t.Fatal(err)
		}
	}
	if s := gate.check.Stats(); s.Len != 2 || s.Evictions == 0 {
		t.Errorf("re-check stats %+v; want 2 points kept of 4, the others evicted", s)
	}
}
