package twotier

import (
	"math"
	"sort"

	"github.com/schedfarm/schedfarm/sim"
)

// ProjectResult holds one project's times (§3.1, Definitions 1–5).
type ProjectResult struct {
	ID       int64
	Priority float64
	Jobs     int
	// Arrival ta_u: the earliest submit time of its jobs.
	Arrival float64
	// Start tc_u: the first job start (eq. 1).
	Start float64
	// Departure td_u: the last job finish (eq. 2).
	Departure float64
	// Waiting tc_u − ta_u (eq. 3; the thesis prints ta − tc, a sign slip).
	Waiting float64
	// Running td_u − tc_u (eq. 4).
	Running float64
	// TurnAround td_u − ta_u (eq. 5).
	TurnAround float64
	// JobTurnAround is the mean of tf_{u,v} − ta_u over its jobs (the inner
	// sum of eq. 8).
	JobTurnAround float64
}

// Metrics are the project-level aggregates of Chapter 5.
type Metrics struct {
	// Projects counts the projects with at least one job that ran; jobs
	// that were rejected are left out of every figure (Rejected counts
	// them).
	Projects int
	Rejected int
	// PTA is the mean project turn-around time (eq. 6).
	PTA float64
	// JTA is the mean job turn-around time (eq. 8): per project the mean of
	// tf − ta over its jobs, averaged over projects.
	JTA float64
	// Waiting and Running are the mean project waiting and running times.
	Waiting, Running float64
	// HighPTA and LowPTA split PTA by priority class (HighPriority); NaN
	// when a class is empty. High and Low count the projects of each class.
	HighPTA, LowPTA float64
	High, Low       int
	// PerProject lists every project by ID.
	PerProject []ProjectResult
}

// ProjectMetrics computes the project metrics of jobs that have all ended.
// Jobs with Project 0 count as projects of their own (keyed by their
// negated ID).
func ProjectMetrics(jobs []*sim.Job) Metrics {
	type acc struct {
		r   ProjectResult
		tfs float64
	}
	idx := map[int64]int{}
	var ps []acc
	m := Metrics{}
	for _, j := range jobs {
		if j.State() == sim.Rejected || !j.State().Final() {
			m.Rejected++
			continue
		}
		id := j.Project
		if id == 0 {
			id = -j.ID
		}
		i, ok := idx[id]
		if !ok {
			i = len(ps)
			idx[id] = i
			ps = append(ps, acc{r: ProjectResult{ID: id, Priority: j.Priority, Arrival: j.Submit, Start: math.Inf(1), Departure: math.Inf(-1)}})
		}
		a := &ps[i]
		a.r.Jobs++
		a.r.Arrival = math.Min(a.r.Arrival, j.Submit)
		a.r.Start = math.Min(a.r.Start, j.Start())
		a.r.Departure = math.Max(a.r.Departure, j.End())
		a.tfs += j.End()
	}
	sort.Slice(ps, func(a, b int) bool { return ps[a].r.ID < ps[b].r.ID })
	var high, low float64
	for i := range ps {
		r := &ps[i].r
		r.Waiting = r.Start - r.Arrival
		r.Running = r.Departure - r.Start
		r.TurnAround = r.Departure - r.Arrival
		r.JobTurnAround = ps[i].tfs/float64(r.Jobs) - r.Arrival
		m.PTA += r.TurnAround
		m.JTA += r.JobTurnAround
		m.Waiting += r.Waiting
		m.Running += r.Running
		if HighPriority(r.Priority) {
			high += r.TurnAround
			m.High++
		} else {
			low += r.TurnAround
			m.Low++
		}
		m.PerProject = append(m.PerProject, *r)
	}
	m.Projects = len(ps)
	m.HighPTA, m.LowPTA = math.NaN(), math.NaN()
	if n := float64(m.Projects); n > 0 {
		m.PTA /= n
		m.JTA /= n
		m.Waiting /= n
		m.Running /= n
	}
	if m.High > 0 {
		m.HighPTA = high / float64(m.High)
	}
	if m.Low > 0 {
		m.LowPTA = low / float64(m.Low)
	}
	return m
}
