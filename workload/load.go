package workload

import (
	"fmt"
	"math"
)

// Offered load
//
// The offered load of a workload on P processors is the work it brings per
// unit of capacity: Σ RunTime·Procs / (P · span), where span = last submit −
// first submit. Jobs whose runtime or processor count is unknown contribute
// no work (but their submit times still bound the span). Multiplying every
// interarrival time by a factor c multiplies the span by c and so divides the
// offered load by c exactly.

// LoadMeter accumulates the offered load of a stream of jobs. The zero value
// is ready to use.
type LoadMeter struct {
	n           int64
	first, last float64
	work        float64
}

// Add records one job.
func (m *LoadMeter) Add(j *Job) {
	if j.Submit < 0 {
		return
	}
	if m.n == 0 || j.Submit < m.first {
		m.first = j.Submit
	}
	if m.n == 0 || j.Submit > m.last {
		m.last = j.Submit
	}
	m.n++
	if p := j.Procs(); p > 0 && j.RunTime > 0 {
		m.work += j.RunTime * float64(p)
	}
}

// Jobs is the number of jobs recorded.
func (m *LoadMeter) Jobs() int64 { return m.n }

// Work is Σ RunTime·Procs in processor-seconds.
func (m *LoadMeter) Work() float64 { return m.work }

// Span is last submit − first submit, in seconds.
func (m *LoadMeter) Span() float64 { return m.last - m.first }

// Load is the offered load on procs processors; 0 when fewer than two
// distinct submit times were seen or procs < 1.
func (m *LoadMeter) Load(procs int) float64 {
	if procs < 1 || m.Span() <= 0 {
		return 0
	}
	return m.work / (float64(procs) * m.Span())
}

// OfferedLoad returns the offered load of jobs on procs processors (see
// LoadMeter).
func OfferedLoad(jobs []Job, procs int) float64 {
	var m LoadMeter
	for i := range jobs {
		m.Add(&jobs[i])
	}
	return m.Load(procs)
}

// LoadFactor returns the interarrival factor that brings jobs to the target
// offered load on procs processors, and the load achieved by applying it with
// ScaleInterarrivals (equal to target up to rounding). A factor above 1
// stretches the workload (lower load). It fails when the workload has no
// work or no span, or target is not positive.
func LoadFactor(jobs []Job, procs int, target float64) (factor, achieved float64, err error) {
	var m LoadMeter
	for i := range jobs {
		m.Add(&jobs[i])
	}
	return m.Factor(procs, target)
}

// Factor is LoadFactor for the jobs recorded so far.
func (m *LoadMeter) Factor(procs int, target float64) (factor, achieved float64, err error) {
	if !(target > 0) || math.IsInf(target, 0) {
		return 0, 0, fmt.Errorf("workload: target load %g, want a finite value > 0", target)
	}
	if procs < 1 {
		return 0, 0, fmt.Errorf("workload: procs %d, want ≥ 1", procs)
	}
	cur := m.Load(procs)
	if cur <= 0 {
		return 0, 0, fmt.Errorf("workload: cannot scale a workload with no work or a zero span (%d jobs)", m.n)
	}
	factor = cur / target
	span := (m.first + factor*(m.last-m.first)) - m.first
	achieved = m.work / (float64(procs) * span)
	return factor, achieved, nil
}

// ScaleInterarrivals wraps src so that every interarrival time is
// multiplied by factor (> 0): a job submitted at s is resubmitted at
// first + factor·(s − first), first being the first job's submit time. Think
// times (field 18) are left alone. It streams: nothing is buffered.
func ScaleInterarrivals(src Source, factor float64) Source {
	return &scaled{src: src, factor: factor, first: math.NaN()}
}

// ScaleSubmits is ScaleInterarrivals for a slice, in place: every job
// submitted at s (≥ 0) is moved to first + factor·(s − first), with the same
// arithmetic, so both give bit-identical times. It fails, changing nothing,
// when factor is not finite and > 0 and jobs is not empty.
func ScaleSubmits(jobs []Job, factor float64) error {
	if len(jobs) == 0 {
		return nil
	}
	if !(factor > 0) || math.IsInf(factor, 0) {
		return fmt.Errorf("workload: interarrival factor %g, want a finite value > 0", factor)
	}
	first := math.NaN()
	for i := range jobs {
		j := &jobs[i]
		if j.Submit >= 0 {
			if math.IsNaN(first) {
				first = j.Submit
			}
			j.Submit = first + factor*(j.Submit-first)
		}
	}
	return nil
}

type scaled struct {
	src    Source
	factor float64
	first  float64
}

func (s *scaled) Next() (Job, error) {
	j, err := s.src.Next()
	if err != nil {
		return j, err
	}
	if !(s.factor > 0) || math.IsInf(s.factor, 0) {
		return j, fmt.Errorf("workload: interarrival factor %g, want a finite value > 0", s.factor)
	}
	if j.Submit >= 0 {
		if math.IsNaN(s.first) {
			s.first = j.Submit
		}
		j.Submit = s.first + s.factor*(j.Submit-s.first)
	}
	return j, nil
}
