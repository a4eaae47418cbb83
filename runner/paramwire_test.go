package runner

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// randomParam draws a parameter of every kind, with names and string values
// that are plain (written without encoding/json) or not, and floats of
// every magnitude, NaN and ±Inf included.
func randomParam(r *rand.Rand) Param {
	strs := []string{"workload.load", "a", "", "lublin99", "../traces/KTH.swf", "x<y", "a&b", `q"`, `b\s`, "é", "tab\t", "\u2028", "\x7f", "\xff"}
	name := strs[r.IntN(len(strs))]
	var v any
	switch r.IntN(5) {
	case 0:
		v = int64(r.Uint64()) >> r.IntN(64)
	case 1:
		v = r.NormFloat64() * math.Pow(10, float64(r.IntN(50)-25))
	case 2:
		v = []float64{0, math.Copysign(0, -1), 1e-7, 1e21, 0.57, math.NaN(), math.Inf(-1), 5e-324}[r.IntN(8)]
	case 3:
		v = strs[r.IntN(len(strs))]
	case 4:
		v = r.IntN(2) == 1
	}
	return Param{Name: name, Value: v}
}

// TestParamWireFastPathIsMarshals checks that MarshalJSON writes what its
// encoding/json path writes, byte for byte, error for error.
func TestParamWireFastPathIsMarshals(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	fast := 0
	for range 100000 {
		p := randomParam(r)
		got, gerr := p.MarshalJSON()
		want, werr := p.marshalSlow()
		if string(got) != string(want) || (gerr == nil) != (werr == nil) {
			t.Fatalf("%#v: MarshalJSON = %s, %v; encoding/json writes %s, %v", p, got, gerr, want, werr)
		}
		if _, ok := p.appendWire(nil); ok {
			fast++
		}
	}
	if fast < 10000 {
		t.Fatalf("only %d of 100,000 parameters took the fast path", fast)
	}
}

// TestParamSplitWireIsUnmarshal checks that UnmarshalJSON decodes what its
// encoding/json path decodes, error for error, on the wire forms of random
// parameters and on near misses of the exact form.
func TestParamSplitWireIsUnmarshal(t *testing.T) {
	check := func(data string) {
		t.Helper()
		var got, want Param
		gerr := got.UnmarshalJSON([]byte(data))
		werr := want.unmarshalSlow([]byte(data))
		if !reflect.DeepEqual(got, want) || fmt.Sprint(gerr) != fmt.Sprint(werr) {
			t.Fatalf("%s: UnmarshalJSON = %#v, %v; encoding/json decodes %#v, %v", data, got, gerr, want, werr)
		}
	}
	r := rand.New(rand.NewPCG(7, 8))
	split := 0
	for range 100000 {
		p := randomParam(r)
		data, err := p.marshalSlow()
		if err != nil {
			continue
		}
		check(string(data))
		if _, ok := splitWire(data); ok {
			split++
		}
	}
	if split < 10000 {
		t.Fatalf("only %d of the wire forms were split without encoding/json", split)
	}
	for _, v := range []string{"1", "-1", "0", "-0", "1.5", "1e5", "1E+5", "1.5e-7", "true", "false", `"s"`, `""`,
		"01", "1.", ".5", "-", "1e", "1e+", "+1", "tru", "null", "[1]", "{}", `"a\"b"`, `"\u00e9"`, "1,2", "9223372036854775808"} {
		for _, typ := range []string{"int", "float", "string", "bool", "", "nope"} {
			check(fmt.Sprintf(`{"name":"n","value":%s,"type":"%s"}`, v, typ))
		}
	}
	for _, data := range []string{
		`{"name":"n","value":1}`, `{"name":"n","value":1,"type":"int","x":1}`, `{"value":1,"name":"n","type":"int"}`,
		`{"name": "n","value":1,"type":"int"}`, `{"name":"n\u0041","value":1,"type":"int"}`, `{"name":"n","value":1,"type":"int"} `,
		`{"name":"n","value":1,"type":"int"`, `{"name":"n","value":1,"type":"in"t"}`, `{"name":"a<b","value":1,"type":"int"}`,
		`{"name":"n","value":1,"type":"int","type":"float"}`, `{"name":"n","name":"m","value":1,"type":"int"}`,
		`{"name":"n","value":"a,b","type":"string"}`, `{"name":"n","value":"a\",\"type\":\"x","type":"string"}`,
		strings.Repeat(" ", 3) + `{"name":"n","value":1,"type":"int"}`,
	} {
		check(data)
	}
}

// FuzzParamWire compares UnmarshalJSON with its encoding/json path on any
// input.
func FuzzParamWire(f *testing.F) {
	for _, s := range []string{`{"name":"n","value":1,"type":"int"}`, `{"name":"workload.load","value":0.57,"type":"float"}`,
		`{"name":"m","value":"lublin99","type":"string"}`, `{"name":"b","value":true,"type":"bool"}`, `{"name":"n","value":01,"type":"int"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var got, want Param
		gerr := got.UnmarshalJSON(data)
		werr := want.unmarshalSlow(data)
		if !reflect.DeepEqual(got, want) || fmt.Sprint(gerr) != fmt.Sprint(werr) {
			t.Fatalf("%q: UnmarshalJSON = %#v, %v; encoding/json decodes %#v, %v", data, got, gerr, want, werr)
		}
	})
}
