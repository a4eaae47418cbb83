package cloud

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/schedfarm/schedfarm/workload/seed001"
)

// Table 2 (§4.3) as printed: 10,000 jobs, CPLMT the fewest unfinished
// (2,904), its SIN 8.1211e5.
const (
	Table2Jobs            = 10000
	Table2CPLMTUnfinished = 2904
	Table2CPLMTSIN        = 8.1211e5
)

// Table2CapacityRow is the capacity arithmetic of Table 2 under one
// reading of the tasks (copied, split, independent) and of the deadline
// (units, relative), on one draw of the methodological cloud (120 nodes of
// speed 24 or 48, 10,000 jobs at 40 a day). Work is in instruction units:
// a node of speed s executes s of them a day, whichever job it serves, so
// no placement can do more than Capacity. Input transfers are left out
// (seconds; they only add to the need).
type Table2CapacityRow struct {
	// Tasks and Deadline name the readings (model parameters tasks and
	// deadline).
	Tasks, Deadline string
	// Jobs is the number drawn; Finished is how many CPLMT finished in
	// Table 2 (Jobs − 2,904).
	Jobs, Finished int
	// Feasible counts the jobs that one node per task — CPLMT's
	// placement (Algorithm 3) — can end by their deadline at all: each
	// task's time on the fastest node is within the deadline.
	Feasible int
	// Horizon is the last moment a job may end (its submit + deadline),
	// from 0, in days; Capacity is Σ node speed × Horizon.
	Horizon, Capacity float64
	// NeedMin is the work of the Finished cheapest feasible jobs (Σ of
	// their tasks' instructions): what any schedule that finishes that
	// many must execute at least. NeedMean is Finished × the mean work of
	// a drawn job.
	NeedMin, NeedMean float64
	// CanServe is set when the paper's finished jobs fit both bounds:
	// Feasible ≥ Finished and NeedMin ≤ Capacity.
	CanServe bool
}

// String gives the row's arithmetic on one line.
func (r Table2CapacityRow) String() string {
	verdict := "can serve Table 2's finished jobs"
	switch {
	case r.Feasible < r.Finished:
		verdict = fmt.Sprintf("cannot: only %d jobs can meet their deadline on any nodes, Table 2 finishes %d", r.Feasible, r.Finished)
	case !r.CanServe:
		verdict = fmt.Sprintf("cannot: the %d cheapest feasible jobs need %.2f× the capacity", r.Finished, r.NeedMin/r.Capacity)
	}
	return fmt.Sprintf("tasks %-11s deadline %-8s: %d of %d jobs feasible; capacity Σspeed %.0f × horizon %.1f d = %.4g; need ≥ %.4g (cheapest %d), ≈ %.4g (mean) → %.0f%% of capacity at least: %s",
		r.Tasks, r.Deadline, r.Feasible, r.Jobs, r.Capacity/r.Horizon, r.Horizon, r.Capacity, r.NeedMin, r.Finished, r.NeedMean,
		100*r.NeedMin/r.Capacity, verdict)
}

// Table2Capacity computes, for every reading of the tasks (copied, split,
// independent) and of the deadline (units, relative), whether any
// scheduler could finish Table 2's CPLMT count of jobs (7,096 of 10,000)
// with the methodological cloud's 120 nodes over its horizon, on the draw
// of seed. Issue 21 item 11; the arithmetic is in doc.go ("Table 2's
// capacity").
func Table2Capacity(seed uint64) ([]Table2CapacityRow, error) {
	var rows []Table2CapacityRow
	for _, tasks := range seed001.TasksReadings() {
		for _, deadline := range []string{DeadlineUnits, DeadlineRelative} {
			v, err := WorkloadModel().Decode(map[string]any{"variant": seed001.Methodological, "jobs": Table2Jobs, "rate": 40, "tasks": tasks, "deadline": deadline})
			if err != nil {
				return nil, err
			}
			w, err := Seed001Workload(v, rand.New(rand.NewPCG(seed, 0x7ab1e2)))
			if err != nil {
				return nil, err
			}
			rows = append(rows, capacityRow(w, tasks, deadline, Table2Jobs-Table2CPLMTUnfinished))
		}
	}
	return rows, nil
}

// capacityRow does the arithmetic of Table2CapacityRow for w and a
// number of finished jobs.
func capacityRow(w *Workload, tasks, deadline string, finished int) Table2CapacityRow {
	r := Table2CapacityRow{Tasks: tasks, Deadline: deadline, Jobs: len(w.Jobs), Finished: finished}
	speed := 0.0
	for _, v := range w.VMs {
		speed += v.Speed
	}
	var feasible []float64
	total := 0.0
	for i := range w.Jobs {
		j := &w.Jobs[i]
		r.Horizon = math.Max(r.Horizon, j.Submit+j.Deadline)
		work := 0.0
		for _, t := range j.Tasks {
			work += t.Instructions
		}
		total += work
		if w.BestTime(j) <= j.Deadline*(1+1e-12) {
			feasible = append(feasible, work)
		}
	}
	r.Capacity = speed * r.Horizon
	r.Feasible = len(feasible)
	slices.Sort(feasible)
	for _, x := range feasible[:min(finished, len(feasible))] {
		r.NeedMin += x
	}
	if r.Jobs > 0 {
		r.NeedMean = float64(finished) * total / float64(r.Jobs)
	}
	r.CanServe = r.Feasible >= finished && r.NeedMin <= r.Capacity
	return r
}
