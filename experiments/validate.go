package experiments

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/schedfarm/schedfarm/internal/lazyre"
	"github.com/schedfarm/schedfarm/param"
	"github.com/schedfarm/schedfarm/runner"
	"github.com/schedfarm/schedfarm/strategies"
)

// Limits that keep a typo from expanding into an unbounded grid.
const (
	// MaxAxisValues bounds the values of one axis (list or range).
	MaxAxisValues = 10000
	// MaxCells bounds the number of cells of one spec.
	MaxCells = 1000000
)

// axisInfo is a resolved axis.
type axisInfo struct {
	name   string // parameter name in runner.Cell.Params, e.g. "scheduler.k"
	scope  string // scheduler name for "scheduler.<name>.<p>" axes, else ""
	values []any
	crn    bool // left out of the cell seed (common random numbers)
	// rawIndex is the axis's index in the spec's axes list.
	rawIndex int
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
	nameRE  = lazyre.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)
	identRE = lazyre.MustCompile(`^[a-z][a-z0-9_]*$`)
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

	var base []runner.Param
	wl := v.workload(raw, s)
	for _, k := range sortedKeys(raw.Platform) {
		path := "platform." + k
		if ownsPlatform(s.Workload.Output) {
			v.errorf(path, "model %q generates its own platform; accepted: no platform section, the model's parameters instead", s.Workload.Generator.Model)
			continue
		}
		def, ok := runner.FieldOf(path)
		if !ok || !strings.HasPrefix(path, "platform.") {
			v.errorf(path, "unknown platform parameter; accepted: %s", strings.Join(platformNames(), ", "))
			continue
		}
		if val, ok := v.knownValue(path, path, def.Spec, raw.Platform[k]); ok {
			s.Platform[k] = val
			base = append(base, runner.Param{Name: path, Value: val})
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
	s.base = base
	s.axisInfo = axes
	s.MoreReplications = v.moreReplications(raw.MoreReplications, s)
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
					point = append(point, fmt.Sprintf("%s=%v", p.Name, param.Format(p.Value)))
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

// platformNames lists the platform fields by short name ("procs").
func platformNames() []string {
	var out []string
	for _, f := range runner.Fields() {
		if k, ok := strings.CutPrefix(f.Name, "platform."); ok {
			out = append(out, k)
		}
	}
	return out
}

func shortName(name string) string {
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		return name[i+1:]
	}
	return name
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
