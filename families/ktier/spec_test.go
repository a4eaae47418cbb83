package ktier_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/schedfarm/schedfarm/experiments"
	"github.com/schedfarm/schedfarm/families"
	"github.com/schedfarm/schedfarm/workload/swf/swftest"
)

// The family's specs validate against the real registries and expand to
// the cells their headers state: the synthetic sweeps (also checked with
// every shipped spec by experiments.TestShippedSpecs) and the KTH-SP2
// sweep, which lives in experiments/traces/ because it needs the trace.
func TestSeed003Specs(t *testing.T) {
	for _, c := range []struct {
		file  string
		cells int
		trace bool
	}{
		{"../../experiments/seed003-fwload.yaml", 165, false},
		{"../../experiments/seed003-jwload.yaml", 165, false},
		{"../../experiments/traces/seed003-kth.yaml", 22, true},
	} {
		if c.trace {
			swftest.Path(t, swftest.KTH) // skips without the traces
			abs, _ := filepath.Abs(filepath.Join(filepath.Dir(c.file), "../../../shared/traces", swftest.KTH))
			if _, err := os.Stat(abs); err != nil {
				t.Skipf("the spec's trace path %s is not there (the traces are elsewhere): %v", abs, err)
			}
		}
		s, err := experiments.Load(c.file, experiments.NewCatalog(families.Builtin()))
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		if n := len(s.Cells()); n != c.cells {
			t.Errorf("%s: %d cells, want %d", c.file, n, c.cells)
		}
	}
}
