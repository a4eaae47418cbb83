package stms

import (
	"fmt"
	"io"
	"math/rand/v2"
	"strings"

	"github.com/schedfarm/schedfarm/family"
	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/workload/seed002"
)

// SuiteCases gives the shared invariant suite a small failing grid for
// every scheme under every reading of the package doc that changes how it
// schedules (dispatch eager; irs_fill restart; utilization capacity), each
// named scheme+reading: 6 resources, 300 jobs of lifetime class 5:5,
// failure coefficients in [1e-4, 1e-3] (failures and migrations happen),
// batches of 20 and 20 mGA generations. Jobs stop and resume
// (Preemptive); the family's own rules, checked after every pass, are that
// every resource runs at most one job, that the engine's running jobs are
// exactly the resources' jobs, and that no job runs before its submit
// time.
func (fam) SuiteCases(seed uint64) []family.SuiteCase {
	var names []string
	for _, n := range Names() {
		names = append(names, n, n+"+eager", n+"+capacity")
	}
	names = append(names, "ir-stms+restart", "ir-stms+restart+eager")
	return []family.SuiteCase{{
		Name:       "grid",
		Platform:   Platform(6),
		Schedulers: names,
		Preemptive: true,
		Run: func(name string, wrap func(sim.Scheduler) sim.Scheduler) ([]*sim.Job, []error, error) {
			cfg, err := suiteConfig(name)
			if err != nil {
				return nil, nil, err
			}
			res, attrs, jobs, err := suiteWorld(seed, 300, 6)
			if err != nil {
				return nil, nil, err
			}
			cfg.Batch, cfg.GA.Generations = 20, 20
			cfg.FailureSeed = [2]uint64{seed, 7}
			s, err := New(cfg, res, attrs, rand.New(rand.NewPCG(seed, 3)))
			if err != nil {
				return nil, nil, err
			}
			k := &occupancy{s: s}
			out, _, err := sim.Run(Platform(len(res)), wrap(k), sim.NewSliceStream(jobs), nil)
			return out, k.errs, err
		},
	}}
}

// suiteConfig parses a suite name, scheme[+reading…], into Table 2's
// configuration of the scheme under those readings.
func suiteConfig(name string) (Config, error) {
	parts := strings.Split(name, "+")
	sc, ok := SchemeOf(parts[0])
	if !ok {
		return Config{}, fmt.Errorf("stms: unknown scheme %q in %q", parts[0], name)
	}
	cfg := DefaultConfig(sc)
	for _, r := range parts[1:] {
		switch r {
		case "eager":
			cfg.Dispatch = Eager
		case "restart":
			cfg.IRSFill = FillRestart
		case "capacity":
			cfg.CapacityUtil = true
		default:
			return Config{}, fmt.Errorf("stms: unknown reading %q in %q; accepted: eager, restart, capacity", r, name)
		}
	}
	return cfg, nil
}

// suiteWorld draws n jobs of class 5:5 on r resources from the seed002
// generator, failure coefficients in [1e-4, 1e-3].
func suiteWorld(seed uint64, n, r int) ([]Resource, []Job, []*sim.Job, error) {
	p := seed002.Default()
	p.Jobs, p.Resources, p.Class = n, r, seed002.Class2
	p.FailureCoeff = seed002.Interval{Lo: 1e-4, Hi: 1e-3}
	g, err := seed002.New(p, rand.New(rand.NewPCG(seed, 1)))
	if err != nil {
		return nil, nil, nil, err
	}
	var res []Resource
	for _, r := range g.Resources() {
		res = append(res, Resource{Speed: r.Availability, Bandwidth: r.Bandwidth, Lambda: r.FailureCoeff, RAL: r.AvailabilityLevel})
	}
	var attrs []Job
	var jobs []*sim.Job
	for {
		j, err := g.Next()
		if err == io.EOF {
			return res, attrs, jobs, nil
		}
		if err != nil {
			return nil, nil, nil, err
		}
		attrs = append(attrs, Job{Size: j.Size, Data: j.DataSize, SDV: j.ServiceDemand, Deadline: j.Deadline})
		jobs = append(jobs, sim.NewJob(int64(len(jobs)+1), j.Submit, []int{1}, j.Size*1e4/3, j.Size*1e6, 0))
	}
}

// occupancy wraps a Scheduler and checks after every pass that every
// resource runs at most one job, that the engine's running jobs are
// exactly the resources' jobs, and that no job runs before its submit
// time. It keeps the first ten violations.
type occupancy struct {
	s    *Scheduler
	errs []error
}

func (k *occupancy) Pass(c *sim.Cluster, ch sim.Changes) {
	k.s.Pass(c, ch)
	bad := func(format string, a ...any) {
		if len(k.errs) < 10 {
			k.errs = append(k.errs, fmt.Errorf("t=%g: "+format, append([]any{c.Now()}, a...)...))
		}
	}
	on := map[int64]int{}
	for r := range k.s.rs {
		if js := k.s.rs[r].run; js != nil {
			if _, dup := on[js.sj.ID]; dup {
				bad("job %d on two resources", js.sj.ID)
			}
			on[js.sj.ID] = r
			if js.res != r || js.sj.State() != sim.Running {
				bad("job %d on resource %d records %d, state %s", js.sj.ID, r, js.res, js.sj.State())
			}
		}
	}
	if len(c.Running()) != len(on) {
		bad("engine runs %d jobs, resources %d", len(c.Running()), len(on))
	}
	for _, j := range c.Running() {
		if _, ok := on[j.ID]; !ok || j.Start() < j.Submit {
			bad("job %d running on no resource or before its submit", j.ID)
		}
	}
}
