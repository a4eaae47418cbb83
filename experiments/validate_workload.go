package experiments

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/schedfarm/schedfarm/runner"
	"github.com/schedfarm/schedfarm/workload/models"
)

// The workload section: trace or generator, SWF-only fields, modelled
// trace estimates and their combinations.

// Trace-estimate parameters: the fields that combine with each other.
const (
	pTrace         = "workload.trace"
	pJobs          = "workload.jobs"
	pWarmup        = "workload.warmup"
	pUserEstimates = "workload.user_estimates"
	pMaxEstimate   = "workload.max_estimate"
	pEstBins       = "workload.est_bins"
	pEstimates     = "workload.estimates"
)

// estimateParam reports whether name takes part in the checks of
// combinations of trace estimate settings (estimateValue, estimateBase).
func estimateParam(name string) bool {
	switch name {
	case pUserEstimates, pMaxEstimate, pEstBins, pEstimates:
		return true
	}
	return false
}

// estimateValue checks an axis value of an estimate parameter against the
// fixed values of the others; a pair whose other member is swept too is
// checked when the cell runs. "" when fine.
func (v *validator) estimateValue(name string, val any, s *Spec) string {
	w := s.Workload
	estimates, userEst, estBins := w.str(pEstimates), w.str(pUserEstimates), w.str(pEstBins)
	switch name {
	case pUserEstimates:
		if val == runner.UserEstimatesTsafrir && !v.swept[pEstimates] && estimates != runner.EstimatesUser {
			return fmt.Sprintf("user_estimates %s needs estimates user (workload.estimates is %s): the modelled estimates are requested times, which only estimates user reads; accepted: %s, or workload.estimates: user", val, estimates, runner.UserEstimatesNone)
		}
	case pEstimates:
		if val != runner.EstimatesUser && !v.swept[pUserEstimates] && userEst == runner.UserEstimatesTsafrir {
			return fmt.Sprintf("estimates %s with user_estimates %s: the modelled estimates are requested times, which only estimates user reads; accepted: user", val, userEst)
		}
	case pMaxEstimate:
		if !v.swept[pEstBins] && estBins != "" {
			if ps := models.CheckEstimateBins(estBins, int(val.(int64)), 0); len(ps) > 0 {
				return fmt.Sprintf("max_estimate %d does not fit workload.est_bins %q: est_bins %s", val, estBins, strings.Join(ps, "; "))
			}
		}
	case pEstBins:
		if !v.swept[pMaxEstimate] {
			if ps := models.CheckEstimateBins(val.(string), w.integer(pMaxEstimate), 0); len(ps) > 0 {
				return "est_bins " + strings.Join(ps, "; ")
			}
		}
	}
	return ""
}

// estimateBase checks the combinations of the fixed trace estimate
// settings (a swept parameter's fixed value is replaced by its axis and
// checked in estimateValue), and that max_estimate and est_bins come with
// user_estimates tsafrir05 in at least one cell.
func (v *validator) estimateBase(s *Spec, axes []axisInfo) {
	w := s.Workload
	if w.Trace == "" {
		return
	}
	estimates, userEst, estBins := w.str(pEstimates), w.str(pUserEstimates), w.str(pEstBins)
	if !v.swept[pUserEstimates] && !v.swept[pEstimates] && userEst == runner.UserEstimatesTsafrir && estimates != runner.EstimatesUser {
		v.errorf(pEstimates, "estimates %s with user_estimates %s: the modelled estimates are requested times, which only estimates user reads; accepted: user (or user_estimates: %s)",
			estimates, userEst, runner.UserEstimatesNone)
	}
	if !v.swept[pMaxEstimate] && !v.swept[pEstBins] && estBins != "" {
		if ps := models.CheckEstimateBins(estBins, w.integer(pMaxEstimate), 0); len(ps) > 0 {
			v.errorf(pEstBins, "est_bins %s; accepted: %s", strings.Join(ps, "; "), runner.EstimateSpec("est_bins").Form)
		}
	}
	modelled := !v.swept[pUserEstimates] && userEst == runner.UserEstimatesTsafrir
	for _, ax := range axes {
		if ax.name == pUserEstimates {
			modelled = modelled || slices.Contains(ax.values, any(runner.UserEstimatesTsafrir))
		}
	}
	if valid, given := v.given[pUserEstimates]; modelled || given && !valid {
		return // fine, or user_estimates itself is reported
	}
	need := func(path, field string) {
		v.errorf(path, "%s needs workload.user_estimates: %s (user_estimates is %s in every cell); accepted: user_estimates: %s, or no %s",
			field, runner.UserEstimatesTsafrir, runner.UserEstimatesNone, runner.UserEstimatesTsafrir, field)
	}
	if _, ok := v.given[pMaxEstimate]; ok && !v.swept[pMaxEstimate] {
		need(pMaxEstimate, "max_estimate")
	}
	if _, ok := v.given[pEstBins]; ok && !v.swept[pEstBins] {
		need(pEstBins, "est_bins")
	}
	for _, ax := range axes {
		if ax.name == pMaxEstimate || ax.name == pEstBins {
			need(fmt.Sprintf("axes[%d].param", ax.rawIndex), shortName(ax.name))
		}
	}
}

