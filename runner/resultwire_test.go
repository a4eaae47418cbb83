package runner

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/schedfarm/schedfarm/family"
)

func checkResultWire(t *testing.T, data []byte) bool {
	t.Helper()
	return checkFast(t, data, DecodeResultWire)
}

func randomResult(r *rand.Rand) CellResult {
	strs := []string{"ok", "failed", "", "44af0187b69793ae", "w/0", "go1.26.0", "boom: <nil>", "line\nbreak", "é", `a","status":"b`}
	plain := r.IntN(2) == 0 // half the results: plain strings and finite numbers only
	pick := func() string {
		if plain {
			return strs[r.IntN(6)]
		}
		return strs[r.IntN(len(strs))]
	}
	num := func() float64 {
		if !plain && r.IntN(10) == 0 {
			return []float64{math.NaN(), math.Inf(1), math.Copysign(0, -1), 1e-7, 1e21}[r.IntN(5)]
		}
		return r.NormFloat64() * math.Pow(10, float64(r.IntN(30)-15))
	}
	res := CellResult{CellID: pick(), Status: pick(), WallSeconds: math.Abs(num()), Worker: pick(), Version: pick(), GoVersion: pick(), Commit: pick()}
	if r.IntN(3) == 0 {
		res.Error = pick()
	}
	switch r.IntN(3) {
	case 0:
	case 1:
		res.Metrics = []family.Metric{}
	default:
		for range 1 + r.IntN(10) {
			res.Metrics = append(res.Metrics, family.Metric{Name: pick(), Value: num()})
		}
	}
	if r.IntN(8) == 0 {
		res.Jobs = []JobRecord{{ID: 1, State: "done"}}
	}
	if r.IntN(4) == 0 {
		res.JobsObject = pick()
	}
	if r.IntN(2) == 0 {
		res.CellDigest = pick()
	}
	return res
}

// TestEncodeResultIsMarshal checks that EncodeResult returns json.Marshal's
// bytes (or fails when it fails) for random results.
func TestEncodeResultIsMarshal(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	direct := 0
	for range 30000 {
		res := randomResult(r)
		got, gerr := EncodeResult(res)
		want, werr := json.Marshal(res)
		if string(got) != string(want) || (gerr == nil) != (werr == nil) {
			t.Fatalf("%#v: EncodeResult = %s, %v; json.Marshal writes %s, %v", res, got, gerr, want, werr)
		}
		if _, ok := appendResultWire(nil, res); ok {
			direct++
			if !checkResultWire(t, got) {
				t.Fatalf("%s: written directly but not read back", got)
			}
		}
	}
	if direct < 10000 {
		t.Fatalf("only %d of 30,000 results written directly", direct)
	}
}

// TestDecodeResultWireIsStrict checks DecodeResultWire against the strict
// decoder on the wire forms of random results, on one-byte edits of them
// and on near misses of the form.
func TestDecodeResultWireIsStrict(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 18))
	accepted := 0
	for range 30000 {
		data, err := json.Marshal(randomResult(r))
		if err != nil {
			continue
		}
		if checkResultWire(t, data) {
			accepted++
		}
		i := r.IntN(len(data))
		edit := append([]byte(nil), data...)
		edit[i] = "0-.e+\",:}]{[ 1a"[r.IntN(15)]
		checkResultWire(t, edit)
		checkResultWire(t, append(append([]byte(nil), data[:i]...), data[i+1:]...))
		checkResultWire(t, append(append(append([]byte(nil), data[:i+1]...), data[i]), data[i+1:]...))
	}
	if accepted < 10000 {
		t.Fatalf("only %d of the random results were read without encoding/json", accepted)
	}
	for _, v := range []string{"0", "-0", "1.5", "1e400", "-1e400", "1e-400", "01", "1.", ".5", "+1", "1e", "1E+2", "NaN"} {
		checkResultWire(t, []byte(`{"cell_id":"c","status":"ok","metrics":[{"name":"m","value":`+v+`}],"wall_seconds":`+v+`,"worker":"w","version":"v","go_version":"g","commit":"x"}`))
	}
	for _, data := range []string{
		`{"cell_id":"c","status":"ok","metrics":null,"wall_seconds":1,"worker":"w","version":"v","go_version":"g","commit":"x"}`,
		`{"cell_id":"c","status":"ok","metrics":[],"wall_seconds":1,"worker":"w","version":"v","go_version":"g","commit":"x","jobs_object":"o","cell_digest":"d"}`,
		`{"cell_id":"c","status":"ok","wall_seconds":1,"worker":"w","version":"v","go_version":"g","commit":"x","cell_digest":"d","jobs_object":"o"}`,
		`{"cell_id":"c","status":"ok","wall_seconds":1,"worker":"w","version":"v","go_version":"g","commit":"x","jobs":null}`,
		`{"cell_id":"c","status":"ok","metrics":[{"name":"m","value":1,"unit":"s"}],"wall_seconds":1,"worker":"w","version":"v","go_version":"g","commit":"x"}`,
	} {
		checkResultWire(t, []byte(data))
	}
}

// FuzzResultWire checks on any input that what DecodeResultWire accepts the
// strict decoder decodes to the same result.
func FuzzResultWire(f *testing.F) {
	f.Add([]byte(`{"cell_id":"c","status":"ok","metrics":[{"name":"seed","value":3}],"wall_seconds":0.0000123,"worker":"w/0","version":"v","go_version":"go1.26.0","commit":"x","cell_digest":"00"}`))
	f.Add([]byte(`{"cell_id":"c","status":"failed","error":"boom","wall_seconds":1e-7,"worker":"w","version":"v","go_version":"g","commit":"x"}`))
	f.Fuzz(func(t *testing.T, data []byte) { checkResultWire(t, data) })
}
