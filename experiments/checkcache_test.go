package experiments

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/schedfarm/schedfarm/families"
	"github.com/schedfarm/schedfarm/runner"
)

// cacheSpec has 2 loads (a common-random-numbers axis) × 2 schedulers ×
// 3 replications: 4 spec points of 3 cells each.
const cacheSpec = `name: cache
platform: {procs: 8}
workload: {trace: tiny.swf, warmup: 1}
schedulers: [fcfs, {name: depth, params: {k: 2}}]
axes:
  - param: workload.load
    values: [0.5, 0.9]
    common_random_numbers: true
replications: 3
seed: 11
`

// writeCacheSpec writes spec and the tiny trace into a new directory and
// returns the spec's cells (Dir absolute, as a worker's data root makes
// it).
func writeCacheSpec(t *testing.T, spec string, cat Catalog) (dir string, cells []runner.Cell) {
	t.Helper()
	dir = t.TempDir()
	data, err := os.ReadFile(filepath.Join("testdata", "tiny.swf"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "tiny.swf"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "s.yaml")
	if err := os.WriteFile(p, []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Load(p, cat)
	if err != nil {
		t.Fatal(err)
	}
	return dir, s.Cells()
}

// sibling returns the cell of the same point as c with replication r.
func sibling(t *testing.T, cells []runner.Cell, c runner.Cell, r int) runner.Cell {
	t.Helper()
	for _, d := range cells {
		if d.Replication == r && d.Scheduler == c.Scheduler && sameParams(d.Params, c.Params) == "" {
			return d
		}
	}
	t.Fatalf("no replication %d of cell %s", r, c.ID)
	return runner.Cell{}
}

// The checker admits every cell of a spec, validating each spec point
// once: 4 points, 12 cells, 8 of them from the cache.
func TestCellCheckerAdmitsSpecCellsOncePerPoint(t *testing.T) {
	cat := NewCatalog(families.Builtin())
	_, cells := writeCacheSpec(t, cacheSpec, cat)
	chk := NewCellChecker(cat, 0)
	for _, c := range cells {
		if err := chk.Check(c); err != nil {
			t.Errorf("cell %d (%s, replication %d) refused: %v", c.Index, c.Scheduler, c.Replication, err)
		}
	}
	if s := chk.Stats(); s.Misses != 4 || s.Hits != 8 || s.Len != 4 || s.Evictions != 0 {
		t.Errorf("stats %+v; want 4 misses (one per point), 8 hits, 4 kept", s)
	}
}

// forgeries are changes to an admitted cell's sibling that the re-check
// must refuse; cached marks those that keep the sibling's cache key
// (replication, ID and seed only), which the cache itself must refuse.
func forgeries(good, sib runner.Cell, otherDir string) []struct {
	name   string
	cached bool
	c      runner.Cell
} {
	type forged = struct {
		name   string
		cached bool
		c      runner.Cell
	}
	var out []forged
	add := func(name string, cached bool, f func(c *runner.Cell)) {
		c := sib
		f(&c)
		out = append(out, forged{name, cached, c})
	}
	add("seed + 1", true, func(c *runner.Cell) { c.Seed++ })
	add("replication 0's seed", true, func(c *runner.Cell) { c.Seed = good.Seed })
	add("replication 0's id", true, func(c *runner.Cell) { c.ID = good.ID })
	add("made-up id", true, func(c *runner.Cell) { c.ID = "0123456789abcdef" })
	add("another replication", true, func(c *runner.Cell) { c.Replication = 2 })
	add("negative replication", true, func(c *runner.Cell) { c.Replication = -1 })
	add("replication out of range", false, func(c *runner.Cell) { c.Replication = MaxCells })
	add("changed load", false, func(c *runner.Cell) { *c = c.WithParam("workload.load", 0.7) })
	add("bad load", false, func(c *runner.Cell) { *c = c.WithParam("workload.load", -0.5) })
	add("procs as a float", false, func(c *runner.Cell) { *c = c.WithParam("platform.procs", 8.0) })
	add("load as a string", false, func(c *runner.Cell) { *c = c.WithParam("workload.load", "0.5") })
	add("missing parameter", false, func(c *runner.Cell) { c.Params = c.Params[1:] })
	add("other scheduler", false, func(c *runner.Cell) { c.Scheduler = "easy" })
	add("unknown scheduler", false, func(c *runner.Cell) { c.Scheduler = "nosuch" })
	add("other experiment", false, func(c *runner.Cell) { c.Experiment = "other" })
	add("other base seed", false, func(c *runner.Cell) { c.BaseSeed++ })
	add("no crn", false, func(c *runner.Cell) { c.CRN = nil })
	add("dir without the trace", false, func(c *runner.Cell) { c.Dir = otherDir })
	return out
}

// A cache hit cannot admit a forged cell: after the good cell of a point
// (and its sibling) are admitted, each forgery of the sibling is refused,
// with the error CheckCell gives it, and none enters the cache. Those that
// keep the sibling's key are refused by the cached check itself.
func TestCellCheckerHitRejectsForgedSiblings(t *testing.T) {
	cat := NewCatalog(families.Builtin())
	_, cells := writeCacheSpec(t, cacheSpec, cat)
	good := cells[0]
	sib := sibling(t, cells, good, 1)
	chk := NewCellChecker(cat, 0)
	if err := chk.Check(good); err != nil {
		t.Fatal(err)
	}
	if err := chk.Check(sib); err != nil {
		t.Fatal(err)
	}
	if s := chk.Stats(); s.Hits != 1 || s.Len != 1 {
		t.Fatalf("stats %+v; want the sibling admitted from the cache", s)
	}
	for _, f := range forgeries(good, sib, t.TempDir()) {
		before := chk.Stats()
		got := chk.Check(f.c)
		after := chk.Stats()
		want := CheckCell(f.c, cat)
		switch {
		case got == nil:
			t.Errorf("%s: admitted", f.name)
		case want == nil:
			t.Errorf("%s: CheckCell admits it", f.name)
		case got.Error() != want.Error():
			t.Errorf("%s: error %q; CheckCell's is %q", f.name, got, want)
		}
		if f.cached && after.Hits != before.Hits+1 {
			t.Errorf("%s: not refused from the cache (stats %+v, before %+v)", f.name, after, before)
		}
		if after.Len != 1 {
			t.Errorf("%s: %d points cached; want only the good one", f.name, after.Len)
		}
	}
	t.Logf("stats %+v", chk.Stats())
}

// A trace removed after its point was cached refuses the next cell as
// CheckCell does: validation's look at the file is not cached.
func TestCellCheckerTraceRemovedAfterCaching(t *testing.T) {
	cat := NewCatalog(families.Builtin())
	dir, cells := writeCacheSpec(t, cacheSpec, cat)
	chk := NewCellChecker(cat, 0)
	if err := chk.Check(cells[0]); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "tiny.swf")); err != nil {
		t.Fatal(err)
	}
	sib := sibling(t, cells, cells[0], 1)
	got, want := chk.Check(sib), CheckCell(sib, cat)
	if got == nil || want == nil || got.Error() != want.Error() || !strings.Contains(got.Error(), "not found") {
		t.Errorf("error %v; want CheckCell's, trace not found: %v", got, want)
	}
	// A directory in its place is refused too.
	if err := os.Mkdir(filepath.Join(dir, "tiny.swf"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got := chk.Check(sib); got == nil || !strings.Contains(got.Error(), "is a directory") {
		t.Errorf("error %v; want the trace is a directory", got)
	}
}

// fakePlugins is a catalog whose plugins are described without running
// them: each has the SHA-256 sha (changed by tests to model a rebuilt
// binary) and the name "fake".
type fakePlugins struct {
	Catalog
	mu    sync.Mutex
	sha   string
	calls int
}

func (f *fakePlugins) Plugin(path string) (PluginInfo, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	if filepath.Base(path) != "fake" {
		return PluginInfo{}, errors.New("no such plugin")
	}
	return PluginInfo{SHA256: f.sha, Name: "fake", Check: func(map[string]any) error { return nil }}, nil
}

func (f *fakePlugins) setSHA(sha string) {
	f.mu.Lock()
	f.sha = sha
	f.mu.Unlock()
}

const fakePluginSpec = `name: plug
platform: {procs: 8}
workload: {trace: tiny.swf}
schedulers: [{plugin: ./fake, pass_timeout: 10}]
replications: 3
`

// A plugin cell's point is cached with the plugin's hash: once the binary
// at the path has another SHA-256 (the catalog describes it anew for each
// cell), a sibling naming the old one is refused as CheckCell refuses it;
// a sibling naming another hash is refused while the binary is unchanged.
func TestCellCheckerPluginHash(t *testing.T) {
	shaA, shaB := strings.Repeat("a", 64), strings.Repeat("b", 64)
	cat := &fakePlugins{Catalog: NewCatalog(families.Builtin()), sha: shaA}
	_, cells := writeCacheSpec(t, fakePluginSpec, cat)
	chk := NewCellChecker(cat, 0)
	if err := chk.Check(cells[0]); err != nil {
		t.Fatal(err)
	}
	sib := sibling(t, cells, cells[0], 1)
	if err := chk.Check(sib); err != nil {
		t.Fatal(err)
	}
	if s := chk.Stats(); s.Hits != 1 {
		t.Fatalf("stats %+v; want the sibling admitted from the cache", s)
	}
	other := sib
	other.Plugin = &runner.PluginRef{Path: sib.Plugin.Path, SHA256: shaB, PassTimeout: sib.Plugin.PassTimeout}
	if got, want := chk.Check(other), CheckCell(other, cat); got == nil || want == nil || got.Error() != want.Error() {
		t.Errorf("a cell naming another binary: error %v; want CheckCell's %v", got, want)
	}
	cat.setSHA(shaB) // the binary is rebuilt
	if got, want := chk.Check(sib), CheckCell(sib, cat); got == nil || want == nil || got.Error() != want.Error() || !strings.Contains(got.Error(), "SHA-256") {
		t.Errorf("a cell of the old binary: error %v; want CheckCell's %v", got, want)
	}
}

// The cache keeps at most its size of points, the least recently used
// going first; an evicted point is validated again.
func TestCellCheckerBounded(t *testing.T) {
	cat := NewCatalog(families.Builtin())
	_, cells := writeCacheSpec(t, cacheSpec, cat)
	var points []runner.Cell // replication 0 of each of the 4 points
	for _, c := range cells {
		if c.Replication == 0 {
			points = append(points, c)
		}
	}
	if len(points) != 4 {
		t.Fatalf("%d points; want 4", len(points))
	}
	a, b, c := points[0], points[1], points[2]
	chk := NewCellChecker(cat, 2)
	check := func(cell runner.Cell, hits, misses, evictions int) {
		t.Helper()
		if err := chk.Check(cell); err != nil {
			t.Fatal(err)
		}
		if s := chk.Stats(); s.Hits != hits || s.Misses != misses || s.Evictions != evictions || s.Len > 2 {
			t.Errorf("after cell %d: stats %+v; want %d hits, %d misses, %d evictions, at most 2 kept", cell.Index, s, hits, misses, evictions)
		}
	}
	check(a, 0, 1, 0)
	check(b, 0, 2, 0)
	check(a, 1, 2, 0) // a is now the most recently used
	check(c, 1, 3, 1) // b goes
	check(a, 2, 3, 1)
	check(b, 2, 4, 2) // validated again; c goes
	check(a, 3, 4, 2)
	check(c, 3, 5, 3)
	for _, cell := range cells {
		if err := chk.Check(cell); err != nil {
			t.Fatal(err)
		}
	}
	if s := chk.Stats(); s.Len != 2 {
		t.Errorf("%d points kept; want the size, 2", s.Len)
	}
	if chk := NewCellChecker(cat, 0); chk.size != DefaultCheckCacheSize {
		t.Errorf("size %d by default; want %d", chk.size, DefaultCheckCacheSize)
	}
}

// The key covers every field of runner.Cell except those the cached check
// derives per cell (Replication, ID, Seed) and Index (no input of the
// re-check): a new field of runner.Cell or runner.PluginRef fails this
// test until checkKey covers it or it is listed here. Each covered field
// changes the key; the per-cell ones do not.
func TestCellCheckerKeyCoversTheCell(t *testing.T) {
	keyed := map[string]bool{"Experiment": true, "Scheduler": true, "Params": true, "BaseSeed": true,
		"CRN": true, "Dir": true, "KeepJobs": true, "Plugin": true}
	perCell := map[string]bool{"ID": true, "Index": true, "Replication": true, "Seed": true}
	for _, f := range reflect.VisibleFields(reflect.TypeFor[runner.Cell]()) {
		if !keyed[f.Name] && !perCell[f.Name] {
			t.Errorf("runner.Cell.%s is neither in the re-check's cache key (checkKey) nor checked per cell", f.Name)
		}
	}
	for _, f := range reflect.VisibleFields(reflect.TypeFor[runner.PluginRef]()) {
		if f.Name != "Path" && f.Name != "SHA256" && f.Name != "PassTimeout" {
			t.Errorf("runner.PluginRef.%s is not in the re-check's cache key (checkKey)", f.Name)
		}
	}

	shaA := strings.Repeat("a", 64)
	cat := &fakePlugins{Catalog: NewCatalog(families.Builtin()), sha: shaA}
	dir, cells := writeCacheSpec(t, fakePluginSpec, cat)
	other := t.TempDir()
	data, _ := os.ReadFile(filepath.Join(dir, "tiny.swf"))
	if err := os.WriteFile(filepath.Join(other, "tiny.swf"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	chk := NewCellChecker(cat, 0)
	base := cells[0]
	key := func(c runner.Cell) [32]byte {
		t.Helper()
		k, ok := chk.checkKey(c)
		if !ok {
			t.Fatalf("no key for %+v", c)
		}
		return k
	}
	k0 := key(base)
	plugin := func(f func(p *runner.PluginRef)) func(c *runner.Cell) {
		return func(c *runner.Cell) {
			p := *c.Plugin
			f(&p)
			c.Plugin = &p
		}
	}
	changes := []struct {
		name    string
		perCell bool
		f       func(c *runner.Cell)
	}{
		{"experiment", false, func(c *runner.Cell) { c.Experiment += "x" }},
		{"scheduler", false, func(c *runner.Cell) { c.Scheduler = "easy" }},
		{"param value", false, func(c *runner.Cell) { *c = c.WithParam("platform.procs", int64(9)) }},
		{"param kind", false, func(c *runner.Cell) { *c = c.WithParam("platform.procs", 8.0) }},
		{"param name", false, func(c *runner.Cell) {
			c.Params = append([]runner.Param{{Name: "a", Value: int64(8)}}, c.Params[1:]...)
		}},
		{"no param", false, func(c *runner.Cell) { c.Params = c.Params[1:] }},
		{"base seed", false, func(c *runner.Cell) { c.BaseSeed++ }},
		{"crn", false, func(c *runner.Cell) { c.CRN = []string{"platform.procs"} }},
		{"dir", false, func(c *runner.Cell) { c.Dir = other }},
		{"keep jobs", false, func(c *runner.Cell) { c.KeepJobs = true }},
		{"plugin path", false, plugin(func(p *runner.PluginRef) { p.Path = "sub/../fake" })},
		{"plugin pass timeout", false, plugin(func(p *runner.PluginRef) { p.PassTimeout = 11 })},
		{"no plugin", false, func(c *runner.Cell) { c.Plugin = nil }},
		{"id", true, func(c *runner.Cell) { c.ID = "x" }},
		{"seed", true, func(c *runner.Cell) { c.Seed++ }},
		{"replication", true, func(c *runner.Cell) { c.Replication = 7 }},
		{"index", true, func(c *runner.Cell) { c.Index = 99 }},
	}
	for _, ch := range changes {
		c := base
		ch.f(&c)
		if same := key(c) == k0; same != ch.perCell {
			t.Errorf("%s changed: same key %v; want %v", ch.name, same, ch.perCell)
		}
	}
	// What the catalog says of the plugin: its SHA-256 must be the
	// cell's (no key otherwise), and a changed name changes the key.
	cat.setSHA(strings.Repeat("b", 64))
	if _, ok := chk.checkKey(base); ok {
		t.Error("a key for a cell whose plugin's SHA-256 is not the binary's")
	}
	cat.setSHA(shaA)
	named := &fakeNamed{fakePlugins: cat, name: "renamed"}
	if k, ok := NewCellChecker(named, 0).checkKey(base); !ok || k == k0 {
		t.Errorf("the plugin's own name does not change the key (ok %v)", ok)
	}
	// Values of no parameter kind and a missing trace give no key.
	if _, ok := chk.checkKey(base.WithParam("platform.procs", int(8))); ok {
		t.Error("a key for a parameter of Go type int")
	}
	nodir := base
	nodir.Dir = t.TempDir()
	if _, ok := chk.checkKey(nodir); ok {
		t.Error("a key for a cell whose trace is missing")
	}
}

// fakeNamed is fakePlugins with another plugin name.
type fakeNamed struct {
	*fakePlugins
	name string
}

func (f *fakeNamed) Plugin(path string) (PluginInfo, error) {
	info, err := f.fakePlugins.Plugin(path)
	info.Name = f.name
	return info, err
}

// Cells checked from several goroutines at once, good and forged, against
// a cache smaller than the spec's points: the answers are CheckCell's and
// the checker is race-free (go test -race).
func TestCellCheckerConcurrent(t *testing.T) {
	cat := NewCatalog(families.Builtin())
	_, cells := writeCacheSpec(t, cacheSpec, cat)
	chk := NewCellChecker(cat, 2)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 3 * len(cells) {
				c := cells[(i+g)%len(cells)]
				if i%3 == 2 {
					c.Seed++
					if chk.Check(c) == nil {
						t.Errorf("forged seed of cell %d admitted", c.Index)
					}
					continue
				}
				if err := chk.Check(c); err != nil {
					t.Errorf("cell %d refused: %v", c.Index, err)
				}
			}
		})
	}
	wg.Wait()
	if s := chk.Stats(); s.Len > 2 || s.Hits == 0 {
		t.Errorf("stats %+v; want hits and at most 2 kept", s)
	}
}
