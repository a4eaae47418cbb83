package runner_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/families"
	"github.com/schedfarm/schedfarm/runner"
	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/strategies/strategytest"
	"github.com/schedfarm/schedfarm/workload"
	"github.com/schedfarm/schedfarm/workload/swf"
	"github.com/schedfarm/schedfarm/workload/swf/swftest"
)

// line formats an SWF job line: id submit runtime procs(8) reqtime; the
// allocated processors (5) are given separately.
func line(id, submit int, run float64, alloc, req int, reqTime float64) string {
	return strings.Join([]string{itoa(id), itoa(submit), "-1", ftoa(run), itoa(alloc), "-1", "-1", itoa(req), ftoa(reqTime), "-1", "1", "1", "1", "1", "1", "1", "-1", "-1"}, " ")
}

func itoa(i int) string     { return strconv.Itoa(i) }
func ftoa(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

func writeTrace(t *testing.T, header string, lines ...string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "t.swf")
	if err := os.WriteFile(p, []byte(header+strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// estimateTrace has one job of each kind the estimate semantics treat
// differently (machine of 100 processors).
func estimateTrace(t *testing.T) string {
	return writeTrace(t, "; MaxProcs: 100\n",
		line(1, -1, 10, 1, 1, 10),    // submit unknown (< 0): dropped
		line(2, 0, 100, 4, 4, 50),    // overrun: runs 100, asked for 50
		line(3, 1, -1, 4, 4, 50),     // runtime unknown: dropped
		line(4, 2, 30, -1, -1, 60),   // processors unknown: dropped
		line(5, 3, 30, 2, 2, -1),     // no requested time
		line(6, 4, 20, 200, 200, 40), // wider than the machine
		line(7, 5, 0, 1, 1, 10),      // ran for < 0.5 s
		line(8, 6, 10.7, -1, 3, 20),  // fractional runtime; field 8 only
		line(9, 7, 5, 6, -1, 9),      // field 5 only
		line(10, 8, 12.5, 2, 2, 20),  // fractional runtime, both fields
	)
}

type want struct {
	id       int64
	est      float64
	work     float64
	procs    int
	state    sim.State
	endAfter float64 // ran for
}

func TestEstimateSemantics(t *testing.T) {
	path := estimateTrace(t)
	cases := []struct {
		mode, overrun string
		adj           runner.Adjustments
		jobs          []want
	}{
		{"user", "kill", runner.Adjustments{DroppedSubmit: 1, DroppedRuntime: 1, DroppedProcs: 1, NoEstimate: 1, Limited: 1}, []want{
			{2, 50, 100, 4, sim.Killed, 50}, {5, 30, 30, 2, sim.Finished, 30}, {6, 40, 20, 200, sim.Rejected, 0},
			{7, 10, 0, 1, sim.Finished, 0}, {8, 20, 10.7, 3, sim.Finished, 10.7}, {9, 9, 5, 6, sim.Finished, 5},
			{10, 20, 12.5, 2, sim.Finished, 12.5},
		}},
		{"user", "extend", runner.Adjustments{DroppedSubmit: 1, DroppedRuntime: 1, DroppedProcs: 1, NoEstimate: 1, Extended: 1}, []want{
			{2, 100, 100, 4, sim.Finished, 100}, {5, 30, 30, 2, sim.Finished, 30}, {6, 40, 20, 200, sim.Rejected, 0},
			{7, 10, 0, 1, sim.Finished, 0}, {8, 20, 10.7, 3, sim.Finished, 10.7}, {9, 9, 5, 6, sim.Finished, 5},
			{10, 20, 12.5, 2, sim.Finished, 12.5},
		}},
		{"exact", "kill", runner.Adjustments{DroppedSubmit: 1, DroppedRuntime: 1, DroppedProcs: 1}, []want{
			{2, 100, 100, 4, sim.Finished, 100}, {5, 30, 30, 2, sim.Finished, 30}, {6, 20, 20, 200, sim.Rejected, 0},
			{7, 0, 0, 1, sim.Finished, 0}, {8, 10.7, 10.7, 3, sim.Finished, 10.7}, {9, 5, 5, 6, sim.Finished, 5},
			{10, 12.5, 12.5, 2, sim.Finished, 12.5},
		}},
		// pyss (its _job_input_to_job): processors from field 5, clamped to
		// the machine (job 6); estimate max(req, run, 1), actual
		// max(min(req, run), 1), truncated, so job 5 (no requested time)
		// runs 1 s and job 10 (12.5 s) 12 s; records with runtime ≤ 0
		// (3, 7), allocated processors ≤ 0 (4, 8: field 8 alone does not
		// count) or submit < 0 (1) run 1 s with estimate 1 on max(1,
		// allocated) processors, submitted no earlier than 1 s — so job 1
		// moves behind job 2 (submit 0).
		{"pyss", "kill", runner.Adjustments{ClampedProcs: 1, PyssRaised: 2, PyssCut: 3, PyssOneSecond: 5}, []want{
			{2, 100, 50, 4, sim.Finished, 50}, {1, 1, 1, 1, sim.Finished, 1}, {3, 1, 1, 4, sim.Finished, 1},
			{4, 1, 1, 1, sim.Finished, 1}, {5, 30, 1, 2, sim.Finished, 1}, {6, 40, 20, 100, sim.Finished, 20},
			{7, 1, 1, 1, sim.Finished, 1}, {8, 1, 1, 1, sim.Finished, 1}, {9, 9, 5, 6, sim.Finished, 5},
			{10, 20, 12, 2, sim.Finished, 12},
		}},
	}
	for _, c := range cases {
		res, err := runner.New(families.Builtin()).Run(runner.Config{Trace: path, Scheduler: "fcfs", Estimates: c.mode, Overrun: c.overrun})
		if err != nil {
			t.Fatalf("%s/%s: %v", c.mode, c.overrun, err)
		}
		if res.Adjust != c.adj {
			t.Errorf("%s/%s: adjustments %+v, want %+v", c.mode, c.overrun, res.Adjust, c.adj)
		}
		if len(res.Jobs) != len(c.jobs) {
			t.Fatalf("%s/%s: %d jobs, want %d", c.mode, c.overrun, len(res.Jobs), len(c.jobs))
		}
		for i, w := range c.jobs {
			j := res.Jobs[i]
			if j.ID != w.id || j.Estimate != w.est || j.Work() != w.work || j.Procs() != w.procs || j.State() != w.state {
				t.Errorf("%s/%s: job %d est %g work %g procs %d %s; want job %d est %g work %g procs %d %s",
					c.mode, c.overrun, j.ID, j.Estimate, j.Work(), j.Procs(), j.State(), w.id, w.est, w.work, w.procs, w.state)
			}
			if w.state != sim.Rejected && j.Ran() != w.endAfter {
				t.Errorf("%s/%s: job %d ran %g, want %g", c.mode, c.overrun, j.ID, j.Ran(), w.endAfter)
			}
		}
	}
}

func TestMachineSizeFallback(t *testing.T) {
	jobs := []string{line(1, 0, 10, 3, 3, 10), line(2, 1, 10, 7, 7, 10)}
	for _, c := range []struct {
		header, source string
		procs          int
	}{
		{"; MaxProcs: 64\n; MaxNodes: 16\n", "MaxProcs", 64},
		{"; MaxNodes: 16\n", "MaxNodes", 16},
		{"", "largest job", 7},
	} {
		res, err := runner.New(families.Builtin()).Run(runner.Config{Trace: writeTrace(t, c.header, jobs...)})
		if err != nil {
			t.Fatal(err)
		}
		if res.Platform.Pools[0].Capacity != c.procs || res.ProcsSource != c.source {
			t.Errorf("header %q: %d procs from %s, want %d from %s", c.header, res.Platform.Pools[0].Capacity, res.ProcsSource, c.procs, c.source)
		}
	}
}

func TestConfigErrors(t *testing.T) {
	_, err := runner.New(families.Builtin()).Run(runner.Config{Scheduler: "eazy", Estimates: "guess", Overrun: "ignore", Procs: -1})
	if err == nil {
		t.Fatal("bad config accepted")
	}
	for _, w := range []string{`estimates "guess"; accepted: user, exact, pyss`, "give exactly one of a trace file or a job source", "procs -1", `unknown scheduler "eazy"`} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q lacks %q", err, w)
		}
	}
	_, err = runner.New(families.Builtin()).Run(runner.Config{Trace: writeTrace(t, "", "1 2 3")})
	if err == nil || !strings.Contains(err.Error(), "t.swf:1") {
		t.Errorf("malformed trace: %v", err)
	}
}

func TestScheduleRoundTrip(t *testing.T) {
	res, err := runner.New(families.Builtin()).Run(runner.Config{Trace: estimateTrace(t), Scheduler: "easy", Estimates: "user", Overrun: "kill"})
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out.swf.gz")
	if err := res.WriteSchedule(out); err != nil {
		t.Fatal(err)
	}
	r, err := swf.Open(out, swf.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	recs, err := workload.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != len(res.Jobs) {
		t.Fatalf("%d records, want %d", len(recs), len(res.Jobs))
	}
	for i, rec := range recs {
		j := res.Jobs[i]
		switch j.State() {
		case sim.Rejected:
			if rec.Status != 5 || rec.Wait != -1 {
				t.Errorf("job %d rejected: status %d wait %g", j.ID, rec.Status, rec.Wait)
			}
		default:
			status := int64(1)
			if j.State() == sim.Killed {
				status = 0
			}
			if rec.ID != j.ID || rec.Wait != j.Wait() || rec.RunTime != j.Ran() || rec.Status != status || rec.UserID != 1 {
				t.Errorf("job %d: record %+v vs wait %g ran %g %s", j.ID, rec, j.Wait(), j.Ran(), j.State())
			}
		}
	}
}

// TestScheduleNeedsRecords: a runner WithoutRecords gives the same jobs
// and summary, no records, and a WriteSchedule that refuses, naming why,
// and writes nothing.
func TestScheduleNeedsRecords(t *testing.T) {
	cfg := runner.Config{Trace: estimateTrace(t), Scheduler: "easy", Estimates: "user", Overrun: "kill"}
	want, err := runner.New(families.Builtin()).Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	res, err := runner.New(families.Builtin()).WithoutTraceCache().WithoutRecords().Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.Records != nil || len(res.Jobs) != len(want.Jobs) || res.Summary != want.Summary {
		t.Fatalf("without records: %d records, %d jobs, summary %+v; want none, %d, %+v", len(res.Records), len(res.Jobs), res.Summary, len(want.Jobs), want.Summary)
	}
	out := filepath.Join(t.TempDir(), "out.swf")
	if err := res.WriteSchedule(out); err == nil || !strings.Contains(err.Error(), "WithoutRecords") {
		t.Fatalf("WriteSchedule without records: %v; want an error naming WithoutRecords", err)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Fatalf("WriteSchedule without records left %s (%v)", out, err)
	}
}

// TestTracesEveryScheduler runs every registered scheduler over the real
// traces (pyss semantics; the first 6,000 jobs of each, or all with
// -short=false on KTH) and checks the shared invariants, the reservations
// promised, and that two runs give the same schedule.
func TestTracesEveryScheduler(t *testing.T) {
	cat := families.Builtin()
	for _, name := range swftest.All() {
		path := swftest.Path(t, name)
		for _, sched := range cat.EngineSchedulers() {
			t.Run(name+"/"+sched, func(t *testing.T) {
				max := 6000
				if !testing.Short() && name == swftest.KTH {
					max = 0
				}
				var rec *strategytest.Recording
				cfg := runner.Config{Trace: path, Scheduler: sched, Estimates: "pyss", MaxJobs: max,
					Wrap: func(s sim.Scheduler) sim.Scheduler {
						var w sim.Scheduler
						w, rec = strategytest.Recorder(sim.Platform{}, s)
						return w
					}}
				res, err := runner.New(families.Builtin()).Run(cfg)
				if err != nil {
					t.Fatal(err)
				}
				rec.Platform, rec.Jobs = res.Platform, res.Jobs
				check := strategytest.CheckInvariants
				if e, _ := cat.Schedulers().Lookup(sched); e.Preemptive {
					check = strategytest.CheckPreemptive // spans include suspensions
				}
				for i, e := range check(rec) {
					if i == 10 {
						t.Fatal("… more violations")
					}
					t.Error(e)
				}
				cfg.Wrap = nil
				again, err := runner.New(families.Builtin()).Run(cfg)
				if err != nil {
					t.Fatal(err)
				}
				for i := range res.Jobs {
					a, b := res.Jobs[i], again.Jobs[i]
					if a.Start() != b.Start() || a.End() != b.End() || a.State() != b.State() {
						t.Fatalf("not deterministic at job %d: %g–%g vs %g–%g", a.ID, a.Start(), a.End(), b.Start(), b.End())
					}
				}
			})
		}
	}
}

// The same-instant semantics, by hand (EASY, user estimates, 3 processors).
// A (2 procs, ran 10 s, asked 20) starts at 0; H (3 procs, 5 s) arrives at 1
// and waits with a reservation at A's estimated end, 20; at 10 D (1 proc,
// 2 s) arrives as A ends.
//
//	instant (completions first, one pass): A's processors are free when D
//	        and H are considered: H starts at 10, D at H's end, 15.
//	pyss    (D's arrival first, a pass per event): with A still running, D
//	        ends at 12, before the shadow time 20, and is backfilled at 10;
//	        A's end then leaves 2 processors, so H starts when D ends, 12.
func TestEventSemantics(t *testing.T) {
	path := writeTrace(t, "; MaxProcs: 3\n",
		line(1, 0, 10, 2, 2, 20),
		line(2, 1, 5, 3, 3, 5),
		line(3, 10, 2, 1, 1, 2),
	)
	for _, c := range []struct {
		events     string
		startH, sD float64
	}{{"instant", 10, 15}, {"pyss", 12, 10}} {
		res, err := runner.New(families.Builtin()).Run(runner.Config{Trace: path, Scheduler: "easy", Estimates: "user", Events: c.events})
		if err != nil {
			t.Fatal(err)
		}
		if h, d := res.Jobs[1].Start(), res.Jobs[2].Start(); h != c.startH || d != c.sD {
			t.Errorf("events %s: H starts %g, D %g; want %g, %g", c.events, h, d, c.startH, c.sD)
		}
	}
	if _, err := runner.New(families.Builtin()).Run(runner.Config{Trace: path, Events: "batsim"}); err == nil || !strings.Contains(err.Error(), `events "batsim"; accepted: instant`) {
		t.Errorf("bad events mode: %v", err)
	}
}
