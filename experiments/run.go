package experiments

import (
	"context"
	"fmt"
	"github.com/schedfarm/schedfarm/family"
	"math/rand/v2"
	"runtime/debug"
	"sort"
	"strings"
	"time"

	"github.com/schedfarm/schedfarm/families"
	"github.com/schedfarm/schedfarm/internal/buildinfo"
	"github.com/schedfarm/schedfarm/runner"
	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/workload/tsafrir05"
)

// Config turns a cell's parameters into a runner configuration. Every
// parameter must be understood: an unknown one is an error rather than
// silently ignored. Relative trace paths resolve against c.Dir. A generator
// workload is built here (workload/models, seeded from c.Seed through a PCG
// stream) and handed over as cfg.Source; without platform.procs the machine
// is the generator's procs.
func Config(c runner.Cell) (runner.Config, error) {
	if model, ok := familyModel(c); ok {
		return runner.Config{}, fmt.Errorf("workload model %q brings its own platform; use ModelConfig", model)
	}
	cfg := runner.Config{
		Scheduler:       c.Scheduler,
		SchedulerParams: map[string]any{},
		Seed:            c.Seed,
	}
	var unknown []string
	var model, userEst, estBins string
	gen := map[string]any{}
	for _, p := range c.Params {
		ok := true
		switch {
		case strings.HasPrefix(p.Name, "scheduler."):
			cfg.SchedulerParams[strings.TrimPrefix(p.Name, "scheduler.")] = p.Value
		case p.Name == "platform.procs":
			ok = setInt(&cfg.Procs, p.Value)
		case p.Name == "workload.trace":
			var s string
			ok = setString(&s, p.Value)
			cfg.Trace = ResolvePath(c.Dir, s)
		case p.Name == "workload.estimates":
			ok = setString(&cfg.Estimates, p.Value)
		case p.Name == "workload.overrun":
			ok = setString(&cfg.Overrun, p.Value)
		case p.Name == "workload.load":
			cfg.Load, ok = p.Value.(float64)
		case p.Name == "workload.jobs":
			ok = setInt(&cfg.MaxJobs, p.Value)
		case p.Name == "workload.warmup":
			ok = setInt(&cfg.WarmupJobs, p.Value)
		case p.Name == "workload.lenient":
			cfg.Lenient, ok = p.Value.(bool)
		case p.Name == "workload.user_estimates":
			ok = setString(&userEst, p.Value)
		case p.Name == "workload.max_estimate":
			ok = setInt(&cfg.MaxEstimate, p.Value)
		case p.Name == "workload.est_bins":
			ok = setString(&estBins, p.Value)
		case isFamilyField(p.Name):
			ok = setFamilyField(&cfg, p)
		case p.Name == "workload.generator.model":
			ok = setString(&model, p.Value)
		case strings.HasPrefix(p.Name, "workload.generator."):
			gen[strings.TrimPrefix(p.Name, "workload.generator.")] = p.Value
		default:
			unknown = append(unknown, p.Name)
		}
		if !ok {
			return cfg, fmt.Errorf("param %s: value %s has kind %s", p.Name, formatValue(p.Value), kindOf(p.Value))
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return cfg, fmt.Errorf("unknown parameters %s", strings.Join(unknown, ", "))
	}
	if len(cfg.SchedulerParams) == 0 {
		cfg.SchedulerParams = nil
	}
	if err := traceEstimates(&cfg, userEst, estBins, model); err != nil {
		return cfg, err
	}
	if model != "" {
		// The generator draws from a PCG stream of the cell seed; the
		// second word only separates it from other uses of the seed.
		rng := rand.New(rand.NewPCG(c.Seed, generatorStream))
		src, info, err := families.Models().New(model, gen, rng)
		if err != nil {
			return cfg, fmt.Errorf("workload.generator: %w", err)
		}
		cfg.Source = src
		if cfg.Procs == 0 {
			cfg.Procs = info.Procs
		}
	} else if len(gen) > 0 {
		return cfg, fmt.Errorf("generator parameters without workload.generator.model")
	}
	return cfg, nil
}

// traceEstimates sets the modelled user estimates of a trace cell
// (workload.user_estimates, max_estimate, est_bins). The runner draws them
// from the cell seed on a stream of their own (runner.EstimatesStream), so
// they perturb nothing else. A cell with user_estimates none (an axis
// point) ignores max_estimate and est_bins.
func traceEstimates(cfg *runner.Config, userEst, estBins, model string) error {
	if userEst == "" || userEst == runner.UserEstimatesNone {
		cfg.MaxEstimate = 0
		return nil
	}
	if model != "" {
		return fmt.Errorf("workload.user_estimates applies to trace workloads only; the generator draws its own estimates (workload.generator.estimates)")
	}
	bins, err := tsafrir05.ParseUserPercents(estBins)
	if err != nil {
		return fmt.Errorf("workload.est_bins %q: %s", estBins, strings.ReplaceAll(err.Error(), "\n", "; "))
	}
	cfg.UserEstimates, cfg.EstBins = userEst, bins
	return nil
}

// familyModel returns the cell's generator model when its cells run on a
// platform of their family's own (runner.OwnsPlatform: seed 001's cloud,
// seed 002's grid, seed 004's projects).
func familyModel(c runner.Cell) (string, bool) {
	v, _ := c.Lookup("workload.generator.model")
	model, _ := v.(string)
	return model, model != "" && runner.OwnsPlatform(model)
}

// ModelConfig turns a cell whose model brings its own platform (seed 001's
// cloud, seed 002's grid, seed 004's projects) into a runner.ModelCell. Only workload.generator.* and scheduler.* parameters
// are accepted.
func ModelConfig(c runner.Cell) (runner.ModelCell, error) {
	model, ok := familyModel(c)
	if !ok {
		return runner.ModelCell{}, fmt.Errorf("the cell's workload model does not bring its own platform (workload.generator.model = %q)", model)
	}
	cfg := runner.ModelCell{Model: model, Scheduler: c.Scheduler, Seed: c.Seed, KeepJobs: c.KeepJobs}
	var err error
	cfg.Params, cfg.SchedulerParams, err = ownPlatformParams(c, model)
	return cfg, err
}

// ownPlatformParams splits the parameters of a cell whose model brings its
// own platform into the generator's (workload.generator.*, the model name
// left out) and the scheduler's (scheduler.*, nil when none); any other
// parameter is an error.
func ownPlatformParams(c runner.Cell, model string) (gen, sched map[string]any, err error) {
	gen = map[string]any{}
	var unknown []string
	for _, p := range c.Params {
		switch {
		case p.Name == "workload.generator.model":
		case strings.HasPrefix(p.Name, "workload.generator."):
			gen[strings.TrimPrefix(p.Name, "workload.generator.")] = p.Value
		case strings.HasPrefix(p.Name, "scheduler."):
			if sched == nil {
				sched = map[string]any{}
			}
			sched[strings.TrimPrefix(p.Name, "scheduler.")] = p.Value
		default:
			unknown = append(unknown, p.Name)
		}
	}
	if len(unknown) > 0 {
		return nil, nil, fmt.Errorf("parameters %s do not apply to model %q (accepted: workload.generator.*, scheduler.*)", strings.Join(unknown, ", "), model)
	}
	return gen, sched, nil
}

// setFamilyField hands a family's workload field to the run as it is
// (runner.Config.FamilyFields): the family reads and checks it. It reports
// whether the value has the field's kind.
func setFamilyField(cfg *runner.Config, p runner.Param) bool {
	fd, _ := families.WorkloadField(p.Name)
	if kindOf(p.Value) != fd.Kind {
		return false
	}
	if cfg.FamilyFields == nil {
		cfg.FamilyFields = map[string]any{}
	}
	cfg.FamilyFields[p.Name] = p.Value
	return true
}

func setInt(dst *int, v any) bool {
	n, ok := v.(int64)
	*dst = int(n)
	return ok
}

func setString(dst *string, v any) bool {
	s, ok := v.(string)
	*dst = s
	return ok
}

// generatorStream is the second PCG word of the generator's random source.
const generatorStream = runner.GeneratorStream

// RunCell simulates cell c and returns its result.
//
// A nil error means the result is final and should be recorded: Status is
// runner.StatusOK with the metrics, or runner.StatusFailed with the error text when the
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
func RunCell(ctx context.Context, c runner.Cell) (runner.CellResult, error) {
	res := runner.CellResult{CellID: c.ID, GoVersion: buildinfo.GoVersion(), Commit: buildinfo.Commit()}
	if err := ctx.Err(); err != nil {
		return res, err
	}
	type outcome struct {
		metrics []family.Metric
		jobs    []*sim.Job
		gamma   float64
		err     error
	}
	var simulate func() outcome
	if _, ok := familyModel(c); ok && c.Plugin == nil {
		cfg, err := ModelConfig(c)
		if err != nil {
			res.Status, res.Error = runner.StatusFailed, err.Error()
			return res, nil
		}
		simulate = func() outcome {
			out, err := runner.RunModel(cfg)
			if err != nil {
				return outcome{err: err}
			}
			return outcome{metrics: out.Metrics, jobs: out.Jobs, gamma: out.Gamma}
		}
	} else {
		cfg, err := Config(c)
		if err != nil {
			res.Status, res.Error = runner.StatusFailed, err.Error()
			return res, nil
		}
		closePlugin := func() {}
		if c.Plugin != nil {
			if cfg, closePlugin, err = withPlugin(c, cfg); err != nil {
				res.Status, res.Error = runner.StatusFailed, err.Error()
				return res, nil
			}
		}
		simulate = func() outcome {
			defer closePlugin()
			out, err := runner.Run(cfg)
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
		}
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
		res.Status, res.Error = runner.StatusFailed, o.err.Error()
		return res, nil
	}
	res.Status = runner.StatusOK
	for _, m := range o.metrics {
		res.Metrics = append(res.Metrics, family.Metric{Name: m.Name, Value: m.Value})
	}
	if c.KeepJobs {
		res.Jobs = jobRecords(o.jobs, o.gamma)
	}
	return res, nil
}

// jobRecords converts the simulated jobs to JobRecords.
func jobRecords(jobs []*sim.Job, gamma float64) []runner.JobRecord {
	if gamma <= 0 {
		gamma = sim.DefaultGamma
	}
	recs := make([]runner.JobRecord, len(jobs))
	for i, j := range jobs {
		r := runner.JobRecord{ID: j.ID, Submit: float64(j.Submit), Start: -1, End: -1, Procs: int64(j.Procs()),
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
