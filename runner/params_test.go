package runner

import (
	"reflect"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/families"
)

// Every field of the table is declared completely (kind, what it accepts,
// doc, unit) and decodes into the Config: a cell giving each field one
// valid value sets the Config field it names, so a field added to the
// table without its decoding (or its sample here) fails.
func TestFieldsDecodeIntoConfig(t *testing.T) {
	samples := map[string]any{
		"platform.procs":          int64(8),
		"workload.load":           0.5,
		"workload.jobs":           int64(300),
		"workload.warmup":         int64(10),
		"workload.estimates":      EstimatesPyss,
		"workload.overrun":        OverrunExtend,
		"workload.trace":          "t.swf",
		"workload.lenient":        true,
		"workload.user_estimates": UserEstimatesTsafrir,
		"workload.max_estimate":   int64(36000),
		"workload.est_bins":       "3600=20",
	}
	var params []Param
	for _, f := range Fields() {
		if f.Doc == "" || f.Unit == "" || f.Accepted() == "" {
			t.Errorf("%s: doc %q, unit %q, accepted %q; want all three", f.Name, f.Doc, f.Unit, f.Accepted())
		}
		v, ok := samples[f.Name]
		if !ok {
			t.Errorf("%s: no sample value in this test", f.Name)
			continue
		}
		if _, err := f.Value(v); err != nil {
			t.Errorf("%s: sample %v refused: %v", f.Name, v, err)
		}
		if got, ok := FieldOf(f.Name); !ok || got.Name != f.Name {
			t.Errorf("FieldOf(%s) = %v, %v", f.Name, got.Name, ok)
		}
		params = append(params, Param{Name: f.Name, Value: v})
	}
	r := New(families.Builtin())
	cfg, err := r.ConfigOf(Cell{Scheduler: "easy", Params: params, Dir: "/data", Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	want := Config{Scheduler: "easy", Seed: 7, Procs: 8, Load: 0.5, MaxJobs: 300, WarmupJobs: 10, Estimates: EstimatesPyss,
		Overrun: OverrunExtend, Trace: "/data/t.swf", Lenient: true, UserEstimates: UserEstimatesTsafrir, MaxEstimate: 36000,
		EstBins: cfg.EstBins}
	if len(cfg.EstBins) != 1 || cfg.EstBins[0].Time != 3600 || cfg.EstBins[0].Percent != 20 {
		t.Errorf("est_bins decoded as %+v", cfg.EstBins)
	}
	if !reflect.DeepEqual(cfg, want) {
		t.Errorf("ConfigOf:\n got %+v\nwant %+v", cfg, want)
	}
}

// A cell's parameter of the wrong kind, an unknown one, or a family's field
// are handled by the same decoding.
func TestConfigOfErrorsAndFamilyFields(t *testing.T) {
	r := New(families.Builtin())
	_, err := r.ConfigOf(Cell{Scheduler: "easy", Params: []Param{{Name: "workload.load", Value: "high"}}})
	if err == nil || !strings.Contains(err.Error(), `param workload.load: value "high" has kind string`) {
		t.Errorf("a string load: %v", err)
	}
	_, err = r.ConfigOf(Cell{Scheduler: "easy", Params: []Param{{Name: "workload.lod", Value: 0.5}}})
	if err == nil || !strings.Contains(err.Error(), "unknown parameters workload.lod") {
		t.Errorf("an unknown parameter: %v", err)
	}
	cfg, err := r.ConfigOf(Cell{Scheduler: "keasy", Params: []Param{{Name: "workload.cpu_usage", Value: 0.5}}})
	if err != nil || cfg.FamilyFields["workload.cpu_usage"] != 0.5 {
		t.Errorf("a family's field: %v, %v", cfg.FamilyFields, err)
	}
}
