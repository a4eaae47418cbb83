package models

import (
	"errors"
	"fmt"
	"github.com/schedfarm/schedfarm/internal/numeric"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Kind is the type of a model parameter.
type Kind int

// Parameter kinds.
const (
	Int Kind = iota
	Float
	Bool
	String
)

func (k Kind) String() string {
	return [...]string{"int", "float", "bool", "string"}[k]
}

// ParamSpec documents one parameter of a model.
type ParamSpec struct {
	Name    string
	Kind    Kind
	Default any      // int64, float64, bool or string
	Min     float64  // numbers: smallest accepted value
	Max     float64  // numbers: largest accepted value
	ZeroOK  bool     // numbers: 0 ("off"/"automatic") is accepted besides [Min, Max]
	Choices []string // strings: accepted values
	Doc     string
	// Check validates a free-form string parameter (Kind String, no
	// Choices): nil when the value is acceptable, else what is wrong.
	Check func(string) error
	// Form describes the values Check accepts, for Range.
	Form string
}

// Range describes the accepted values, as used in error messages.
func (s ParamSpec) Range() string {
	switch s.Kind {
	case Bool:
		return "true or false"
	case String:
		if s.Check != nil && len(s.Choices) == 0 {
			return s.Form
		}
		return "one of " + strings.Join(s.Choices, ", ")
	}
	r := fmt.Sprintf("%s in [%s, %s]", s.Kind, num(s.Min), num(s.Max))
	if s.ZeroOK {
		r = "0 or " + r
	}
	return r
}

func num(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return strconv.FormatInt(int64(v), 10)
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// Param is one resolved parameter value: int64, float64, bool or string.
type Param struct {
	Name  string
	Value any
}

// values are decoded params by name.
type values map[string]any

func (v values) int(name string) int       { return int(v[name].(int64)) }
func (v values) float(name string) float64 { return v[name].(float64) }
func (v values) bool(name string) bool     { return v[name].(bool) }
func (v values) str(name string) string    { return v[name].(string) }

// decode checks params against specs: every unknown name and every bad value
// is reported, sorted by name. Missing params take their defaults.
func decode(model string, specs []ParamSpec, params map[string]any) (values, error) {
	byName := make(map[string]ParamSpec, len(specs))
	for _, s := range specs {
		byName[s.Name] = s
	}
	names := make([]string, 0, len(params))
	for k := range params {
		names = append(names, k)
	}
	sort.Strings(names)
	var errs []error
	out := make(values, len(specs))
	for _, s := range specs {
		out[s.Name] = s.Default
	}
	for _, k := range names {
		s, ok := byName[k]
		if !ok {
			known := make([]string, 0, len(specs))
			for _, s := range specs {
				known = append(known, s.Name)
			}
			slices.Sort(known)
			errs = append(errs, fmt.Errorf("%s: unknown parameter %q (accepted: %s)", model, k, strings.Join(known, ", ")))
			continue
		}
		v, err := convert(s, params[k])
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: parameter %s = %v: %v; want %s", model, k, params[k], err, s.Range()))
			continue
		}
		out[k] = v
	}
	return out, errors.Join(errs...)
}

func convert(s ParamSpec, raw any) (any, error) {
	switch s.Kind {
	case Bool:
		if b, ok := raw.(bool); ok {
			return b, nil
		}
		if str, ok := raw.(string); ok {
			if b, err := strconv.ParseBool(str); err == nil {
				return b, nil
			}
		}
		return nil, errors.New("not a boolean")
	case String:
		str, ok := raw.(string)
		if !ok {
			return nil, errors.New("not a string")
		}
		if s.Check != nil && len(s.Choices) == 0 {
			if err := s.Check(str); err != nil {
				return nil, err
			}
			return str, nil
		}
		if !slices.Contains(s.Choices, str) {
			return nil, errors.New("not an accepted value")
		}
		return str, nil
	}
	f, ok := toFloat(raw)
	if !ok {
		return nil, errors.New("not a number")
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil, errors.New("not finite")
	}
	if s.Kind == Int && f != math.Trunc(f) {
		return nil, errors.New("not an integer")
	}
	if !(s.ZeroOK && f == 0) && (f < s.Min || f > s.Max) {
		return nil, errors.New("out of range")
	}
	if s.Kind == Int {
		return int64(f), nil
	}
	return f, nil
}

func toFloat(raw any) (float64, bool) {
	if str, ok := raw.(string); ok {
		f, err := strconv.ParseFloat(str, 64)
		return f, err == nil
	}
	return numeric.Float(raw)
}

// Values are a model's decoded parameters by name, defaults filled in:
// int64, float64, bool or string as the parameter's Kind says.
type Values map[string]any

// Int returns the named Int parameter.
func (v Values) Int(name string) int { return values(v).int(name) }

// Float returns the named Float parameter.
func (v Values) Float(name string) float64 { return values(v).float(name) }

// Bool returns the named Bool parameter.
func (v Values) Bool(name string) bool { return values(v).bool(name) }

// Str returns the named String parameter.
func (v Values) Str(name string) string { return values(v).str(name) }

// Decode checks params against the named model's parameters and returns
// them with defaults filled in; the error lists every unknown or bad
// parameter. Models whose workload the runner builds itself (Cloud, Grid)
// are read this way.
func (r *Registry) Decode(name string, params map[string]any) (Values, error) {
	m, ok := r.find(name)
	if !ok {
		return nil, fmt.Errorf("workload model %q unknown (known: %s)", name, strings.Join(r.Names(), ", "))
	}
	return m.Decode(params)
}
