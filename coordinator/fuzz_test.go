package coordinator

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"

	"github.com/schedfarm/schedfarm/broker"
)

// FuzzResult: the result message the coordinator decodes. Any input is
// either refused with an error (DecodeResult, CheckResult) or is a result
// whose metrics, wall time and per-job times are finite, whose status is ok
// or failed, and whose JSON encoding decodes and checks to the same
// encoding. Nothing panics.
func FuzzResult(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := DecodeResult(data, 1<<16)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error")
			}
			return
		}
		if err := CheckResult(r, "fz", broker.ResultSubject("fz", r.CellID)); err != nil {
			return
		}
		if r.Status != "ok" && r.Status != "failed" {
			t.Fatalf("accepted status %q", r.Status)
		}
		bad := func(v float64) bool { return math.IsNaN(v) || math.IsInf(v, 0) }
		if bad(r.WallSeconds) || r.WallSeconds < 0 {
			t.Fatalf("accepted wall_seconds %v", r.WallSeconds)
		}
		seen := map[string]bool{}
		for _, m := range r.Metrics {
			if bad(m.Value) || m.Name == "" || seen[m.Name] {
				t.Fatalf("accepted metric %+v", m)
			}
			seen[m.Name] = true
		}
		for _, j := range r.Jobs {
			if bad(j.Submit) || bad(j.Start) || bad(j.End) || bad(j.Wait) || bad(j.Bsld) {
				t.Fatalf("accepted job %+v", j)
			}
		}
		b1, err := json.Marshal(r)
		if err != nil {
			t.Fatalf("an accepted result does not encode: %v", err)
		}
		r2, err := DecodeResult(b1, 0)
		if err != nil {
			t.Fatalf("the encoding of an accepted result does not decode: %v\n%s", err, b1)
		}
		if err := CheckResult(r2, "fz", broker.ResultSubject("fz", r2.CellID)); err != nil {
			t.Fatalf("the encoding of an accepted result is refused: %v\n%s", err, b1)
		}
		if b2, _ := json.Marshal(r2); !bytes.Equal(b1, b2) {
			t.Fatalf("round trip changed the result:\n%s\n%s", b1, b2)
		}
	})
}
