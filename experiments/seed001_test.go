package experiments

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/families"
	"github.com/schedfarm/schedfarm/families/cloud"
	"github.com/schedfarm/schedfarm/runner"
)

// The seed-001 spec loads and validates against the built-in catalog, its
// cells route to the cloud family, and a few of them run.
func TestSeed001Spec(t *testing.T) {
	s, err := Load("seed001-fig04-11.yaml", NewCatalog(families.Builtin()))
	if err != nil {
		t.Fatal(err)
	}
	if s.Workload.Output != string(cloud.Output) {
		t.Fatalf("output %q; want %q", s.Workload.Output, string(cloud.Output))
	}
	cells := s.Cells()
	// 6 rates × 2 deadline readings × (CPLMT + 4 baselines × 2 deadline
	// awarenesses, issue 21) × 3 replications.
	if len(cells) != 6*2*(1+4*2)*3 {
		t.Fatalf("%d cells; want 324", len(cells))
	}
	// The rate axis has common random numbers: one seed per replication
	// and deadline reading.
	seeds := map[uint64]bool{}
	for _, c := range cells {
		seeds[c.Seed] = true
	}
	if len(seeds) != 2*3 {
		t.Errorf("%d distinct seeds; want 6", len(seeds))
	}
	names := NewCatalog(families.Builtin()).MetricNames(string(cloud.Output))
	ran := map[string]float64{}
	for _, c := range cells[:10] {
		r, err := runCell(context.Background(), c)
		if err != nil || r.Status != runner.StatusOK {
			t.Fatalf("cell %s (%s): %v %s", c.ID, c.Scheduler, err, r.Error)
		}
		got := make([]string, len(r.Metrics))
		for i, m := range r.Metrics {
			got[i] = m.Name
			if m.Name == "finished" {
				ran[c.Scheduler] += m.Value
			}
		}
		if !slices.Equal(got, names) {
			t.Fatalf("metrics %v; want %v", got, names)
		}
	}
	if len(ran) != 5 {
		t.Errorf("schedulers run: %v", ran)
	}
}

// A spec naming a scheduler outside the family, or a bad family
// parameter, is refused before anything runs.
func TestSeed001SpecErrors(t *testing.T) {
	_, err := Parse([]byte(`
name: bad
workload:
  generator: {model: seed001, jobs: 10, rate: 0.5}
schedulers: [easy, {name: cplmt, params: {kappa: -3}}]
`), "bad.yaml", NewCatalog(families.Builtin()))
	if err == nil {
		t.Fatal("accepted")
	}
	for _, want := range []string{"easy", "known: asjs, cmms, cplmt, fair, fifo", "kappa = -3"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q; want %q in it", err, want)
		}
	}
}
