package runner

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)

// decoderValue is what scalarValue replaces: the value decoded by a
// json.Decoder with UseNumber.
func decoderValue(v json.RawMessage) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(v))
	dec.UseNumber()
	var raw any
	err := dec.Decode(&raw)
	return raw, err
}

// FuzzScalarValue: the value of a parameter's JSON, read by scalarValue,
// is what a json.Decoder with UseNumber makes of it (value and error).
func FuzzScalarValue(f *testing.F) {
	for _, s := range []string{
		`{"name":"a","value":12,"type":"int"}`, `{"name":"a","value":-0,"type":"float"}`,
		`{"name":"a","value":1.5e-3}`, `{"name":"a","value": 2E+10 ,"type":"float"}`,
		`{"name":"a","value":"tsafrir05","type":"string"}`, `{"name":"a","value":"é ü 漢","type":"string"}`,
		`{"name":"a","value":"a\"b\\c\u00e9","type":"string"}`, `{"name":"a","value":"","type":"string"}`,
		"{\"name\":\"a\",\"value\":\"\xff\",\"type\":\"string\"}",
		`{"name":"a","value":true,"type":"bool"}`, `{"name":"a","value":false}`,
		`{"name":"a","value":null}`, `{"name":"a"}`, `{"name":"a","value":[1]}`, `{"name":"a","value":{"x":1}}`,
		`{"name":"a","value":"12","type":"int"}`, `{"name":"a","value":12,"type":"string"}`,
		`{"name":"a","value":99999999999999999999,"type":"int"}`, `{"name":"a","value":1e999,"type":"float"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var w paramJSON
		if json.Unmarshal(data, &w) != nil {
			return
		}
		got, gerr := scalarValue(w.Value)
		want, werr := decoderValue(w.Value)
		if (gerr == nil) != (werr == nil) || gerr != nil && gerr.Error() != werr.Error() || !reflect.DeepEqual(got, want) {
			t.Fatalf("value %q: scalarValue gives %#v, %v; the decoder %#v, %v", w.Value, got, gerr, want, werr)
		}
	})
}

// Parameters of every kind survive a round trip through JSON.
func TestParamJSONRoundTrip(t *testing.T) {
	for _, p := range []Param{
		{"i", int64(-7)}, {"f", 2.0}, {"f", 1e-300}, {"s", "../traces/kth.swf"}, {"s", `a"b\é`}, {"b", true}, {"b", false},
	} {
		data, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		var q Param
		if err := json.Unmarshal(data, &q); err != nil || !reflect.DeepEqual(p, q) {
			t.Errorf("%s: %#v, %v; want %#v", data, q, err, p)
		}
	}
}
