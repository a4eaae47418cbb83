package runner

import (
	"fmt"
	"math/rand/v2"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/strategies"
	"github.com/schedfarm/schedfarm/workload/cpuusage"
)

// Random streams of a run on a tiered platform: the per-process CPU usages
// come from PCG(Config.Seed, CPUStream), the sharing model's per-job loss
// and eff from a seed drawn from PCG(Config.Seed, SharingStream). Neither
// depends on the scheduler, so KEASY, REASY and MEASY at one grid point see
// the same usages and the same overheads.
const (
	CPUStream     = 0x3c6ef372fe94f82b
	SharingStream = 0xa54ff53a5f1d36f1
)

// cpuParams returns the CPU-usage model of the run: seed 000's rule (§3.1:
// one process 100%, each process of a larger job uniform in [40%, 100%]),
// its range moved to CPUMean when set, with the estimate mode and error.
func (c Config) cpuParams() (cpuusage.Params, error) {
	p := cpuusage.Default()
	if c.CPUMean != 0 {
		if !(c.CPUMean > 0 && c.CPUMean <= 1) {
			return p, fmt.Errorf("cpu_usage %g; accepted: a mean in (0, 1] (seed 000: 0.7, §3.5.2: 1)", c.CPUMean)
		}
		p = p.WithMean(c.CPUMean)
	}
	if c.CPUEstimate != "" {
		p.Estimate = c.CPUEstimate
	}
	p.Error = c.CPUError
	if err := p.Validate(); err != nil {
		return p, fmt.Errorf("cpu_estimate %q, cpu_error %g: %w", c.CPUEstimate, c.CPUError, err)
	}
	if p.Estimate != cpuusage.Noisy && c.CPUError != 0 {
		return p, fmt.Errorf("cpu_error %g with cpu_estimate %q; accepted: cpu_error only with cpu_estimate %s", c.CPUError, p.Estimate, cpuusage.Noisy)
	}
	return p, nil
}

// tiered turns res.Platform into the VM tiers the scheduler needs
// (strategies.Entry.Tiers) and gives every job its CPU usages. It does
// nothing for a scheduler of dedicated processors.
//
// An entry with Entry.Tiered chooses its tiers and sharing model from its
// parameters (seed 003's K); otherwise Entry.Tiers = 2 gets seed 000's
// two-tier model.
func tiered(cfg Config, e strategies.Entry, plat *sim.Platform, jobs []*sim.Job) error {
	if e.Tiered == nil && e.Tiers <= 1 {
		return nil
	}
	if e.Tiered == nil && e.Tiers != 2 {
		return fmt.Errorf("scheduler %s needs %d VM tiers; the runner models two (seed 000's foreground and background) unless the entry gives its own (Entry.Tiered)", e.Name, e.Tiers)
	}
	var ps strategies.Params
	if e.Tiered != nil {
		var err error
		if ps, err = cfg.Registry.Resolve(e.Name, cfg.SchedulerParams); err != nil {
			return err
		}
	}
	params, err := cfg.cpuParams()
	if err != nil {
		return err
	}
	seed := rand.New(rand.NewPCG(cfg.Seed, SharingStream)).Uint64()
	if e.Tiered != nil {
		tiers, sh := e.Tiered(ps, seed)
		if tiers <= 1 {
			return nil
		}
		plat.Tiers, plat.Sharing = tiers, sh
	} else {
		plat.Tiers, plat.Sharing = 2, sim.NewTwoTier(seed)
	}
	total := 0
	for _, j := range jobs {
		total += j.Procs()
	}
	actual := make([]float64, total)
	var est []float64
	if params.Estimate != cpuusage.None {
		est = make([]float64, total)
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, CPUStream))
	at := 0
	for _, j := range jobs {
		n := j.Procs()
		a := actual[at : at+n : at+n]
		var e []float64
		if est != nil {
			e = est[at : at+n : at+n]
		}
		params.Fill(a, e, rng)
		j.SetCPU(a, e)
		at += n
	}
	return nil
}
