package stms

import (
	"math"
	"slices"

	"github.com/schedfarm/schedfarm/sim"
)

// Metric is one named number of a run.
type Metric struct {
	Name  string
	Value float64
}

// Baseline is what eq. 12 compares a scheme with: STMS's average
// utilisation v_s and cost overhead c_s on the same workload and failures.
type Baseline struct {
	Utilization, CostOverhead float64
}

// Metrics computes §5's metrics of a finished run of s over jobs (every job
// ended), in the order of MetricNames; base is STMS's run of the same cell
// for eq. 12 (nil: the scheme is STMS itself, or no baseline, and
// cost_effectiveness is 0):
//
//	jobs, finished          counts
//	makespan                last end − first submit, seconds
//	throughput              finished jobs per hour of makespan
//	utilization             resource busy time (wasted runs included) / (resources × makespan)
//	jfr                     share of finished jobs ending after their deadline
//	ijf                     1 − the standard deviation of the per-batch JFR (eq. 9; batches are the dispatch groups: each mGA batch and each Min-Min window, GBS's backfilled jobs in the batch mapped last before them)
//	cost_overhead           eq. 11: Σ_k RA_k · F_c(t_c^k) / m over the m resources used, F_c(t) = √(t / 1 h), t_c^k their last completion − first submit, RA in flops/s
//	cost_effectiveness      eq. 12: (v_i · c_s / c_i − v_s) · 100, percentage points of utilisation per STMS-equivalent cost
//	cost_effectiveness_rel  eq. 12 relative to STMS's utilisation, (v_i · c_s / (c_i · v_s) − 1) · 100 = cost_effectiveness / v_s: the
//	                        percent improvement in utilisation per unit cost over STMS's ("normalized by STMS's", §5.4), free of the
//	                        level of utilisation (eq. 12 as printed scales with v_s, whose level depends on the dispatch reading)
//	offered_load            Σ actual work / (Σ resource speed × (last submit − first submit))
//	drain_time              last end − last submit, seconds: about a cycle below saturation, growing with the jobs above it
//	failures, migrations, restarts, preemptions, backfilled
//	void_fills              IRS-ruled jobs IR-STMS started early in a void (irs_fill voids)
//	fallbacks               migrations with no backup left in the job's chain
//	batches, windows, cycles, condition1
//	plan_gain               mean relative reduction of the planned batch makespan by the mGA against its Min-Min template
//	transfer_mean           mean migration delay per migration, seconds
//	wait_{mean,median,p95,max}      first start − submit
//	response_{mean,median,p95,max}  end − submit
func (s *Scheduler) Metrics(jobs []*sim.Job, base *Baseline) []Metric {
	var first, last float64 = math.Inf(1), math.Inf(-1)
	lastSubmit, work := math.Inf(-1), 0.0
	var wait, resp []float64
	finished, late := 0, 0
	type grp struct{ n, late int }
	groups := make([]grp, s.groups+1)
	for _, j := range jobs {
		first = math.Min(first, j.Submit)
		lastSubmit = math.Max(lastSubmit, j.Submit)
		work += j.Work()
		if j.State() != sim.Finished {
			continue
		}
		js := s.state(j)
		finished++
		last = math.Max(last, j.End())
		wait = append(wait, js.firstStart-j.Submit)
		resp = append(resp, j.End()-j.Submit)
		l := j.End() > js.a.Deadline
		if l {
			late++
		}
		groups[js.group].n++
		if l {
			groups[js.group].late++
		}
	}
	ms, drain := 0.0, 0.0
	if finished > 0 {
		ms, drain = last-first, last-lastSubmit
	}
	busy := 0.0
	cost, used := 0.0, 0
	for r := range s.rs {
		busy += s.rs[r].busy
		if s.rs[r].used {
			used++
			cost += s.res[r].Speed * math.Sqrt(math.Max(s.rs[r].lastEnd-first, 0)/3600)
		}
	}
	speed := 0.0
	for _, r := range s.res {
		speed += r.Speed
	}
	var fr []float64
	for _, g := range groups {
		if g.n > 0 {
			fr = append(fr, float64(g.late)/float64(g.n))
		}
	}
	div := func(a, b float64) float64 {
		if b == 0 {
			return 0
		}
		return a / b
	}
	cnt := s.cnt
	util, costOver := div(busy, float64(len(s.rs))*ms), div(cost, float64(used))
	ce, ceRel := costEffectiveness(util, costOver, base)
	ms2 := []Metric{
		{"jobs", float64(len(jobs))},
		{"finished", float64(finished)},
		{"makespan", ms},
		{"throughput", div(float64(finished), ms/3600)},
		{"utilization", util},
		{"jfr", div(float64(late), float64(finished))},
		{"ijf", 1 - stddev(fr)},
		{"cost_overhead", costOver},
		{"cost_effectiveness", ce},
		{"cost_effectiveness_rel", ceRel},
		{"offered_load", div(work, speed*(lastSubmit-first))},
		{"drain_time", drain},
		{"failures", float64(cnt.Failures)},
		{"migrations", float64(cnt.Migrations)},
		{"restarts", float64(cnt.Restarts)},
		{"preemptions", float64(cnt.Preemptions)},
		{"backfilled", float64(cnt.Backfilled)},
		{"void_fills", float64(cnt.VoidFills)},
		{"fallbacks", float64(cnt.Fallbacks)},
		{"batches", float64(cnt.Batches)},
		{"windows", float64(cnt.Windows)},
		{"cycles", float64(cnt.Cycles)},
		{"condition1", float64(cnt.Condition1)},
		{"plan_gain", div(cnt.PlanGain, float64(cnt.Batches))},
		{"transfer_mean", div(cnt.TransferTime, float64(cnt.Migrations))},
	}
	for _, d := range []struct {
		name string
		v    []float64
	}{{"wait", wait}, {"response", resp}} {
		mean, med, p95, mx := dist(d.v)
		ms2 = append(ms2, Metric{d.name + "_mean", mean}, Metric{d.name + "_median", med},
			Metric{d.name + "_p95", p95}, Metric{d.name + "_max", mx})
	}
	return ms2
}

// costEffectiveness is eq. 12 of a scheme with utilisation util and cost
// overhead cost against STMS's base (0, 0 without a base): abs = (v_i ·
// c_s / c_i − v_s) · 100 as printed, rel = (v_i · c_s / (c_i · v_s) − 1) ·
// 100, the same divided by v_s.
func costEffectiveness(util, cost float64, base *Baseline) (abs, rel float64) {
	if base == nil || !(cost > 0) {
		return 0, 0
	}
	abs = (util*base.CostOverhead/cost - base.Utilization) * 100
	if base.Utilization > 0 {
		rel = abs / base.Utilization
	}
	return abs, rel
}

// MetricNames lists the names Metrics uses, in order.
func MetricNames() []string {
	s := &Scheduler{}
	var names []string
	for _, m := range s.Metrics(nil, nil) {
		names = append(names, m.Name)
	}
	return names
}

// dist returns the mean, median, 95th percentile (nearest rank) and max.
func dist(v []float64) (mean, med, p95, mx float64) {
	if len(v) == 0 {
		return
	}
	x := slices.Clone(v)
	slices.Sort(x)
	for _, e := range x {
		mean += e
	}
	mean /= float64(len(x))
	rank := func(q float64) float64 {
		i := int(math.Ceil(q*float64(len(x)))) - 1
		return x[max(i, 0)]
	}
	return mean, rank(0.5), rank(0.95), x[len(x)-1]
}
