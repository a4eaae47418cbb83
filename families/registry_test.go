package families_test

import (
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/families"
	"github.com/schedfarm/schedfarm/family/familytest"
	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/strategies"
)

// TestInvariantsEveryFamily applies the one shared invariant suite to every
// family: random rigid jobs for every registered scheduler, and each
// family's own workloads (projects, a cloud, a failing grid).
func TestInvariantsEveryFamily(t *testing.T) {
	familytest.Families(t, families.List())
}

func TestRegistryErrors(t *testing.T) {
	reg := families.Builtin().Schedulers()
	_, err := reg.New("eazy", sim.Processors(4), nil)
	if want := `unknown scheduler "eazy"; known: ` + strings.Join(reg.Names(), ", "); err == nil || err.Error() != want {
		t.Errorf("unknown name: got %v", err)
	}
	noop := func(strategies.Build) (sim.Scheduler, error) { return nil, nil }
	_, err = strategies.NewRegistry(strategies.Entry{Name: "a", New: noop}, strategies.Entry{Name: "b", New: noop}, strategies.Entry{Name: "a", New: noop})
	if err == nil || !strings.Contains(err.Error(), `scheduler "a" registered twice; registered so far: a, b`) {
		t.Errorf("duplicate: got %v", err)
	}
	err = reg.Check("depth", map[string]any{"k": -3, "kk": 1})
	if err == nil {
		t.Fatal("bad params accepted")
	}
	for _, want := range []string{`depth: parameter k = -3: out of range; accepted: int ≥ 0 or all or unlimited`, `depth: unknown parameter "kk"; accepted: k`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	if err := reg.Check("depth", map[string]any{"k": "unlimited"}); err != nil {
		t.Errorf("k: unlimited rejected: %v", err)
	}
	if err := reg.Check("easy", map[string]any{"k": 1}); err == nil || !strings.Contains(err.Error(), `easy: unknown parameter "k"; accepted: none`) {
		t.Errorf("easy with k: got %v", err)
	}
}
