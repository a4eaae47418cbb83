package experiments

import (
	"maps"
	"slices"
	"strings"
)

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
