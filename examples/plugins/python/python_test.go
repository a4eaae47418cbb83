// Package python holds the Python example plugin (easy.py, with the
// generated scheduler_pb2.py); this test runs it where a Python with
// grpcio and protobuf is installed and skips with a message otherwise.
package python

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/schedfarm/schedfarm/families"
	"github.com/schedfarm/schedfarm/runner"
	"github.com/schedfarm/schedfarm/runner/runnertest"
	"github.com/schedfarm/schedfarm/strategies/plugin"
	"github.com/schedfarm/schedfarm/strategies/plugin/plugintest"
	"github.com/schedfarm/schedfarm/workload/swf/swftest"
)

// pythonPlugin returns the plugin's path, or a wrapper that runs it with
// the Python found when that is not /usr/bin/python3 (easy.py's first
// line).
func pythonPlugin(t *testing.T) string {
	py, why := plugintest.Python()
	if py == "" {
		if os.Getenv("SCHEDFARM_REQUIRE_PYTHON") != "" {
			t.Fatal("SCHEDFARM_REQUIRE_PYTHON is set but the Python example plugin cannot run: " + why)
		}
		t.Skip("Python example plugin not tested: " + why)
	}
	script := filepath.Join(plugintest.Root(), "examples", "plugins", "python", "easy.py")
	if py == "/usr/bin/python3" {
		return script
	}
	wrapper := filepath.Join(t.TempDir(), "py-easy")
	if err := os.WriteFile(wrapper, []byte("#!/bin/sh\nexec "+py+" "+script+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return wrapper
}

// TestSameScheduleAsBuiltin runs KTH-SP2 through the Python plugin (EASY
// on the whole trace, FCFS on its first 5,000 jobs) and through the
// built-in schedulers, and compares every job's start and end.
func TestSameScheduleAsBuiltin(t *testing.T) {
	path := pythonPlugin(t)
	trace := swftest.Path(t, swftest.KTH)
	bin, err := plugin.Hash(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		policy  string
		maxJobs int
	}{{"easy", 0}, {"fcfs", 5000}} {
		t.Run(tc.policy, func(t *testing.T) {
			want, err := runner.New(families.Builtin()).Run(runner.Config{Trace: trace, Scheduler: tc.policy, Estimates: runner.EstimatesPyss, MaxJobs: tc.maxJobs})
			if err != nil {
				t.Fatal(err)
			}
			got, _ := runnertest.RunPlugin(t, runner.New(families.Builtin()), bin, runner.Config{Trace: trace, Estimates: runner.EstimatesPyss,
				MaxJobs: tc.maxJobs, SchedulerParams: map[string]any{"policy": tc.policy}})
			if len(got.Jobs) < 4900 {
				t.Fatalf("%d jobs", len(got.Jobs))
			}
			plugintest.SameSchedule(t, got.Jobs, want.Jobs)
		})
	}
}

// BenchmarkKTH runs EASY on KTH-SP2 (pyss estimates) through the Python
// plugin, a fresh process per run, and reports the passes sent and the
// mean round trip of one, host side.
//
//	go test -run XXX -bench KTH ./examples/plugins/python/
func BenchmarkKTH(b *testing.B) {
	py, why := plugintest.Python()
	if py != "/usr/bin/python3" {
		b.Skip("needs /usr/bin/python3 with grpcio and protobuf: " + why)
	}
	trace := swftest.Path(b, swftest.KTH)
	bin, err := plugin.Hash(filepath.Join(plugintest.Root(), "examples", "plugins", "python", "easy.py"))
	if err != nil {
		b.Fatal(err)
	}
	var scheds []*plugin.Scheduler
	for b.Loop() {
		_, s := runnertest.RunPlugin(b, runner.New(families.Builtin()), bin, runner.Config{Trace: trace, Estimates: runner.EstimatesPyss})
		scheds = append(scheds, s)
	}
	plugintest.ReportStats(b, scheds)
}
