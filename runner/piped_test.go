package runner

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/families"
	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/workload/swf/swftest"
)

// pipedTrace writes a random SWF trace of 300 to 1,500 jobs: whole and
// fractional submit times, unknown fields, requested times below and above
// the runtimes. With problems set it also has pyss's problematic records
// (runtime or processors unknown), some submitted at 0 among jobs
// submitted at 0 (pyss submits them at 1 s: Run sorts them behind), and
// with backInTime, now and then one with an unknown submit time far into
// the file (which goes back in time under pyss and must stop the pipe).
// With gz the file is gzip-compressed.
func pipedTrace(t *testing.T, rng *rand.Rand, header string, problems, backInTime, gz bool) string {
	t.Helper()
	var b strings.Builder
	b.WriteString(header)
	n := 300 + rng.IntN(1200)
	submit := 0
	for i := 1; i <= n; i++ {
		if i > 5 {
			submit += rng.IntN(120)
		}
		s, run, procs, req := fmt.Sprint(submit), fmt.Sprint(1+rng.IntN(3000)), fmt.Sprint(1+rng.IntN(64)), fmt.Sprint(1+rng.IntN(4000))
		if i > 5 && rng.IntN(20) == 0 {
			s = fmt.Sprintf("%d.5", submit)
			submit++ // the next job no earlier
		}
		if rng.IntN(25) == 0 {
			req = "-1"
		}
		if problems {
			switch {
			case i <= 5 && rng.IntN(2) == 0:
				run = "-1"
			case rng.IntN(60) == 0:
				procs = "-1"
			case backInTime && i > n/2 && rng.IntN(200) == 0:
				s = "-1"
			}
		}
		fmt.Fprintf(&b, "%d %s -1 %s %s -1 -1 %s %s -1 1 1 1 1 1 -1 -1 -1\n", i, s, run, procs, procs, req)
	}
	p := filepath.Join(t.TempDir(), "t.swf")
	data := []byte(b.String())
	if gz {
		var z bytes.Buffer
		w := gzip.NewWriter(&z)
		if _, err := w.Write(data); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		p, data = p+".gz", z.Bytes()
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// usualRun runs cfg the usual way (no pipe), with a cache-less runner.
func usualRun(cfg Config) (*Result, error) {
	defer func(n int64) { pipedMinBytes = n }(pipedMinBytes)
	pipedMinBytes = 1 << 62
	return New(families.Builtin()).WithoutTraceCache().Run(cfg)
}

// TestPipedRunIsTheRun compares runPiped with the usual path of Run on
// random traces, under every estimate semantics and event order and with
// every engine scheduler the pipe takes, in pieces of 1 to 16 KB, a fifth
// of the traces gzip-compressed. Where
// the pipe may run (a clean trace, a header with the machine size, pyss's
// problem records only where Run's sort stays within the first piece) it
// must, and give the usual result exactly — jobs, schedule, records,
// counts, metrics; where it must not (a machine sized by its largest job,
// a job that goes back in time under pyss after the first piece), it must
// refuse, and Run, which then takes the usual path, must give its result.
func TestPipedRunIsTheRun(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	}
	defer func(n int) { pipedPieceBytes = n }(pipedPieceBytes)
	cat := families.Builtin()
	reg := cat.Schedulers()
	var scheds []string
	for _, name := range cat.EngineSchedulers() {
		if e, _ := reg.Lookup(name); e.Prepare == nil && e.Tiers <= 1 {
			scheds = append(scheds, name)
		}
	}
	if len(scheds) < 5 {
		t.Fatalf("only %d engine schedulers the pipe takes: %v", len(scheds), scheds)
	}
	rng := rand.New(rand.NewPCG(11, 29))
	piped, refused, sorted, flagged, gzipped, bare := 0, 0, 0, 0, 0, 0
	for trial := range 72 {
		header := "; Version: 2.2\n; MaxProcs: 64\n; a comment\n"
		noSize := trial%10 == 9
		if noSize {
			header = "; Version: 2.2\n"
		}
		problems := trial%2 == 1
		procs := 0
		if noSize && trial%20 == 19 {
			procs = 48 // sized by the flag: piped
		}
		gz := trial%5 == 4
		if gz {
			// ReadPieces sizes a gzip file's jobs by the header's MaxJobs:
			// an understatement makes the pipe's job list and stores grow.
			header += "; MaxJobs: 50\n"
		}
		path := pipedTrace(t, rng, header, problems, trial%4 == 3, gz)
		pipedPieceBytes = 1024 * (1 + rng.IntN(16))
		cfg := Config{
			Trace:     path,
			Procs:     procs,
			Registry:  reg,
			Scheduler: scheds[trial%len(scheds)],
			Estimates: []string{EstimatesPyss, EstimatesUser, EstimatesExact}[trial%3],
			Events:    []string{EventsPyss, EventsInstant}[trial/3%2],
			Overrun:   []string{OverrunKill, OverrunExtend}[trial/6%2],
		}
		want, err := usualRun(cfg)
		if err != nil {
			t.Fatalf("trial %d: the usual run: %v", trial, err)
		}
		full, err := cfg.withDefaults(cat)
		if err != nil {
			t.Fatal(err)
		}
		// Every other trial keeps no records (swf.ReadPiecesOnce): the
		// same result with Records nil.
		keep := trial/2%2 == 0
		got, ok := New(cat).WithoutTraceCache().runPiped(full, keep)
		mustPipe := (!noSize || procs > 0) && !(problems && cfg.Estimates == EstimatesPyss && laterBackInTime(want))
		switch {
		case ok && !mustPipe:
			t.Fatalf("trial %d (%s, %s): the pipe ran a run it must refuse", trial, cfg.Scheduler, cfg.Estimates)
		case !ok && mustPipe:
			t.Fatalf("trial %d (%s, %s, pieces of %d, records kept %v): the pipe refused a run it can take", trial, cfg.Scheduler, cfg.Estimates, pipedPieceBytes, keep)
		case ok && !keep && got.Records != nil:
			t.Fatalf("trial %d: a piped run without records kept %d", trial, len(got.Records))
		case ok && !sameResult(got, withRecords(want, keep)):
			t.Fatalf("trial %d (%s, %s, %s, pieces of %d, records kept %v): the piped run differs from the usual one", trial, cfg.Scheduler, cfg.Estimates, cfg.Events, pipedPieceBytes, keep)
		}
		if ok && !keep {
			bare++
		}
		if ok {
			piped++
			if resorted(want) {
				sorted++
			}
			if procs > 0 {
				flagged++
			}
			if gz {
				gzipped++
			}
		} else {
			refused++
		}
		// Run itself, piping where it can, gives the usual result; a
		// runner WithoutRecords the same without them, piped or not.
		defer func(n int64) { pipedMinBytes = n }(pipedMinBytes)
		pipedMinBytes = 0
		again, err := New(cat).WithoutTraceCache().Run(cfg)
		if err != nil || !sameResult(again, want) {
			t.Fatalf("trial %d: Run with the pipe allowed differs from the usual run (%v)", trial, err)
		}
		noRecs, err := New(cat).WithoutTraceCache().WithoutRecords().Run(cfg)
		if err != nil || noRecs.Records != nil || !sameResult(noRecs, withRecords(want, false)) {
			t.Fatalf("trial %d: Run WithoutRecords differs from the usual run but for the records (%v)", trial, err)
		}
	}
	t.Logf("%d runs piped (%d sorted by Run after pyss's one-second records, %d sized by the flag, %d gzip), %d refused", piped, sorted, flagged, gzipped, refused)
	if bare < 12 {
		t.Fatalf("only %d piped runs without records: the test would not catch a broken swf.ReadPiecesOnce path", bare)
	}
	if piped < 30 || refused < 6 || sorted < 3 || flagged < 2 || gzipped < 8 {
		t.Fatalf("%d runs piped (%d sorted by Run after pyss's one-second records, %d sized by the flag, %d gzip), %d refused: the test would not catch a broken pipe", piped, sorted, flagged, gzipped, refused)
	}
}

// withRecords returns res, or with keep false a copy without its records
// (what a run that keeps none gives).
func withRecords(res *Result, keep bool) *Result {
	if keep {
		return res
	}
	c := *res
	c.Records = nil
	return &c
}

// laterBackInTime reports whether the trace had a job whose submit time is
// unknown (pipedTrace writes them after its first 150 jobs): pyss submits it
// at 1 s, back in time, which Run sorts and the pipe refuses.
func laterBackInTime(res *Result) bool {
	for _, r := range res.Records {
		if r.Submit < 0 {
			return true
		}
	}
	return false
}

// resorted reports whether Run's jobs are not in the trace's order
// (pipedTrace numbers its jobs in file order).
func resorted(res *Result) bool {
	for i := 1; i < len(res.Records); i++ {
		if res.Records[i].ID < res.Records[i-1].ID {
			return true
		}
	}
	return false
}

// TestPipeRefusesAJobBackInTime: under pyss, a job whose submit time is
// unknown goes to 1 s, back in time; after the first piece the pipe must
// stop there (Run's sort would move it across pieces). The job is put
// first in the second piece, in the middle of the third, and in the first
// piece (which the pipe sorts, as Run does: it runs). Each piece handed
// over before the stop is in submit order.
func TestPipeRefusesAJobBackInTime(t *testing.T) {
	defer func(n int) { pipedPieceBytes = n }(pipedPieceBytes)
	job := func(id int, submit string) string {
		return fmt.Sprintf("%5d %8s -1 10 1 -1 -1 1 10 -1 1 1 1 1 1 -1 -1 -1\n", id, submit)
	}
	lineBytes := len(job(1, "0"))
	header := "; MaxProcs: 4\n"
	pipedPieceBytes = 10*lineBytes - len(header) // the first piece: the header and ten jobs
	cat := families.Builtin()
	for _, back := range []int{11, 25, 4} {
		var b strings.Builder
		b.WriteString(header)
		for i := 1; i <= 40; i++ {
			s := fmt.Sprint(100 + i)
			if i == back {
				s = "-1"
			}
			b.WriteString(job(i, s))
		}
		path := filepath.Join(t.TempDir(), "t.swf")
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		cfg, err := Config{Trace: path, Scheduler: "easy", Estimates: EstimatesPyss}.withDefaults(cat)
		if err != nil {
			t.Fatal(err)
		}
		p := &pipe{cfg: cfg, b: new(buffers), start: make(chan pipeStart, 1), pieces: make(chan []*sim.Job, 100)}
		p.read()
		handed := 0
		for piece := range p.pieces {
			if !inSubmitOrder(piece, 1) {
				t.Errorf("job %d back in time: a piece out of submit order was handed over", back)
			}
			handed += len(piece)
		}
		if wantOK := back <= 10; p.ok != wantOK {
			t.Errorf("job %d back in time: the pipe ok %v, want %v (%d jobs handed over)", back, p.ok, wantOK, handed)
		}
		if !p.ok && handed >= back {
			t.Errorf("job %d back in time: %d jobs were handed over", back, handed)
		}
	}
}

// TestPipedRunOfTheRealTraces: the pipe gives the usual run on the real
// traces (gzip as distributed, and plain copies), EASY and CONS, pyss
// semantics.
func TestPipedRunOfTheRealTraces(t *testing.T) {
	if swftest.Dir() == "" {
		t.Skip("no traces (SCHEDFARM_TRACES)")
	}
	if runtime.GOMAXPROCS(0) < 2 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	}
	cat := families.Builtin()
	for _, name := range []string{swftest.KTH, swftest.SDSC, swftest.NASA} {
		for _, trace := range []string{swftest.Path(t, name), swftest.PlainPath(t, name)} {
			for _, sched := range []string{"easy", "cons"} {
				cfg := Config{Trace: trace, Registry: cat.Schedulers(), Scheduler: sched, Estimates: EstimatesPyss, Events: EventsPyss}
				want, err := usualRun(cfg)
				if err != nil {
					t.Fatal(err)
				}
				full, _ := cfg.withDefaults(cat)
				got, ok := New(cat).WithoutTraceCache().runPiped(full, true)
				if !ok || !sameResult(got, want) {
					t.Errorf("%s, %s: piped ok %v, same result %v", trace, sched, ok, ok && sameResult(got, want))
				}
			}
		}
	}
}

