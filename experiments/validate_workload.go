package experiments

import (
	"errors"
	"fmt"
	"github.com/schedfarm/schedfarm/param"
	"os"
	"slices"
	"strings"

	"github.com/schedfarm/schedfarm/runner"
	"github.com/schedfarm/schedfarm/workload/models"
)

// The workload section: trace or generator, SWF-only fields, modelled
// trace estimates and their combinations.

// estimateSpec returns the workload/models documentation of a Tsafrir
// estimate parameter (max_estimate, est_bins): trace workloads accept the
// same values as the generators.
func estimateSpec(name string) param.Spec {
	for _, s := range models.EstimateParams() {
		if s.Name == name {
			return s
		}
	}
	panic("experiments: workload/models has no estimate parameter " + name)
}

func maxEstimateAccepted() string {
	s := estimateSpec("max_estimate")
	return fmt.Sprintf("0 (automatic: the longest runtime rounded up to whole hours, at least 7200 s, grown until feasible) or an integer in [%.0f, %.0f] (Tsafrir Tmax, seconds)", s.Min, s.Max)
}

func checkMaxEstimate(v any) string {
	s, n := estimateSpec("max_estimate"), v.(int64)
	if n == 0 || float64(n) >= s.Min && float64(n) <= s.Max {
		return ""
	}
	return fmt.Sprintf("max_estimate %d out of range", n)
}

func checkEstBins(v any) string {
	if ps := models.CheckEstimateBins(v.(string), 0, 0); len(ps) > 0 {
		return "est_bins " + strings.Join(ps, "; ")
	}
	return ""
}

