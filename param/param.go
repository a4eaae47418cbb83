package param

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/schedfarm/schedfarm/internal/numeric"
)

// Kind is the type of a parameter's value.
type Kind int

// Parameter kinds and the Go type of their values.
const (
	Int    Kind = iota // int64
	Float              // float64
	String             // string
	Bool               // bool
)

// String names the kind as specs and listings do: "int", "float",
// "string", "bool".
func (k Kind) String() string {
	switch k {
	case Int:
		return "int"
	case Float:
		return "float"
	case Bool:
		return "bool"
	}
	return "string"
}

// Noun names the kind in prose: "integer", "number", "string", "boolean".
func (k Kind) Noun() string {
	switch k {
	case Int:
		return "integer"
	case Float:
		return "number"
	case Bool:
		return "boolean"
	}
	return "string"
}

// KindOf returns the kind of a decoded value (int64, float64, string,
// bool) and false for any other Go type.
func KindOf(v any) (Kind, bool) {
	switch v.(type) {
	case int64:
		return Int, true
	case float64:
		return Float, true
	case string:
		return String, true
	case bool:
		return Bool, true
	}
	return 0, false
}

// NoMax is the Max of a number without an upper bound.
var NoMax = math.Inf(1)

// Spec declares one typed parameter: its name, kind, the values it
// accepts, its default, what it means and its unit.
type Spec struct {
	// Name is the parameter's key (a scheduler's "k", a model's "jobs",
	// a spec field's "workload.load").
	Name string
	// Kind is the type of its values.
	Kind Kind
	// Default is the value used when the parameter is not given, of
	// Kind's Go type; nil for a parameter without one (a spec field that
	// is simply absent).
	Default any
	// Min and Max bound a number, both inclusive; Max NoMax (+Inf) for no
	// upper bound, Min −Inf for no lower one; both 0 (unset): no bounds
	// (a number that Check alone decides).
	Min, Max float64
	// ZeroOK accepts 0 besides [Min, Max] (a number meaning "off" or
	// "automatic").
	ZeroOK bool
	// Words are words a number accepts for values ("unlimited" → −1);
	// such a value is accepted whatever the bounds.
	Words map[string]float64
	// Choices are the values a string accepts; none: any string that
	// passes Check.
	Choices []string
	// Check, when set, is a further check of a value of the kind that
	// passed the others (a free-form string's syntax, a bound that is not
	// inclusive): nil when it is acceptable, else what is wrong.
	Check func(v any) error
	// Form, when set, says what values are accepted, in place of the
	// description Accepted derives from the fields above (where Check
	// decides, it says what Check accepts).
	Form string
	// Doc says what the parameter does.
	Doc string
	// Unit is the unit of a number ("s", "processors", "fraction 0–1"),
	// "" when its doc states it or it has none. The results glossary
	// shows it for the parameter's column.
	Unit string
}

// Accepted says what values the spec accepts, for error messages and
// listings: Form, or e.g. "int in [1, 8]", "0 or float in [1e-06, 1000]",
// "int ≥ 0 or unlimited", "one of model, measured", "true or false".
func (s Spec) Accepted() string {
	if s.Form != "" {
		return s.Form
	}
	switch s.Kind {
	case Bool:
		return "true or false"
	case String:
		if len(s.Choices) > 0 {
			return "one of " + strings.Join(s.Choices, ", ")
		}
		return "a string"
	}
	r := s.Kind.String()
	switch {
	case !s.bounded(), math.IsInf(s.Min, -1) && math.IsInf(s.Max, 1):
	case math.IsInf(s.Max, 1):
		r += " ≥ " + Num(s.Min)
	case math.IsInf(s.Min, -1):
		r += " ≤ " + Num(s.Max)
	default:
		r += " in [" + Num(s.Min) + ", " + Num(s.Max) + "]"
	}
	if s.ZeroOK {
		r = "0 or " + r
	}
	for _, w := range s.words() {
		r += " or " + w
	}
	return r
}

// bounded reports whether Min and Max bound the number (not both unset).
func (s Spec) bounded() bool { return s.Min != 0 || s.Max != 0 }

// words returns the spec's words, sorted.
func (s Spec) words() []string {
	out := make([]string, 0, len(s.Words))
	for w := range s.Words {
		out = append(out, w)
	}
	slices.Sort(out)
	return out
}

// Num formats a number as parameter listings do: whole numbers without a
// fraction, others in the shortest form that reads back exactly.
func Num(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return strconv.FormatInt(int64(v), 10)
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// Value converts v to the spec's kind and checks it: a number from any Go
// integer or float, or from text ("4", or one of Words); a bool from a
// bool or its text; a string from a string. It returns the value as
// int64, float64, string or bool, or what is wrong with it (without the
// spec's name; Decode adds it).
func (s Spec) Value(v any) (any, error) {
	switch s.Kind {
	case Bool:
		switch x := v.(type) {
		case bool:
			return s.checked(x)
		case string:
			if b, err := strconv.ParseBool(x); err == nil {
				return s.checked(b)
			}
		}
		return nil, errors.New("not a boolean")
	case String:
		str, ok := v.(string)
		if !ok {
			return nil, errors.New("not a string")
		}
		if len(s.Choices) > 0 && !slices.Contains(s.Choices, str) {
			return nil, errors.New("not an accepted value")
		}
		return s.checked(str)
	}
	f, word, err := s.number(v)
	if err != nil {
		return nil, err
	}
	if !word {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, errors.New("not finite")
		}
		if s.Kind == Int && f != math.Trunc(f) {
			return nil, errors.New("not an integer")
		}
		if s.bounded() && !(s.ZeroOK && f == 0) && (f < s.Min || f > s.Max) {
			return nil, errors.New("out of range")
		}
	}
	if s.Kind == Int {
		return s.checked(int64(f))
	}
	return s.checked(f)
}

