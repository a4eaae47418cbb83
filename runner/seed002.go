package runner

import (
	"fmt"
	"io"
	"math/rand/v2"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/strategies/stms"
	"github.com/schedfarm/schedfarm/workload/models"
	"github.com/schedfarm/schedfarm/workload/seed002"
)

// Seed 002's random streams besides the workload's (GeneratorStream):
// resource failures (per job, so every scheme of a grid point meets the
// same failure draws: a paired comparison) and the mGA.
const (
	Seed002FailureStream = 0x510e527fade682d1
	Seed002GAStream      = 0x9b05688c2b3e6c1f
)

// Seed002World decodes a seed002 model's parameters and draws its
// resources and jobs from PCG(seed, GeneratorStream). It returns the STMS
// family's world (failures from PCG(…, Seed002FailureStream), mGA from
// PCG(seed, Seed002GAStream)), the platform (one unit per resource) and
// the sim jobs (ID i+1 for the i-th job, work = size in flops, estimate =
// the work at the mean availability).
func Seed002World(params map[string]any, seed uint64) (*stms.World, sim.Platform, []*sim.Job, error) {
	v, err := models.Decode("seed002", params)
	if err != nil {
		return nil, sim.Platform{}, nil, err
	}
	p := models.Seed002Params(v)
	g, err := seed002.New(p, rand.New(rand.NewPCG(seed, GeneratorStream)))
	if err != nil {
		return nil, sim.Platform{}, nil, fmt.Errorf("workload.generator: %w", err)
	}
	w := &stms.World{Base: stms.DefaultConfig(stms.STMS), GASeed: [2]uint64{seed, Seed002GAStream}}
	w.Base.Alpha, w.Base.Interval, w.Base.Batch = v.Float("alpha"), v.Float("interval"), v.Int("batch")
	w.Base.TraceInterval, w.Base.TraceOverhead = v.Float("trace_interval"), v.Float("trace_overhead")
	w.Base.FailureSeed = [2]uint64{seed, Seed002FailureStream}
	for _, r := range g.Resources() {
		w.Resources = append(w.Resources, stms.Resource{Speed: r.Availability, Bandwidth: r.Bandwidth, Lambda: r.FailureCoeff, RAL: r.AvailabilityLevel})
	}
	meanSpeed := (p.Availability.Lo + p.Availability.Hi) / 2
	jobs := make([]*sim.Job, 0, p.Jobs)
	demand := []int{1}
	for {
		j, err := g.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, sim.Platform{}, nil, err
		}
		w.Jobs = append(w.Jobs, stms.Job{Size: j.Size, Data: j.DataSize, SDV: j.ServiceDemand, Deadline: j.Deadline})
		work := j.Size * 1e6
		jobs = append(jobs, sim.NewJob(int64(len(jobs)+1), j.Submit, demand, work/meanSpeed, work, 0))
	}
	return w, stms.Platform(len(w.Resources)), jobs, nil
}

// runSeed002 simulates one seed002 cell under an STMS scheme.
func runSeed002(c ModelCell) (*ModelResult, error) {
	w, plat, jobs, err := Seed002World(c.Params, c.Seed)
	if err != nil {
		return nil, err
	}
	s, err := stms.Registry(w).New(c.Scheduler, plat, c.SchedulerParams)
	if err != nil {
		return nil, err
	}
	out, _, err := sim.Run(plat, s, sim.NewSliceStream(jobs), nil)
	if err != nil {
		return nil, err
	}
	res := &ModelResult{}
	for _, m := range s.(*stms.Scheduler).Metrics(out) {
		res.Metrics = append(res.Metrics, Metric{m.Name, m.Value})
	}
	if c.KeepJobs {
		res.Jobs = out
	}
	return res, nil
}

func checkSeed002(scheduler string, params map[string]any) error {
	return stms.Registry(nil).Check(scheduler, params)
}

func seed002Schedulers() []string { return stms.Names() }

func seed002MetricNames() []string { return stms.MetricNames() }
