package experiments

import (
	"fmt"
	"math"

	"github.com/schedfarm/schedfarm/param"
)

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
		return nil, fmt.Sprintf("must be a number, got %s", formatValue(v))
	case param.Int:
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
	case param.String:
		if s, ok := v.(string); ok {
			return s, ""
		}
		return nil, fmt.Sprintf("must be a string, got %s", formatValue(v))
	case param.Bool:
		if b, ok := v.(bool); ok {
			return b, ""
		}
		return nil, fmt.Sprintf("must be true or false, got %s", formatValue(v))
	}
	return v, ""
}
