package runner

import (
	"context"
	"fmt"
	"runtime/debug"
	"strings"
	"time"

	"github.com/schedfarm/schedfarm/family"
	"github.com/schedfarm/schedfarm/internal/buildinfo"
	"github.com/schedfarm/schedfarm/sim"
)

// A cell's parameters by prefix: the scheduler's, the generator's.
const (
	schedulerPrefix = "scheduler."
	generatorPrefix = "workload.generator."
	modelParam      = "workload.generator.model"
)

// platformOf returns the family whose own platform runs the cell: that of
// its generator model's output (seed 001's cloud, seed 002's grid, seed
// 004's projects).
func (r *Runner) platformOf(c Cell) (family.PlatformRunner, bool) {
	v, _ := c.Lookup(modelParam)
	model, _ := v.(string)
	if model == "" {
		return nil, false
	}
	return r.cat.PlatformOf(model)
}

// familyCell turns a cell of a family's own platform into that family's
// family.Cell: only workload.generator.* and scheduler.* parameters are
// accepted; the scheduler must be one of the family's.
func (r *Runner) familyCell(c Cell, pr family.PlatformRunner) (family.Cell, error) {
	v, _ := c.Lookup(modelParam)
	model, _ := v.(string)
	fc := family.Cell{Model: model, Scheduler: c.Scheduler, Seed: c.Seed, KeepJobs: c.KeepJobs, Params: map[string]any{}}
	var unknown []string
	for _, p := range c.Params {
		switch {
		case p.Name == modelParam:
		case strings.HasPrefix(p.Name, generatorPrefix):
			fc.Params[strings.TrimPrefix(p.Name, generatorPrefix)] = p.Value
		case strings.HasPrefix(p.Name, schedulerPrefix):
			if fc.SchedulerParams == nil {
				fc.SchedulerParams = map[string]any{}
			}
			fc.SchedulerParams[strings.TrimPrefix(p.Name, schedulerPrefix)] = p.Value
		default:
			unknown = append(unknown, p.Name)
		}
	}
	if len(unknown) > 0 {
		return fc, fmt.Errorf("parameters %s do not apply to model %q (accepted: workload.generator.*, scheduler.*)", strings.Join(unknown, ", "), model)
	}
	return fc, r.cat.CheckPlatformScheduler(pr, c.Scheduler, fc.SchedulerParams)
}

// RunCell simulates cell c and returns its result.
//
// A nil error means the result is final and should be recorded: Status is
// StatusOK with the metrics, or StatusFailed with the error text when the
// cell's parameters are bad, the simulation fails or it panics (the panic is
// recovered and its stack summarized in Error). A non-nil error is returned
// only when ctx ends before the simulation does: the cell was not run to
// completion and must not be recorded (a worker naks it for redelivery). The
// simulation itself cannot be interrupted; it is left to finish in the
// background and its outcome discarded.
//
// RunCell fills CellID, Status, Error, Metrics, WallSeconds, GoVersion and
// Commit (from the binary's build info); the caller adds Worker and Version.
// With c.KeepJobs, Jobs holds one record per job.
func (r *Runner) RunCell(ctx context.Context, c Cell) (CellResult, error) {
	res := CellResult{CellID: c.ID, GoVersion: buildinfo.GoVersion(), Commit: buildinfo.Commit()}
	if err := ctx.Err(); err != nil {
		return res, err
	}
	simulate, err := r.simulation(c)
	if err != nil {
		res.Status, res.Error = StatusFailed, err.Error()
		return res, nil
	}
	done := make(chan outcome, 1)
	start := time.Now()
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- outcome{err: fmt.Errorf("panic: %v\n%s", p, trimStack(debug.Stack()))}
			}
		}()
		done <- simulate()
	}()
	var o outcome
	select {
	case o = <-done:
	case <-ctx.Done():
		return res, ctx.Err()
	}
	res.WallSeconds = time.Since(start).Seconds()
	if o.err != nil {
		res.Status, res.Error = StatusFailed, o.err.Error()
		return res, nil
	}
	res.Status = StatusOK
	res.Metrics = o.metrics
	if c.KeepJobs {
		res.Jobs = jobRecords(o.jobs, o.gamma)
	}
	return res, nil
}

// outcome is what a cell's simulation gives.
type outcome struct {
	metrics []family.Metric
	jobs    []*sim.Job
	gamma   float64
	err     error
}

// simulation prepares cell c — its family's own platform (family.Cell) or
// an SWF run (ConfigOf), with its plugin when it names one — and returns
// the simulation to run; an error is a cell that cannot run.
func (r *Runner) simulation(c Cell) (func() outcome, error) {
	if pr, ok := r.platformOf(c); ok {
		if c.Plugin != nil {
			model, _ := c.Lookup(modelParam)
			return nil, fmt.Errorf("scheduler plugins run on SWF workloads; model %q brings its own platform", model)
		}
		fc, err := r.familyCell(c, pr)
		if err != nil {
			return nil, err
		}
		return func() outcome {
			out, err := pr.Run(fc)
			if err != nil {
				return outcome{err: err}
			}
			return outcome{metrics: out.Metrics, jobs: out.Jobs, gamma: out.Gamma}
		}, nil
	}
	cfg, err := r.ConfigOf(c)
	if err != nil {
		return nil, err
	}
	closePlugin := func() {}
	if c.Plugin != nil {
		if cfg, closePlugin, err = withPlugin(c, cfg); err != nil {
			return nil, err
		}
	}
	return func() outcome {
		defer closePlugin()
		out, err := r.Run(cfg)
		if err != nil {
			return outcome{err: err}
		}
		o := outcome{metrics: out.Metrics(), gamma: cfg.Gamma}
		if c.KeepJobs {
			o.jobs = out.Jobs
		} else {
			out.Release() // the next cell reuses its memory
		}
		return o
	}, nil
}

// jobRecords converts the simulated jobs to JobRecords.
func jobRecords(jobs []*sim.Job, gamma float64) []JobRecord {
	if gamma <= 0 {
		gamma = sim.DefaultGamma
	}
	recs := make([]JobRecord, len(jobs))
	for i, j := range jobs {
		r := JobRecord{ID: j.ID, Submit: float64(j.Submit), Start: -1, End: -1, Procs: int64(j.Procs()),
			Wait: -1, Bsld: -1, State: j.State().String()}
		if j.State() != sim.Rejected {
			r.Start, r.End = float64(j.Start()), float64(j.End())
			r.Wait = float64(j.Wait())
			r.Bsld = j.BoundedSlowdown(gamma)
		}
		recs[i] = r
	}
	return recs
}

// trimStack keeps the first lines of a stack trace (enough to find the
// panicking frame without flooding the results file).
func trimStack(b []byte) string {
	lines := strings.Split(string(b), "\n")
	if len(lines) > 24 {
		lines = append(lines[:24], "…")
	}
	return strings.Join(lines, "\n")
}
