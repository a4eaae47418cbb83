package experiments

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// Parameter value types. Every Param.Value is exactly one of int64, float64,
// string or bool; Kind names them in JSON and in error messages.
const (
	KindInt    = "int"
	KindFloat  = "float"
	KindString = "string"
	KindBool   = "bool"
)

// Kind returns the kind of the parameter's value: KindInt, KindFloat,
// KindString, KindBool, or "" for a value of any other Go type.
func (p Param) Kind() string { return kindOf(p.Value) }

func kindOf(v any) string {
	switch v.(type) {
	case int64:
		return KindInt
	case float64:
		return KindFloat
	case string:
		return KindString
	case bool:
		return KindBool
	}
	return ""
}

// paramJSON is the wire form of a Param: the kind travels with the value so
// that an integer stays an int64 and 2.0 stays a float64 after a round trip.
type paramJSON struct {
	Name  string          `json:"name"`
	Value json.RawMessage `json:"value"`
	Type  string          `json:"type,omitempty"`
}

// MarshalJSON encodes the parameter as {"name":…,"value":…,"type":…}.
func (p Param) MarshalJSON() ([]byte, error) {
	k := p.Kind()
	if k == "" {
		return nil, fmt.Errorf("param %s: unsupported value type %T", p.Name, p.Value)
	}
	if f, ok := p.Value.(float64); ok && (math.IsNaN(f) || math.IsInf(f, 0)) {
		return nil, fmt.Errorf("param %s: value %v is not finite", p.Name, f)
	}
	v, err := json.Marshal(p.Value)
	if err != nil {
		return nil, err
	}
	return json.Marshal(paramJSON{Name: p.Name, Value: v, Type: k})
}

// UnmarshalJSON decodes the form written by MarshalJSON. Without a "type",
// JSON numbers decode as float64, strings as string and booleans as bool.
func (p *Param) UnmarshalJSON(data []byte) error {
	var w paramJSON
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(w.Value))
	dec.UseNumber()
	var raw any
	if err := dec.Decode(&raw); err != nil {
		return fmt.Errorf("param %s: %w", w.Name, err)
	}
	p.Name = w.Name
	switch w.Type {
	case KindInt:
		n, ok := raw.(json.Number)
		if !ok {
			return fmt.Errorf("param %s: type int but value %s", w.Name, w.Value)
		}
		i, err := strconv.ParseInt(n.String(), 10, 64)
		if err != nil {
			return fmt.Errorf("param %s: %w", w.Name, err)
		}
		p.Value = i
	case KindFloat, "":
		if n, ok := raw.(json.Number); ok {
			f, err := strconv.ParseFloat(n.String(), 64)
			if err != nil {
				return fmt.Errorf("param %s: %w", w.Name, err)
			}
			p.Value = f
			return nil
		}
		if w.Type == KindFloat {
			return fmt.Errorf("param %s: type float but value %s", w.Name, w.Value)
		}
		switch v := raw.(type) {
		case string, bool:
			p.Value = v
		default:
			return fmt.Errorf("param %s: value %s is not a scalar", w.Name, w.Value)
		}
	case KindString:
		s, ok := raw.(string)
		if !ok {
			return fmt.Errorf("param %s: type string but value %s", w.Name, w.Value)
		}
		p.Value = s
	case KindBool:
		b, ok := raw.(bool)
		if !ok {
			return fmt.Errorf("param %s: type bool but value %s", w.Name, w.Value)
		}
		p.Value = b
	default:
		return fmt.Errorf("param %s: unknown type %q; accepted: int, float, string, bool", w.Name, w.Type)
	}
	return nil
}

// Lookup returns the value of the named parameter (a dotted name such as
// "workload.load") and whether the cell has it.
func (c *Cell) Lookup(name string) (any, bool) {
	i := sort.Search(len(c.Params), func(i int) bool { return c.Params[i].Name >= name })
	if i < len(c.Params) && c.Params[i].Name == name {
		return c.Params[i].Value, true
	}
	// Params should be sorted; fall back to a scan for hand-built cells.
	for _, p := range c.Params {
		if p.Name == name {
			return p.Value, true
		}
	}
	return nil, false
}

// ParamsWithPrefix returns the parameters whose names start with prefix,
// with the prefix removed, as a map (for scheduler and generator params).
func (c *Cell) ParamsWithPrefix(prefix string) map[string]any {
	m := map[string]any{}
	for _, p := range c.Params {
		if rest, ok := strings.CutPrefix(p.Name, prefix); ok && rest != "" {
			m[rest] = p.Value
		}
	}
	return m
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

// formatValue renders a value for humans (error messages, reports).
func formatValue(v any) string {
	switch x := v.(type) {
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case string:
		return strconv.Quote(x)
	}
	return fmt.Sprint(v)
}

// FormatValue renders a parameter value compactly for tables and legends:
// numbers in shortest form, strings unquoted.
func FormatValue(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return formatValue(v)
}

// sortParams sorts parameters by name.
func sortParams(ps []Param) {
	sort.Slice(ps, func(i, j int) bool { return ps[i].Name < ps[j].Name })
}
