package experiments

import (
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/families"
)

// A family's workload fields (here the VM tiers' cpu_*) reach the run by
// name, as the spec gives them; on a model with a platform of its own they
// are errors naming the field; an unknown key names every accepted one.
func TestFamilyFieldsReachTheRun(t *testing.T) {
	s, err := Parse([]byte(`
name: ff
platform: {procs: 32}
workload:
  generator: {model: fwload, jobs: 50, procs: 32}
  cpu_usage: 1
  cpu_estimate: noisy
  cpu_error: 0.25
schedulers: [measy]
`), "ff.yaml", NewCatalog(families.Builtin()))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := testRunner.ConfigOf(s.Cells()[0])
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"workload.cpu_usage": 1.0, "workload.cpu_estimate": "noisy", "workload.cpu_error": 0.25}
	if len(cfg.FamilyFields) != len(want) {
		t.Fatalf("FamilyFields %v, want %v", cfg.FamilyFields, want)
	}
	for k, v := range want {
		if cfg.FamilyFields[k] != v {
			t.Errorf("FamilyFields[%s] = %#v, want %#v", k, cfg.FamilyFields[k], v)
		}
	}
	_, err = Parse([]byte(`
name: ff
workload:
  generator: {model: seed004, projects: 10}
  cpu_usage: 0.5
schedulers: [2tsb]
`), "ff.yaml", NewCatalog(families.Builtin()))
	if err == nil || !strings.Contains(err.Error(), "line 5: workload.cpu_usage: applies to SWF workloads only") {
		t.Errorf("cpu_usage on a project workload: %v", err)
	}
	_, err = Parse([]byte(`
name: ff
workload:
  generator: {model: fwload, jobs: 50, procs: 32}
  cpu_speed: 0.5
schedulers: [keasy]
`), "ff.yaml", NewCatalog(families.Builtin()))
	if err == nil || !strings.Contains(err.Error(), "line 5: workload.cpu_speed: unknown field; accepted: cpu_error, cpu_estimate, cpu_usage, est_bins,") {
		t.Errorf("unknown workload field: %v", err)
	}
}
