package cloud

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"github.com/schedfarm/schedfarm/family"
	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/workload/seed001"
)

// SuiteCases gives the shared invariant suite a random cloud for every
// scheduler of the family under every reading of issue 21: 12 VMs, 300
// jobs with many ties (randomWorkload) run with the defaults, with the
// baselines deadline-aware, and with ASJS not waiting for its best VMs;
// and two seed001 clouds (12 VMs, 200 jobs, deadlines relative) whose jobs'
// tasks are copied and split. Tasks run at their VMs' speeds (Rated). The
// family's own rules are checkResult's.
func (fam) SuiteCases(seed uint64) []family.SuiteCase {
	w := randomWorkload(rand.New(rand.NewPCG(seed, 0xc10d)), 12, 300)
	cases := []family.SuiteCase{
		suiteCase("cloud", w, nil, nil),
		suiteCase("cloud-deadline-aware", w, []string{FIFO, Fair, ASJS, CMMS}, map[string]any{"deadline_aware": 1}),
		suiteCase("cloud-asjs-no-wait", w, []string{ASJS}, map[string]any{"wait_best": 0}),
	}
	for _, tasks := range []string{seed001.TasksCopied, seed001.TasksSplit} {
		v, err := WorkloadModel().Decode(map[string]any{"jobs": 200, "vms": 12, "rate": 2, "deadline": DeadlineRelative, "tasks": tasks})
		if err != nil {
			panic(err) // a constant parameter set
		}
		gw, err := Seed001Workload(v, rand.New(rand.NewPCG(seed, 0x5eed)))
		if err != nil {
			panic(err)
		}
		cases = append(cases, suiteCase("seed001-tasks-"+tasks, gw, nil, nil))
	}
	return cases
}

// suiteCase runs the named schedulers on w with params.
func suiteCase(name string, w *Workload, schedulers []string, params map[string]any) family.SuiteCase {
	return family.SuiteCase{
		Name:       name,
		Platform:   Platform(w),
		Schedulers: schedulers,
		Rated:      true,
		Run: func(sched string, wrap func(sim.Scheduler) sim.Scheduler) ([]*sim.Job, []error, error) {
			r, err := run(w, sched, params, wrap)
			if err != nil {
				return nil, nil, err
			}
			return r.Jobs, checkResult(r), nil
		},
	}
}

