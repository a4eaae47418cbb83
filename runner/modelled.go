package runner

import (
	"fmt"

	"github.com/schedfarm/schedfarm/workload"
	"github.com/schedfarm/schedfarm/workload/models"
	"github.com/schedfarm/schedfarm/workload/tsafrir05"
)

// User-estimate models for Config.UserEstimates.
const (
	UserEstimatesNone    = "none"
	UserEstimatesTsafrir = models.EstimateModel // "tsafrir05"
)

// EstimatesStream is the second PCG word of the random source of modelled
// estimates: a run with UserEstimates draws them from PCG(Config.Seed,
// EstimatesStream), a stream of its own that no other use of the seed
// shares.
const EstimatesStream = 0xbb67ae8584caa73b

// ModelledEstimates describes the user estimates a run drew for its jobs
// (Config.UserEstimates).
type ModelledEstimates struct {
	// Model is the estimate model, "" when the run drew none.
	Model string
	// Jobs is N, the number of jobs that got an estimate: every job the run
	// simulates (submit time, runtime and processor count known).
	Jobs int
	// MaxEstimate is the Tmax used (the automatic choice when
	// Config.MaxEstimate is 0).
	MaxEstimate int
	// Capped counts the runtimes cut to MaxEstimate.
	Capped int
	// AtMax counts the jobs whose estimate is MaxEstimate.
	AtMax int
}

// modelledEstimates reports whether the run draws user estimates.
func (c Config) modelledEstimates() bool {
	return c.UserEstimates != "" && c.UserEstimates != UserEstimatesNone
}

// checkUserEstimates reports an unknown model, settings without a model and
// a model with estimate semantics other than user.
func (c Config) checkUserEstimates() error {
	if !c.modelledEstimates() {
		if c.MaxEstimate != 0 || len(c.EstBins) > 0 {
			return fmt.Errorf("max_estimate %d, est_bins %q without user_estimates; accepted: user_estimates %s, or neither", c.MaxEstimate, tsafrir05.FormatUserPercents(c.EstBins), UserEstimatesTsafrir)
		}
		return nil
	}
	if err := models.CheckEstimateModel(c.UserEstimates); err != nil {
		return fmt.Errorf("user_estimates: %w (or %s)", err, UserEstimatesNone)
	}
	if c.Estimates != EstimatesUser {
		return fmt.Errorf("user_estimates %s with estimates %q: the modelled estimates are requested times, which only estimates %s reads; accepted: estimates %s", c.UserEstimates, c.Estimates, EstimatesUser, EstimatesUser)
	}
	if c.MaxEstimate != 0 && c.MaxEstimate <= tsafrir05.MinMaxEstimate {
		return fmt.Errorf("max_estimate %d; accepted: 0 (automatic) or an integer > %d (seconds)", c.MaxEstimate, tsafrir05.MinMaxEstimate)
	}
	return nil
}

// simulated reports whether the user and exact conversions keep r: its
// submit time, runtime and processor count are known (converter.convert).
func simulated(r *workload.Job) bool {
	return r.Submit >= 0 && r.RunTime >= 0 && r.Procs() > 0
}

// assignEstimates draws the modelled estimates of the jobs the run will
// simulate and writes them into field 9 of records (the run's own copy),
// capping the runtimes above Tmax as the model does. It allocates the
// runtimes and the estimates, one float64 each per job, plus the model's
// working arrays (tsafrir05.Assign).
func assignEstimates(cfg Config, records []workload.Job) (ModelledEstimates, error) {
	n := 0
	for i := range records {
		if simulated(&records[i]) {
			n++
		}
	}
	if n <= tsafrir05.MinJobs {
		return ModelledEstimates{}, fmt.Errorf("user_estimates %s: %d jobs to simulate (submit time, runtime and processors known); the model needs more than %d",
			cfg.UserEstimates, n, tsafrir05.MinJobs)
	}
	runtimes := make([]float64, 0, n)
	for i := range records {
		if simulated(&records[i]) {
			runtimes = append(runtimes, records[i].RunTime)
		}
	}
	e, err := models.AssignEstimates(runtimes, models.EstimateOptions{MaxEstimate: cfg.MaxEstimate, Bins: cfg.EstBins},
		[2]uint64{cfg.Seed, EstimatesStream})
	if err != nil {
		return ModelledEstimates{}, fmt.Errorf("user_estimates: %w", err)
	}
	out := ModelledEstimates{Model: cfg.UserEstimates, Jobs: n, MaxEstimate: e.MaxEstimate, Capped: e.Capped}
	tmax := float64(e.MaxEstimate)
	k := 0
	for i := range records {
		r := &records[i]
		if !simulated(r) {
			continue
		}
		r.RunTime, r.ReqTime = runtimes[k], e.Values[k]
		if r.ReqTime == tmax {
			out.AtMax++
		}
		k++
	}
	return out, nil
}
