package runner

import (
	"context"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/schedfarm/schedfarm/families"
	"github.com/schedfarm/schedfarm/workload"
)

// TestGeneratedCacheGivesTheSameCells runs generator cells without the
// cache of generated workloads (a runner WithoutTraceCache: the model's
// source streamed as before), then twice through a fresh cache (a
// generation, then a hit), and wants every per-job record and metric the
// same. The cells differ pairwise in exactly one thing the workload depends
// on (seed, a parameter's value, a parameter more, the model), so a key that
// left any out would hand one cell the other's jobs.
func TestGeneratedCacheGivesTheSameCells(t *testing.T) {
	saved := generatedCache
	defer func() { generatedCache = saved }()
	generatedCache = newGenCache(GeneratedCacheBytes)

	cell := func(sched string, seed uint64, model string, gen ...Param) Cell {
		ps := append([]Param{{"workload.generator.model", model}}, gen...)
		return Cell{Experiment: "gen", ID: sched, Scheduler: sched, Seed: seed, KeepJobs: true, Params: ps}
	}
	jobs := Param{"workload.generator.jobs", int64(1500)}
	procs := Param{"workload.generator.procs", int64(64)}
	cells := []Cell{
		cell("easy", 1, "lublin99", jobs, procs),
		cell("cons", 1, "lublin99", jobs, procs),                                                   // same workload: a hit
		cell("easy", 2, "lublin99", jobs, procs),                                                   // seed
		cell("easy", 1, "lublin99", Param{"workload.generator.jobs", int64(1400)}, procs),          // a value
		cell("easy", 1, "lublin99", jobs, procs, Param{"workload.generator.load", 0.7}),            // a parameter more
		cell("easy", 1, "fwload", jobs, procs),                                                     // the model
		cell("easy", 1, "jwload", jobs, procs, Param{"workload.generator.estimates", "tsafrir05"}), // estimates pass
	}
	run := func(r *Runner, c Cell) CellResult {
		t.Helper()
		res, err := r.RunCell(context.Background(), c)
		if err != nil {
			t.Fatalf("cell %s seed %d %v: %v", c.Scheduler, c.Seed, c.Params, err)
		}
		res.WallSeconds = 0
		return res
	}
	cat := families.Builtin() // one model registry: the cache is keyed by it
	for i, c := range cells {
		want := run(New(cat).WithoutTraceCache(), c)
		if want.Status != StatusOK || len(want.Jobs) == 0 {
			t.Fatalf("cell %d: status %s %q, %d jobs", i, want.Status, want.Error, len(want.Jobs))
		}
		for pass := range 2 {
			if got := run(New(cat), c); !reflect.DeepEqual(got, want) {
				t.Errorf("cell %d (%s, seed %d, %v), pass %d through the cache: results differ from the uncached run", i, c.Scheduler, c.Seed, c.Params, pass)
			}
		}
	}
	// Cell 1 shares cell 0's workload (both passes hit); every other cell
	// generates once and hits once.
	if want := 2*len(cells) - (len(cells) - 1); generatedCache.hits != want {
		t.Errorf("%d loads answered from memory; want %d", generatedCache.hits, want)
	}

	// A bad generator parameter fails the same way with and without it.
	bad := cell("easy", 1, "lublin99", Param{"workload.generator.jobs", int64(-3)})
	msg := func(r *Runner) string {
		res, err := r.RunCell(context.Background(), bad)
		if err != nil {
			return err.Error()
		}
		return res.Error
	}
	want := msg(New(cat).WithoutTraceCache())
	for range 2 {
		if got := msg(New(cat)); got != want || !strings.Contains(got, "workload.generator") {
			t.Fatalf("bad parameter: error %q through the cache; want %q", got, want)
		}
	}
}

// TestGeneratedCacheEvicts keeps the cache within its bytes: the least
// recently used workload goes first.
func TestGeneratedCacheEvicts(t *testing.T) {
	c := newGenCache(3 * 1000 * 144)
	gen := func(n int) func() ([]workload.Job, int, error) {
		return func() ([]workload.Job, int, error) { return make([]workload.Job, n), 1, nil }
	}
	k := func(s string) genKey { return genKey{nil, s} }
	for _, s := range []string{"a", "b", "c"} {
		c.load(k(s), gen(1000))
	}
	c.load(k("a"), gen(1000)) // a used again: b is now the oldest
	c.load(k("d"), gen(1000))
	if _, ok := c.entries[k("b")]; ok || len(c.entries) != 3 || c.size != 3*1000*144 {
		t.Fatalf("after d: %d entries, %d bytes, b kept %v; want a, c, d and 432000 bytes", len(c.entries), c.size, ok)
	}
	c.load(k("e"), gen(4000)) // bigger than the whole cache: served, not kept
	if _, ok := c.entries[k("e")]; ok || len(c.entries) != 3 {
		t.Fatalf("a workload over the limit was kept")
	}
}

// TestGeneratedCacheGeneratesOnce: cells that ask for a workload while it
// is being generated wait for it instead of generating it again.
func TestGeneratedCacheGeneratesOnce(t *testing.T) {
	c := newGenCache(GeneratedCacheBytes)
	started, release := make(chan struct{}), make(chan struct{})
	var calls atomic.Int32
	gen := func() ([]workload.Job, int, error) {
		if calls.Add(1) == 1 {
			close(started)
			<-release
		}
		return make([]workload.Job, 10), 64, nil
	}
	key := genKey{nil, "w"}
	got := make([][]workload.Job, 4)
	var wg sync.WaitGroup
	wg.Go(func() { got[0], _, _ = c.load(key, gen) })
	<-started // the first is generating; the others find its entry
	for i := 1; i < len(got); i++ {
		wg.Go(func() { got[i], _, _ = c.load(key, gen) })
	}
	close(release)
	wg.Wait()
	if n := calls.Load(); n != 1 {
		t.Fatalf("generated %d times; want once", n)
	}
	for i, g := range got {
		if len(g) != 10 || &g[0] != &got[0][0] {
			t.Fatalf("caller %d got a different workload", i)
		}
	}
}
