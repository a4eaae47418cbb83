package tune

import (
	"path/filepath"
	"testing"

	"github.com/schedfarm/schedfarm/families"
)

// Every shipped tune spec (experiments/tune-*.yaml) is valid: its base
// experiment, its search space at the bounds, its metrics.
func TestShippedSpecs(t *testing.T) {
	files, err := filepath.Glob("../experiments/tune-*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 4 {
		t.Fatalf("%d shipped tune specs, want at least 4 (MEASY, 2TFB-SF, STMS, depth)", len(files))
	}
	for _, f := range files {
		s, err := Load(f, families.Builtin())
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		t.Logf("%s: %d parameters, %d cells per evaluation, population %d, %d generations", f, len(s.Params), len(s.Base.Cells()), s.Algorithm.Population, s.Algorithm.Generations)
	}
}
