package runner

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/families"
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
