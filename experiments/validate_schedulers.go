package experiments

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
)

// The schedulers section: registry, family and plugin schedulers with
// their parameters.

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
