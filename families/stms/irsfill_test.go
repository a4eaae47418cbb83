package stms

import (
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/schedfarm/schedfarm/family"
	"github.com/schedfarm/schedfarm/sim"
)

// irsFillCase is a small seed-002 cell (timetable dispatch) whose IR-STMS
// runs under the two irs_fill readings either agree (the voids run fills
// no void: 20 and 40 jobs on 30 resources, where the first batch is all)
// or not (60 jobs: 1 to 10 fills by seed).
func irsFillCase(jobs int, dispatch string) map[string]any {
	return map[string]any{"jobs": jobs, "resources": 30, "regime": "calibrated",
		"lambda_min": 1e-4, "lambda_max": 1e-3, "dispatch": dispatch}
}

// jobTrace is what a run did to each job, as bits.
func jobTrace(jobs []*sim.Job) []string {
	out := make([]string, len(jobs))
	for i, j := range jobs {
		out[i] = fmt.Sprintf("%d %v %x %x %d %d %d", j.ID, j.State(), j.Start(), j.End(), j.Restarts(), j.Migrations(), j.Swaps())
	}
	return out
}

// IRSFillReadingsAgree's claim (voids.go): the readings differ only in
// fillIRS, so a voids run that filled no void and a restart run whose
// probe met no pass where voids would have filled one are the same run.
// Each run's own answer is checked against the other reading's run
// simulated apart: both say agree or both say not (a probe that never
// fires, or always does, fails this), and where they agree every metric
// and every job's start, end, restarts and migrations are equal as bits.
// Both outcomes must occur, so the test cannot pass on one kind alone.
func TestIRSFillReadingsAgreeWithoutFills(t *testing.T) {
	var agreed, differed int
	for _, dispatch := range []string{"timetable", "eager"} {
		for _, jobs := range []int{20, 40, 60, 100} {
			for seed := uint64(1); seed <= 4; seed++ {
				params := irsFillCase(jobs, dispatch)
				run := func(fill string) (*Scheduler, []*sim.Job) {
					s, out, err := simulateSeed002(params, seed, IRSTMS.String(), map[string]any{"population": 20, "irs_fill": fill})
					if err != nil {
						t.Fatal(err)
					}
					return s, out
				}
				sv, jv := run("voids")
				sr, jr := run("restart")
				name := fmt.Sprintf("%s, %d jobs, seed %d", dispatch, jobs, seed)
				if sv.IRSFillReadingsAgree() != sr.IRSFillReadingsAgree() {
					t.Fatalf("%s: the voids run says agree %v (%d fills), the restart run %v",
						name, sv.IRSFillReadingsAgree(), sv.Counters().VoidFills, sr.IRSFillReadingsAgree())
				}
				if !sv.IRSFillReadingsAgree() {
					differed++
					continue
				}
				agreed++
				if mv, mr := sv.Metrics(jv, nil), sr.Metrics(jr, nil); !slices.Equal(mv, mr) {
					t.Fatalf("%s: the readings agree, but the metrics differ:\nvoids   %v\nrestart %v", name, mv, mr)
				}
				if tv, tr := jobTrace(jv), jobTrace(jr); !slices.Equal(tv, tr) {
					t.Fatalf("%s: the readings agree, but the jobs differ", name)
				}
			}
		}
	}
	if agreed == 0 || differed == 0 {
		t.Fatalf("%d cases agreed, %d did not: want both kinds", agreed, differed)
	}
	t.Logf("%d cases agreed, %d did not", agreed, differed)
}

