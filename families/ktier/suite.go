package ktier

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/schedfarm/schedfarm/family"
	"github.com/schedfarm/schedfarm/sim"
)

// SuiteCases gives the shared invariant suite CMBF on 8 nodes with K = 1
// (dedicated), 2, 3 and 4 VMs per node: 250 jobs with integer times (many
// ties), a few wider than the machine, per-process CPU usages with noisy
// estimates (none for a tenth of the jobs). Jobs are suspended and resumed
// (Preemptive), and background jobs promoted to other nodes' foreground
// VMs at seed 000's migration cost (checked to happen with seed 1); the
// family's own rules, checked after every pass (progressChecker), are
// that a suspended or running job never loses
// progress, that no VM holds two processes and a job's processes are on
// distinct nodes of one tier, that no more processes run than there are
// VMs, and that a suspended job holds no VM; and at the end that every
// finished job was served exactly its work.
func (fam) SuiteCases(seed uint64) []family.SuiteCase {
	var cases []family.SuiteCase
	for k := 1; k <= 4; k++ {
		p := sim.Processors(8)
		if k > 1 {
			p.Tiers, p.Sharing = k, NewSharing(seed)
		}
		cases = append(cases, family.SuiteCase{
			Name:       fmt.Sprintf("k%d", k),
			Platform:   p,
			Schedulers: []string{"cmbf"},
			Preemptive: true,
			Run: func(_ string, wrap func(sim.Scheduler) sim.Scheduler) ([]*sim.Job, []error, error) {
				if k > 1 {
					p.Sharing = NewSharing(seed) // fresh draws' scratch; same values
				}
				s, err := New(p, Config{Threshold: DefaultThreshold, MigrationCost: DefaultMigrationCost})
				if err != nil {
					return nil, nil, err
				}
				chk := &progressChecker{s: s, k: max(k, 1), procs: 8, done: map[*sim.Job]sim.Time{}}
				jobs := suiteJobs(rand.New(rand.NewPCG(seed, uint64(k))), 250, 8)
				out, _, err := sim.Run(p, wrap(chk), sim.NewSliceStream(jobs), nil)
				for _, j := range out {
					if j.State() == sim.Finished && math.Abs(j.Served()-j.Work()) > 1e-6*math.Max(1, j.Work()) {
						chk.bad("job %d finished after being served %g of its work %g", j.ID, j.Served(), j.Work())
					}
				}
				if s.Suspensions == 0 && k == 1 && seed == 1 {
					chk.bad("no suspension: the workload does not exercise CMBF's suspend path")
				}
				if k > 1 && seed == 1 && !migrated(out) {
					chk.bad("no promotion to other nodes: the workload does not exercise §3.2's migration")
				}
				return out, chk.errs, err
			},
		})
	}
	return cases
}

// migrated reports whether any job moved to other nodes (a promotion to
// foreground VMs that were not its own).
func migrated(jobs []*sim.Job) bool {
	for _, j := range jobs {
		if j.Migrations() > 0 {
			return true
		}
	}
	return false
}

// suiteJobs draws n jobs for a machine of procs nodes.
func suiteJobs(rng *rand.Rand, n, procs int) []*sim.Job {
	jobs := make([]*sim.Job, n)
	t := 0
	for i := range jobs {
		t += rng.IntN(3)
		size := 1 + rng.IntN(procs)
		if rng.IntN(2) == 0 {
			size = 1 + rng.IntN(max(1, procs/4))
		}
		if rng.IntN(40) == 0 {
			size = procs + 1
		}
		work := sim.Time(1 + rng.IntN(20))
		est := work
		if rng.IntN(3) == 0 {
			est += sim.Time(1 + rng.IntN(10))
		}
		j := sim.NewJob(int64(i+1), sim.Time(t), []int{size}, est, work, 0)
		cpu, told := make([]float64, size), make([]float64, size)
		for k := range cpu {
			cpu[k] = 1
			if size > 1 {
				cpu[k] = 0.3 + 0.7*rng.Float64()
			}
			told[k] = min(1, cpu[k]*(0.8+0.4*rng.Float64()))
		}
		if rng.IntN(10) == 0 {
			told = nil
		}
		j.SetCPU(cpu, told)
		jobs[i] = j
	}
	return jobs
}

// progressChecker wraps CMBF and checks the family's rules after every
// pass; it keeps the first ten violations.
type progressChecker struct {
	s        *Scheduler
	k, procs int
	done     map[*sim.Job]sim.Time // progress seen so far, per started job
	errs     []error
}

func (c *progressChecker) bad(format string, a ...any) {
	if len(c.errs) < 10 {
		c.errs = append(c.errs, fmt.Errorf(format, a...))
	}
}

func (c *progressChecker) Pass(cl *sim.Cluster, ch sim.Changes) {
	c.s.Pass(cl, ch)
	now := cl.Now()
	busy := 0
	for _, j := range cl.Running() {
		busy += j.Demand[0]
		tier, procs := cl.Placement(j)
		if cl.Tiers() > 1 {
			seen := map[int]bool{}
			for i, p := range procs {
				if seen[p] {
					c.bad("t=%g: job %d has two processes on node %d", now, j.ID, p)
				}
				seen[p] = true
				if o, oi := cl.Occupant(tier, p); o != j || oi != i {
					c.bad("t=%g: VM (tier %d, node %d) holds job %v, not job %d's process %d", now, tier, p, o, j.ID, i)
				}
			}
		}
		c.noLoss(cl, j)
	}
	if busy > c.k*c.procs {
		c.bad("t=%g: %d processes on %d VMs", now, busy, c.k*c.procs)
	}
	for _, q := range c.s.queue { // the suspended jobs, in arrival order
		j := q.j
		if !c.s.suspended[j] {
			continue
		}
		if j.State() != sim.Queued {
			c.bad("t=%g: suspended job %d is %s", now, j.ID, j.State())
		}
		c.noLoss(cl, j)
	}
}

// noLoss checks that j's progress has not gone down since the last pass.
func (c *progressChecker) noLoss(cl *sim.Cluster, j *sim.Job) {
	d := j.Work() - cl.Remaining(j)
	if prev, ok := c.done[j]; ok && d < prev-1e-9*math.Max(1, prev) {
		c.bad("t=%g: job %d lost progress: %g done, %g before", cl.Now(), j.ID, d, prev)
	}
	c.done[j] = d
}
