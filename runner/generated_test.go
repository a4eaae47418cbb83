package runner

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/families"
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
	if want := 2*len(cells) - (len(cells) - 1); generatedCache.Hits() != want {
		t.Errorf("%d loads answered from memory; want %d", generatedCache.Hits(), want)
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
