// Package plugintest helps test scheduler plugins: Build compiles a Go
// plugin package of this module once per test process into a temporary
// directory, Python finds a Python interpreter with grpcio and protobuf
// for the Python example, SameSchedule compares schedules job by job,
// ReportStats reports a benchmark's passes and round trips. It imports
// nothing above strategies/plugin; a whole run through a plugin is
// runner/runnertest.RunPlugin.
package plugintest

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/strategies/plugin"
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

// SameSchedule fails tb unless got and want hold the same jobs with the
// same state, start and end times, naming the first few that differ.
func SameSchedule(tb testing.TB, got, want []*sim.Job) {
	tb.Helper()
	if len(got) != len(want) {
		tb.Fatalf("%d jobs through the plugin, %d built in", len(got), len(want))
	}
	bad := 0
	for i, g := range got {
		w := want[i]
		if g.ID != w.ID || g.State() != w.State() || g.Start() != w.Start() || g.End() != w.End() {
			if bad++; bad <= 5 {
				tb.Errorf("job %d: plugin %s %g–%g, built-in %s %g–%g", g.ID, g.State(), g.Start(), g.End(), w.State(), w.Start(), w.End())
			}
		}
	}
	if bad > 0 {
		tb.Fatalf("%d of %d jobs scheduled differently", bad, len(got))
	}
}

// ReportStats reports a benchmark's mean passes sent and skipped per run
// and the mean round trip of a pass.
func ReportStats(b *testing.B, scheds []*plugin.Scheduler) {
	var sent, skipped int
	var rtt time.Duration
	for _, s := range scheds {
		n, k, d := s.Stats()
		sent, skipped, rtt = sent+n, skipped+k, rtt+d
	}
	runs := float64(len(scheds))
	b.ReportMetric(float64(sent)/runs, "passes/op")
	b.ReportMetric(float64(skipped)/runs, "skipped/op")
	b.ReportMetric(float64(rtt.Microseconds())/float64(max(sent, 1)), "µs/roundtrip")
}
