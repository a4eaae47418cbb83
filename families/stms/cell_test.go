package stms

import (
	"maps"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/schedfarm/schedfarm/family"
	"github.com/schedfarm/schedfarm/internal/memo"
)

// Every STMS scheme runs a small seed002 cell; metrics follow
// ModelMetricNames; the same cell reruns identically; bad scheduler
// parameters are reported by name.
func TestSeed002Family(t *testing.T) {
	names := ModelMetricNames("grid")
	if !reflect.DeepEqual(ModelSchedulers("seed002"), []string{"stms", "ir-stms", "gb-stms", "sp-stms"}) {
		t.Fatalf("schedulers %v", ModelSchedulers("seed002"))
	}
	params := map[string]any{"jobs": 120, "resources": 5, "class": "5:5", "lambda_min": 1e-4, "lambda_max": 1e-3}
	for _, s := range ModelSchedulers("seed002") {
		c := ModelCell{Model: "seed002", Params: params, Scheduler: s, SchedulerParams: map[string]any{"generations": 10}, Seed: 9, KeepJobs: true}
		r, err := RunModel(c)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if len(r.Jobs) != 120 || len(r.Metrics) != len(names) {
			t.Fatalf("%s: %d jobs, %d metrics (%d names)", s, len(r.Jobs), len(r.Metrics), len(names))
		}
		for i, m := range r.Metrics {
			if m.Name != names[i] {
				t.Fatalf("%s: metric %d is %s, want %s", s, i, m.Name, names[i])
			}
		}
		again, _ := RunModel(c)
		if !reflect.DeepEqual(r.Metrics, again.Metrics) {
			t.Errorf("%s: rerun differs", s)
		}
	}
	err := CheckModelScheduler("seed002", "sp-stms", map[string]any{"c": 0, "p_mut": 2})
	for _, want := range []string{"c", "p_mut"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%v does not name %s", err, want)
		}
	}
	if err := CheckModelScheduler("seed002", "easy", nil); err == nil {
		t.Error("easy accepted for seed002")
	}
	if _, err := RunModel(ModelCell{Model: "seed002", Params: map[string]any{"class": "9:1"}, Scheduler: "stms"}); err == nil || !strings.Contains(err.Error(), "class") {
		t.Errorf("bad class: %v", err)
	}
}

