package experiments

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/schedfarm/schedfarm/internal/numeric"
	"github.com/schedfarm/schedfarm/runner"
	"github.com/schedfarm/schedfarm/strategies"
	"github.com/schedfarm/schedfarm/workload/models"
	"go.yaml.in/yaml/v3"
)

// Limits that keep a typo from expanding into an unbounded grid.
const (
	// MaxAxisValues bounds the values of one axis (list or range).
	MaxAxisValues = 10000
	// MaxCells bounds the number of cells of one spec.
	MaxCells = 1000000
)

// paramDef describes a parameter whose kind and range the spec layer knows.
type paramDef struct {
	kind     string
	accepted string
	check    func(v any) string // "" when v is acceptable
}

// platformParams lists the platform parameters by short name. Later platform
// families add tiers, nodes, pools here.
func platformParams() map[string]paramDef {
	return map[string]paramDef{
		"procs": {kind: KindInt, accepted: "an integer > 0 (processors)", check: positiveInt("procs")},
	}
}

// workloadParams lists the workload parameters by full dotted name.
func workloadParams() map[string]paramDef {
	return map[string]paramDef{
		"workload.load":      {kind: KindFloat, accepted: "a number > 0 (target offered load)", check: positiveFloat("load")},
		"workload.jobs":      {kind: KindInt, accepted: "an integer > 0", check: positiveInt("jobs")},
		"workload.warmup":    {kind: KindInt, accepted: "an integer >= 0", check: nonNegativeInt("warmup")},
		"workload.estimates": {kind: KindString, accepted: "user, exact, pyss", check: oneOf("estimates", "exact", "pyss", "user")},
		"workload.overrun":   {kind: KindString, accepted: "extend, kill", check: oneOf("overrun", "extend", "kill")},
		"workload.trace":     {kind: KindString, accepted: "a path to an SWF file (plain or .gz)", check: nonEmpty("trace")},
		"workload.lenient":   {kind: KindBool, accepted: "true or false"},

		"workload.user_estimates": {kind: KindString, accepted: "none, tsafrir05 (modelled user runtime estimates in field 9 of a trace, drawn per cell)",
			check: oneOf("user_estimates", runner.UserEstimatesNone, runner.UserEstimatesTsafrir)},
		"workload.max_estimate": {kind: KindInt, accepted: maxEstimateAccepted(), check: checkMaxEstimate},
		"workload.est_bins":     {kind: KindString, accepted: estimateSpec("est_bins").Form, check: checkEstBins},

		pCPUUsage: {kind: KindFloat, accepted: "a number in (0, 1]: the mean CPU usage of a process of a multi-process job (default: seed 000's uniform [0.4, 1], mean 0.7)",
			check: func(v any) string {
				if f := v.(float64); !(f > 0 && f <= 1) {
					return fmt.Sprintf("cpu_usage %g out of range", f)
				}
				return ""
			}},
		pCPUEstimate: {kind: KindString, accepted: "exact, noisy, none (the CPU usage the scheduler is told; none: no information)",
			check: oneOf("cpu_estimate", "exact", "noisy", "none")},
		pCPUError: {kind: KindFloat, accepted: "a number in [0, 1]: the relative error bound of cpu_estimate noisy",
			check: func(v any) string {
				if f := v.(float64); !(f >= 0 && f <= 1) {
					return fmt.Sprintf("cpu_error %g out of range", f)
				}
				return ""
			}},
	}
}

// CPU-usage parameters of seed 000's VM tiers (runner.Config.CPUMean,
// CPUEstimate, CPUError).
const (
	pCPUUsage    = "workload.cpu_usage"
	pCPUEstimate = "workload.cpu_estimate"
	pCPUError    = "workload.cpu_error"
)