// number reads a number, and whether it is one of the spec's words (given
// as the word or as its value).
func (s Spec) number(v any) (f float64, word bool, err error) {
	if str, ok := v.(string); ok {
		if w, ok := s.Words[strings.ToLower(str)]; ok {
			return w, true, nil
		}
		f, err := strconv.ParseFloat(str, 64)
		if err != nil {
			return 0, false, errors.New("not " + article(s.Kind))
		}
		v = f
	}
	f, ok := numeric.Float(v)
	if !ok {
		return 0, false, errors.New("not " + article(s.Kind))
	}
	for _, w := range s.Words {
		if w == f {
			return f, true, nil
		}
	}
	return f, false, nil
}

// typed refuses text for a number or boolean (a number's words excepted).
func (s Spec) typed(v any) error {
	str, ok := v.(string)
	if !ok || s.Kind == String {
		return nil
	}
	if _, word := s.Words[strings.ToLower(str)]; word {
		return nil
	}
	if s.Kind == Bool {
		return errors.New("not a boolean")
	}
	return errors.New("not " + article(s.Kind))
}

func (s Spec) checked(v any) (any, error) {
	if s.Check != nil {
		if err := s.Check(v); err != nil {
			return nil, err
		}
	}
	return v, nil
}

// article returns the kind's noun with its indefinite article.
func article(k Kind) string {
	if k == Int {
		return "an integer"
	}
	return "a " + k.Noun()
}

// Error is a problem with one parameter: unknown, or a bad value.
type Error struct {
	// Owner names what the parameter belongs to ("depth", "lublin99").
	Owner string
	// Param is the parameter's name; Value the value given.
	Param string
	Value any
	// Unknown marks a name the owner does not declare; Accepted then
	// lists the names it does.
	Unknown bool
	// Why says what is wrong with the value.
	Why error
	// Accepted says what would be accepted.
	Accepted string
}

// Error renders "owner: parameter p = v: why; accepted: …" or
// "owner: unknown parameter "p"; accepted: a, b".
func (e *Error) Error() string { return e.Owner + ": " + e.Detail() }

// Detail is the message without the owner: "parameter p = v: why;
// accepted: …" or "unknown parameter "p"; accepted: a, b", for callers
// that name the owner themselves.
func (e *Error) Detail() string {
	if e.Unknown {
		return fmt.Sprintf("unknown parameter %q; accepted: %s", e.Param, e.Accepted)
	}
	return fmt.Sprintf("parameter %s = %s: %v; accepted: %s", e.Param, Format(e.Value), e.Why, e.Accepted)
}

// Unwrap returns Why.
func (e *Error) Unwrap() error { return e.Why }

// Format renders a value for messages: numbers in their shortest form,
// strings quoted.
func Format(v any) string {
	switch x := v.(type) {
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case string:
		return strconv.Quote(x)
	}
	return fmt.Sprint(v)
}

// Values are decoded parameters by name, every declared one present
// (given, or its default): int64, float64, string or bool as its kind
// says.
type Values map[string]any

// Int returns an Int parameter.
func (v Values) Int(name string) int { return int(v[name].(int64)) }

// Float returns a Float parameter.
func (v Values) Float(name string) float64 { return v[name].(float64) }

// Str returns a String parameter.
func (v Values) Str(name string) string { return v[name].(string) }

// Bool returns a Bool parameter.
func (v Values) Bool(name string) bool { return v[name].(bool) }

// Decode checks given against specs and returns every declared parameter,
// defaults filled in. The error joins one *Error per unknown name and per
// bad value, in name order; owner names what the parameters belong to.
// Values may be text (Spec.Value), as from a command line.
func Decode(owner string, specs []Spec, given map[string]any) (Values, error) {
	return decode(owner, specs, given, false)
}

// DecodeTyped is Decode for values their source has typed (YAML, JSON): a
// number or boolean written as a string is refused ("not a number"), a
// number's words excepted, so that a spec's "300" never passes for 300.
func DecodeTyped(owner string, specs []Spec, given map[string]any) (Values, error) {
	return decode(owner, specs, given, true)
}

func decode(owner string, specs []Spec, given map[string]any, typed bool) (Values, error) {
	out := make(Values, len(specs))
	for _, s := range specs {
		if s.Default != nil {
			out[s.Name] = s.Default
		}
	}
	names := make([]string, 0, len(given))
	for n := range given {
		names = append(names, n)
	}
	slices.Sort(names)
	var errs []error
	for _, n := range names {
		s, ok := Find(specs, n)
		if !ok {
			errs = append(errs, &Error{Owner: owner, Param: n, Value: given[n], Unknown: true, Accepted: accepted(specs)})
			continue
		}
		v, err := s.Value(given[n])
		if typed && err == nil {
			err = s.typed(given[n])
		}
		if err != nil {
			errs = append(errs, &Error{Owner: owner, Param: n, Value: given[n], Why: err, Accepted: s.Accepted()})
			continue
		}
		out[n] = v
	}
	return out, errors.Join(errs...)
}

// accepted lists the names of specs, sorted ("none" when there are none).
func accepted(specs []Spec) string {
	if len(specs) == 0 {
		return "none"
	}
	return strings.Join(Names(specs), ", ")
}

// Find returns the spec named name.
func Find(specs []Spec, name string) (Spec, bool) {
	for _, s := range specs {
		if s.Name == name {
			return s, true
		}
	}
	return Spec{}, false
}

// Names returns the names of specs, sorted.
func Names(specs []Spec) []string {
	out := make([]string, len(specs))
	for i, s := range specs {
		out[i] = s.Name
	}
	slices.Sort(out)
	return out
}
