package experiments

import (
	"maps"
	"slices"
	"strings"

	"github.com/schedfarm/schedfarm/families"
)

// The workload fields the families define (family.SpecChecker, e.g. the VM
// tiers' cpu_usage): a spec gives them in its workload section by short
// name (rawWorkload.Family), a cell carries them as workload.<name>
// parameters, and a run gets them as they are (runner.Config.FamilyFields).
// Their kinds, accepted values and checks are their families'
// (workloadParams).

// familyField is one family workload field a spec gives.
type familyField struct {
	name string // full name, workload.<key>
	raw  any
}

// givenFamilyFields lists the family fields w gives, in the families'
// order (families.WorkloadFields); a null or empty value counts as not
// given.
func givenFamilyFields(w rawWorkload) []familyField {
	var given []familyField
	for _, fd := range families.WorkloadFields() {
		raw, ok := w.Family[strings.TrimPrefix(fd.Name, "workload.")]
		if ok && raw != nil && raw != "" {
			given = append(given, familyField{name: fd.Name, raw: raw})
		}
	}
	return given
}

// unknownWorkloadFields reports every key of the workload section that is
// neither a field of its own nor a family's, naming what is accepted.
func unknownWorkloadFields(w rawWorkload, lines map[string]int) []FieldError {
	var errs []FieldError
	for _, key := range slices.Sorted(maps.Keys(w.Family)) {
		if isFamilyField("workload." + key) {
			continue
		}
		path := "workload." + key
		errs = append(errs, FieldError{Path: path, Line: lines[path], Msg: "unknown field; accepted: " + strings.Join(workloadFieldNames(), ", ")})
	}
	return errs
}

// workloadFieldNames lists the keys a workload section accepts, sorted.
func workloadFieldNames() []string {
	names := yamlFields(sectionTypes["experiments.rawWorkload"])
	for _, fd := range families.WorkloadFields() {
		names = append(names, strings.TrimPrefix(fd.Name, "workload."))
	}
	slices.Sort(names)
	return names
}

// isFamilyField reports whether name is a workload field a family defines.
func isFamilyField(name string) bool {
	_, ok := families.WorkloadField(name)
	return ok
}
