package main

import (
	"flag"
	"fmt"
	"strconv"
	"strings"

	"github.com/schedfarm/schedfarm/param"
)

// fieldFlag is the sim command's flag for one family workload field
// (family.SpecChecker): "workload.cpu_usage" is --cpu-usage. A value is
// parsed as the field's kind and stored under the field's full name, so
// the families check it as they check a spec's (runner.Config.FamilyFields).
type fieldFlag struct {
	field param.Spec
	into  map[string]any
}

func (f fieldFlag) String() string {
	if f.into == nil {
		return ""
	}
	if v, ok := f.into[f.field.Name]; ok {
		return fmt.Sprint(v)
	}
	return ""
}

func (f fieldFlag) Set(s string) error {
	var v any
	var err error
	switch f.field.Kind {
	case param.Int:
		v, err = strconv.ParseInt(s, 10, 64)
	case param.Float:
		v, err = strconv.ParseFloat(s, 64)
	case param.Bool:
		v, err = strconv.ParseBool(s)
	case param.String:
		v = s
	default:
		return fmt.Errorf("field %s of kind %q has no flag", f.field.Name, f.field.Kind)
	}
	if err != nil {
		return fmt.Errorf("%q: not a %s; accepted: %s", s, f.field.Kind, f.field.Accepted())
	}
	f.into[f.field.Name] = v
	return nil
}

// IsBoolFlag lets a bool field be given as a bare --flag.
func (f fieldFlag) IsBoolFlag() bool { return f.field.Kind == param.Bool }

// fieldFlagName is the flag of a workload field: its name after
// "workload.", underscores as dashes.
func fieldFlagName(name string) string {
	return strings.ReplaceAll(strings.TrimPrefix(name, "workload."), "_", "-")
}

// registerFieldFlags adds a flag for every built-in family's workload
// field; the values given land in into, by the fields' full names. A
// field whose flag name is taken already (by a flag of the command's own)
// gets none: the command's flags are checked first.
func registerFieldFlags(fs *flag.FlagSet, into map[string]any) {
	for _, fd := range catalog().WorkloadFields() {
		name := fieldFlagName(fd.Name)
		if fs.Lookup(name) != nil {
			continue
		}
		fs.Var(fieldFlag{field: fd, into: into}, name, fmt.Sprintf("a spec's %s, for the schedulers whose family reads it: %s", fd.Name, fd.Accepted()))
	}
}
