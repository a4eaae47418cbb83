package experiments

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/families"
)

// FuzzSpec: any input is either a spec whose cells expand without panic
// (stable IDs, every cell with its scheduler and replication in range) or
// a *SpecError whose every entry names a line (≥ 1, or 0 for the whole
// file) and a field or what is wrong. Seeds: every shipped spec and a few
// hand-written broken ones.
//
//	go test -run XXX -fuzz FuzzSpec -fuzztime 1000000x ./experiments
func FuzzSpec(f *testing.F) {
	files, _ := filepath.Glob("*.yaml")
	for _, p := range files {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	for _, s := range []string{
		"name: x\nworkload: {generator: {model: lublin99, jobs: 10}}\nschedulers: [easy]\n",
		"name: x\nworkload: {generator: {model: seed002, jobs: 10}}\nschedulers: [stms]\naxes: [{param: workload.generator.load, values: [0.5, 2]}]\n",
		"name: x\nschedulers: [{name: depth, params: {k: unlimited}}]\naxes: [{param: scheduler.depth.k, range: {from: 0, to: 3, step: 1}}]\n",
		"name: [\n", "{}", "name: x\nzip: [[a, b]]\n",
	} {
		f.Add([]byte(s))
	}
	cat := NewCatalog(families.Builtin())
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse(data, "fuzz.yaml", cat)
		if err != nil {
			var se *SpecError
			if !errors.As(err, &se) {
				t.Fatalf("error is %T, want *SpecError: %v", err, err)
			}
			if len(se.Errors) == 0 {
				t.Fatalf("SpecError with no entries: %v", err)
			}
			for _, fe := range se.Errors {
				if fe.Line < 0 || strings.TrimSpace(fe.Msg) == "" {
					t.Fatalf("entry without a line or a message: %+v", fe)
				}
			}
			return
		}
		if s.countCells() > 5000 {
			return // valid but too big to expand in a fuzz iteration
		}
		cells := s.Cells()
		seen := map[string]bool{}
		for i, c := range cells {
			if c.Index != i || c.ID == "" || seen[c.ID] {
				t.Fatalf("cell %d: index %d, id %q (seen before: %v)", i, c.Index, c.ID, seen[c.ID])
			}
			seen[c.ID] = true
			if c.Replication < 0 || c.Replication >= s.Replications {
				t.Fatalf("cell %d: replication %d of %d", i, c.Replication, s.Replications)
			}
		}
		again := s.Cells()
		for i := range cells {
			if again[i].ID != cells[i].ID || again[i].Seed != cells[i].Seed {
				t.Fatalf("cell %d expands differently the second time", i)
			}
		}
	})
}
