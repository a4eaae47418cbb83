package tune

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/schedfarm/schedfarm/param"
	"github.com/schedfarm/schedfarm/results"
)

// Column names of the evaluations table besides the parameters (p_<name>,
// as in the per-cell file) and metrics (m_<metric>_mean, m_<metric>_ci).
const (
	ColGeneration  = "generation"
	ColIndex       = "index"
	ColPhase       = "phase" // "search", "confirm" or "baseline" (the base as written, with the confirmation's seeds; its p_ columns hold the base's values); generation is null for confirm and baseline
	ColCached      = "cached"
	ColObjective   = "objective"
	ColObjectiveCI = "objective_ci"
	ColSecond      = "second"
	ColSecondCI    = "second_ci"
	ColFeasible    = "feasible"
	ColFitness     = "fitness"
	ColCells       = "cells"
	ColFailed      = "failed"
	ColFront       = "front" // on the Pareto front

	// A racing tune's (Spec.Race) columns: the replications each
	// evaluation got and, for a genome a race eliminated, the generation
	// of that race, its round (1: the first), the test (RaceTest) and its
	// one-sided p-value before Holm's correction; null when never
	// eliminated.
	ColReplications         = "replications"
	ColEliminatedGeneration = "eliminated_generation"
	ColEliminatedRound      = "eliminated_round"
	ColEliminatedBy         = "eliminated_by"
	ColEliminatedP          = "eliminated_p"

	// A racing tune with an indifference zone (Race.Indifference): for a
	// genome its last race stopped as equivalent to the round's best, the
	// generation of that race, its round and the TOST p-value before
	// Holm's correction; null otherwise.
	ColEquivalentGeneration = "equivalent_generation"
	ColEquivalentRound      = "equivalent_round"
	ColEquivalentP          = "equivalent_p"
)

// MetaKind marks an evaluations table in its Parquet metadata.
const MetaKind = "schedfarm.kind"

// WriteEvals writes the evaluations table of a search (and its
// confirmation) to spec.EvalsOutput.
func WriteEvals(spec *Spec, res *Result) error {
	t := results.Table{Meta: map[string]string{
		MetaKind:              "tune",
		"schedfarm.tune":      spec.Name,
		"schedfarm.objective": spec.Objective.Metric + " " + goal(spec.Objective) + " " + spec.Objective.Points,
	}}
	if rc := spec.Race; rc != nil {
		t.Meta["schedfarm.race"] = rc.String()
	}
	if spec.Second != nil {
		t.Meta["schedfarm.second"] = spec.Second.Metric + " " + goal(*spec.Second) + " " + spec.Second.Points
	}
	add := func(name, kind string) { t.Columns = append(t.Columns, results.TableColumn{Name: name, Kind: kind}) }
	add(ColGeneration, param.Int.String())
	add(ColIndex, param.Int.String())
	add(ColPhase, param.String.String())
	add(ColCached, param.Bool.String())
	for _, p := range spec.Params {
		add(results.ParamColumn(p.Name), paramKind(p))
	}
	add(ColObjective, param.Float.String())
	add(ColObjectiveCI, param.Float.String())
	if spec.Second != nil {
		add(ColSecond, param.Float.String())
		add(ColSecondCI, param.Float.String())
		add(ColFront, param.Bool.String())
	}
	for _, c := range spec.Constraints {
		add(constraintColumn(c), param.Float.String())
	}
	add(ColFeasible, param.Bool.String())
	add(ColFitness, param.Float.String())
	add(ColCells, param.Int.String())
	add(ColFailed, param.Int.String())
	if spec.Race != nil {
		add(ColReplications, param.Int.String())
		add(ColEliminatedGeneration, param.Int.String())
		add(ColEliminatedRound, param.Int.String())
		add(ColEliminatedBy, param.String.String())
		add(ColEliminatedP, param.Float.String())
		if spec.Race.Indifference > 0 {
			add(ColEquivalentGeneration, param.Int.String())
			add(ColEquivalentRound, param.Int.String())
			add(ColEquivalentP, param.Float.String())
		}
	}
	var metrics []string
	for _, e := range append(slices.Clone(res.Evals), res.Confirm, res.Baseline) {
		if e == nil {
			continue
		}
		for m := range e.Metrics {
			if !slices.Contains(metrics, m) {
				metrics = append(metrics, m)
			}
		}
	}
	slices.Sort(metrics)
	for _, m := range metrics {
		add(results.MetricColumn(m)+"_mean", param.Float.String())
		add(results.MetricColumn(m)+"_ci", param.Float.String())
	}
	onFront := map[*Eval]bool{}
	for _, e := range res.Front {
		onFront[e] = true
	}
	row := func(e *Eval, phase string) []any {
		f := func(x float64) any {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return nil
			}
			return x
		}
		var gen any = int64(e.Generation)
		if phase != "search" {
			gen = nil // confirmation and baseline belong to no generation
		}
		r := []any{gen, int64(e.Index), phase, e.Cached}
		for i, p := range spec.Params {
			if e.Values == nil {
				r = append(r, baseValue(spec, p)) // the base as written
				continue
			}
			r = append(r, cellValue(p, e.Values[i]))
		}
		r = append(r, f(e.Objective), f(e.ObjectiveCI))
		if spec.Second != nil {
			r = append(r, f(e.Second), f(e.SecondCI), onFront[e])
		}
		for i := range spec.Constraints {
			r = append(r, f(e.Constraints[i]))
		}
		r = append(r, e.Feasible, f(e.Fitness), int64(e.Cells), int64(e.Failed))
		if spec.Race != nil {
			r = append(r, int64(e.Replications))
			if e.EliminatedRound > 0 {
				r = append(r, int64(e.EliminatedGeneration), int64(e.EliminatedRound), e.EliminatedBy, f(e.EliminatedP))
			} else {
				r = append(r, nil, nil, nil, nil)
			}
			if spec.Race.Indifference > 0 {
				if e.EquivalentRound > 0 {
					r = append(r, int64(e.EquivalentGeneration), int64(e.EquivalentRound), f(e.EquivalentP))
				} else {
					r = append(r, nil, nil, nil)
				}
			}
		}
		for _, m := range metrics {
			st, ok := e.Metrics[m]
			if !ok {
				r = append(r, nil, nil)
				continue
			}
			r = append(r, f(st.Mean), f(st.HalfWidth))
		}
		return r
	}
	for _, e := range res.Evals {
		t.Rows = append(t.Rows, row(e, "search"))
	}
	if res.Confirm != nil {
		t.Rows = append(t.Rows, row(res.Confirm, "confirm"))
	}
	if res.Baseline != nil {
		t.Rows = append(t.Rows, row(res.Baseline, "baseline"))
	}
	return results.WriteTable(spec.EvalsOutput, t)
}

