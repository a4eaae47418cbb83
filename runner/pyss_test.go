package runner_test

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"os"
	"testing"

	"github.com/schedfarm/schedfarm/families"
	"github.com/schedfarm/schedfarm/runner"
	"github.com/schedfarm/schedfarm/workload/swf/swftest"
)

// pyssStarts reads testdata/pyss/kth-<sched>-starts.txt.gz: the start time
// of every KTH-SP2 job under the Python simulator pyss (its
// run_simulator's job conversion; EasyBackfillScheduler, FcfsScheduler or
// ConservativeScheduler on 100 processors), recorded by running pyss
// itself (converted to Python 3 with 2to3, nothing else changed in its
// scheduling) — a reference produced outside this project.
func pyssStarts(t *testing.T, sched string) map[int64]float64 {
	t.Helper()
	f, err := os.Open("testdata/pyss/kth-" + sched + "-starts.txt.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	out := map[int64]float64{}
	sc := bufio.NewScanner(z)
	for sc.Scan() {
		var id int64
		var start float64
		if _, err := fmt.Sscan(sc.Text(), &id, &start); err != nil {
			t.Fatalf("%s: %q: %v", sched, sc.Text(), err)
		}
		out[id] = start
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// With pyss's estimates and pyss's same-instant order, every KTH-SP2 job
// starts at the second pyss starts it: all 28,489 jobs under FCFS and EASY;
// under conservative backfilling all but jobs 6592 and 6604, which pyss
// starts 166 s earlier (not explained yet; pyss's compression skips a job
// whose planned start is the current second, a candidate). With the
// engine's own order (completions first, one pass per instant) FCFS still
// matches and EASY differs for a few hundred jobs.
//
// Each run is made twice: through the trace cache (the gzip file, as a
// sweep's cells read it) and as `schedfarm sim` makes it (a plain copy read
// once, the simulation overlapping the read where the machine has two
// cores: runner.runPiped).
func TestSameStartsAsPyss(t *testing.T) {
	trace := swftest.Path(t, swftest.KTH)
	plain := swftest.PlainPath(t, swftest.KTH)
	for _, c := range []struct {
		sched, events string
		differ        []int64 // nil: none; else exactly these
		some          bool    // differences expected, not listed
	}{
		{"fcfs", runner.EventsPyss, nil, false},
		{"easy", runner.EventsPyss, nil, false},
		{"cons", runner.EventsPyss, []int64{6592, 6604}, false},
		{"fcfs", runner.EventsInstant, nil, false},
		{"easy", runner.EventsInstant, nil, true},
	} {
		want := pyssStarts(t, c.sched)
		for _, oneShot := range []bool{false, true} {
			r, cfg := runner.New(families.Builtin()), runner.Config{Trace: trace, Scheduler: c.sched, Estimates: runner.EstimatesPyss, Events: c.events}
			how := "cached"
			if oneShot {
				r, cfg.Trace, how = r.WithoutTraceCache(), plain, "one-shot"
			}
			res, err := r.Run(cfg)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Jobs) != len(want) {
				t.Fatalf("%s/%s, %s: %d jobs, pyss %d", c.sched, c.events, how, len(res.Jobs), len(want))
			}
			var differ []int64
			for _, j := range res.Jobs {
				if s, ok := want[j.ID]; !ok || s != j.Start() {
					differ = append(differ, j.ID)
				}
			}
			switch {
			case c.some:
				if len(differ) == 0 {
					t.Errorf("%s/%s, %s: every start equals pyss's; the engine's own order was expected to differ", c.sched, c.events, how)
				}
				t.Logf("%s/%s, %s: %d of %d jobs start as in pyss", c.sched, c.events, how, len(want)-len(differ), len(want))
			case fmt.Sprint(differ) != fmt.Sprint(c.differ) && !(len(differ) == 0 && c.differ == nil):
				t.Errorf("%s/%s, %s: jobs starting otherwise than in pyss: %v (first 10 of %d), want %v", c.sched, c.events, how, differ[:min(10, len(differ))], len(differ), c.differ)
			}
		}
	}
}
