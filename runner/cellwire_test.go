package runner

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// strict decodes data as worker.DecodeCell's and coordinator.DecodeResult's
// strict path does: one JSON object, unknown fields refused, nothing after
// it.
func strict[T any](data []byte) (T, error) {
	var v, zero T
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		return zero, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return zero, errors.New("data after the object")
	}
	return v, nil
}

// checkFast fails when fast accepts data that the strict decoder refuses or
// decodes to another value, and reports whether fast accepted it.
func checkFast[T any](t *testing.T, data []byte, fast func([]byte) (T, bool)) bool {
	t.Helper()
	got, ok := fast(data)
	if !ok {
		return false
	}
	want, err := strict[T](data)
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("%s: the fast reader gives %#v; the strict decoder gives %#v, %v", data, got, want, err)
	}
	return true
}

func checkCellWire(t *testing.T, data []byte) bool {
	t.Helper()
	return checkFast(t, data, DecodeCellWire)
}

// randomCell draws cells of every shape a coordinator publishes and more:
// plain and other strings, parameters of every kind (or none, or nil),
// crn, dir, keep_jobs, a plugin.
func randomCell(r *rand.Rand) Cell {
	strs := []string{"quickstart", "44af0187b69793ae", "fcfs", "", "x<y", `q"`, "é", "/tmp/exp", "a}b", `a","id":"b`}
	pick := func() string { return strs[r.IntN(len(strs))] }
	c := Cell{Experiment: pick(), ID: pick(), Index: r.IntN(100000) - 10, Scheduler: pick(),
		Replication: r.IntN(30) - 1, Seed: r.Uint64() >> r.IntN(64), BaseSeed: r.Uint64() >> r.IntN(64)}
	switch r.IntN(3) {
	case 0:
		c.Params = nil
	case 1:
		c.Params = []Param{}
	default:
		for range 1 + r.IntN(8) {
			c.Params = append(c.Params, randomParam(r))
		}
	}
	if r.IntN(3) == 0 {
		c.CRN = []string{pick(), pick()}[:r.IntN(3)]
	}
	if r.IntN(2) == 0 {
		c.Dir = pick()
	}
	c.KeepJobs = r.IntN(4) == 0
	if r.IntN(10) == 0 {
		c.Plugin = &PluginRef{Path: "p", SHA256: "00"}
	}
	return c
}

// TestDecodeCellWireIsStrict checks DecodeCellWire against the strict
// decoder on the wire forms of random cells, on edits of them and on near
// misses of the form: whatever it accepts, the strict decoder decodes to
// the same cell; and it accepts the plain cells a coordinator writes.
func TestDecodeCellWireIsStrict(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	accepted, plain := 0, 0
	for range 30000 {
		c := randomCell(r)
		data, err := json.Marshal(c)
		if err != nil {
			continue // a NaN parameter
		}
		if checkCellWire(t, data) {
			accepted++
		}
		if c.Plugin == nil && allPlain(c) {
			plain++
			if _, ok := DecodeCellWire(data); !ok {
				if _, err := strict[Cell](data); err == nil {
					t.Fatalf("%s: a plain cell the strict decoder reads was not taken", data)
				}
			}
		}
		// One byte changed, removed or doubled.
		i := r.IntN(len(data))
		edit := append([]byte(nil), data...)
		edit[i] = "0-.e\",:}]{[ 1a"[r.IntN(14)]
		checkCellWire(t, edit)
		checkCellWire(t, append(append([]byte(nil), data[:i]...), data[i+1:]...))
		checkCellWire(t, append(append(append([]byte(nil), data[:i+1]...), data[i]), data[i+1:]...))
	}
	if accepted < 2000 {
		t.Fatalf("only %d of the random cells were read without encoding/json (%d plain)", accepted, plain)
	}
	base := `{"experiment":"e","id":"i","index":1,"scheduler":"s","params":[],"replication":0,"seed":1,"base_seed":2`
	for _, tail := range []string{"}", `,"crn":null}`, `,"crn":[]}`, `,"dir":"d"}`, `,"keep_jobs":false}`, `,"keep_jobs":true}`,
		`,"crn":["a"],"dir":"d","keep_jobs":true}`, `,"dir":"d","crn":["a"]}`, `,"x":1}`, `,"plugin":null}`, "} ", "}}", `,"seed":3}`} {
		checkCellWire(t, []byte(base+tail))
	}
	for _, num := range []string{"1", "-1", "0", "-0", "01", "1.0", "1e2", "9223372036854775807", "9223372036854775808", "18446744073709551616", "-"} {
		checkCellWire(t, []byte(strings.Replace(base, `"index":1`, `"index":`+num, 1)+"}"))
		checkCellWire(t, []byte(strings.Replace(base, `"seed":1`, `"seed":`+num, 1)+"}"))
	}
}

func allPlain(c Cell) bool {
	for _, s := range append([]string{c.Experiment, c.ID, c.Scheduler, c.Dir}, c.CRN...) {
		if !plainString(s) {
			return false
		}
	}
	for _, p := range c.Params {
		if _, ok := p.appendWire(nil); !ok {
			return false
		}
	}
	return true
}

func plainString(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x80 || strings.IndexByte(`"\<>&`, c) >= 0 {
			return false
		}
	}
	return true
}

// FuzzCellWire checks on any input that what DecodeCellWire accepts the
// strict decoder decodes to the same cell.
func FuzzCellWire(f *testing.F) {
	f.Add([]byte(`{"experiment":"e","id":"i","index":1,"scheduler":"s","params":[{"name":"workload.load","value":0.57,"type":"float"}],"replication":0,"seed":1,"base_seed":2,"dir":"/d"}`))
	f.Add([]byte(`{"experiment":"e","id":"i","index":1,"scheduler":"s","params":null,"replication":0,"seed":1,"base_seed":2,"crn":["a"],"keep_jobs":true}`))
	f.Fuzz(func(t *testing.T, data []byte) { checkCellWire(t, data) })
}

// TestEncodeCellIsMarshal checks that EncodeCell returns json.Marshal's
// bytes (or fails when it fails) for random cells, and that what it writes
// for a plain cell DecodeCellWire reads back whole.
func TestEncodeCellIsMarshal(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	direct := 0
	for range 30000 {
		c := randomCell(r)
		got, gerr := EncodeCell(c)
		want, werr := json.Marshal(c)
		if string(got) != string(want) || (gerr == nil) != (werr == nil) {
			t.Fatalf("%#v: EncodeCell = %s, %v; json.Marshal writes %s, %v", c, got, gerr, want, werr)
		}
		if _, ok := appendCellWire(nil, c); ok {
			direct++
			back, ok := DecodeCellWire(got)
			if !ok {
				t.Fatalf("%s: written directly but not read back", got)
			}
			checkCellWire(t, got)
			if !reflect.DeepEqual(back.Params, c.Params) && len(c.Params) > 0 {
				t.Fatalf("%s: parameters read back as %#v; written from %#v", got, back.Params, c.Params)
			}
		}
	}
	if direct < 2000 {
		t.Fatalf("only %d of 30,000 cells written directly", direct)
	}
}
