// Package numeric converts the numbers that arrive from YAML, JSON and Go
// callers (any integer or float kind) to float64, in one place.
package numeric

// Float returns v as a float64 when v is a Go integer or float value. It
// does not parse strings: callers that accept numbers written as words or
// strings decide that themselves.
func Float(v any) (float64, bool) {
	switch x := v.(type) {
	case int:
		return float64(x), true
	case int8:
		return float64(x), true
	case int16:
		return float64(x), true
	case int32:
		return float64(x), true
	case int64:
		return float64(x), true
	case uint:
		return float64(x), true
	case uint8:
		return float64(x), true
	case uint16:
		return float64(x), true
	case uint32:
		return float64(x), true
	case uint64:
		return float64(x), true
	case float32:
		return float64(x), true
	case float64:
		return x, true
	}
	return 0, false
}