// estimateSpec returns the workload/models documentation of a Tsafrir
// estimate parameter (max_estimate, est_bins): trace workloads accept the
// same values as the generators.
func estimateSpec(name string) models.ParamSpec {
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

func positiveInt(what string) func(any) string {
	return func(v any) string {
		if n := v.(int64); n <= 0 {
			return fmt.Sprintf("%s must be > 0, got %d", what, n)
		}
		return ""
	}
}

func nonNegativeInt(what string) func(any) string {
	return func(v any) string {
		if n := v.(int64); n < 0 {
			return fmt.Sprintf("%s must be >= 0, got %d", what, n)
		}
		return ""
	}
}

func positiveFloat(what string) func(any) string {
	return func(v any) string {
		if f := v.(float64); !(f > 0) {
			return fmt.Sprintf("%s must be > 0, got %s", what, formatValue(f))
		}
		return ""
	}
}

func oneOf(what string, names ...string) func(any) string {
	return func(v any) string {
		if !slices.Contains(names, v.(string)) {
			return fmt.Sprintf("unknown %s %q", what, v)
		}
		return ""
	}
}

func nonEmpty(what string) func(any) string {
	return func(v any) string {
		if v.(string) == "" {
			return what + " must not be empty"
		}
		return ""
	}
}

// coerce converts a normalized value to the kind a known parameter needs.
func coerce(v any, kind string) (any, string) {
	switch kind {
	case KindFloat:
		switch x := v.(type) {
		case float64:
			return x, ""
		case int64:
			return float64(x), ""
		}
		return nil, fmt.Sprintf("must be a number, got %s", formatValue(v))
	case KindInt:
		switch x := v.(type) {
		case int64:
			return x, ""
		case float64:
			if x == math.Trunc(x) && math.Abs(x) <= 1<<53 {
				return int64(x), ""
			}
			return nil, fmt.Sprintf("must be an integer, got %s", formatValue(x))
		}
		return nil, fmt.Sprintf("must be an integer, got %s", formatValue(v))
	case KindString:
		if s, ok := v.(string); ok {
			return s, ""
		}
		return nil, fmt.Sprintf("must be a string, got %s", formatValue(v))
	case KindBool:
		if b, ok := v.(bool); ok {
			return b, ""
		}
		return nil, fmt.Sprintf("must be true or false, got %s", formatValue(v))
	}
	return v, ""
}

// axisInfo is a resolved axis.
type axisInfo struct {
	name   string // parameter name in Cell.Params, e.g. "scheduler.k"
	scope  string // scheduler name for "scheduler.<name>.<p>" axes, else ""
	values []any
	crn    bool // left out of the cell seed (common random numbers)
	// rawIndex is the axis's index in the spec's axes list.
	rawIndex int
}

// schedEntry is a resolved scheduler entry.
type schedEntry struct {
	name   string
	params map[string]any
}

// validator builds a Spec from its raw form and collects every error.
type validator struct {
	cat   Catalog
	lines map[string]int
	dir   string
	errs  []FieldError
	// swept holds the parameter names of the spec's axes; given the trace
	// estimate fields written in the spec, true when their value is valid.
	swept map[string]bool
	given map[string]bool
	// family is the generator model when it brings its own platform and
	// scheduler family (FamilyCatalog), "" otherwise.
	family string
	// output is the workload's output (OutputSWF, …), known before the
	// schedulers are validated.
	output string
	// plugins holds the plugins described so far by absolute path;
	// pluginNames the spec's plugin schedulers by name.
	plugins     map[string]PluginInfo
	pluginNames map[string]PluginInfo
	// sweptGen and sweptSched count the axes over generator and scheduler
	// parameters: a value that conflicts with a fixed parameter of its
	// section may meet another value of another axis there, so such
	// problems are left to the grid-point check (gridPoints).
	sweptGen, sweptSched int
}

// Sections of parameters whose combinations are checked together.
const (
	secGenerator = iota
	secScheduler
)

// single drops the errors of err that are about several parameters
// together when other axes (than the one being checked, if axis) sweep
// parameters of the same section: the grid-point check sees them then.
func (v *validator) single(err error, section int, axis bool) error {
	others := v.sweptGen
	if section == secScheduler {
		others = v.sweptSched
	}
	if axis {
		others--
	}
	if err == nil || others < 1 {
		return err
	}
	var keep []error
	for _, e := range unjoin(err) {
		var pe *ParamError
		var ce *strategies.CombinationError
		if errors.As(e, &pe) && pe.Combination || errors.As(e, &ce) {
			continue
		}
		keep = append(keep, e)
	}
	return errors.Join(keep...)
}

func (v *validator) errorf(path, format string, args ...any) {
	v.errs = append(v.errs, FieldError{Path: path, Line: v.line(path), Msg: fmt.Sprintf(format, args...)})
}

// line returns the line of path or of its nearest recorded ancestor.
func (v *validator) line(path string) int {
	for p := path; p != ""; {
		if l, ok := v.lines[p]; ok {
			return l
		}
		i := strings.LastIndexAny(p, ".[")
		if i < 0 {
			break
		}
		p = p[:i]
	}
	return 0
}

var (
	nameRE  = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)
	identRE = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)
)

