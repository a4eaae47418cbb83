package experiments

import (
	"fmt"
	"math"
	"sort"
	"strconv"

	"github.com/schedfarm/schedfarm/param"
	"github.com/schedfarm/schedfarm/runner"
)

// The values of a spec: a decoded YAML scalar normalized to one of the
// four kinds (normalize), coerced to the kind a field declares (coerce),
// checked by its param.Spec (knownValue), canonical text for IDs and seeds
// (canonValue), text for humans (FormatValue).

// knownValue normalizes, coerces and checks a value of a field the spec
// layer declares (runner.Fields, a family's field): its kind, then its
// spec's checks; a trace must exist.
func (v *validator) knownValue(path, name string, spec param.Spec, raw any) (any, bool) {
	n, err := normalize(raw)
	if err != nil {
		v.errorf(path, "%s; accepted: %s", err, spec.Accepted())
		return nil, false
	}
	c, msg := coerce(n, spec.Kind)
	if msg != "" {
		v.errorf(path, "%s %s; accepted: %s", shortName(name), msg, spec.Accepted())
		return nil, false
	}
	if _, err := spec.Value(c); err != nil {
		v.errorf(path, "%v; accepted: %s", err, spec.Accepted())
		return nil, false
	}
	if name == pTrace {
		if msg := v.checkTrace(c.(string)); msg != "" {
			v.errorf(path, "%s; accepted: %s", msg, spec.Accepted())
			return nil, false
		}
	}
	return c, true
}

// coerce converts a normalized value to the kind a known parameter needs.
func coerce(v any, kind param.Kind) (any, string) {
	switch kind {
	case param.Float:
		switch x := v.(type) {
		case float64:
			return x, ""
		case int64:
			return float64(x), ""
		}
		return nil, fmt.Sprintf("must be a number, got %s", param.Format(v))
	case param.Int:
		switch x := v.(type) {
		case int64:
			return x, ""
		case float64:
			if x == math.Trunc(x) && math.Abs(x) <= 1<<53 {
				return int64(x), ""
			}
			return nil, fmt.Sprintf("must be an integer, got %s", param.Format(x))
		}
		return nil, fmt.Sprintf("must be an integer, got %s", param.Format(v))
	case param.String:
		if s, ok := v.(string); ok {
			return s, ""
		}
		return nil, fmt.Sprintf("must be a string, got %s", param.Format(v))
	case param.Bool:
		if b, ok := v.(bool); ok {
			return b, ""
		}
		return nil, fmt.Sprintf("must be true or false, got %s", param.Format(v))
	}
	return v, ""
}

// normalize turns a decoded YAML or Go scalar into one of the four parameter
// kinds. It rejects nulls, lists, maps and non-finite floats.
func normalize(v any) (any, error) {
	switch x := v.(type) {
	case int:
		return int64(x), nil
	case int8:
		return int64(x), nil
	case int16:
		return int64(x), nil
	case int32:
		return int64(x), nil
	case int64:
		return x, nil
	case uint:
		return normalizeUint(uint64(x))
	case uint8:
		return int64(x), nil
	case uint16:
		return int64(x), nil
	case uint32:
		return int64(x), nil
	case uint64:
		return normalizeUint(x)
	case float32:
		return normalize(float64(x))
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, fmt.Errorf("must be a finite number, got %v", x)
		}
		return x, nil
	case string:
		return x, nil
	case bool:
		return x, nil
	case nil:
		return nil, fmt.Errorf("must be a value, got null")
	case []any:
		return nil, fmt.Errorf("must be a scalar (number, string or bool), got a list")
	case map[string]any:
		return nil, fmt.Errorf("must be a scalar (number, string or bool), got a mapping")
	}
	return nil, fmt.Errorf("must be a scalar (number, string or bool), got %T", v)
}

func normalizeUint(u uint64) (any, error) {
	if u > math.MaxInt64 {
		return nil, fmt.Errorf("integer %d is too large; accepted: up to %d", u, int64(math.MaxInt64))
	}
	return int64(u), nil
}

// canonValue is the canonical text of a parameter value used in hashes.
// Numbers are written by value, so 1 and 1.0 encode alike; strings and bools
// carry a prefix so that "1" and 1 differ.
func canonValue(v any) string {
	switch x := v.(type) {
	case int64:
		return "n:" + strconv.FormatInt(x, 10)
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1<<53 {
			return "n:" + strconv.FormatInt(int64(x), 10)
		}
		return "n:" + strconv.FormatFloat(x, 'g', -1, 64)
	case string:
		return "s:" + x
	case bool:
		return "b:" + strconv.FormatBool(x)
	}
	return fmt.Sprintf("?:%v", v)
}

// FormatValue renders a parameter value compactly for tables and legends:
// numbers in shortest form, strings unquoted.
func FormatValue(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return param.Format(v)
}

// sortParams sorts parameters by name.
func sortParams(ps []runner.Param) {
	sort.Slice(ps, func(i, j int) bool { return ps[i].Name < ps[j].Name })
}

// kindOf names the kind of a value ("int", "float", "string", "bool"; "" for
// any other Go type).
func kindOf(v any) string {
	if k, ok := param.KindOf(v); ok {
		return k.String()
	}
	return ""
}