// TestPipesOnlyWhenNothingNeedsEveryRecord: the configurations that need
// every record before the simulation starts are not piped.
func TestPipesOnlyWhenNothingNeedsEveryRecord(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	}
	defer func(n int64) { pipedMinBytes = n }(pipedMinBytes)
	pipedMinBytes = 10
	path := filepath.Join(t.TempDir(), "t.swf")
	if err := os.WriteFile(path, []byte("; MaxProcs: 4\n1 0 -1 10 1 -1 -1 1 10 -1 1 1 1 1 1 -1 -1 -1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cat := families.Builtin()
	easy, _ := cat.Schedulers().Lookup("easy")
	oneShot := New(cat).WithoutTraceCache()
	base := Config{Trace: path, Scheduler: "easy"}
	if !oneShot.pipes(base, easy) {
		t.Fatal("a one-shot EASY run of a trace file is not piped")
	}
	for name, c := range map[string]struct {
		r   *Runner
		cfg Config
	}{
		"cached":   {New(cat), base},
		"max jobs": {oneShot, Config{Trace: path, Scheduler: "easy", MaxJobs: 1}},
		"lenient":  {oneShot, Config{Trace: path, Scheduler: "easy", Lenient: true}},
		"load":     {oneShot, Config{Trace: path, Scheduler: "easy", Load: 0.5}},
		"modelled": {oneShot, Config{Trace: path, Scheduler: "easy", UserEstimates: UserEstimatesTsafrir}},
	} {
		if c.r.pipes(c.cfg, easy) {
			t.Errorf("%s: piped", name)
		}
	}
	for _, name := range cat.EngineSchedulers() {
		if e, _ := cat.Schedulers().Lookup(name); (e.Prepare != nil || e.Tiers > 1) && oneShot.pipes(base, e) {
			t.Errorf("%s prepares its runs, and is piped", name)
		}
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	if oneShot.pipes(base, easy) {
		t.Error("piped on one core")
	}
}

// TestPipePrefaultsOnlyAPlainTracesSlab: a one-shot run of a plain trace
// hands its new job slab, all of whose room the conversion writes, to
// prefaultSlab; one of a gzip trace, whose room is a guess (here a header
// claiming 400,000 jobs for a few hundred: 90 MB of slab, all of it
// resident if populated), does not. The buffers kept from earlier runs are
// dropped first so that each run allocates its slab.
func TestPipePrefaultsOnlyAPlainTracesSlab(t *testing.T) {
	defer func(f func([]sim.Job)) { prefaultSlab = f }(prefaultSlab)
	var handed []int // the lengths of the slabs handed over
	prefaultSlab = func(jobs []sim.Job) { handed = append(handed, len(jobs)) }
	cat := families.Builtin()
	rng := rand.New(rand.NewPCG(5, 8))
	for _, c := range []struct {
		gz     bool
		header string
		want   bool
	}{
		{false, "; Version: 2.2\n; MaxProcs: 64\n", true},
		{true, "; Version: 2.2\n; MaxProcs: 64\n; MaxJobs: 400000\n", false},
	} {
		for drained := false; !drained; {
			select {
			case <-freeBuffers:
			default:
				drained = true
			}
		}
		handed = nil
		path := pipedTrace(t, rng, c.header, false, false, c.gz)
		cfg := Config{Trace: path, Registry: cat.Schedulers(), Scheduler: "easy"}
		full, _ := cfg.withDefaults(cat)
		res, ok := New(cat).WithoutTraceCache().runPiped(full, false)
		if !ok {
			t.Fatalf("%s: not piped", path)
		}
		if !c.want {
			if len(handed) > 0 {
				t.Errorf("%s (gzip, %d jobs, MaxJobs 400000): slabs handed to prefaultSlab %v; want none (the room is a guess)", path, len(res.Jobs), handed)
			}
		} else {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			lines := bytes.Count(data, []byte{'\n'})
			if len(handed) != 1 || handed[0] < len(res.Jobs) || handed[0] > lines+1 {
				t.Errorf("%s (%d jobs, %d lines): slabs handed to prefaultSlab %v; want one of %d to %d jobs", path, len(res.Jobs), lines, handed, len(res.Jobs), lines+1)
			}
		}
		res.Release()
	}
}