func (v *validator) build(raw *rawSpec) *Spec {
	s := &Spec{Dir: v.dir, Platform: map[string]any{}}
	for _, ax := range raw.Axes {
		switch {
		case strings.HasPrefix(ax.Param, "workload.generator."):
			v.sweptGen++
		case strings.HasPrefix(ax.Param, "scheduler."):
			v.sweptSched++
		}
	}
	if raw.Name == "" {
		v.errorf("name", "required; accepted: letters, digits, '.', '_' and '-'")
	} else if !nameRE.MatchString(raw.Name) {
		v.errorf("name", "invalid name %q; accepted: letters, digits, '.', '_' and '-', starting with a letter or digit", raw.Name)
	}
	s.Name = raw.Name

	var base []Param
	wl := v.workload(raw, s)
	pdefs := platformParams()
	for _, k := range sortedKeys(raw.Platform) {
		path := "platform." + k
		if ownsPlatform(s.Workload.Output) {
			v.errorf(path, "model %q generates its own platform; accepted: no platform section, the model's parameters instead", s.Workload.Generator.Model)
			continue
		}
		def, ok := pdefs[k]
		if !ok {
			v.errorf(path, "unknown platform parameter; accepted: %s", strings.Join(sortedKeys(pdefs), ", "))
			continue
		}
		if val, ok := v.knownValue(path, path, def, raw.Platform[k]); ok {
			s.Platform[k] = val
			base = append(base, Param{Name: path, Value: val})
		}
	}

	base = append(base, wl...)
	v.output = s.Workload.Output
	s.Schedulers = v.schedulers(raw.Schedulers)
	axes := v.axes(raw.Axes, s)
	v.estimateBase(s, axes)
	v.unifyKinds(&base, s, axes)
	s.Zip = v.zip(raw.Zip, axes)

	s.Replications = 1
	if raw.Replications != nil {
		s.Replications = *raw.Replications
		if s.Replications < 1 {
			v.errorf("replications", "must be >= 1, got %d", s.Replications)
		}
	}
	s.Seed = raw.Seed
	s.Metrics = v.metrics(raw.Metrics, s.Workload.Output)

	s.Output = raw.Output
	if s.Output == "" && s.Name != "" {
		s.Output = s.Name + ".parquet"
	}
	if raw.Output != "" && !strings.HasSuffix(raw.Output, ".parquet") {
		v.errorf("output", "must end in .parquet, got %q", raw.Output)
	}
	s.JobsOutput = raw.JobsOutput
	if raw.JobsOutput != "" {
		if !strings.HasSuffix(raw.JobsOutput, ".parquet") {
			v.errorf("jobs_output", "must end in .parquet, got %q", raw.JobsOutput)
		} else if filepath.Clean(raw.JobsOutput) == filepath.Clean(s.Output) {
			v.errorf("jobs_output", "must differ from output %q", s.Output)
		}
	}

	s.base = base
	s.axisInfo = axes
	if len(v.errs) == 0 {
		if n := s.countCells(); n > MaxCells {
			v.errorf("axes", "the grid has %.0f cells; accepted: at most %d", n, MaxCells)
		} else if v.sweptGen+v.sweptSched > 1 {
			v.gridPoints(s)
		}
	}
	return s
}

// maxPointErrors bounds the grid-point errors reported.
const maxPointErrors = 10

// gridPoints checks the parameters that are valid one by one but may not
// be together (left out of the earlier checks, see single): every
// distinct generator parameter set and scheduler parameter set of the
// first replication's cells is checked as a whole, e.g. a lambda_max axis
// value below a lambda_min axis value, or a delta axis value that does not
// sum to 1 with a fixed omega.
func (v *validator) gridPoints(s *Spec) {
	if v.cat == nil {
		return
	}
	seen := map[string]bool{}
	n := 0
	report := func(key, format string, args ...any) {
		if seen[key] || n >= maxPointErrors {
			return
		}
		seen[key] = true
		n++
		v.errorf("axes", format, args...)
	}
	for _, c := range s.Cells() {
		if c.Replication > 0 {
			break
		}
		gen, sch := map[string]any{}, map[string]any{}
		var point []string
		for _, p := range c.Params {
			switch {
			case strings.HasPrefix(p.Name, "workload.generator."):
				if k := shortName(p.Name); k != "model" {
					gen[k] = p.Value
				}
			case strings.HasPrefix(p.Name, "scheduler."):
				sch[shortName(p.Name)] = p.Value
			}
			for _, ax := range s.axisInfo {
				if ax.name == p.Name {
					point = append(point, fmt.Sprintf("%s=%v", p.Name, formatValue(p.Value)))
				}
			}
		}
		at := strings.Join(point, ", ")
		if g := s.Workload.Generator; g != nil && g.Model != "" {
			key := "g|" + canonMap(gen)
			if !seen[key] {
				if err := v.cat.CheckModel(g.Model, gen); err != nil {
					report(key, "grid point %s: model %q: %s", at, g.Model, strings.ReplaceAll(err.Error(), "\n", "; "))
				}
				seen[key] = true
			}
		}
		key := "s|" + c.Scheduler + "|" + canonMap(sch)
		if !seen[key] {
			if err := v.checkScheduler(c.Scheduler, sch); err != nil {
				report(key, "grid point %s: scheduler %q: %s", at, c.Scheduler, strings.ReplaceAll(err.Error(), "\n", "; "))
			}
			seen[key] = true
		}
	}
}

