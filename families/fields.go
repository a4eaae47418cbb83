package families

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/schedfarm/schedfarm/family"
)

// WorkloadFields lists the workload fields the built-in families add to
// experiment specs (family.SpecChecker), in family order.
func WorkloadFields() []family.Field {
	var fields []family.Field
	for _, f := range Builtin() {
		if sc, ok := f.(family.SpecChecker); ok {
			fields = append(fields, sc.SpecFields()...)
		}
	}
	return fields
}

// WorkloadField returns the built-in families' workload field of that full
// name ("workload.cpu_usage").
func WorkloadField(name string) (family.Field, bool) {
	for _, fd := range WorkloadFields() {
		if fd.Name == name {
			return fd, true
		}
	}
	return family.Field{}, false
}

// FieldKind is the family.Field.Kind of a field value: "int" (int64),
// "float" (float64), "string" or "bool"; "" for any other type.
func FieldKind(v any) string {
	switch v.(type) {
	case int64:
		return "int"
	case float64:
		return "float"
	case string:
		return "string"
	case bool:
		return "bool"
	}
	return ""
}

// CheckWorkloadFields checks a run's values of the families' workload
// fields, by full name: every name must be a field of a built-in family
// and every value of its kind; then each family checks its own, together
// (family.FieldsChecker) or one by one (family.Field.Check). It reports
// every problem.
func CheckWorkloadFields(values map[string]any) error {
	var errs []error
	for _, name := range slices.Sorted(maps.Keys(values)) {
		fd, ok := WorkloadField(name)
		switch {
		case !ok:
			errs = append(errs, fmt.Errorf("unknown workload field %q; accepted: %s", name, strings.Join(fieldNames(), ", ")))
		case FieldKind(values[name]) != fd.Kind:
			errs = append(errs, fmt.Errorf("%s: value %v (%T); accepted: %s (%s)", name, values[name], values[name], fd.Accepted, fd.Kind))
		}
	}
	if len(errs) > 0 {
		return errors.Join(errs...) // the families' checks assume known fields of their kinds
	}
	for _, f := range Builtin() {
		sc, ok := f.(family.SpecChecker)
		if !ok {
			continue
		}
		if fc, ok := f.(family.FieldsChecker); ok {
			if err := fc.CheckFields(values); err != nil {
				errs = append(errs, err)
			}
			continue
		}
		for _, fd := range sc.SpecFields() {
			if v, given := values[fd.Name]; given && fd.Check != nil {
				if msg := fd.Check(v); msg != "" {
					errs = append(errs, fmt.Errorf("%s %v: %s; accepted: %s", fd.Name, v, msg, fd.Accepted))
				}
			}
		}
	}
	return errors.Join(errs...)
}

func fieldNames() []string {
	var names []string
	for _, fd := range WorkloadFields() {
		names = append(names, fd.Name)
	}
	return names
}
