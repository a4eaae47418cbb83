// Package plugintest builds scheduler plugins for tests: Build compiles a
// Go plugin package of this module once per test process into a temporary
// directory, and Python finds a Python interpreter with grpcio and
// protobuf for the Python example.
package plugintest

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
)

var (
	mu    sync.Mutex
	built = map[string]string{}
	dir   string
)

// Root returns the module's root directory.
func Root() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", "..", ".."))
}

// Build compiles the Go package pkg (a path relative to the module root,
// such as "./examples/plugins/easy") and returns the executable's path.
// The build runs once per test process; the executable lives until the
// process ends (a directory under os.TempDir named schedfarm-plugintest-*,
// removed by Cleanup).
func Build(tb testing.TB, pkg string) string {
	tb.Helper()
	mu.Lock()
	defer mu.Unlock()
	if p, ok := built[pkg]; ok {
		return p
	}
	if dir == "" {
		d, err := os.MkdirTemp("", "schedfarm-plugintest-")
		if err != nil {
			tb.Fatal(err)
		}
		dir = d
	}
	out := filepath.Join(dir, filepath.Base(pkg))
	cmd := exec.Command("go", "build", "-o", out, pkg)
	cmd.Dir = Root()
	if b, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("go build %s: %v\n%s", pkg, err, b)
	}
	built[pkg] = out
	return out
}

// Copy copies the executable at src to a new file name in dir (for
// plugins that change behaviour with their name, or tests that edit one).
func Copy(tb testing.TB, src, dir, name string) string {
	tb.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		tb.Fatal(err)
	}
	dst := filepath.Join(dir, name)
	if err := os.WriteFile(dst, b, 0o755); err != nil {
		tb.Fatal(err)
	}
	return dst
}

// Cleanup removes what Build made; call it from TestMain after m.Run.
func Cleanup() {
	mu.Lock()
	defer mu.Unlock()
	if dir != "" {
		os.RemoveAll(dir)
	}
	dir, built = "", map[string]string{}
}

// Python returns the path of a Python 3 that imports grpc and
// google.protobuf (Debian: python3-grpcio, python3-protobuf, which install
// for /usr/bin/python3), or "" and why not.
func Python() (string, string) {
	for _, p := range []string{"/usr/bin/python3", "python3"} {
		path, err := exec.LookPath(p)
		if err != nil {
			continue
		}
		if err := exec.Command(path, "-c", "import grpc, google.protobuf").Run(); err == nil {
			return path, ""
		}
	}
	return "", "no python3 with grpcio and protobuf (Debian: apt-get install python3-grpcio python3-protobuf)"
}
