package cpuusage

import (
	"errors"
	"fmt"
	"math/rand/v2"
)

// Estimate modes: what the scheduler is told.
const (
	Exact = "exact" // the actual usage
	Noisy = "noisy" // actual·(1+ε), ε uniform in [−Error, Error], clipped to [MinUsage, 1]
	None  = "none"  // no information (§3.5.1): Usage.Estimated is nil
)

// MinUsage is the smallest usage an estimate is clipped to.
const MinUsage = 0.01

// Params configure the model. Start from Default.
type Params struct {
	Low, High float64 // per-process usage range of multi-process jobs
	Estimate  string  // Exact, Noisy or None
	Error     float64 // relative error bound for Noisy, in [0, 1]
}

// Default returns seed 000's rule: [0.4, 1.0], exact estimates.
func Default() Params { return Params{Low: 0.4, High: 1, Estimate: Exact} }

// WithMean returns p with the usage range moved to mean m (in (0, 1]): the
// range [2m−1, 1] when m ≥ 0.5 (the paper's range keeps 100% as its top),
// else [0, 2m]. WithMean(1) makes every process use 100% (§3.5.2).
func (p Params) WithMean(m float64) Params {
	if m >= 0.5 {
		p.Low, p.High = 2*m-1, 1
	} else {
		p.Low, p.High = 0, 2*m
	}
	return p
}

// Mean is the mean usage of a process of a multi-process job.
func (p Params) Mean() float64 { return (p.Low + p.High) / 2 }

// Validate reports every invalid field.
func (p Params) Validate() error {
	var errs []error
	if !(p.Low >= 0 && p.Low <= p.High && p.High <= 1) {
		errs = append(errs, fmt.Errorf("cpuusage: Low/High = %g/%g, want 0 ≤ Low ≤ High ≤ 1", p.Low, p.High))
	}
	if p.Estimate != Exact && p.Estimate != Noisy && p.Estimate != None {
		errs = append(errs, fmt.Errorf("cpuusage: Estimate = %q, want %s, %s or %s", p.Estimate, Exact, Noisy, None))
	}
	if !(p.Error >= 0 && p.Error <= 1) {
		errs = append(errs, fmt.Errorf("cpuusage: Error = %g, want in [0, 1]", p.Error))
	}
	return errors.Join(errs...)
}

// Usage is the CPU usage of a job's processes.
type Usage struct {
	Actual    []float64 // per process, in (0, 1]
	Estimated []float64 // what the scheduler sees; nil when Estimate is None
}

// Draw returns the usage of a job with procs processes (procs ≥ 1). For
// procs = 1 it draws nothing from rng.
func (p Params) Draw(procs int, rng *rand.Rand) Usage {
	u := Usage{Actual: make([]float64, procs)}
	if p.Estimate != None {
		u.Estimated = make([]float64, procs)
	}
	p.Fill(u.Actual, u.Estimated, rng)
	return u
}

// Fill draws the usage of a job with len(actual) processes into actual and
// its estimate into estimated (same length; ignored, and may be nil, when
// Estimate is None), consuming rng exactly as Draw does. Callers drawing
// for many jobs carve both from one array.
func (p Params) Fill(actual, estimated []float64, rng *rand.Rand) {
	procs := len(actual)
	for i := range actual {
		if procs == 1 {
			actual[i] = 1
		} else {
			// At least MinUsage: a process always uses some CPU. The
			// built-in max, inlined, is math.Max's value (NaN and
			// signed zeros alike), without a call per process.
			actual[i] = max(MinUsage, p.Low+rng.Float64()*(p.High-p.Low))
		}
	}
	switch p.Estimate {
	case Exact:
		copy(estimated, actual)
	case Noisy:
		for i, a := range actual {
			e := a * (1 + (2*rng.Float64()-1)*p.Error)
			estimated[i] = min(1, max(MinUsage, e))
		}
	}
}
