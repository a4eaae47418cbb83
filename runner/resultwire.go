package runner

import (
	"encoding/json"
	"strconv"

	"github.com/schedfarm/schedfarm/family"
	"github.com/schedfarm/schedfarm/internal/jsonappend"
)

// EncodeResult returns what json.Marshal(r) returns. A result whose
// strings are plain, whose numbers are finite and that carries no per-job
// records is written directly, in the form DecodeResultWire reads
// (TestEncodeResultIsMarshal): a worker encodes one per cell.
func EncodeResult(r CellResult) ([]byte, error) {
	if b, ok := appendResultWire(make([]byte, 0, 320+48*len(r.Metrics)), r); ok {
		return b, nil
	}
	return json.Marshal(r)
}

// appendResultWire appends r as json.Marshal writes it and reports true, or
// reports false when it cannot write r without encoding/json.
func appendResultWire(b []byte, r CellResult) ([]byte, bool) {
	if len(r.Jobs) > 0 {
		return b, false
	}
	ok := true
	str := func(key, s string) {
		if ok {
			b = append(b, key...)
			b, ok = jsonappend.String(b, s)
		}
	}
	num := func(key string, f float64) {
		if ok {
			b = append(b, key...)
			b, ok = jsonappend.Float(b, f)
		}
	}
	str(`{"cell_id":`, r.CellID)
	str(`,"status":`, r.Status)
	if r.Error != "" {
		str(`,"error":`, r.Error)
	}
	if len(r.Metrics) > 0 {
		b = append(b, `,"metrics":[`...)
		for i, m := range r.Metrics {
			if i > 0 {
				b = append(b, ',')
			}
			str(`{"name":`, m.Name)
			num(`,"value":`, m.Value)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	num(`,"wall_seconds":`, r.WallSeconds)
	str(`,"worker":`, r.Worker)
	str(`,"version":`, r.Version)
	str(`,"go_version":`, r.GoVersion)
	str(`,"commit":`, r.Commit)
	if r.JobsObject != "" {
		str(`,"jobs_object":`, r.JobsObject)
	}
	if r.CellDigest != "" {
		str(`,"cell_digest":`, r.CellDigest)
	}
	return append(b, '}'), ok
}

// DecodeResultWire decodes data when it is exactly the text json.Marshal
// writes for a CellResult whose strings are plain and that carries no
// per-job records —
//
//	{"cell_id":…,"status":…[,"error":…][,"metrics":[{"name":…,"value":…},…]],
//	 "wall_seconds":…,"worker":…,"version":…,"go_version":…,"commit":…
//	 [,"jobs_object":…][,"cell_digest":…]}
//
// without spaces — and reports whether it was. For such data the result is
// what a json.Decoder that disallows unknown fields decodes
// (TestDecodeResultWireIsStrict, FuzzResultWire). A worker writes its
// results this way, so a coordinator decodes them without reflection;
// anything else returns false for the strict decoder to read or refuse.
func DecodeResultWire(data []byte) (CellResult, bool) {
	var r CellResult
	c := cellReader{rest: data}
	ok := c.lit(`{"cell_id":`) && c.str(&r.CellID) &&
		c.lit(`,"status":`) && c.str(&r.Status)
	if ok && c.has(`,"error":`) {
		ok = c.lit(`,"error":`) && c.str(&r.Error)
	}
	if ok && c.has(`,"metrics":`) {
		ok = c.lit(`,"metrics":`) && list(&c, &r.Metrics, c.metric)
	}
	ok = ok && c.lit(`,"wall_seconds":`) && c.float(&r.WallSeconds) &&
		c.lit(`,"worker":`) && c.str(&r.Worker) &&
		c.lit(`,"version":`) && c.str(&r.Version) &&
		c.lit(`,"go_version":`) && c.str(&r.GoVersion) &&
		c.lit(`,"commit":`) && c.str(&r.Commit)
	if ok && c.has(`,"jobs_object":`) {
		ok = c.lit(`,"jobs_object":`) && c.str(&r.JobsObject)
	}
	if ok && c.has(`,"cell_digest":`) {
		ok = c.lit(`,"cell_digest":`) && c.str(&r.CellDigest)
	}
	if !ok || !c.lit("}") || len(c.rest) != 0 {
		return CellResult{}, false
	}
	return r, true
}

// float reads a JSON number as encoding/json reads it into a float64.
func (r *cellReader) float(dst *float64) bool {
	i := 0
	for i < len(r.rest) && (r.rest[i] == '-' || r.rest[i] == '+' || r.rest[i] == '.' || r.rest[i] == 'e' || r.rest[i] == 'E' || '0' <= r.rest[i] && r.rest[i] <= '9') {
		i++
	}
	tok := r.rest[:i]
	if !isJSONNumber(tok) {
		return false
	}
	v, err := strconv.ParseFloat(string(tok), 64)
	if err != nil {
		return false
	}
	*dst = v
	r.rest = r.rest[i:]
	return true
}

// metric reads {"name":…,"value":…}.
func (r *cellReader) metric(m *family.Metric) bool {
	return r.lit(`{"name":`) && r.str(&m.Name) && r.lit(`,"value":`) && r.float(&m.Value) && r.lit("}")
}