// nearly reports whether a and b agree to 1e-9 relative.
func nearly(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

// checkResult returns every violation of the family's rules in a run:
// every job ends finished or dropped with a reason; a finished job started
// no earlier than its arrival, on distinct VMs that hold each of its tasks
// (as many as the engine counted), lasted as long as its slowest task and
// — deadline-aware — ended by its deadline; a dropped job ran nowhere and
// was dropped between its arrival and its latest start (aware: at its
// arrival if no VMs could finish it in time) or at its deadline
// (unaware); and no VM ever ran two tasks at once — an end and a start at
// the same instant included.
func checkResult(r *Result) []error {
	w := r.Workload
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }
	type span struct {
		s, e float64
		job  int64
	}
	perVM := make([][]span, len(w.VMs))
	for i, sj := range r.Jobs {
		j, p := &w.Jobs[i], r.Placements[i]
		switch sj.State() {
		case sim.Finished:
			if sj.Start() < j.Submit {
				bad("job %d started at %g before it arrived at %g", j.ID, sj.Start(), j.Submit)
			}
			if len(p.VMs) != len(j.Tasks) {
				bad("job %d: %d task placements for %d tasks", j.ID, len(p.VMs), len(j.Tasks))
				continue
			}
			seen := map[int]bool{}
			n, dur := 0, 0.0
			for t, g := range p.VMs {
				for _, v := range g {
					if seen[v] {
						bad("job %d: VM %d used twice", j.ID, v)
					}
					seen[v] = true
					if !Fits(&j.Tasks[t], &w.VMs[v]) {
						bad("job %d task %d (%+v) on VM %d (%+v) that cannot hold it", j.ID, t, j.Tasks[t], v, w.VMs[v])
					}
					perVM[v] = append(perVM[v], span{sj.Start(), sj.End(), j.ID})
				}
				n += len(g)
				dur = math.Max(dur, w.GroupTime(j, &j.Tasks[t], g))
			}
			if sj.Demand[0] != n {
				bad("job %d holds %d VMs, the engine counted %d", j.ID, n, sj.Demand[0])
			}
			if !nearly(sj.Ran(), dur) || !nearly(sj.Start(), p.Start) || !nearly(sj.End(), p.End) {
				bad("job %d ran [%g, %g]; planned [%g, %g], slowest task %g", j.ID, sj.Start(), sj.End(), p.Start, p.End, dur)
			}
			if abs := j.Submit + j.Deadline; r.DeadlineAware && sj.End() > abs+1e-9*math.Max(1, abs) {
				bad("job %d finished at %g after its deadline %g", j.ID, sj.End(), abs)
			}
		case sim.Rejected:
			if sj.Reason() == "" || p.VMs != nil {
				bad("job %d dropped (reason %q) but placed on %v", j.ID, sj.Reason(), p.VMs)
			}
			abs := j.Submit + j.Deadline
			switch {
			case !r.DeadlineAware:
				wide := len(j.Tasks) > len(w.VMs) // the engine refuses it on arrival
				if !nearly(sj.End(), abs) && !(wide && sj.End() == j.Submit) {
					bad("job %d dropped at %g, not at its deadline %g (deadline-unaware)", j.ID, sj.End(), abs)
				}
			case sj.End() < j.Submit || sj.End() > abs || (p.Infeasible && sj.End() != j.Submit):
				bad("job %d (infeasible %v) dropped at %g, arrival %g, deadline %g", j.ID, p.Infeasible, sj.End(), j.Submit, abs)
			}
		default:
			bad("job %d ended the run %s", j.ID, sj.State())
		}
	}
	for v, spans := range perVM {
		sort.Slice(spans, func(a, b int) bool { return spans[a].s < spans[b].s })
		for k := 1; k < len(spans); k++ {
			if spans[k].s < spans[k-1].e {
				bad("VM %d: job %d starts at %g while job %d runs until %g", v, spans[k].job, spans[k].s, spans[k-1].job, spans[k-1].e)
			}
		}
	}
	return errs
}

// randomWorkload draws a small cloud with many ties: VM speeds 1, 2 or 4,
// integer demands and instructions, half-unit arrivals, some unconstrained
// VM attributes, some input files, some jobs wider than the platform.
func randomWorkload(rng *rand.Rand, vms, jobs int) *Workload {
	w := &Workload{TransferScale: float64(rng.IntN(2)) * 0.25}
	for range vms {
		v := VM{Memory: float64(1 + rng.IntN(5)), Speed: float64(int(1) << rng.IntN(3)), Bandwidth: float64(1 + rng.IntN(20)), Disk: -1}
		if rng.IntN(10) == 0 {
			v.Memory = -1
		}
		w.VMs = append(w.VMs, v)
	}
	t := 0.0
	for i := range jobs {
		t += 0.5 * float64(rng.IntN(3))
		j := Job{ID: int64(i + 1), Submit: t, Deadline: float64(1 + rng.IntN(8))}
		if rng.IntN(4) == 0 {
			j.InputSize = float64(rng.IntN(5))
		}
		p := 1 + rng.IntN(6)
		if rng.IntN(50) == 0 {
			p = vms + 1
		}
		for range p {
			j.Tasks = append(j.Tasks, Task{Memory: float64(1 + rng.IntN(4)), Bandwidth: float64(1 + rng.IntN(15)), Instructions: float64(1 + rng.IntN(12))})
		}
		w.Jobs = append(w.Jobs, j)
	}
	return w
}
