package consolidation

import (
	"fmt"
	"math/rand/v2"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/strategies"
	"github.com/schedfarm/schedfarm/workload/cpuusage"
)

// The glue that readies an SWF run for VM tiers: KEASY, REASY and MEASY get
// two tiers per processor with seed 000's sharing model (prepareTwoTiers,
// their strategies.Entry.Prepare), and every VM-tier run draws seed 000's
// per-process CPU usage from the workload fields (Tier, CPUModel), which
// seed 003's K tiers (families/ktier) reuse.

// Random streams of a run on VM tiers: the per-process CPU usages come
// from PCG(seed, CPUStream), the sharing model's per-job loss and eff from
// a seed drawn from PCG(seed, SharingStream). Neither depends on the
// scheduler, so KEASY, REASY, MEASY and CMBF at one grid point see the same
// usages and the same overheads.
const (
	CPUStream     = 0x3c6ef372fe94f82b
	SharingStream = 0xa54ff53a5f1d36f1
)

// Tier makes r's platform tiers VMs per processor, shared as the model
// newSharing builds (from a seed drawn from PCG(r.Seed, SharingStream)),
// and gives every job its per-process CPU usage under the run's CPU-usage
// model (CPUModel of r.Fields), drawn from PCG(r.Seed, CPUStream).
func Tier(r *strategies.RunSetup, tiers int, newSharing func(seed uint64) sim.Sharing) error {
	params, err := CPUModel(r.Fields)
	if err != nil {
		return err
	}
	seed := rand.New(rand.NewPCG(r.Seed, SharingStream)).Uint64()
	r.Platform.Tiers, r.Platform.Sharing = tiers, newSharing(seed)
	DrawCPU(r.Jobs, params, r.Seed)
	return nil
}

// prepareTwoTiers is the Entry.Prepare of KEASY, REASY and MEASY: seed
// 000's foreground and background VM per processor (sim.TwoTier).
func prepareTwoTiers(r *strategies.RunSetup) error {
	return Tier(r, 2, func(seed uint64) sim.Sharing { return sim.NewTwoTier(seed) })
}

// DrawCPU gives every job the CPU usage of each of its processes, and what
// the scheduler is told of it, under model p, drawing from PCG(seed,
// CPUStream) job after job in order. The usages of all jobs share two
// arrays. What is drawn depends only on the seed, p and the jobs' process
// counts in order, so the cells of a grid point and replication (KEASY,
// REASY, MEASY at every migration cost, CMBF: the same seed and jobs)
// share one draw through the process's cache (drawnUsages).
func DrawCPU(jobs []*sim.Job, p cpuusage.Params, seed uint64) {
	procs := make([]int, len(jobs))
	for i, j := range jobs {
		procs[i] = j.Procs()
	}
	u, _ := drawnUsages.Get(usageKey{seed, p, procsKey(procs)}, func() (usages, error) {
		return draw(procs, p, seed), nil
	})
	at := 0
	for i, j := range jobs {
		n := procs[i]
		var e []float64
		if u.est != nil {
			e = u.est[at : at+n : at+n]
		}
		j.SetCPU(u.actual[at:at+n:at+n], e)
		at += n
	}
}

// draw fills the usages of jobs of the given process counts from
// PCG(seed, CPUStream), job after job.
func draw(procs []int, p cpuusage.Params, seed uint64) usages {
	total := 0
	for _, n := range procs {
		total += n
	}
	u := usages{actual: make([]float64, total)}
	if p.Estimate != cpuusage.None {
		u.est = make([]float64, total)
	}
	rng := rand.New(rand.NewPCG(seed, CPUStream))
	at := 0
	for _, n := range procs {
		var e []float64
		if u.est != nil {
			e = u.est[at : at+n : at+n]
		}
		p.Fill(u.actual[at:at+n:at+n], e, rng)
		at += n
	}
	return u
}

// CPUModel returns the CPU-usage model the workload fields give (SpecFields;
// an absent field keeps the default): seed 000's rule (§3.1: one process
// 100%, each process of a larger job uniform in [40%, 100%]), its range
// moved to the mean workload.cpu_usage when given, told as
// workload.cpu_estimate says with the error bound workload.cpu_error.
func CPUModel(fields map[string]any) (cpuusage.Params, error) {
	mean, _ := fields[FieldCPUUsage].(float64)
	estimate, _ := fields[FieldCPUEstimate].(string)
	bound, _ := fields[FieldCPUError].(float64)
	p := cpuusage.Default()
	if mean != 0 {
		if !(mean > 0 && mean <= 1) {
			return p, fmt.Errorf("cpu_usage %g; accepted: a mean in (0, 1] (seed 000: 0.7, §3.5.2: 1)", mean)
		}
		p = p.WithMean(mean)
	}
	if estimate != "" {
		p.Estimate = estimate
	}
	p.Error = bound
	if err := p.Validate(); err != nil {
		return p, fmt.Errorf("cpu_estimate %q, cpu_error %g: %w", estimate, bound, err)
	}
	if p.Estimate != cpuusage.Noisy && bound != 0 {
		return p, fmt.Errorf("cpu_error %g with cpu_estimate %q; accepted: cpu_error only with cpu_estimate %s", bound, p.Estimate, cpuusage.Noisy)
	}
	return p, nil
}

// CheckFields implements family.FieldsChecker: the CPU-usage fields are
// checked together (CPUModel) on every run.
func (fam) CheckFields(values map[string]any) error {
	_, err := CPUModel(values)
	return err
}
