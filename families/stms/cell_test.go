package stms

import (
	"reflect"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/family"
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
				baselines = &baselineCache{m: map[string]*baselineEntry{}}
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
