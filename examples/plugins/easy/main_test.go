package main

import (
	"os"
	"testing"

	"github.com/schedfarm/schedfarm/families"
	"github.com/schedfarm/schedfarm/param"
	"github.com/schedfarm/schedfarm/runner"
	"github.com/schedfarm/schedfarm/runner/runnertest"
	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/strategies"
	"github.com/schedfarm/schedfarm/strategies/plugin"
	"github.com/schedfarm/schedfarm/strategies/plugin/plugintest"
	"github.com/schedfarm/schedfarm/strategies/strategytest"
	"github.com/schedfarm/schedfarm/workload/swf/swftest"
)

func TestMain(m *testing.M) {
	code := m.Run()
	plugintest.Cleanup()
	os.Exit(code)
}

// easyBinary builds this plugin.
func easyBinary(tb testing.TB) plugin.Binary {
	tb.Helper()
	bin, err := plugin.Hash(plugintest.Build(tb, "./examples/plugins/easy"))
	if err != nil {
		tb.Fatal(err)
	}
	return bin
}

// openEasy builds this plugin and opens it.
func openEasy(t *testing.T) *plugin.Plugin {
	t.Helper()
	p, err := plugin.Open(easyBinary(t), plugin.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// TestSameScheduleAsBuiltinOnKTH runs KTH-SP2 through the plugin and
// through the built-in scheduler and compares every job's start and end.
func TestSameScheduleAsBuiltinOnKTH(t *testing.T) {
	trace := swftest.Path(t, swftest.KTH)
	for _, tc := range []struct {
		builtin, backfill, estimates string
	}{
		{"easy", "submit", runner.EstimatesPyss},
		{"sjbf", "shortest", runner.EstimatesPyss},
		{"easy", "submit", runner.EstimatesUser}, // overrun kill: killed jobs end at their estimate
	} {
		t.Run(tc.builtin+"-"+tc.estimates, func(t *testing.T) {
			want, err := runner.New(families.Builtin()).Run(runner.Config{Trace: trace, Scheduler: tc.builtin, Estimates: tc.estimates})
			if err != nil {
				t.Fatal(err)
			}
			got, _ := runnertest.RunPlugin(t, runner.New(families.Builtin()), easyBinary(t), runner.Config{Trace: trace, Estimates: tc.estimates,
				SchedulerParams: map[string]any{"backfill": tc.backfill}})
			if len(got.Jobs) < 28000 {
				t.Fatalf("%d jobs", len(got.Jobs))
			}
			plugintest.SameSchedule(t, got.Jobs, want.Jobs)
			if got.Summary.Killed != want.Summary.Killed || got.Summary.Backfilled != want.Summary.Backfilled {
				t.Errorf("killed %d/%d, backfilled %d/%d", got.Summary.Killed, want.Summary.Killed, got.Summary.Backfilled, want.Summary.Backfilled)
			}
			t.Logf("%d jobs, same start and end times; %d killed, %d backfilled", len(got.Jobs), got.Summary.Killed, got.Summary.Backfilled)
		})
	}
}

// TestInvariants runs the shared invariant suite against the plugin: no
// oversubscription, no start before submit, every job ends, termination
// when everything is rejected, determinism, promised reservations never
// move later — on one and two resource pools.
func TestInvariants(t *testing.T) {
	p := openEasy(t)
	for _, backfill := range []string{"submit", "shortest"} {
		t.Run(backfill, func(t *testing.T) {
			reg, err := p.Registry("easy-plugin", 1)
			if err != nil {
				t.Fatal(err)
			}
			strategytest.SuiteFor(t, withParams(reg, map[string]any{"backfill": backfill}), "easy-plugin")
		})
	}
}

// withParams returns a registry whose single entry always runs with
// params (the suite builds schedulers with default parameters).
func withParams(reg *strategies.Registry, params map[string]any) *strategies.Registry {
	name := reg.Names()[0]
	e, _ := reg.Lookup(name)
	inner := e.New
	e.New = func(b strategies.Build) (sim.Scheduler, error) {
		merged := param.Values{}
		for k, v := range b.Params {
			merged[k] = v
		}
		for k, v := range params {
			merged[k] = v
		}
		b.Params = merged
		return inner(b)
	}
	out, _ := strategies.NewRegistry(e)
	return out
}

// BenchmarkKTH runs EASY on KTH-SP2 (pyss estimates) through the plugin:
// a fresh plugin process per run, as in a cell. It reports the passes
// sent to the plugin and skipped (pass mode WhenStartable) and the mean
// round trip of a pass, host side (send, plugin's work, receive).
//
//	go test -run XXX -bench KTH ./examples/plugins/easy/
func BenchmarkKTH(b *testing.B) {
	trace := swftest.Path(b, swftest.KTH)
	bin := easyBinary(b)
	var scheds []*plugin.Scheduler
	for b.Loop() {
		_, s := runnertest.RunPlugin(b, runner.New(families.Builtin()), bin, runner.Config{Trace: trace, Estimates: runner.EstimatesPyss})
		scheds = append(scheds, s)
	}
	plugintest.ReportStats(b, scheds)
}