// The cells of the two irs_fill readings of one grid point simulate
// IR-STMS once when the runs agree and the second cell comes after the
// first (in either order), twice when they do not, and at most twice when
// they run at the same time; every cell's metrics are those it gets run
// alone in a fresh process.
func TestIRSRunSharedAcrossReadings(t *testing.T) {
	defer func(old *keptIRSRuns) { irsRuns = old }(irsRuns)
	sp := func(fill string) map[string]any { return map[string]any{"population": 20, "irs_fill": fill} }
	cell := func(params map[string]any, fill string) family.Cell {
		return family.Cell{Model: "seed002", Params: params, Scheduler: IRSTMS.String(), SchedulerParams: sp(fill), Seed: 3}
	}
	fresh := func() { irsRuns = newKeptIRSRuns() }
	run := func(c family.Cell) []family.Metric {
		r, err := RunModel(c)
		if err != nil {
			t.Fatal(err)
		}
		return r.Metrics
	}
	for _, tc := range []struct {
		jobs int
		want int64 // simulations in turn
	}{{40, 1}, {60, 2}} {
		params := irsFillCase(tc.jobs, "timetable")
		want := map[string][]family.Metric{}
		for _, fill := range []string{"voids", "restart"} {
			fresh()
			want[fill] = run(cell(params, fill))
		}
		for _, order := range [][]string{{"voids", "restart"}, {"restart", "voids"}} {
			fresh()
			before := irsSimulations.Load()
			for _, fill := range order {
				if got := run(cell(params, fill)); !slices.Equal(got, want[fill]) {
					t.Fatalf("%d jobs, %v: %s cell %v, alone %v", tc.jobs, order, fill, got, want[fill])
				}
			}
			if n := irsSimulations.Load() - before; n != tc.want {
				t.Fatalf("%d jobs, %v in turn: IR-STMS simulated %d times; want %d", tc.jobs, order, n, tc.want)
			}
		}
		fresh()
		before := irsSimulations.Load()
		var wg sync.WaitGroup
		for _, fill := range []string{"voids", "restart"} {
			wg.Go(func() {
				r, err := RunModel(cell(params, fill))
				if err != nil {
					t.Error(err)
					return
				}
				if !slices.Equal(r.Metrics, want[fill]) {
					t.Errorf("%d jobs, at once: %s cell %v, alone %v", tc.jobs, fill, r.Metrics, want[fill])
				}
			})
		}
		wg.Wait()
		if n := irsSimulations.Load() - before; n < 1 || n > 2 {
			t.Fatalf("%d jobs, at once: IR-STMS simulated %d times; want 1 or 2", tc.jobs, n)
		}
	}
}

// A cell that keeps its jobs, or whose irs_fill is not a reading's name,
// neither takes nor leaves a kept run: the first gets its jobs from its
// own simulation, the second is refused by the registry as before.
func TestIRSRunNotSharedWhereItCannotBe(t *testing.T) {
	defer func(old *keptIRSRuns) { irsRuns = old }(irsRuns)
	irsRuns = newKeptIRSRuns()
	params := irsFillCase(40, "timetable")
	c := family.Cell{Model: "seed002", Params: params, Scheduler: IRSTMS.String(), SchedulerParams: map[string]any{"population": 20, "irs_fill": "voids"}, Seed: 3}
	if _, err := RunModel(c); err != nil {
		t.Fatal(err)
	}
	keep := c
	keep.SchedulerParams = map[string]any{"population": 20, "irs_fill": "restart"}
	keep.KeepJobs = true
	before := irsSimulations.Load()
	r, err := RunModel(keep)
	if err != nil {
		t.Fatal(err)
	}
	if n := irsSimulations.Load() - before; n != 1 || len(r.Jobs) != 40 {
		t.Fatalf("a cell keeping its jobs: %d simulations, %d jobs; want its own run of 40", n, len(r.Jobs))
	}
	bad := c
	bad.SchedulerParams = map[string]any{"population": 20, "irs_fill": "void"}
	if _, err := RunModel(bad); err == nil {
		t.Fatal("irs_fill \"void\" accepted; want the registry's refusal")
	}
}

// The kept runs are bounded: the oldest key goes first, and keeping a run
// under a key already kept replaces it without dropping another.
func TestKeptIRSRunsBounded(t *testing.T) {
	k := newKeptIRSRuns()
	for i := range irsRunCacheSize {
		k.keep(fmt.Sprint(i), irsRun{fill: FillVoids, metrics: []Metric{{Name: "i", Value: float64(i)}}})
	}
	k.keep("0", irsRun{fill: FillRestart, agree: true, metrics: []Metric{{Name: "i", Value: -1}}})
	if ms, ok := k.take("0", FillVoids); !ok || ms[0].Value != -1 {
		t.Fatalf("key 0 after its replacement: %v %v; want the agreeing restart run", ms, ok)
	}
	k.keep("new", irsRun{fill: FillVoids})
	if _, ok := k.take("0", FillVoids); ok {
		t.Fatal("the oldest key still kept after one too many")
	}
	if _, ok := k.take("1", FillRestart); ok {
		t.Fatal("a voids run that does not agree taken for the restart reading")
	}
	if ms, ok := k.take("1", FillVoids); !ok || ms[0].Value != 1 {
		t.Fatalf("key 1: %v %v", ms, ok)
	}
	if len(k.runs) != irsRunCacheSize || len(k.order) != irsRunCacheSize {
		t.Fatalf("%d runs, %d keys in order; want %d", len(k.runs), len(k.order), irsRunCacheSize)
	}
}
