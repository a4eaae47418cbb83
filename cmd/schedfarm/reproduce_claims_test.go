package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/claims"
	"github.com/schedfarm/schedfarm/experiments"
	"github.com/schedfarm/schedfarm/runner"
)

// Every shipped claims file loads, each spec it lists parses in its full
// and its quick version, and every check names an experiment of those
// specs and only schedulers, parameters and grid values that occur among
// its cells (in both versions; in the quick one, except the values of an
// axis a quick edit replaces on purpose, such as seed 002's job counts): a
// typo in a claims file, or a spec edit that drops a point a claim reads,
// fails here rather than as "no data" in a long run.
func TestShippedClaimsFiles(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", claimsDir, "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no claims files: %v", err)
	}
	for _, path := range files {
		f, err := claims.Load(path)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		for _, quick := range []bool{false, true} {
			cells := map[string][]runner.Cell{}
			replaced := map[string]map[string]bool{} // experiment → axes a quick edit replaces
			for _, sp := range f.Specs {
				src := filepath.Join(filepath.Dir(path), sp.Path)
				data, err := os.ReadFile(src)
				if err != nil {
					t.Errorf("%s: %v", path, err)
					continue
				}
				var edits []claims.Edit
				if quick {
					edits = sp.Quick
				}
				name, rewritten, err := rewriteSpec(data, filepath.Dir(src), t.TempDir(), t.TempDir(), edits)
				if err != nil {
					t.Errorf("%s: %v", src, err)
					continue
				}
				spec, err := experiments.Parse(rewritten, src, specCatalog())
				if err != nil {
					t.Errorf("%s (quick %v): %v", src, quick, err)
					continue
				}
				cells[name] = spec.Cells()
				replaced[name] = map[string]bool{}
				for _, e := range edits {
					if p, ok := strings.CutPrefix(e.Set, "axes."); ok {
						replaced[name][p] = true
					}
				}
			}
			for _, c := range f.Claims {
				checks := c.Checks
				if len(checks) == 0 {
					checks = []claims.Check{c.Check}
				}
				for _, k := range checks {
					where := path + ": claim " + c.ID + " " + k.Label
					cs, ok := cells[k.Experiment]
					if !ok {
						t.Errorf("%s: experiment %q is none of the file's specs", where, k.Experiment)
						continue
					}
					for _, sel := range []map[string]any{k.A, k.B} {
						for name, v := range sel {
							if !occurs(cs, name, v) {
								t.Errorf("%s (quick %v): %s = %v occurs in no cell of %s", where, quick, name, v, k.Experiment)
							}
						}
					}
					for name, vs := range k.At {
						if replaced[k.Experiment][name] {
							continue
						}
						for _, v := range vs {
							if !occurs(cs, name, v) {
								t.Errorf("%s (quick %v): at %s = %v occurs in no cell of %s", where, quick, name, v, k.Experiment)
							}
						}
					}
					for _, name := range c.Split {
						if !occurs(cs, name, nil) {
							t.Errorf("%s: split %s is no parameter of %s", where, name, k.Experiment)
						}
					}
				}
			}
		}
	}
}

// occurs reports whether some cell has the scheduler, or the parameter
// with the value (any value when v is nil).
func occurs(cs []runner.Cell, name string, v any) bool {
	for _, c := range cs {
		if name == "scheduler" {
			if c.Scheduler == experiments.FormatValue(v) {
				return true
			}
			continue
		}
		got, ok := c.Lookup(name)
		if ok && (v == nil || experiments.FormatValue(got) == experiments.FormatValue(v)) {
			return true
		}
	}
	return false
}
