package layers

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/schedfarm/schedfarm/"

// imports returns, per module-relative package directory, the module
// packages its non-test Go files import.
func imports(t *testing.T, root string) map[string]map[string]bool {
	t.Helper()
	out := map[string]map[string]bool{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); path != root && (strings.HasPrefix(n, ".") || n == "testdata" || n == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		rel = filepath.ToSlash(rel)
		if out[rel] == nil {
			out[rel] = map[string]bool{}
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if strings.HasPrefix(p, module) {
				out[rel][strings.TrimPrefix(p, module)] = true
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestImportsPointDown fails for every import of a package of a higher
// layer, and for every package the table does not place.
func TestImportsPointDown(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatal(err)
	}
	all := imports(t, root)
	pkgs := make([]string, 0, len(all))
	for p := range all {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	for _, pkg := range pkgs {
		r, ok := Rank(pkg)
		if !ok {
			t.Errorf("%s: not in layers.Ranks; place it", pkg)
			continue
		}
		deps := make([]string, 0, len(all[pkg]))
		for d := range all[pkg] {
			deps = append(deps, d)
		}
		sort.Strings(deps)
		for _, dep := range deps {
			if dr, ok := Rank(dep); ok && dr > r {
				t.Errorf("%s (layer %d) imports %s (layer %d): imports must point down", pkg, r, dep, dr)
			}
		}
	}
}

// TestRanks checks the table on known cases, so that a broken prefix match
// cannot make the test above vacuous.
func TestRanks(t *testing.T) {
	for pkg, want := range map[string]int{
		"sim": 1, "workload/swf/swftest": 1, "strategies/strategytest": 2, "workload/models": 2,
		"family/familytest": 3, "families/cloud": 4, "families": 5, "runner/runnertest": 6,
		"experiments": 7, "worker": 8, "cmd/schedfarm": 9,
	} {
		if got, ok := Rank(pkg); !ok || got != want {
			t.Errorf("Rank(%s) = %d, %v; want %d", pkg, got, ok, want)
		}
	}
	if _, ok := Rank("nonexistent"); ok {
		t.Error("an unknown package has a rank")
	}
}
