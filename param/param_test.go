package param

import (
	"errors"
	"math"
	"strings"
	"testing"
)

func TestValue(t *testing.T) {
	depth := Spec{Name: "k", Kind: Int, Default: int64(2), Min: 0, Max: NoMax, Words: map[string]float64{"unlimited": -1}}
	ratio := Spec{Name: "r", Kind: Float, Default: 0.5, Min: 0, Max: 1}
	tmax := Spec{Name: "t", Kind: Int, Default: int64(0), Min: 10, Max: 100, ZeroOK: true}
	mode := Spec{Name: "m", Kind: String, Default: "a", Choices: []string{"a", "b"}}
	flag := Spec{Name: "f", Kind: Bool, Default: false}
	even := Spec{Name: "e", Kind: Int, Min: 0, Max: NoMax, Check: func(v any) error {
		if v.(int64)%2 != 0 {
			return errors.New("odd")
		}
		return nil
	}}
	for _, c := range []struct {
		s    Spec
		in   any
		want any
		err  string
	}{
		{depth, 4, int64(4), ""},
		{depth, "4", int64(4), ""},
		{depth, "Unlimited", int64(-1), ""},
		{depth, -1, int64(-1), ""}, // the word's value, whatever the bounds
		{depth, -2, nil, "out of range"},
		{depth, 2.5, nil, "not an integer"},
		{depth, "x", nil, "not an integer"},
		{ratio, int64(1), 1.0, ""},
		{ratio, math.NaN(), nil, "not finite"},
		{ratio, 1.5, nil, "out of range"},
		{ratio, true, nil, "not a number"},
		{tmax, 0, int64(0), ""},
		{tmax, 5, nil, "out of range"},
		{mode, "b", "b", ""},
		{mode, "c", nil, "not an accepted value"},
		{mode, 1, nil, "not a string"},
		{flag, "true", true, ""},
		{flag, 1, nil, "not a boolean"},
		{even, 4, int64(4), ""},
		{Spec{Kind: Float}, -7.5, -7.5, ""}, // no bounds: Check alone would decide
		{even, 3, nil, "odd"},
	} {
		got, err := c.s.Value(c.in)
		switch {
		case c.err != "" && (err == nil || err.Error() != c.err):
			t.Errorf("%s.Value(%v) = %v, %v; want error %q", c.s.Name, c.in, got, err, c.err)
		case c.err == "" && (err != nil || got != c.want):
			t.Errorf("%s.Value(%v) = %v (%T), %v; want %v (%T)", c.s.Name, c.in, got, got, err, c.want, c.want)
		}
	}
}

func TestAccepted(t *testing.T) {
	for _, c := range []struct {
		s    Spec
		want string
	}{
		{Spec{Kind: Int, Min: 0, Max: NoMax, Words: map[string]float64{"unlimited": -1, "all": -1}}, "int ≥ 0 or all or unlimited"},
		{Spec{Kind: Float, Min: 1e-6, Max: 1000, ZeroOK: true}, "0 or float in [1e-06, 1000]"},
		{Spec{Kind: Int, Min: 1, Max: 1 << 24}, "int in [1, 16777216]"},
		{Spec{Kind: Float, Min: math.Inf(-1), Max: NoMax}, "float"},
		{Spec{Kind: String, Choices: []string{"model", "measured"}}, "one of model, measured"},
		{Spec{Kind: String}, "a string"},
		{Spec{Kind: Bool}, "true or false"},
		{Spec{Kind: Float, Form: "a number > 0"}, "a number > 0"},
		{Spec{Kind: Int}, "int"},
	} {
		if got := c.s.Accepted(); got != c.want {
			t.Errorf("Accepted() = %q; want %q", got, c.want)
		}
	}
}

func TestDecode(t *testing.T) {
	specs := []Spec{
		{Name: "k", Kind: Int, Default: int64(2), Min: 0, Max: 8},
		{Name: "mode", Kind: String, Default: "a", Choices: []string{"a", "b"}},
		{Name: "opt", Kind: Float, Min: 0, Max: 1}, // no default: absent unless given
	}
	v, err := Decode("sched", specs, map[string]any{"k": 3})
	if err != nil {
		t.Fatal(err)
	}
	if v.Int("k") != 3 || v.Str("mode") != "a" {
		t.Errorf("Decode = %v", v)
	}
	if _, ok := v["opt"]; ok {
		t.Errorf("a parameter without default and not given is present: %v", v)
	}
	_, err = Decode("sched", specs, map[string]any{"k": 9, "kk": 1, "mode": "c"})
	var pe *Error
	if !errors.As(err, &pe) {
		t.Fatalf("error %v is not a *param.Error", err)
	}
	for _, want := range []string{
		`sched: parameter k = 9: out of range; accepted: int in [0, 8]`,
		`sched: unknown parameter "kk"; accepted: k, mode, opt`,
		`sched: parameter mode = "c": not an accepted value; accepted: one of a, b`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	if _, err := DecodeTyped("sched", specs, map[string]any{"k": "3"}); err == nil || !strings.Contains(err.Error(), "k = \"3\": not an integer") {
		t.Errorf("typed decode of text: got %v", err)
	}
	if _, err := Decode("none", nil, map[string]any{"x": 1}); err == nil || !strings.Contains(err.Error(), "accepted: none") {
		t.Errorf("no parameters: got %v", err)
	}
}
