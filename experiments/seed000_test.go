package experiments

import (
	"context"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/families"
	"github.com/schedfarm/schedfarm/param"
	"github.com/schedfarm/schedfarm/runner"
)

// Seed 000's schedulers run from a spec on a generated workload: KEASY and
// MEASY relocate jobs (restarts, migrations) where EASY does nothing of the
// kind, MEASY's migration-cost axis reaches the scheduler, and the CPU-usage
// fields reach the runner.
func TestSeed000CellsFromSpec(t *testing.T) {
	s, err := Parse([]byte(`
name: s0
platform: {procs: 64}
workload:
  generator: {model: jwload, jobs: 1500, procs: 64, estimates: tsafrir05}
  load: 0.9
schedulers: [easy, keasy, measy]
axes:
  - param: scheduler.measy.migration_cost
    values: [0, 600]
replications: 1
`), "s0.yaml", NewCatalog(families.Builtin()))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]runner.CellResult{}
	for _, c := range s.Cells() {
		r, err := runCell(context.Background(), c)
		if err != nil || r.Status != runner.StatusOK {
			t.Fatalf("cell %s: %v %s", c.ID, err, r.Error)
		}
		key := c.Scheduler
		if v, ok := c.Lookup("scheduler.migration_cost"); ok {
			key += "@" + param.Format(v)
		}
		got[key] = r
	}
	if len(got) != 4 {
		t.Fatalf("cells %v", keys(got))
	}
	if m := metric(got["easy"], "migrations") + metric(got["easy"], "restarts") + metric(got["easy"], "swaps"); m != 0 {
		t.Errorf("easy relocated %g jobs", m)
	}
	if metric(got["keasy"], "restarts") == 0 || metric(got["keasy"], "migrations") != 0 {
		t.Errorf("keasy: restarts %g, migrations %g; want some restarts and no migration", metric(got["keasy"], "restarts"), metric(got["keasy"], "migrations"))
	}
	cheap, dear := got["measy@0"], got["measy@600"]
	if metric(cheap, "migrations") == 0 || metric(cheap, "restarts") != 0 {
		t.Errorf("measy: migrations %g, restarts %g; want some migrations and no restart", metric(cheap, "migrations"), metric(cheap, "restarts"))
	}
	// The cost reaches the scheduler: each migration now stalls a job for
	// 600 s, and the schedule changes. (Whether the mean response grows is
	// not certain on 1,500 jobs: a stalled job can open a better packing.)
	if metric(dear, "migrations") == 0 || metric(dear, "response_mean") == metric(cheap, "response_mean") {
		t.Errorf("measy at cost 600: migrations %g, response mean %g (cost 0: %g)", metric(dear, "migrations"), metric(dear, "response_mean"), metric(cheap, "response_mean"))
	}
	// The same jobs under every scheduler at this point.
	if metric(got["easy"], "jobs") != 1500 || metric(cheap, "offered_load") != metric(got["easy"], "offered_load") {
		t.Errorf("jobs %g, offered load easy %g vs measy %g", metric(got["easy"], "jobs"), metric(got["easy"], "offered_load"), metric(cheap, "offered_load"))
	}
}

func keys(m map[string]runner.CellResult) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	return ks
}

// Without CPU-usage information (§3.5.1) and with every process at 100%
// (§3.5.2) the cells still run; the fields are checked like any other.
func TestSeed000CPUFields(t *testing.T) {
	base := `
name: s0cpu
platform: {procs: 32}
workload:
  generator: {model: fwload, jobs: 600, procs: 32}
  %s
schedulers: [keasy]
replications: 1
`
	for _, field := range []string{"cpu_estimate: none", "cpu_usage: 1", "{cpu_estimate: noisy, cpu_error: 0.3}"} {
		text := strings.Replace(base, "%s", field, 1)
		if strings.HasPrefix(field, "{") {
			text = strings.Replace(base, "  %s", "  cpu_estimate: noisy\n  cpu_error: 0.3", 1)
		}
		s, err := Parse([]byte(text), "s0cpu.yaml", NewCatalog(families.Builtin()))
		if err != nil {
			t.Fatalf("%s: %v", field, err)
		}
		r, err := runCell(context.Background(), s.Cells()[0])
		if err != nil || r.Status != runner.StatusOK {
			t.Fatalf("%s: %v %s", field, err, r.Error)
		}
	}
	for field, want := range map[string]string{
		"cpu_usage: 1.5":       "line 6: workload.cpu_usage:",
		"cpu_estimate: guess":  "line 6: workload.cpu_estimate:",
		"cpu_error: -0.1":      "line 6: workload.cpu_error:",
		"cpu_estimate: [none]": "workload.cpu_estimate",
	} {
		_, err := Parse([]byte(strings.Replace(base, "%s", field, 1)), "s0cpu.yaml", NewCatalog(families.Builtin()))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want it to contain %q", field, err, want)
		}
	}
	// A noise bound without noisy estimates is refused when the cell runs.
	s, err := Parse([]byte(strings.Replace(base, "%s", "cpu_error: 0.2", 1)), "s0cpu.yaml", NewCatalog(families.Builtin()))
	if err != nil {
		t.Fatal(err)
	}
	r, _ := runCell(context.Background(), s.Cells()[0])
	if r.Status != runner.StatusFailed || !strings.Contains(r.Error, "cpu_error only with cpu_estimate noisy") {
		t.Errorf("cpu_error without noisy: %s %q", r.Status, r.Error)
	}
}
