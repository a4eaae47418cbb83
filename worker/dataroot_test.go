package worker

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/runner"
)

// Resolve accepts files inside the root (through links that stay inside)
// and refuses every way out, naming the field.
func TestDataRootResolve(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	for _, p := range []string{"specs/traces/a.swf", "b.swf"} {
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte("; x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(outside, "secret.swf"), []byte("; x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{"specs/in.swf": "../b.swf", "specs/out.swf": filepath.Join(outside, "secret.swf"), "specs/rel-out.swf": "../../" + filepath.Base(outside) + "/secret.swf"} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	root, err := OpenDataRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	cell := func(cdir, trace string) runner.Cell {
		return runner.Cell{ID: "x", Dir: cdir, Params: []runner.Param{{Name: "workload.trace", Value: trace}}}
	}
	for _, tc := range []struct {
		dir, trace, want string // want "" accepts
	}{
		{"specs", "traces/a.swf", ""},
		{"specs", "../b.swf", ""},
		{"specs", "in.swf", ""},
		{".", "b.swf", ""},
		{"", "b.swf", ""},
		{"specs", "/etc/passwd", "an absolute path"},
		{"specs", "../../etc/passwd", "leaves the data root"},
		{"..", "b.swf", "leaves the data root"},
		{"/etc", "passwd", "leaves the data root"},
		{"specs", "out.swf", "symbolic links may not lead out"},
		{"specs", "rel-out.swf", "symbolic links may not lead out"},
		{"specs", "traces", "not a regular file"},
		{"specs", "nope.swf", "no such file"},
	} {
		got, err := root.Resolve(cell(tc.dir, tc.trace))
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("dir %q trace %q: %v; want accepted", tc.dir, tc.trace, err)
		case tc.want == "" && got.Dir != filepath.Join(dir, tc.dir):
			t.Errorf("dir %q trace %q: resolved dir %s; want %s", tc.dir, tc.trace, got.Dir, filepath.Join(dir, tc.dir))
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("dir %q trace %q: error %v; want one saying %q", tc.dir, tc.trace, err, tc.want)
		}
	}
	// A cell that names no file is not bound to any directory.
	if got, err := root.Resolve(runner.Cell{ID: "g", Dir: "/anywhere"}); err != nil || got.Dir != root.Dir() {
		t.Errorf("cell without files: %+v, %v; want the root as its dir", got, err)
	}
}
