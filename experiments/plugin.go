package experiments

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/schedfarm/schedfarm/runner"
	"github.com/schedfarm/schedfarm/strategies/plugin"
)

// Plugin describes the plugin executable at path for spec validation: it
// starts it, reads its name and parameters and hashes it
// (strategies/plugin.Describe).
func (c builtinCatalog) Plugin(path string) (PluginInfo, error) {
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

// openPlugin starts the cell's plugin for a run: its binary must still be
// the one the cell was made for (the file at the cell's path on this
// worker, hashed again); otherwise the cell is refused.
func openPlugin(c runner.Cell) (*plugin.Plugin, error) {
	bin := plugin.Binary{Path: ResolvePath(c.Dir, c.Plugin.Path), SHA256: c.Plugin.SHA256}
	if err := bin.Verify(); err != nil {
		return nil, fmt.Errorf("worker refuses the cell: %w", err)
	}
	opts := plugin.Options{PassTimeout: time.Duration(c.Plugin.PassTimeout * float64(time.Second))}
	return plugin.Open(bin, opts)
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
			v.errorf(path+".pass_timeout", "%v; accepted: seconds > 0, or a duration such as 30s or 2m", formatValue(rs.PassTimeout))
			return false
		}
		ref.PassTimeout = secs
	}
	pc, ok := v.cat.(PluginCatalog)
	if !ok {
		v.errorf(path+".plugin", "this scheduler catalog runs no plugins")
		return false
	}
	full := ResolvePath(v.dir, rs.Plugin)
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

// withPlugin points cfg at the cell's plugin (a registry holding only it,
// under the cell's scheduler name); the returned function closes it. A
// cell whose workload brings its own platform cannot run a plugin.
func withPlugin(c runner.Cell, cfg runner.Config) (runner.Config, func(), error) {
	if model, ok := familyModel(c); ok {
		return cfg, nil, fmt.Errorf("scheduler plugins run on SWF workloads; model %q brings its own platform", model)
	}
	p, err := openPlugin(c)
	if err != nil {
		return cfg, nil, err
	}
	reg, err := p.Registry(c.Scheduler, cfg.Seed)
	if err != nil {
		p.Close()
		return cfg, nil, err
	}
	cfg.Registry = reg
	return cfg, func() { p.Close() }, nil
}