// BenchmarkSeed002Fig07Cell times one Fig. 7 cell at its largest size:
// 10,000 jobs on 50 resources at the calibrated rate, λ in [1e-4, 1e-3]/s,
// timetable dispatch, Table 2's mGA — workload generation, simulation,
// metrics and, for the schemes other than STMS, the STMS run eq. 12 needs
// (its cache is cleared each iteration, so that run is in the time).
//
//	go test -run XXX -bench Seed002Fig07Cell -benchtime 3x ./runner
func BenchmarkSeed002Fig07Cell(b *testing.B) {
	params := map[string]any{"jobs": 10000, "resources": 50, "regime": "calibrated", "lambda_min": 1e-4, "lambda_max": 1e-3}
	for _, s := range ModelSchedulers("seed002") {
		b.Run(s, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				stmsRuns = newSTMSRuns()
				if _, err := RunModel(ModelCell{Model: "seed002", Params: params, Scheduler: s, Seed: uint64(i + 1)}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// The family's cells are tested through its family.PlatformRunner, as the
// runner calls it.
type ModelCell = family.Cell

func platformRunner() family.PlatformRunner { return Family().(family.PlatformRunner) }

func RunModel(c family.Cell) (*family.Result, error) { return platformRunner().Run(c) }

func ModelSchedulers(string) []string { return Names() }

func ModelMetricNames(string) []string { return platformRunner().MetricNames() }

func CheckModelScheduler(_, name string, params map[string]any) error {
	return Registry().Check(name, params)
}

// The kept STMS baselines (eq. 12's denominators) are the ones a fresh run
// gives, for cells that differ in seed, a workload parameter and an mGA
// setting STMS shares, asked in turn through one cache; the fresh values
// differ, so a key that left one of them out would hand back another
// cell's baseline.
func TestBaselinesKeptAreFresh(t *testing.T) {
	small := map[string]any{"jobs": 300, "resources": 10, "regime": "calibrated", "lambda_min": 1e-4, "lambda_max": 1e-3}
	bigger := maps.Clone(small)
	bigger["jobs"] = 400
	cells := []struct {
		params map[string]any
		seed   uint64
		sp     map[string]any
	}{
		{small, 1, nil}, {small, 2, nil}, {bigger, 1, nil}, {small, 1, map[string]any{"population": 20}},
	}
	defer func(old *memo.Cache[string, []Metric]) { stmsRuns = old }(stmsRuns)
	fresh := make([]Baseline, len(cells))
	for i, c := range cells {
		stmsRuns = newSTMSRuns()
		b, err := seed002Baseline(c.params, c.seed, c.sp)
		if err != nil {
			t.Fatal(err)
		}
		fresh[i] = b
		for j := range i {
			if fresh[j] == b {
				t.Fatalf("cells %d and %d have the same baseline %+v: the test cannot tell them apart", j, i, b)
			}
		}
	}
	stmsRuns = newSTMSRuns()
	for round := range 2 {
		for i, c := range cells {
			b, err := seed002Baseline(c.params, c.seed, c.sp)
			if err != nil {
				t.Fatal(err)
			}
			if b != fresh[i] {
				t.Fatalf("round %d, cell %d: kept baseline %+v, fresh %+v", round, i, b, fresh[i])
			}
		}
	}
	if h := stmsRuns.Hits(); h != len(cells) {
		t.Fatalf("%d answers from memory, want %d (the second round)", h, len(cells))
	}
}

// STMS takes no parameter beyond the mGA's, which every scheme shares, so
// the STMS run a scheme's cell takes as eq. 12's baseline (with the cell's
// shared settings) is the grid point's STMS cell itself, and runCell keeps
// one run for both (stmsRuns). A parameter of STMS's own would break that.
func TestSTMSTakesOnlySharedParams(t *testing.T) {
	e, err := Registry().Lookup(STMS.String())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range e.Params {
		names = append(names, p.Name)
	}
	if !slices.Equal(names, SharedParams()) {
		t.Fatalf("STMS takes %v, the schemes share %v: an STMS cell would not be its point's baseline", names, SharedParams())
	}
}

// The STMS cell and a scheme's cell of one grid point, run at the same time
// as two workers would, simulate STMS once (the second to ask waits for the
// first's run), and both results are those of cells run alone with nothing
// kept: the STMS cell's metrics those of its own simulation (KeepJobs, which
// always simulates), the scheme's eq. 12 from that baseline. The other
// order, the scheme's cell first, also leaves the STMS cell a kept run.
func TestSTMSRunSharedByAPointsCells(t *testing.T) {
	defer func(old *memo.Cache[string, []Metric]) { stmsRuns = old }(stmsRuns)
	// The IR-STMS cell's kept runs are not this test's: each run of it
	// starts without them, so that it asks for the baseline.
	defer func(old *keptIRSRuns) { irsRuns = old }(irsRuns)
	params := map[string]any{"jobs": 300, "resources": 10, "regime": "calibrated", "lambda_min": 1e-4, "lambda_max": 1e-3}
	sp := map[string]any{"population": 20}
	cell := func(s string, keep bool) family.Cell {
		return family.Cell{Model: "seed002", Params: params, Scheduler: s, SchedulerParams: sp, Seed: 3, KeepJobs: keep}
	}
	alone := func(c family.Cell) []family.Metric {
		stmsRuns, irsRuns = newSTMSRuns(), newKeptIRSRuns()
		r, err := RunModel(c)
		if err != nil {
			t.Fatal(err)
		}
		return r.Metrics
	}
	wantSTMS, wantIR := alone(cell("stms", true)), alone(cell("ir-stms", false))
	if got := alone(cell("stms", false)); !slices.Equal(got, wantSTMS) {
		t.Fatalf("STMS cell from the kept run %v, simulated itself %v", got, wantSTMS)
	}
	for round, order := range [][]string{{"stms", "ir-stms"}, {"ir-stms", "stms"}} {
		stmsRuns, irsRuns = newSTMSRuns(), newKeptIRSRuns()
		before := stmsSimulations.Load()
		got := make([][]family.Metric, 2)
		var wg sync.WaitGroup
		for i, s := range order {
			wg.Go(func() {
				r, err := RunModel(cell(s, false))
				if err != nil {
					t.Error(err)
					return
				}
				got[i] = r.Metrics
			})
			if round == 1 {
				wg.Wait() // in turn: the scheme's cell first
			}
		}
		wg.Wait()
		for i, s := range order {
			want := wantIR
			if s == "stms" {
				want = wantSTMS
			}
			if !slices.Equal(got[i], want) {
				t.Fatalf("round %d, %s: %v, alone %v", round, s, got[i], want)
			}
		}
		if n := stmsSimulations.Load() - before; n != 1 {
			t.Fatalf("round %d: STMS simulated %d times for one grid point", round, n)
		}
		if n, _ := stmsRuns.Held(); n != 1 || stmsRuns.Hits() != 1 {
			t.Fatalf("round %d: %d runs kept, %d answers from memory; want one run, asked twice", round, n, stmsRuns.Hits())
		}
	}
}
