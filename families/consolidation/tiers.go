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
	return tier(r, tiers, newSharing, false)
}

// tier is Tier that, with order, also gives every job told its usage the
// order of its processes by estimate (sim.Job.CPUOrder, drawCPU).
func tier(r *strategies.RunSetup, tiers int, newSharing func(seed uint64) sim.Sharing, order bool) error {
	params, err := CPUModel(r.Fields)
	if err != nil {
		return err
	}
	seed := rand.New(rand.NewPCG(r.Seed, SharingStream)).Uint64()
	r.Platform.Tiers, r.Platform.Sharing = tiers, newSharing(seed)
	drawCPU(r.Jobs, params, r.Seed, order)
	return nil
}

// prepareTwoTiers is the Entry.Prepare of KEASY, REASY and MEASY: seed
// 000's foreground and background VM per processor (sim.TwoTier), and the
// order of each job's processes by estimate that Dispatch pairs with
// processors (pair), sorted once for all the cells that share the draw.
func prepareTwoTiers(r *strategies.RunSetup) error {
	return tier(r, 2, func(seed uint64) sim.Sharing { return sim.NewTwoTier(seed) }, true)
}

// DrawCPU gives every job the CPU usage of each of its processes, and what
// the scheduler is told of it, under model p, drawing from PCG(seed,
// CPUStream) job after job in order. The usages of all jobs share two
// arrays. What is drawn depends only on the seed, p and the jobs' process
// counts in order, so the cells of a grid point and replication (KEASY,
// REASY, MEASY at every migration cost, CMBF: the same seed and jobs)
// share one draw through the process's cache (drawnUsages).
func DrawCPU(jobs []*sim.Job, p cpuusage.Params, seed uint64) {
	drawCPU(jobs, p, seed, false)
}

// drawCPU is DrawCPU that, with order and estimates told, also gives each
// job the order of its processes by estimate (sim.Job.CPUOrder), computed
// once per draw and kept (drawnOrders): the cells of a grid point
// that dispatch by estimate (KEASY, REASY, MEASY at every migration cost)
// then sort each job's processes once between them instead of once each.
func drawCPU(jobs []*sim.Job, p cpuusage.Params, seed uint64, order bool) {
	procs := make([]int, len(jobs))
	for i, j := range jobs {
		procs[i] = j.Procs()
	}
	key := usageKey{seed, p, procsKey(procs)}
	u, _ := drawnUsages.Get(key, func() (usages, error) {
		return draw(procs, p, seed), nil
	})
	perJob := u.perJob
	if order && u.est != nil {
		o, _ := drawnOrders.Get(key, func() (ordered, error) {
			o := ordered{perJob: make([]sim.CPUUsage, len(procs)), order: estimateOrder(procs, u.est)}
			at := 0
			for i, n := range procs {
				o.perJob[i] = sim.NewCPUUsage(u.actual[at:at+n:at+n], o.order[at:at+n:at+n])
				at += n
			}
			return o, nil
		})
		perJob = o.perJob
	}
	at := 0
	for i, j := range jobs {
		n := procs[i]
		var e []float64
		if u.est != nil {
			e = u.est[at : at+n : at+n]
		}
		j.SetCPUUsage(&perJob[i], e)
		at += n
	}
}

// estimateOrder returns, for jobs of the given process counts whose
// estimates follow one another in est, each job's processes in descending
// order of estimate, equal estimates in process order (indices within the
// job), job after job: byEstimate's order, which pair sorts into when a
// job has none.
func estimateOrder(procs []int, est []float64) []int32 {
	ord := make([]int32, len(est))
	var l []vm
	var buf sortBuf
	at := 0
	for _, n := range procs {
		l = byEstimate(l, est[at:at+n], &buf)
		for k, e := range l {
			ord[at+k] = int32(e.proc)
		}
		at += n
	}
	return ord
}

// draw fills the usages of jobs of the given process counts from
// PCG(seed, CPUStream), job after job.
func draw(procs []int, p cpuusage.Params, seed uint64) usages {
	total := 0
	for _, n := range procs {
		total += n
	}
	u := usages{actual: make([]float64, total)}
	switch p.Estimate {
	case cpuusage.None:
	case cpuusage.Exact:
		// Told exactly: the estimates are the actual usages, the same
		// array (neither is written after the draw; Fill draws nothing
		// for exact estimates, so the draws are those of a copy).
		u.est = u.actual
	default:
		u.est = make([]float64, total)
	}
	u.perJob = make([]sim.CPUUsage, len(procs))
	rng := rand.New(rand.NewPCG(seed, CPUStream))
	at := 0
	for i, n := range procs {
		var e []float64
		if u.est != nil && p.Estimate != cpuusage.Exact {
			e = u.est[at : at+n : at+n]
		}
		p.Fill(u.actual[at:at+n:at+n], e, rng)
		u.perJob[i] = sim.NewCPUUsage(u.actual[at:at+n:at+n], nil)
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
