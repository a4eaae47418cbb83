package runner

import (
	"reflect"
	"strings"
	"testing"
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
