package experiments

import (
	"fmt"
	"github.com/schedfarm/schedfarm/param"
	"math"
	"slices"

	"github.com/schedfarm/schedfarm/families"
	"github.com/schedfarm/schedfarm/family"
	"github.com/schedfarm/schedfarm/runner"
)

// Parameter definitions of the spec's platform and workload sections:
// kinds, what is accepted, value checks.

// paramDef describes a parameter whose kind and range the spec layer knows.
type paramDef struct {
	kind     string
	accepted string
	check    func(v any) string // "" when v is acceptable
}

// platformParams lists the platform parameters by short name. Later platform
// families add tiers, nodes, pools here.
func platformParams() map[string]paramDef {
	return map[string]paramDef{
		"procs": {kind: param.Int.String(), accepted: "an integer > 0 (processors)", check: positiveInt("procs")},
	}
}

// workloadParams lists the workload parameters by full dotted name: the
// ones every SWF workload has, and the fields the families add
// (family.SpecChecker: the VM tiers' cpu_usage, cpu_estimate, cpu_error),
// each checked by its family.
func workloadParams() map[string]paramDef {
	defs := map[string]paramDef{
		"workload.load":      {kind: param.Float.String(), accepted: "a number > 0 (target offered load)", check: positiveFloat("load")},
		"workload.jobs":      {kind: param.Int.String(), accepted: "an integer > 0", check: positiveInt("jobs")},
		"workload.warmup":    {kind: param.Int.String(), accepted: "an integer >= 0", check: nonNegativeInt("warmup")},
		"workload.estimates": {kind: param.String.String(), accepted: "user, exact, pyss", check: oneOf("estimates", "exact", "pyss", "user")},
		"workload.overrun":   {kind: param.String.String(), accepted: "extend, kill", check: oneOf("overrun", "extend", "kill")},
		"workload.trace":     {kind: param.String.String(), accepted: "a path to an SWF file (plain or .gz)", check: nonEmpty("trace")},
		"workload.lenient":   {kind: param.Bool.String(), accepted: "true or false"},

		"workload.user_estimates": {kind: param.String.String(), accepted: "none, tsafrir05 (modelled user runtime estimates in field 9 of a trace, drawn per cell)",
			check: oneOf("user_estimates", runner.UserEstimatesNone, runner.UserEstimatesTsafrir)},
		"workload.max_estimate": {kind: param.Int.String(), accepted: maxEstimateAccepted(), check: checkMaxEstimate},
		"workload.est_bins":     {kind: param.String.String(), accepted: estimateSpec("est_bins").Form, check: checkEstBins},
	}
	for _, f := range families.Builtin() {
		if sc, ok := f.(family.SpecChecker); ok {
			for _, fd := range sc.SpecFields() {
				defs[fd.Name] = paramDef{kind: fd.Kind, accepted: fd.Accepted, check: fd.Check}
			}
		}
	}
	return defs
}

func positiveInt(what string) func(any) string {
	return func(v any) string {
		if n := v.(int64); n <= 0 {
			return fmt.Sprintf("%s must be > 0, got %d", what, n)
		}
		return ""
	}
}

func nonNegativeInt(what string) func(any) string {
	return func(v any) string {
		if n := v.(int64); n < 0 {
			return fmt.Sprintf("%s must be >= 0, got %d", what, n)
		}
		return ""
	}
}

func positiveFloat(what string) func(any) string {
	return func(v any) string {
		if f := v.(float64); !(f > 0) {
			return fmt.Sprintf("%s must be > 0, got %s", what, formatValue(f))
		}
		return ""
	}
}

func oneOf(what string, names ...string) func(any) string {
	return func(v any) string {
		if !slices.Contains(names, v.(string)) {
			return fmt.Sprintf("unknown %s %q", what, v)
		}
		return ""
	}
}

func nonEmpty(what string) func(any) string {
	return func(v any) string {
		if v.(string) == "" {
			return what + " must not be empty"
		}
		return ""
	}
}

// coerce converts a normalized value to the kind a known parameter needs.
func coerce(v any, kind string) (any, string) {
	switch kind {
	case param.Float.String():
		switch x := v.(type) {
		case float64:
			return x, ""
		case int64:
			return float64(x), ""
		}
		return nil, fmt.Sprintf("must be a number, got %s", formatValue(v))
	case param.Int.String():
		switch x := v.(type) {
		case int64:
			return x, ""
		case float64:
			if x == math.Trunc(x) && math.Abs(x) <= 1<<53 {
				return int64(x), ""
			}
			return nil, fmt.Sprintf("must be an integer, got %s", formatValue(x))
		}
		return nil, fmt.Sprintf("must be an integer, got %s", formatValue(v))
	case param.String.String():
		if s, ok := v.(string); ok {
			return s, ""
		}
		return nil, fmt.Sprintf("must be a string, got %s", formatValue(v))
	case param.Bool.String():
		if b, ok := v.(bool); ok {
			return b, ""
		}
		return nil, fmt.Sprintf("must be true or false, got %s", formatValue(v))
	}
	return v, ""
}
