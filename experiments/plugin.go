package experiments

import (
	"math"
	"slices"
	"time"

	"github.com/schedfarm/schedfarm/param"
	"github.com/schedfarm/schedfarm/runner"
	"github.com/schedfarm/schedfarm/strategies/plugin"
)

// Plugin describes the plugin executable at path for spec validation: it
// starts it, reads its name and parameters and hashes it
// (strategies/plugin.Describe).
func (c familyCatalog) Plugin(path string) (PluginInfo, error) {
	bin, desc, err := plugin.Describe(path, plugin.Options{})
	if err != nil {
		return PluginInfo{}, err
	}
	check, err := plugin.ParamChecker(desc)
	if err != nil {
		return PluginInfo{}, err
	}
	return PluginInfo{SHA256: bin.SHA256, Name: desc.GetName(), Check: check}, nil
}

// pluginIDName is the scheduler name a plugin cell's ID is computed with:
// its name and its binary's SHA-256, so results of different builds never
// share an ID (and resuming reruns the cells of a rebuilt plugin).
func pluginIDName(name string, ref *runner.PluginRef) string {
	if ref == nil {
		return name
	}
	return name + "@sha256:" + ref.SHA256
}

// pluginEntry checks a {plugin: PATH, name, params, pass_timeout} entry of
// schedulers and completes e: the plugin is started once to read its name
// and parameters and to hash it. It reports every problem and returns
// false when the entry cannot be used.
func (v *validator) pluginEntry(path string, rs *rawScheduler, e *SchedulerSpec, known []string) bool {
	if rs.Plugin == "" {
		v.errorf(path+".pass_timeout", "applies to plugins only; accepted: {plugin: PATH, pass_timeout: SECONDS}")
		return false
	}
	if ownsPlatform(v.output) {
		v.errorf(path+".plugin", "scheduler plugins run on SWF workloads (rigid jobs on a processor pool); this workload's model generates %s workloads with their own platform", v.output)
		return false
	}
	ref := &runner.PluginRef{Path: rs.Plugin}
	if rs.PassTimeout != nil {
		secs, ok := timeoutSeconds(rs.PassTimeout)
		if !ok {
			v.errorf(path+".pass_timeout", "%v; accepted: seconds > 0, or a duration such as 30s or 2m", param.Format(rs.PassTimeout))
			return false
		}
		ref.PassTimeout = secs
	}
	pc, ok := v.cat.(PluginCatalog)
	if !ok {
		v.errorf(path+".plugin", "this scheduler catalog runs no plugins")
		return false
	}
	full := runner.ResolvePath(v.dir, rs.Plugin)
	info, ok := v.plugins[full]
	if !ok {
		var err error
		if info, err = pc.Plugin(full); err != nil {
			v.errorf(path+".plugin", "%v", err)
			return false
		}
		if v.plugins == nil {
			v.plugins, v.pluginNames = map[string]PluginInfo{}, map[string]PluginInfo{}
		}
		v.plugins[full] = info
	}
	ref.SHA256 = info.SHA256
	name := e.Name
	if name == "" {
		name = info.Name
	}
	switch other, dup := v.pluginNames[name]; {
	case !nameRE.MatchString(name):
		v.errorf(path+".name", "invalid name %q; accepted: letters, digits, '.', '_' and '-', starting with a letter or digit", name)
		return false
	case slices.Contains(known, name):
		v.errorf(path+".name", "%q is a built-in scheduler's name; give the plugin a name of its own (name: …)", name)
		return false
	case dup && other.SHA256 != info.SHA256:
		v.errorf(path+".name", "%q already names a different plugin binary; give each a name of its own (name: …)", name)
		return false
	}
	if err := info.Check(e.Params); err != nil {
		v.errorf(path+".params", "plugin %q: %v", name, err)
		return false
	}
	v.pluginNames[name] = info
	e.Name, e.Plugin = name, ref
	return true
}

// timeoutSeconds reads a pass_timeout: seconds (a number > 0) or a Go
// duration string ("30s").
func timeoutSeconds(v any) (float64, bool) {
	switch x := v.(type) {
	case int:
		return float64(x), x > 0
	case int64:
		return float64(x), x > 0
	case float64:
		return x, x > 0 && !math.IsInf(x, 0)
	case string:
		d, err := time.ParseDuration(x)
		return d.Seconds(), err == nil && d > 0
	}
	return 0, false
}