func (v *validator) checkTrace(p string) string {
	full := runner.ResolvePath(v.dir, p)
	st, err := os.Stat(full)
	if err != nil {
		if os.IsNotExist(err) {
			return fmt.Sprintf("trace %q not found (resolved against the spec's directory to %s)", p, full)
		}
		return fmt.Sprintf("trace %q: %v", p, err)
	}
	if st.IsDir() {
		return fmt.Sprintf("trace %q is a directory", p)
	}
	return ""
}

// workload validates the workload section: a trace or a generator, then
// every field of the table (runner.Fields) and of the families
// (Catalog.WorkloadFields), the same way for each: the spec's value
// checked by its param.Spec, or the field's default when it has one. Each
// becomes a parameter of every cell; a false bool or a field not given is
// left out.
func (v *validator) workload(raw *rawSpec, s *Spec) []runner.Param {
	w := raw.Workload
	var ps []runner.Param
	add := func(name string, val any) { ps = append(ps, runner.Param{Name: name, Value: val}) }
	s.Workload.Fields = map[string]any{}
	hasTrace, hasGen := w.Trace != "", w.Generator != nil
	switch {
	case hasTrace && hasGen:
		v.errorf("workload", "both trace and generator given; accepted: exactly one of trace, generator")
	case !hasTrace && !hasGen:
		v.errorf("workload", "no workload; accepted: exactly one of trace (an SWF path) or generator ({model: NAME, ...})")
	}
	if hasTrace {
		f, _ := runner.FieldOf(pTrace)
		if val, ok := v.knownValue(pTrace, pTrace, f.Spec, w.Trace); ok {
			s.Workload.Trace = val.(string)
			add(pTrace, val)
		}
	}
	if hasGen {
		s.Workload.Generator = v.generator(w.Generator, &ps)
	}
	s.Workload.Output = OutputSWF
	if hasGen && s.Workload.Generator.Model != "" && v.cat != nil {
		s.Workload.Output = v.cat.ModelOutput(s.Workload.Generator.Model)
		if fc, ok := v.cat.(FamilyCatalog); ok && fc.ModelSchedulers(s.Workload.Generator.Model) != nil {
			v.family = s.Workload.Generator.Model
		}
	}
	v.given = map[string]bool{}
	for _, f := range v.fields() {
		if f.Name == pTrace {
			continue
		}
		raw, given := w.Fields[shortName(f.Name)]
		given = given && raw != nil && raw != "" && raw != false
		switch {
		case given && f.TraceOnly && hasGen:
			hint := "a generator draws its own estimates; accepted: workload.generator.estimates: tsafrir05, with workload.generator.max_estimate and workload.generator.est_bins"
			if ownsPlatform(s.Workload.Output) {
				hint = fmt.Sprintf("model %q generates %s workloads with their own platform", s.Workload.Generator.Model, s.Workload.Output)
			}
			v.errorf(f.Name, "applies to trace workloads only; %s", hint)
			continue
		case ownsPlatform(s.Workload.Output):
			if given {
				v.errorf(f.Name, "applies to SWF workloads only; model %q generates %s workloads (accepted: its parameters under workload.generator; see schedfarm workload models)", s.Workload.Generator.Model, s.Workload.Output)
			}
			continue
		case f.TraceOnly && hasGen:
			continue
		}
		val, ok := f.Default, false
		if given {
			var good any
			if good, ok = v.knownValue(f.Name, f.Name, f.Spec, raw); ok {
				val = good
			}
			if f.TraceOnly {
				v.given[f.Name] = ok
			}
		}
		if b, isBool := val.(bool); val == nil || isBool && !b {
			continue
		}
		s.Workload.Fields[f.Name] = val
		add(f.Name, val)
	}
	if jobs, warmup := s.Workload.integer(pJobs), s.Workload.integer(pWarmup); jobs > 0 && warmup >= jobs {
		v.errorf(pWarmup, "warmup (%d) must be smaller than jobs (%d)", warmup, jobs)
	}
	return ps
}