func goal(o Objective) string {
	if o.Maximize {
		return "maximize"
	}
	return "minimize"
}

func constraintColumn(c Constraint) string {
	op := "ge"
	if c.Op == "<=" {
		op = "le"
	}
	return fmt.Sprintf("c_%s_%s_%g", c.Metric, op, c.Value)
}

// paramKind is the column kind of a parameter's values.
func paramKind(p Param) string {
	switch p.Kind {
	case Int:
		return param.Int.String()
	case Float:
		return param.Float.String()
	}
	kind := ""
	for _, c := range p.Choices {
		k := param.String.String()
		switch normalize(c).(type) {
		case int64:
			k = param.Int.String()
		case float64:
			k = param.Float.String()
		case bool:
			k = param.Bool.String()
		}
		if kind != "" && kind != k {
			return param.String.String()
		}
		kind = k
	}
	return kind
}

// cellValue converts a value to its column's kind.
func cellValue(p Param, v any) any {
	switch paramKind(p) {
	case param.String.String():
		return fmt.Sprint(v)
	case param.Float.String():
		if i, ok := v.(int64); ok {
			return float64(i)
		}
	}
	return v
}

// baseValue is a searched parameter's value in the base experiment as
// written: the value its cells carry, else the scheduler's default; nil
// when neither exists.
func baseValue(spec *Spec, p Param) any {
	cells := spec.Base.Cells()
	if len(cells) == 0 {
		return nil
	}
	c := cells[0]
	if p.Name == "scheduler" {
		return cellValue(p, c.Scheduler)
	}
	if v, ok := c.Lookup(p.Name); ok {
		return cellValue(p, v)
	}
	name, ok := strings.CutPrefix(p.Name, "scheduler.")
	if !ok {
		return nil
	}
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
	}
	if e, err := spec.fams.Schedulers().Lookup(c.Scheduler); err == nil {
		if ps, ok := param.Find(e.Params, name); ok && ps.Default != nil {
			return cellValue(p, ps.Default)
		}
	}
	return nil
}

// Describe renders an evaluation's parameters for humans.
func Describe(spec *Spec, e *Eval) string {
	if e.Values == nil {
		return "the base as written"
	}
	var parts []string
	for i, p := range spec.Params {
		v := e.Values[i]
		if f, ok := v.(float64); ok {
			v = fmt.Sprintf("%.4g", f)
		}
		parts = append(parts, fmt.Sprintf("%s=%v", p.Name, v))
	}
	return strings.Join(parts, " ")
}
