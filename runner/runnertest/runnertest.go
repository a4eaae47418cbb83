// Package runnertest helps tests run simulations through package runner
// with a scheduler plugin (RunPlugin). It sits below runner's callers and
// imports runner, strategies/plugin and sim only.
package runnertest

import (
	"testing"

	"github.com/schedfarm/schedfarm/runner"
	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/strategies/plugin"
)

// RunPlugin runs cfg on r with the plugin bin as its scheduler (a fresh process, as
// in a cell; cfg.Scheduler is set to the plugin's name) and returns the
// result and the plugin scheduler, whose Stats tell the passes and round
// trips.
func RunPlugin(tb testing.TB, r *runner.Runner, bin plugin.Binary, cfg runner.Config) (*runner.Result, *plugin.Scheduler) {
	tb.Helper()
	p, err := plugin.Open(bin, plugin.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	defer p.Close()
	reg, err := p.Registry("", cfg.Seed)
	if err != nil {
		tb.Fatal(err)
	}
	var s *plugin.Scheduler
	cfg.Registry, cfg.Scheduler = reg, p.Description().GetName()
	cfg.Wrap = func(x sim.Scheduler) sim.Scheduler { s = x.(*plugin.Scheduler); return x }
	res, err := r.Run(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	return res, s
}