// knownValue normalizes, coerces and checks a value of a known parameter.
func (v *validator) knownValue(path, name string, def paramDef, raw any) (any, bool) {
	n, err := normalize(raw)
	if err != nil {
		v.errorf(path, "%s; accepted: %s", err, def.accepted)
		return nil, false
	}
	c, msg := coerce(n, def.kind)
	if msg != "" {
		v.errorf(path, "%s %s; accepted: %s", shortName(name), msg, def.accepted)
		return nil, false
	}
	if def.check != nil {
		if msg := def.check(c); msg != "" {
			v.errorf(path, "%s; accepted: %s", msg, def.accepted)
			return nil, false
		}
	}
	if name == "workload.trace" {
		if msg := v.checkTrace(c.(string)); msg != "" {
			v.errorf(path, "%s; accepted: %s", msg, def.accepted)
			return nil, false
		}
	}
	return c, true
}

func shortName(name string) string {
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		return name[i+1:]
	}
	return name
}

// ResolvePath returns a trace path from the spec resolved against dir.
func ResolvePath(dir, p string) string {
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(dir, p)
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

func (v *validator) workload(raw *rawSpec, s *Spec) []Param {
	w := raw.Workload
	defs := workloadParams()
	var ps []Param
	add := func(name string, val any) { ps = append(ps, Param{Name: name, Value: val}) }
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
			{"jobs", w.Jobs != nil}, {"warmup", w.Warmup != nil}, {"lenient", w.Lenient},
			{"cpu_usage", w.CPUUsage != nil}, {"cpu_estimate", w.CPUEstimate != ""}, {"cpu_error", w.CPUError != nil}} {
			if f.set {
				v.errorf("workload."+f.name, "applies to SWF workloads only; model %q generates %s workloads (accepted: its parameters under workload.generator; see schedfarm workload models)", s.Workload.Generator.Model, s.Workload.Output)
			}
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
	for _, f := range []struct {
		name string
		raw  any
	}{{pCPUUsage, w.CPUUsage}, {pCPUEstimate, w.CPUEstimate}, {pCPUError, w.CPUError}} {
		if f.raw == nil || f.raw == "" {
			continue
		}
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

func (v *validator) generator(g map[string]any, ps *[]Param) *GeneratorSpec {
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
		*ps = append(*ps, Param{Name: "workload.generator.model", Value: model})
	}
	for _, k := range sortedKeys(gs.Params) {
		*ps = append(*ps, Param{Name: "workload.generator." + k, Value: gs.Params[k]})
	}
	return gs
}

// checkScheduler validates a scheduler's params against the family of the
// spec's model, or the scheduler registry.
func (v *validator) checkScheduler(name string, params map[string]any) error {
	if info, ok := v.pluginNames[name]; ok {
		return info.Check(params)
	}
	if fc, ok := v.cat.(FamilyCatalog); ok && v.family != "" {
		return fc.CheckModelScheduler(v.family, name, params)
	}
	return v.cat.CheckScheduler(name, params)
}

func (v *validator) catSchedulers() []string {
	if v.cat == nil {
		return nil
	}
	names := slices.Clone(v.cat.SchedulerNames())
	if fc, ok := v.cat.(FamilyCatalog); ok && v.family != "" {
		names = slices.Clone(fc.ModelSchedulers(v.family))
	}
	sort.Strings(names)
	return names
}

func (v *validator) catModels() []string {
	if v.cat == nil {
		return nil
	}
	names := slices.Clone(v.cat.ModelNames())
	sort.Strings(names)
	return names
}

func (v *validator) list(names []string) string {
	if len(names) == 0 {
		return "(none registered)"
	}
	return strings.Join(names, ", ")
}

func (v *validator) schedulers(nodes []yaml.Node) []SchedulerSpec {
	if len(nodes) == 0 {
		v.errorf("schedulers", "required: at least one scheduler; known: %s", v.list(v.catSchedulers()))
		return nil
	}
	known := v.catSchedulers()
	var out []SchedulerSpec
	seen := map[string]int{}
	for i := range nodes {
		n := &nodes[i]
		path := fmt.Sprintf("schedulers[%d]", i)
		var e SchedulerSpec
		switch n.Kind {
		case yaml.ScalarNode:
			e.Name = n.Value
		case yaml.MappingNode:
			bad := false
			for j := 0; j+1 < len(n.Content); j += 2 {
				k := n.Content[j].Value
				if k != "name" && k != "params" && k != "plugin" && k != "pass_timeout" {
					v.errs = append(v.errs, FieldError{Path: path + "." + k, Line: n.Content[j].Line,
						Msg: "unknown field; accepted: name, params, plugin, pass_timeout"})
					bad = true
				}
			}
			var rs rawScheduler
			if err := n.Decode(&rs); err != nil {
				v.errorf(path, "%s; accepted: a name or {name: NAME, params: {...}} or {plugin: PATH, params: {...}}", strings.TrimPrefix(err.Error(), "yaml: "))
				continue
			}
			if bad {
				continue
			}
			e.Name = rs.Name
			if len(rs.Params) > 0 {
				e.Params = map[string]any{}
			}
			for _, k := range sortedKeys(rs.Params) {
				pp := path + ".params." + k
				if !identRE.MatchString(k) {
					v.errorf(pp, "invalid parameter name; accepted: lower-case letters, digits and '_', starting with a letter")
					continue
				}
				val, err := normalize(rs.Params[k])
				if err != nil {
					v.errorf(pp, "%s", err)
					continue
				}
				e.Params[k] = val
			}
			if rs.Plugin != "" || rs.PassTimeout != nil {
				if !v.pluginEntry(path, &rs, &e, known) {
					continue
				}
			}
		default:
			v.errorf(path, "accepted: a scheduler name or {name: NAME, params: {...}}")
			continue
		}
		if e.Plugin != nil {
			// checked by pluginEntry
		} else if e.Name == "" {
			v.errorf(path, "scheduler name required; known: %s", v.list(known))
			continue
		} else if !slices.Contains(known, e.Name) {
			v.errorf(path, "unknown scheduler %q; known: %s", e.Name, v.list(known))
			continue
		} else if err := v.single(v.checkScheduler(e.Name, e.Params), secScheduler, false); err != nil {
			v.errorf(path+".params", "scheduler %q: %v", e.Name, err)
			continue
		}
		key := e.Name + "\x00" + canonMap(e.Params)
		if j, dup := seen[key]; dup {
			v.errorf(path, "duplicate of schedulers[%d] (same name and params)", j)
			continue
		}
		seen[key] = i
		out = append(out, e)
	}
	return out
}

func canonMap(m map[string]any) string {
	var b strings.Builder
	for _, k := range sortedKeys(m) {
		b.WriteString(k)
		b.WriteByte('=')
		b.WriteString(canonValue(m[k]))
		b.WriteByte(0)
	}
	return b.String()
}

func acceptedPaths() string {
	return "platform.procs, workload.load, workload.jobs, workload.warmup, workload.estimates, " +
		"workload.overrun, workload.trace, workload.user_estimates, workload.max_estimate, workload.est_bins, " +
		"workload.cpu_usage, workload.cpu_estimate, workload.cpu_error, " +
		"workload.generator.<param>, scheduler.<param>, scheduler.<name>.<param>"
}

func (v *validator) axes(raws []rawAxis, s *Spec) []axisInfo {
	var out []axisInfo
	seen := map[string]int{}
	v.swept = map[string]bool{}
	for _, ra := range raws {
		v.swept[ra.Param] = true
	}
	for i, ra := range raws {
		path := fmt.Sprintf("axes[%d]", i)
		ax, ok := v.axisPath(path+".param", ra.Param, s)
		if !ok {
			continue
		}
		key := ax.scope + "\x00" + ax.name
		if j, dup := seen[key]; dup {
			v.errorf(path+".param", "%q is already swept by axes[%d]", ra.Param, j)
			continue
		}
		seen[key] = i
		var values []any
		var vpath func(j int) string
		switch {
		case ra.Values != nil && ra.Range != nil:
			v.errorf(path, "both values and range given; accepted: exactly one of values, range")
			continue
		case ra.Values != nil:
			if len(ra.Values) == 0 {
				v.errorf(path+".values", "empty; accepted: a non-empty list")
				continue
			}
			if len(ra.Values) > MaxAxisValues {
				v.errorf(path+".values", "%d values; accepted: at most %d", len(ra.Values), MaxAxisValues)
				continue
			}
			values = ra.Values
			vpath = func(j int) string { return fmt.Sprintf("%s.values[%d]", path, j) }
		case ra.Range != nil:
			var ok bool
			values, ok = v.expandRange(path+".range", ra.Range)
			if !ok {
				continue
			}
			vpath = func(int) string { return path + ".range" }
		default:
			v.errorf(path, "no values; accepted: values: [...] or range: {from, to, step}")
			continue
		}
		ax.path, ax.index, ax.crn, ax.rawIndex = ra.Param, i, ra.CommonRandomNumbers, i
		ax.values = v.axisValues(ax, values, vpath, s)
		if ax.values == nil {
			continue
		}
		out = append(out, ax.axisInfo)
		s.Axes = append(s.Axes, Axis{Param: ra.Param, Values: ax.values, CommonRandomNumbers: ax.crn})
	}
	return out
}

// resolvedAxis carries an axis through validation.
type resolvedAxis struct {
	axisInfo
	path  string
	index int
	def   *paramDef
}

func (v *validator) axisPath(path, p string, s *Spec) (resolvedAxis, bool) {
	var ax resolvedAxis
	parts := strings.Split(p, ".")
	bad := func(why string) (resolvedAxis, bool) {
		v.errorf(path, "%s; accepted: %s", why, acceptedPaths())
		return ax, false
	}
	if p == "" {
		return bad("required")
	}
	if ownsPlatform(s.Workload.Output) && (parts[0] == "platform" || parts[0] == "workload" && (len(parts) < 2 || parts[1] != "generator")) {
		v.errorf(path, "%q does not apply to model %q, which generates %s workloads with their own platform; accepted: workload.generator.<param>, scheduler.<param>, scheduler.<name>.<param>", p, s.Workload.Generator.Model, s.Workload.Output)
		return ax, false
	}
	switch parts[0] {
	case "platform":
		defs := platformParams()
		if len(parts) != 2 {
			return bad(fmt.Sprintf("unknown parameter path %q", p))
		}
		def, ok := defs[parts[1]]
		if !ok {
			return bad(fmt.Sprintf("unknown platform parameter %q", parts[1]))
		}
		ax.name, ax.def = p, &def
	case "workload":
		if len(parts) >= 2 && parts[1] == "generator" {
			if len(parts) != 3 || parts[2] == "" {
				return bad(fmt.Sprintf("unknown parameter path %q", p))
			}
			if s.Workload.Generator == nil {
				v.errorf(path, "%q needs a generator workload; this spec uses a trace", p)
				return ax, false
			}
			if parts[2] == "model" {
				v.errorf(path, "the generator model cannot be an axis (models differ in parameters); accepted: workload.generator.<param>")
				return ax, false
			}
			if !identRE.MatchString(parts[2]) {
				return bad(fmt.Sprintf("invalid parameter name %q", parts[2]))
			}
			ax.name = p
			break
		}
		def, ok := workloadParams()[p]
		if !ok || p == "workload.lenient" {
			return bad(fmt.Sprintf("unknown parameter path %q", p))
		}
		if p == "workload.trace" && s.Workload.Generator != nil {
			v.errorf(path, "%q needs a trace workload; this spec uses a generator", p)
			return ax, false
		}
		if (p == pUserEstimates || p == pMaxEstimate || p == pEstBins) && s.Workload.Generator != nil {
			v.errorf(path, "%q needs a trace workload; this spec uses a generator, which draws its own estimates (accepted: workload.generator.estimates, workload.generator.max_estimate, workload.generator.est_bins)", p)
			return ax, false
		}
		ax.name, ax.def = p, &def
	case "scheduler":
		switch len(parts) {
		case 2:
			ax.name = p
		case 3:
			found := false
			for _, e := range s.Schedulers {
				found = found || e.Name == parts[1]
			}
			if !found {
				var names []string
				for _, e := range s.Schedulers {
					names = append(names, e.Name)
				}
				v.errorf(path, "scheduler %q of %q is not in schedulers; accepted: %s", parts[1], p, v.list(names))
				return ax, false
			}
			ax.name, ax.scope = "scheduler."+parts[2], parts[1]
		default:
			return bad(fmt.Sprintf("unknown parameter path %q", p))
		}
		if !identRE.MatchString(shortName(ax.name)) {
			return bad(fmt.Sprintf("invalid parameter name %q", shortName(ax.name)))
		}
	default:
		return bad(fmt.Sprintf("unknown parameter path %q", p))
	}
	return ax, true
}

// expandRange expands {from, to, step}, both ends inclusive.
func (v *validator) expandRange(path string, r *rawRange) ([]any, bool) {
	num := func(field string, x any) (any, bool) {
		if x == nil {
			v.errorf(path+"."+field, "required; accepted: a number")
			return nil, false
		}
		n, err := normalize(x)
		if err == nil {
			switch n.(type) {
			case int64, float64:
				return n, true
			}
			err = fmt.Errorf("must be a number, got %s", formatValue(n))
		}
		v.errorf(path+"."+field, "%s; accepted: a number", err)
		return nil, false
	}
	from, ok1 := num("from", r.From)
	to, ok2 := num("to", r.To)
	step, ok3 := num("step", r.Step)
	if !ok1 || !ok2 || !ok3 {
		return nil, false
	}
	f, t, st := toFloat(from), toFloat(to), toFloat(step)
	if st == 0 || (t-f)*st < 0 {
		v.errorf(path+".step", "step %s does not lead from %s to %s; accepted: a non-zero step with the sign of to - from",
			formatValue(step), formatValue(from), formatValue(to))
		return nil, false
	}
	n := int(math.Floor((t-f)/st+1e-9)) + 1
	if n > MaxAxisValues {
		v.errorf(path, "%d values; accepted: at most %d", n, MaxAxisValues)
		return nil, false
	}
	_, fi := from.(int64)
	_, ti := to.(int64)
	_, si := step.(int64)
	out := make([]any, n)
	for i := range n {
		if fi && ti && si {
			out[i] = from.(int64) + int64(i)*step.(int64)
			continue
		}
		x := f + float64(i)*st
		x, _ = strconv.ParseFloat(strconv.FormatFloat(x, 'g', 12, 64), 64)
		out[i] = x
	}
	return out, true
}

func toFloat(v any) float64 {
	if f, ok := numeric.Float(v); ok {
		return f
	}
	return math.NaN()
}

// axisValues normalizes and checks every value of an axis; nil on any error.
func (v *validator) axisValues(ax resolvedAxis, values []any, vpath func(int) string, s *Spec) []any {
	out := make([]any, 0, len(values))
	ok := true
	seen := map[string]int{}
	// A scheduler that rejects every value does not take the parameter:
	// say so once, at the axis, instead of once per value.
	rejectsAll := map[string]bool{}
	if strings.HasPrefix(ax.name, "scheduler.") {
		for _, e := range s.Schedulers {
			if ax.scope != "" && e.Name != ax.scope {
				continue
			}
			var first error
			all := true
			for _, raw := range values {
				val, err := normalize(raw)
				if err != nil {
					all = false
					break
				}
				params := cloneMap(e.Params)
				params[shortName(ax.name)] = val
				err = v.single(v.checkScheduler(e.Name, params), secScheduler, true)
				if err == nil {
					all = false
					break
				}
				if first == nil {
					first = err
				}
			}
			if all && first != nil {
				rejectsAll[e.Name] = true
				hint := ""
				if ax.scope == "" {
					hint = fmt.Sprintf("; to sweep it for one scheduler only, use scheduler.<name>.%s", shortName(ax.name))
				}
				v.errorf(fmt.Sprintf("axes[%d].param", ax.index), "scheduler %q rejects every value: %v%s", e.Name, first, hint)
				ok = false
			}
		}
	}
	for j, raw := range values {
		p := vpath(j)
		var val any
		if ax.def != nil {
			x, good := v.knownValue(p, ax.name, *ax.def, raw)
			if !good {
				ok = false
				continue
			}
			val = x
		} else {
			x, err := normalize(raw)
			if err != nil {
				v.errorf(p, "%s", err)
				ok = false
				continue
			}
			val = x
		}
		if k, dup := seen[canonValue(val)]; dup {
			v.errorf(p, "duplicate value %s (same as value %d)", formatValue(val), k)
			ok = false
			continue
		}
		seen[canonValue(val)] = j
		switch {
		case estimateParam(ax.name) && s.Workload.Trace != "":
			if msg := v.estimateValue(ax.name, val, s); msg != "" {
				v.errorf(p, "%s", msg)
				ok = false
			}
		case strings.HasPrefix(ax.name, "workload.generator."):
			g := s.Workload.Generator
			if g == nil || g.Model == "" || v.cat == nil {
				break
			}
			params := cloneMap(g.Params)
			params[shortName(ax.name)] = val
			if err := v.single(v.cat.CheckModel(g.Model, params), secGenerator, true); err != nil {
				v.errorf(p, "model %q: %s", g.Model, strings.ReplaceAll(err.Error(), "\n", "; "))
				ok = false
			}
		case strings.HasPrefix(ax.name, "scheduler."):
			for _, e := range s.Schedulers {
				if ax.scope != "" && e.Name != ax.scope || rejectsAll[e.Name] {
					continue
				}
				params := cloneMap(e.Params)
				params[shortName(ax.name)] = val
				if err := v.single(v.checkScheduler(e.Name, params), secScheduler, true); err != nil {
					v.errorf(p, "scheduler %q: %v", e.Name, err)
					ok = false
					break
				}
			}
		}
		out = append(out, val)
	}
	if !ok {
		return nil
	}
	return out
}

func cloneMap(m map[string]any) map[string]any {
	c := make(map[string]any, len(m)+1)
	for k, v := range m {
		c[k] = v
	}
	return c
}

// unifyKinds gives every parameter one numeric kind across the spec:
// integers become floats when any value of the same parameter is a float.
func (v *validator) unifyKinds(base *[]Param, s *Spec, axes []axisInfo) {
	kinds := map[string]map[string]bool{}
	note := func(name string, val any) {
		if kinds[name] == nil {
			kinds[name] = map[string]bool{}
		}
		kinds[name][kindOf(val)] = true
	}
	for _, p := range *base {
		note(p.Name, p.Value)
	}
	for _, e := range s.Schedulers {
		for k, val := range e.Params {
			note("scheduler."+k, val)
		}
	}
	for _, ax := range axes {
		for _, val := range ax.values {
			note(ax.name, val)
		}
	}
	toFloat := map[string]bool{}
	for _, name := range sortedKeys(kinds) {
		ks := kinds[name]
		if len(ks) == 1 {
			continue
		}
		if len(ks) == 2 && ks[KindInt] && ks[KindFloat] {
			toFloat[name] = true
		}
		// Other mixes (a number and a word such as "unlimited") stay as
		// they are; the results layer stores such a column as strings.
	}
	conv := func(name string, val any) any {
		if i, ok := val.(int64); ok && toFloat[name] {
			return float64(i)
		}
		return val
	}
	for i := range *base {
		(*base)[i].Value = conv((*base)[i].Name, (*base)[i].Value)
	}
	if g := s.Workload.Generator; g != nil {
		for k, val := range g.Params {
			g.Params[k] = conv("workload.generator."+k, val)
		}
	}
	for _, e := range s.Schedulers {
		for k, val := range e.Params {
			e.Params[k] = conv("scheduler."+k, val)
		}
	}
	for ai := range axes {
		for j, val := range axes[ai].values {
			axes[ai].values[j] = conv(axes[ai].name, val)
		}
	}
	for ai := range s.Axes {
		for j, val := range s.Axes[ai].Values {
			s.Axes[ai].Values[j] = conv(axes[ai].name, val)
		}
	}
}

func (v *validator) zip(groups [][]string, axes []axisInfo) [][]string {
	byPath := map[string]int{}
	for i, ax := range axes {
		p := ax.name
		if ax.scope != "" {
			p = "scheduler." + ax.scope + "." + shortName(ax.name)
		}
		byPath[p] = i
	}
	var names []string
	for p := range byPath {
		names = append(names, p)
	}
	sort.Strings(names)
	used := map[string]int{}
	var out [][]string
	for gi, g := range groups {
		path := fmt.Sprintf("zip[%d]", gi)
		if len(g) < 2 {
			v.errorf(path, "a zip group needs at least 2 axes, got %d; accepted: a list of axis params", len(g))
			continue
		}
		ok := true
		n := -1
		for j, p := range g {
			pp := fmt.Sprintf("%s[%d]", path, j)
			ai, found := byPath[p]
			if !found {
				v.errorf(pp, "%q is not an axis; accepted: %s", p, v.list(names))
				ok = false
				continue
			}
			if k, dup := used[p]; dup {
				v.errorf(pp, "%q is already in zip[%d]; an axis can be in one zip group only", p, k)
				ok = false
				continue
			}
			used[p] = gi
			if n < 0 {
				n = len(axes[ai].values)
			} else if len(axes[ai].values) != n {
				v.errorf(pp, "%q has %d values but %q has %d; accepted: zipped axes of equal length",
					p, len(axes[ai].values), g[0], n)
				ok = false
			}
		}
		if ok {
			out = append(out, g)
		}
	}
	return out
}

func (v *validator) metrics(ms []string, output string) []string {
	var known []string
	if v.cat != nil && output != "" {
		known = v.cat.MetricNames(output)
	}
	seen := map[string]bool{}
	var out []string
	for i, m := range ms {
		p := fmt.Sprintf("metrics[%d]", i)
		switch {
		case seen[m]:
			v.errorf(p, "duplicate metric %q", m)
		case known != nil && !slices.Contains(known, m):
			ks := slices.Clone(known)
			sort.Strings(ks)
			v.errorf(p, "unknown metric %q; known: %s", m, strings.Join(ks, ", "))
		case known == nil && !identRE.MatchString(m):
			v.errorf(p, "invalid metric name %q; accepted: lower-case letters, digits and '_'", m)
		default:
			out = append(out, m)
		}
		seen[m] = true
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
