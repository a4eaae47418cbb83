package runner

import "maps"

// The CPU-usage flags of the sim command (--cpu-usage, --cpu-estimate,
// --cpu-error) set Config.CPUMean, CPUEstimate and CPUError, which are
// the workload fields below (families/consolidation). They remain until
// cmd/schedfarm sets Config.FamilyFields itself.
const (
	fieldCPUUsage    = "workload.cpu_usage"
	fieldCPUEstimate = "workload.cpu_estimate"
	fieldCPUError    = "workload.cpu_error"
)

// familyFields returns the run's workload fields: FamilyFields with the
// deprecated CPU fields added where set (a value in FamilyFields wins). It
// never changes the caller's map.
func (c Config) familyFields() map[string]any {
	if c.CPUMean == 0 && c.CPUEstimate == "" && c.CPUError == 0 {
		return c.FamilyFields
	}
	fields := maps.Clone(c.FamilyFields)
	if fields == nil {
		fields = map[string]any{}
	}
	add := func(name string, v any, set bool) {
		if _, given := fields[name]; set && !given {
			fields[name] = v
		}
	}
	add(fieldCPUUsage, c.CPUMean, c.CPUMean != 0)
	add(fieldCPUEstimate, c.CPUEstimate, c.CPUEstimate != "")
	add(fieldCPUError, c.CPUError, c.CPUError != 0)
	return fields
}
