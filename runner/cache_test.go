package runner

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/families"
	"github.com/schedfarm/schedfarm/workload"
	"github.com/schedfarm/schedfarm/workload/swf"
	"github.com/schedfarm/schedfarm/workload/swf/swftest"
)

// TestTraceCacheGivesTheSameRuns runs configurations over traces without the
// cache (the streaming reader), then twice with a fresh cache (a parse, then
// a hit), releasing each result so that the next run reuses its memory, and
// wants the same results every time.
func TestTraceCacheGivesTheSameRuns(t *testing.T) {
	saved := traceCache
	defer func() { traceCache = saved }()

	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("; Version: 2.2\n; MaxProcs: 32\n")
	for i := 1; i <= 600; i++ {
		fmt.Fprintf(&b, "%d %d -1 %d %d -1 -1 %d %d -1 1 1 1 1 1 -1 -1 -1\n", i, i*30, 50+(i*37)%900, 1+i%16, 1+i%16, 40+(i*53)%1200)
		if i%97 == 0 {
			b.WriteString("not a job line\n")
		}
	}
	lenient := filepath.Join(dir, "lenient.swf")
	if err := os.WriteFile(lenient, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	cfgs := []Config{
		{Trace: lenient, Lenient: true, Scheduler: "easy"},
		{Trace: lenient, Lenient: true, Scheduler: "cons", Load: 0.9, MaxJobs: 300},
		{Trace: lenient, Lenient: true, Scheduler: "sjbf", Estimates: EstimatesPyss, MaxJobs: 194},
		{Trace: lenient, Scheduler: "easy"}, // strict: malformed, never cached
	}
	if dir := swftest.Dir(); dir != "" {
		sdsc := filepath.Join(dir, swftest.SDSC)
		if _, err := os.Stat(sdsc); err == nil {
			cfgs = append(cfgs,
				Config{Trace: sdsc, Scheduler: "easy", Load: 0.8},
				Config{Trace: sdsc, Scheduler: "fcfs", Overrun: OverrunExtend, MaxJobs: 1000, WarmupJobs: 100})
		}
	}
	reg := families.Builtin().Schedulers() // one registry, so that the configs compare equal
	for i, cfg := range cfgs {
		cfg.Registry = reg
		traceCache = nil
		want, wantErr := New(families.Builtin()).Run(cfg)
		traceCache = swf.NewCache(TraceCacheBytes)
		for pass := range 2 {
			got, err := New(families.Builtin()).Run(cfg)
			if fmt.Sprint(err) != fmt.Sprint(wantErr) {
				t.Fatalf("config %d, pass %d: error %v, want %v", i, pass, err, wantErr)
			}
			if err == nil && !sameResult(got, want) {
				t.Errorf("config %d, pass %d: results differ from the uncached run", i, pass)
			}
			if got != nil {
				got.Release() // the next run reuses the memory: same results
				if got.Jobs != nil || got.Records != nil {
					t.Errorf("config %d: Release kept the jobs", i)
				}
			}
		}
	}
}

// sameResult compares two results but for the memory they hold for reuse.
func sameResult(a, b *Result) bool {
	x, y := *a, *b
	x.bufs, y.bufs = nil, nil
	return reflect.DeepEqual(x, y)
}

// TestReleasedBuffersSurviveCollections: the memory a released result
// gives back serves the next run even after collections (a sync.Pool drops
// it at the second), so a worker's cells of hundreds of thousands of jobs,
// which collect several times each, do not allocate their slabs anew.
func TestReleasedBuffersSurviveCollections(t *testing.T) {
	for len(freeBuffers) > 0 { // what earlier tests released
		<-freeBuffers
	}
	cfg := Config{Source: workload.NewSliceSource(syntheticJobs(500)), Procs: 32, Scheduler: "easy"}
	first, err := New(families.Builtin()).Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	records, jobs := &first.Records[0], first.Jobs[0]
	first.Release()
	runtime.GC()
	runtime.GC()
	cfg.Source = workload.NewSliceSource(syntheticJobs(500))
	second, err := New(families.Builtin()).Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer second.Release()
	if &second.Records[0] != records || second.Jobs[0] != jobs {
		t.Errorf("the second run allocated its records and jobs anew after two collections: the released ones were dropped")
	}
}

// syntheticJobs is n small SWF jobs a second apart.
func syntheticJobs(n int) []workload.Job {
	js := make([]workload.Job, n)
	for i := range js {
		js[i] = workload.Job{ID: int64(i + 1), Submit: float64(i), RunTime: float64(10 + i%50), AllocProcs: int64(1 + i%8), ReqProcs: int64(1 + i%8), ReqTime: 100, Status: 1}
	}
	return js
}