// fields returns the spec's workload fields: the runner's table and the
// catalog's families' fields (runner.Field without flags: each may be an
// axis, none combines with another).
func (v *validator) fields() []runner.Field {
	fs := runner.Fields()
	if v.cat != nil {
		for _, fd := range v.cat.WorkloadFields() {
			fs = append(fs, runner.Field{Spec: fd})
		}
	}
	return fs
}

func (v *validator) generator(g map[string]any, ps *[]runner.Param) *GeneratorSpec {
	gs := &GeneratorSpec{Params: map[string]any{}}
	model, _ := g["model"].(string)
	if model == "" {
		v.errorf("workload.generator.model", "required; accepted: %s", v.list(v.catModels()))
	} else if !slices.Contains(v.catModels(), model) {
		v.errorf("workload.generator.model", "unknown model %q; known: %s", model, v.list(v.catModels()))
		model = ""
	}
	gs.Model = model
	ok := true
	for _, k := range sortedKeys(g) {
		if k == "model" {
			continue
		}
		path := "workload.generator." + k
		if !identRE.MatchString(k) {
			v.errorf(path, "invalid parameter name; accepted: lower-case letters, digits and '_', starting with a letter")
			ok = false
			continue
		}
		val, err := normalize(g[k])
		if err != nil {
			v.errorf(path, "%s", err)
			ok = false
			continue
		}
		gs.Params[k] = val
	}
	if model != "" && ok && v.cat != nil {
		if err := v.single(v.cat.CheckModel(model, gs.Params), secGenerator, false); err != nil {
			// A *ParamError is reported at its parameter; anything else
			// at the generator.
			var rest []error
			for _, e := range unjoin(err) {
				var pe *ParamError
				if errors.As(e, &pe) && pe.Param != "" {
					if _, given := gs.Params[pe.Param]; given {
						v.errorf("workload.generator."+pe.Param, "model %q: %v", model, pe.Err)
						continue
					}
				}
				rest = append(rest, e)
			}
			if len(rest) > 0 {
				v.errorf("workload.generator", "model %q: %s", model, strings.ReplaceAll(errors.Join(rest...).Error(), "\n", "; "))
			}
		}
	}
	if model != "" {
		*ps = append(*ps, runner.Param{Name: "workload.generator.model", Value: model})
	}
	for _, k := range sortedKeys(gs.Params) {
		*ps = append(*ps, runner.Param{Name: "workload.generator." + k, Value: gs.Params[k]})
	}
	return gs
}

// unknownWorkloadFields reports every key of the workload section that is
// neither trace, generator, a field of the table (runner.Fields) nor a
// family's (Catalog.WorkloadFields), naming what is accepted.
func unknownWorkloadFields(w rawWorkload, lines map[string]int, cat Catalog) []FieldError {
	v := &validator{cat: cat}
	var errs []FieldError
	for _, key := range slices.Sorted(maps.Keys(w.Fields)) {
		if _, ok := v.field("workload." + key); ok {
			continue
		}
		path := "workload." + key
		errs = append(errs, FieldError{Path: path, Line: lines[path], Msg: "unknown field; accepted: " + strings.Join(v.workloadFieldNames(), ", ")})
	}
	return errs
}

// workloadFieldNames lists the keys a workload section accepts, sorted.
func (v *validator) workloadFieldNames() []string {
	names := yamlFields(sectionTypes["experiments.rawWorkload"])
	for _, f := range v.fields() {
		if k, ok := strings.CutPrefix(f.Name, "workload."); ok && !slices.Contains(names, k) {
			names = append(names, k)
		}
	}
	slices.Sort(names)
	return names
}
