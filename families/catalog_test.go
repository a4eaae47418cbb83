package families_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/families"
	"github.com/schedfarm/schedfarm/families/classic"
	"github.com/schedfarm/schedfarm/families/cloud"
	"github.com/schedfarm/schedfarm/param"
	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/strategies"
)

// The catalog derives everything from its families: one registry of every
// scheduler, the engine's apart from those of a family's own platform, the
// schedulers of a platform in its family's order, the model outputs, the
// workload fields.
func TestCatalog(t *testing.T) {
	cat := families.Builtin()
	engine := cat.EngineSchedulers()
	for _, name := range []string{"easy", "keasy", "cmbf", "2tsb"} {
		if !slices.Contains(engine, name) {
			t.Errorf("engine schedulers %v lack %s", engine, name)
		}
	}
	for _, name := range []string{"cplmt", "stms"} {
		if slices.Contains(engine, name) {
			t.Errorf("engine schedulers hold %s, a scheduler of a family's own platform", name)
		}
		if _, err := cat.Schedulers().Lookup(name); err != nil {
			t.Errorf("the registry lacks %s: %v", name, err)
		}
	}
	pr, ok := cat.PlatformOf("seed001")
	if !ok || pr.Output() != cloud.Output {
		t.Fatalf("PlatformOf(seed001) = %v, %v", pr, ok)
	}
	if got := cat.PlatformSchedulers(pr); !slices.Equal(got, []string{"cplmt", "fifo", "fair", "asjs", "cmms"}) {
		t.Errorf("cloud schedulers %v; want the paper's order", got)
	}
	if err := cat.CheckPlatformScheduler(pr, "easy", nil); err == nil || !strings.Contains(err.Error(), "does not run cloud workloads") {
		t.Errorf("easy on the cloud: %v", err)
	}
	if _, ok := cat.PlatformOf("lublin99"); ok {
		t.Error("lublin99 has a platform of its own")
	}
	outs := cat.Outputs()
	for _, o := range []string{"swf", "cloud", "grid", "projects"} {
		if !slices.Contains(outputNames(outs), o) {
			t.Errorf("outputs %v lack %s", outs, o)
		}
	}
	if _, ok := cat.WorkloadField("workload.cpu_usage"); !ok {
		t.Error("no workload.cpu_usage")
	}
	if err := cat.CheckWorkloadFields(map[string]any{"workload.cpu_usage": 1.5, "workload.nope": 1.0}); err == nil ||
		!strings.Contains(err.Error(), `unknown workload field "workload.nope"`) {
		t.Errorf("CheckWorkloadFields: %v", err)
	}
	if err := cat.CheckWorkloadFields(map[string]any{"workload.cpu_usage": 1.5}); err == nil || !strings.Contains(err.Error(), "cpu_usage 1.5") {
		t.Errorf("CheckWorkloadFields on a bad value: %v", err)
	}
}

func outputNames[T interface{ String() string }](os []T) []string {
	var out []string
	for _, o := range os {
		out = append(out, o.String())
	}
	return out
}

// dup is a family that declares what another already does.
type dup struct{ field string }

func (dup) Name() string { return "dup" }
func (dup) Doc() string  { return "a family declaring names twice" }
func (dup) Schedulers() []strategies.Entry {
	return []strategies.Entry{{Name: "easy", New: func(strategies.Build) (sim.Scheduler, error) { return nil, nil }}}
}
func (d dup) SpecFields() []param.Spec { return []param.Spec{{Name: d.field, Kind: param.Float}} }

// Two families may not declare one scheduler or one workload field.
func TestCatalogRefusesClashes(t *testing.T) {
	_, err := families.New(classic.Family(), dup{field: "workload.x"}, dup{field: "workload.x"})
	if err == nil || !strings.Contains(err.Error(), `scheduler "easy" registered twice`) || !strings.Contains(err.Error(), `workload field "workload.x" declared twice`) {
		t.Errorf("New: %v", err)
	}
}
