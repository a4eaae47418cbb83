package sim

import "fmt"

// StartShaped starts a queued job now holding demand units of each pool
// instead of its declared Demand: for moldable jobs whose scheduler chooses
// how many units they get (seed 001's Fair gives a task several VMs when
// VMs are plentiful). The job's Demand becomes a copy of demand for the
// rest of the run, so the engine's accounting, the metrics and the per-job
// records see the units actually held. Like Start, it fails and changes
// nothing (and the engine stops) if the job is not queued, demand has the
// wrong length or a negative entry, or it does not fit.
func (c *Cluster) StartShaped(j *Job, demand []int) error {
	if len(demand) != len(j.Demand) {
		return c.fail(fmt.Errorf("sim: job %d started with demand for %d pools; accepted: one entry per pool (%d)", j.ID, len(demand), len(j.Demand)))
	}
	for i, d := range demand {
		if d < 0 {
			return c.fail(fmt.Errorf("sim: job %d started with demand %d for pool %d; accepted: ≥ 0", j.ID, d, i))
		}
	}
	old := j.Demand
	j.Demand = append([]int(nil), demand...)
	if err := c.Start(j); err != nil {
		j.Demand = old
		return err
	}
	return nil
}
