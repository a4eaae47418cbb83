package strategies

import (
	"errors"
	"fmt"
	"github.com/schedfarm/schedfarm/internal/numeric"
	"math"
	"sort"
	"strconv"
	"strings"
)

// Kind is the type of a scheduler parameter.
type Kind int

// Parameter kinds.
const (
	Int Kind = iota
	Float
	String
)

func (k Kind) String() string {
	switch k {
	case Int:
		return "integer"
	case Float:
		return "number"
	}
	return "string"
}

// ParamSpec declares one parameter a scheduler accepts.
type ParamSpec struct {
	Name    string
	Kind    Kind
	Default any     // int64, float64 or string
	Min     float64 // inclusive lower bound for numbers
	Max     float64 // inclusive upper bound for numbers (0 with Min 0 = none)
	Choices []string
	Doc     string
	// Words maps accepted words to numeric values for number kinds
	// (e.g. "unlimited" → -1 for a depth).
	Words map[string]float64
}

// accepted says what values the spec accepts, for error messages.
func (s ParamSpec) accepted() string {
	var parts []string
	switch {
	case len(s.Choices) > 0:
		parts = append(parts, "one of "+strings.Join(s.Choices, ", "))
	case s.Kind == String:
		parts = append(parts, "a string")
	default:
		r := s.Kind.String()
		if math.IsInf(s.Min, -1) && math.IsInf(s.Max, 1) {
			// unbounded (a plugin's parameter without bounds)
		} else if s.Max > s.Min {
			r += fmt.Sprintf(" in [%g, %g]", s.Min, s.Max)
		} else {
			r += fmt.Sprintf(" ≥ %g", s.Min)
		}
		parts = append(parts, r)
	}
	words := make([]string, 0, len(s.Words))
	for w := range s.Words {
		words = append(words, w)
	}
	sort.Strings(words)
	parts = append(parts, words...)
	return strings.Join(parts, " or ")
}

// Params are resolved parameter values: every declared parameter is present,
// with its default when not given.
type Params map[string]any

// Int returns integer parameter name.
func (p Params) Int(name string) int { return int(p[name].(int64)) }

// Float returns number parameter name.
func (p Params) Float(name string) float64 { return p[name].(float64) }

// String returns string parameter name.
func (p Params) String(name string) string { return p[name].(string) }

// resolve checks given values against the entry's specs and fills defaults.
// Every problem is reported, joined, each naming the parameter.
func resolve(e Entry, given map[string]any) (Params, error) {
	out := Params{}
	var errs []error
	specs := map[string]ParamSpec{}
	for _, s := range e.Params {
		specs[s.Name] = s
		out[s.Name] = s.Default
	}
	names := make([]string, 0, len(given))
	for n := range given {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		s, ok := specs[n]
		if !ok {
			known := make([]string, 0, len(e.Params))
			for _, p := range e.Params {
				known = append(known, p.Name)
			}
			acc := "none"
			if len(known) > 0 {
				acc = strings.Join(known, ", ")
			}
			errs = append(errs, fmt.Errorf("%s: unknown parameter %q; accepted: %s", e.Name, n, acc))
			continue
		}
		v, err := convert(s, given[n])
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: parameter %s: %v; accepted: %s", e.Name, n, err, s.accepted()))
			continue
		}
		out[n] = v
	}
	if len(errs) == 0 && e.Validate != nil {
		if err := e.Validate(out); err != nil {
			errs = append(errs, &CombinationError{Scheduler: e.Name, Err: err})
		}
	}
	return out, errors.Join(errs...)
}

// CombinationError is a problem with several parameters together (an
// Entry's Validate), each valid on its own: a spec may give them on
// different axes, so it is checked per grid point.
type CombinationError struct {
	Scheduler string
	Err       error
}

// Error names the scheduler and the problem.
func (e *CombinationError) Error() string { return e.Scheduler + ": " + e.Err.Error() }

// Unwrap returns Err.
func (e *CombinationError) Unwrap() error { return e.Err }

func convert(s ParamSpec, v any) (any, error) {
	if str, ok := v.(string); ok && s.Kind != String {
		if w, ok := s.Words[strings.ToLower(str)]; ok {
			v = w
		} else if f, err := strconv.ParseFloat(str, 64); err == nil {
			v = f
		} else {
			return nil, fmt.Errorf("%q is not %s", str, article(s.Kind))
		}
	}
	switch s.Kind {
	case String:
		str, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("%v is not a string", v)
		}
		if len(s.Choices) > 0 {
			for _, c := range s.Choices {
				if c == str {
					return str, nil
				}
			}
			return nil, fmt.Errorf("%q is not a valid choice", str)
		}
		return str, nil
	default:
		f, ok := numeric.Float(v)
		if !ok {
			return nil, fmt.Errorf("%v is not %s", v, article(s.Kind))
		}
		inWords := false
		for _, w := range s.Words {
			if w == f {
				inWords = true
			}
		}
		if !inWords {
			if f < s.Min || (s.Max > s.Min && f > s.Max) {
				return nil, fmt.Errorf("%g is out of range", f)
			}
		}
		if s.Kind == Int {
			if f != math.Trunc(f) {
				return nil, fmt.Errorf("%g is not an integer", f)
			}
			return int64(f), nil
		}
		return f, nil
	}
}

// article returns the kind with its indefinite article, for messages.
func article(k Kind) string {
	if k == Int {
		return "an integer"
	}
	return "a " + k.String()
}
