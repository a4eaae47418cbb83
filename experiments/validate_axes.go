package experiments

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/schedfarm/schedfarm/internal/numeric"
	"github.com/schedfarm/schedfarm/param"
	"github.com/schedfarm/schedfarm/runner"
)

// The axes section: parameter paths, values and ranges, kinds across
// axes, zipped groups.

// acceptedPaths lists what an axis may sweep: every field that may be an
// axis, then the parameter paths.
func (v *validator) acceptedPaths() string {
	var names []string
	for _, f := range v.fields() {
		if !f.Fixed {
			names = append(names, f.Name)
		}
	}
	return strings.Join(append(names, "workload.generator.<param>", "scheduler.<param>", "scheduler.<name>.<param>"), ", ")
}

// field returns the spec's workload or platform field of that full name.
func (v *validator) field(name string) (runner.Field, bool) {
	for _, f := range v.fields() {
		if f.Name == name {
			return f, true
		}
	}
	return runner.Field{}, false
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
	def   *param.Spec
}

func (v *validator) axisPath(path, p string, s *Spec) (resolvedAxis, bool) {
	var ax resolvedAxis
	parts := strings.Split(p, ".")
	bad := func(why string) (resolvedAxis, bool) {
		v.errorf(path, "%s; accepted: %s", why, v.acceptedPaths())
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
		if len(parts) != 2 {
			return bad(fmt.Sprintf("unknown parameter path %q", p))
		}
		def, ok := v.field(p)
		if !ok {
			return bad(fmt.Sprintf("unknown platform parameter %q", parts[1]))
		}
		ax.name, ax.def = p, &def.Spec
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
		def, ok := v.field(p)
		if !ok || def.Fixed {
			return bad(fmt.Sprintf("unknown parameter path %q", p))
		}
		if p == "workload.trace" && s.Workload.Generator != nil {
			v.errorf(path, "%q needs a trace workload; this spec uses a generator", p)
			return ax, false
		}
		if def.TraceOnly && s.Workload.Generator != nil {
			v.errorf(path, "%q needs a trace workload; this spec uses a generator, which draws its own estimates (accepted: workload.generator.estimates, workload.generator.max_estimate, workload.generator.est_bins)", p)
			return ax, false
		}
		ax.name, ax.def = p, &def.Spec
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
			err = fmt.Errorf("must be a number, got %s", param.Format(n))
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
			param.Format(step), param.Format(from), param.Format(to))
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
			v.errorf(p, "duplicate value %s (same as value %d)", param.Format(val), k)
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
func (v *validator) unifyKinds(base *[]runner.Param, s *Spec, axes []axisInfo) {
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
		if len(ks) == 2 && ks[param.Int.String()] && ks[param.Float.String()] {
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