// Trace-estimate parameters: the fields that combine with each other.
const (
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
	switch name {
	case pUserEstimates:
		if val == runner.UserEstimatesTsafrir && !v.swept[pEstimates] && w.Estimates != runner.EstimatesUser {
			return fmt.Sprintf("user_estimates %s needs estimates user (workload.estimates is %s): the modelled estimates are requested times, which only estimates user reads; accepted: %s, or workload.estimates: user", val, w.Estimates, runner.UserEstimatesNone)
		}
	case pEstimates:
		if val != runner.EstimatesUser && !v.swept[pUserEstimates] && w.UserEstimates == runner.UserEstimatesTsafrir {
			return fmt.Sprintf("estimates %s with user_estimates %s: the modelled estimates are requested times, which only estimates user reads; accepted: user", val, w.UserEstimates)
		}
	case pMaxEstimate:
		if !v.swept[pEstBins] && w.EstBins != "" {
			if ps := models.CheckEstimateBins(w.EstBins, int(val.(int64)), 0); len(ps) > 0 {
				return fmt.Sprintf("max_estimate %d does not fit workload.est_bins %q: est_bins %s", val, w.EstBins, strings.Join(ps, "; "))
			}
		}
	case pEstBins:
		if !v.swept[pMaxEstimate] {
			if ps := models.CheckEstimateBins(val.(string), w.MaxEstimate, 0); len(ps) > 0 {
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
	if !v.swept[pUserEstimates] && !v.swept[pEstimates] && w.UserEstimates == runner.UserEstimatesTsafrir && w.Estimates != runner.EstimatesUser {
		v.errorf(pEstimates, "estimates %s with user_estimates %s: the modelled estimates are requested times, which only estimates user reads; accepted: user (or user_estimates: %s)",
			w.Estimates, w.UserEstimates, runner.UserEstimatesNone)
	}
	if !v.swept[pMaxEstimate] && !v.swept[pEstBins] && w.EstBins != "" {
		if ps := models.CheckEstimateBins(w.EstBins, w.MaxEstimate, 0); len(ps) > 0 {
			v.errorf(pEstBins, "est_bins %s; accepted: %s", strings.Join(ps, "; "), estimateSpec("est_bins").Form)
		}
	}
	modelled := !v.swept[pUserEstimates] && w.UserEstimates == runner.UserEstimatesTsafrir
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
	full := ResolvePath(v.dir, p)
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

func (v *validator) workload(raw *rawSpec, s *Spec) []runner.Param {
	w := raw.Workload
	defs := workloadParams()
	var ps []runner.Param
	add := func(name string, val any) { ps = append(ps, runner.Param{Name: name, Value: val}) }
	hasTrace, hasGen := w.Trace != "", w.Generator != nil
	switch {
	case hasTrace && hasGen:
		v.errorf("workload", "both trace and generator given; accepted: exactly one of trace, generator")
	case !hasTrace && !hasGen:
		v.errorf("workload", "no workload; accepted: exactly one of trace (an SWF path) or generator ({model: NAME, ...})")
	}
	if hasTrace {
		if val, ok := v.knownValue("workload.trace", "workload.trace", defs["workload.trace"], w.Trace); ok {
			s.Workload.Trace = val.(string)
			add("workload.trace", val)
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
	s.Workload.UserEstimates = runner.UserEstimatesNone
	if hasGen {
		hint := "a generator draws its own estimates; accepted: workload.generator.estimates: tsafrir05, with workload.generator.max_estimate and workload.generator.est_bins"
		if ownsPlatform(s.Workload.Output) {
			hint = fmt.Sprintf("model %q generates %s workloads with their own platform", s.Workload.Generator.Model, s.Workload.Output)
		}
		for _, f := range []struct {
			name string
			set  bool
		}{{"user_estimates", w.UserEstimates != ""}, {"max_estimate", w.MaxEstimate != nil}, {"est_bins", w.EstBins != nil}} {
			if f.set {
				v.errorf("workload."+f.name, "applies to trace workloads only; %s", hint)
			}
		}
	}
	if ownsPlatform(s.Workload.Output) {
		for _, f := range []struct {
			name string
			set  bool
		}{{"estimates", w.Estimates != ""}, {"overrun", w.Overrun != ""}, {"load", w.Load != nil},
			{"jobs", w.Jobs != nil}, {"warmup", w.Warmup != nil}, {"lenient", w.Lenient}} {
			if f.set {
				v.errorf("workload."+f.name, "applies to SWF workloads only; model %q generates %s workloads (accepted: its parameters under workload.generator; see schedfarm workload models)", s.Workload.Generator.Model, s.Workload.Output)
			}
		}
		for _, fd := range givenFamilyFields(w) {
			v.errorf(fd.name, "applies to SWF workloads only; model %q generates %s workloads (accepted: its parameters under workload.generator; see schedfarm workload models)", s.Workload.Generator.Model, s.Workload.Output)
		}
		return ps
	}
	s.Workload.Estimates = "user"
	if w.Estimates != "" {
		if val, ok := v.knownValue("workload.estimates", "workload.estimates", defs["workload.estimates"], w.Estimates); ok {
			s.Workload.Estimates = val.(string)
		}
	}
	add("workload.estimates", s.Workload.Estimates)
	s.Workload.Overrun = "kill"
	if w.Overrun != "" {
		if val, ok := v.knownValue("workload.overrun", "workload.overrun", defs["workload.overrun"], w.Overrun); ok {
			s.Workload.Overrun = val.(string)
		}
	}
	add("workload.overrun", s.Workload.Overrun)
	if w.Load != nil {
		if val, ok := v.knownValue("workload.load", "workload.load", defs["workload.load"], w.Load); ok {
			s.Workload.Load = val.(float64)
			add("workload.load", val)
		}
	}
	if w.Jobs != nil {
		if val, ok := v.knownValue("workload.jobs", "workload.jobs", defs["workload.jobs"], w.Jobs); ok {
			s.Workload.Jobs = int(val.(int64))
			add("workload.jobs", val)
		}
	}
	if w.Warmup != nil {
		if val, ok := v.knownValue("workload.warmup", "workload.warmup", defs["workload.warmup"], w.Warmup); ok {
			s.Workload.Warmup = int(val.(int64))
			add("workload.warmup", val)
		}
	}
	if s.Workload.Jobs > 0 && s.Workload.Warmup >= s.Workload.Jobs {
		v.errorf("workload.warmup", "warmup (%d) must be smaller than jobs (%d)", s.Workload.Warmup, s.Workload.Jobs)
	}
	if w.Lenient {
		s.Workload.Lenient = true
		add("workload.lenient", true)
	}
	for _, f := range givenFamilyFields(w) {
		if val, ok := v.knownValue(f.name, f.name, defs[f.name], f.raw); ok {
			add(f.name, val)
		}
	}
	if !hasGen {
		v.traceEstimates(w, s, add)
	}
	return ps
}

// traceEstimates reads a trace's modelled-estimate fields (user_estimates,
// max_estimate, est_bins); each becomes a cell parameter when given.
func (v *validator) traceEstimates(w rawWorkload, s *Spec, add func(string, any)) {
	defs := workloadParams()
	v.given = map[string]bool{}
	field := func(name string, raw any, set func(any)) {
		val, ok := v.knownValue(name, name, defs[name], raw)
		v.given[name] = ok
		if ok {
			set(val)
			add(name, val)
		}
	}
	if w.UserEstimates != "" {
		field(pUserEstimates, w.UserEstimates, func(x any) { s.Workload.UserEstimates = x.(string) })
	}
	if w.MaxEstimate != nil {
		field(pMaxEstimate, w.MaxEstimate, func(x any) { s.Workload.MaxEstimate = int(x.(int64)) })
	}
	if w.EstBins != nil {
		field(pEstBins, w.EstBins, func(x any) { s.Workload.EstBins = x.(string) })
	}
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
