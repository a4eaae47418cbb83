package runner

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/schedfarm/schedfarm/internal/jsonappend"
)

// DecodeCellWire decodes data when it is exactly the text json.Marshal
// writes for a Cell whose strings are plain (jsonappend.Plain) and that
// names no plugin —
//
//	{"experiment":…,"id":…,"index":…,"scheduler":…,"params":[…],
//	 "replication":…,"seed":…,"base_seed":…[,"crn":[…]][,"dir":…][,"keep_jobs":…]}
//
// without spaces, each parameter in Param.MarshalJSON's form — and reports
// whether it was. For such data the Cell is what a json.Decoder that
// disallows unknown fields decodes (TestDecodeCellWireIsStrict,
// FuzzCellWire): every key is known and appears once, the numbers are
// integers in range. A coordinator writes its cells this way, so a
// worker decodes them without reflection (worker.DecodeCell); anything
// else, and any parameter its decoder refuses, returns false for the
// strict decoder to read or refuse with its own message.
func DecodeCellWire(data []byte) (Cell, bool) {
	var c Cell
	r := cellReader{rest: data}
	ok := r.lit(`{"experiment":`) && r.str(&c.Experiment) &&
		r.lit(`,"id":`) && r.str(&c.ID) &&
		r.lit(`,"index":`) && r.int(&c.Index) &&
		r.lit(`,"scheduler":`) && r.str(&c.Scheduler) &&
		r.lit(`,"params":`) && list(&r, &c.Params, r.param) &&
		r.lit(`,"replication":`) && r.int(&c.Replication) &&
		r.lit(`,"seed":`) && r.uint(&c.Seed) &&
		r.lit(`,"base_seed":`) && r.uint(&c.BaseSeed)
	if ok && r.has(`,"crn":`) {
		ok = r.lit(`,"crn":`) && list(&r, &c.CRN, r.str)
	}
	if ok && r.has(`,"dir":`) {
		ok = r.lit(`,"dir":`) && r.str(&c.Dir)
	}
	if ok && r.has(`,"keep_jobs":`) {
		ok = r.lit(`,"keep_jobs":`) && r.bool(&c.KeepJobs)
	}
	if !ok || !r.lit("}") || len(r.rest) != 0 {
		return Cell{}, false
	}
	return c, true
}

// EncodeCell returns what json.Marshal(c) returns. A cell whose strings are
// plain and that names no plugin is written directly, in the form
// DecodeCellWire reads (TestEncodeCellIsMarshal): a coordinator encodes
// every cell twice, for its digest and to publish it.
func EncodeCell(c Cell) ([]byte, error) {
	if b, ok := appendCellWire(make([]byte, 0, 192+64*len(c.Params)+len(c.Dir)), c); ok {
		return b, nil
	}
	return json.Marshal(c)
}

// appendCellWire appends c as json.Marshal writes it and reports true, or
// reports false when it cannot write c without encoding/json.
func appendCellWire(b []byte, c Cell) ([]byte, bool) {
	if c.Plugin != nil {
		return b, false
	}
	ok := true
	str := func(s string) {
		if ok {
			b, ok = jsonappend.String(b, s)
		}
	}
	b = append(b, `{"experiment":`...)
	str(c.Experiment)
	b = append(b, `,"id":`...)
	str(c.ID)
	b = jsonappend.Int(append(b, `,"index":`...), int64(c.Index))
	b = append(b, `,"scheduler":`...)
	str(c.Scheduler)
	b = append(b, `,"params":`...)
	if c.Params == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, p := range c.Params {
			if i > 0 {
				b = append(b, ',')
			}
			var written bool
			if b, written = p.appendWire(b); !written {
				return b, false
			}
		}
		b = append(b, ']')
	}
	b = jsonappend.Int(append(b, `,"replication":`...), int64(c.Replication))
	b = jsonappend.Uint(append(b, `,"seed":`...), c.Seed)
	b = jsonappend.Uint(append(b, `,"base_seed":`...), c.BaseSeed)
	if len(c.CRN) > 0 {
		b = append(b, `,"crn":[`...)
		for i, name := range c.CRN {
			if i > 0 {
				b = append(b, ',')
			}
			str(name)
		}
		b = append(b, ']')
	}
	if c.Dir != "" {
		b = append(b, `,"dir":`...)
		str(c.Dir)
	}
	if c.KeepJobs {
		b = append(b, `,"keep_jobs":true`...)
	}
	return append(b, '}'), ok
}

// cellReader reads DecodeCellWire's form from the front of rest.
type cellReader struct{ rest []byte }

func (r *cellReader) has(prefix string) bool { return bytes.HasPrefix(r.rest, []byte(prefix)) }

func (r *cellReader) lit(prefix string) bool {
	if !r.has(prefix) {
		return false
	}
	r.rest = r.rest[len(prefix):]
	return true
}

// str reads a plain string.
func (r *cellReader) str(dst *string) bool {
	if len(r.rest) == 0 || r.rest[0] != '"' {
		return false
	}
	i := bytes.IndexByte(r.rest[1:], '"')
	if i < 0 || !jsonappend.Plain(string(r.rest[1:1+i])) {
		return false
	}
	*dst = string(r.rest[1 : 1+i])
	r.rest = r.rest[i+2:]
	return true
}

// scalar reads, raw, a plain string (its quotes kept), true, false or a
// JSON number, which must be followed by a comma.
func (r *cellReader) scalar(dst *json.RawMessage) bool {
	if len(r.rest) > 0 && r.rest[0] == '"' {
		before := r.rest
		var s string
		if !r.str(&s) {
			return false
		}
		*dst = json.RawMessage(before[:len(s)+2])
		return true
	}
	j := bytes.IndexByte(r.rest, ',')
	if j < 0 {
		return false
	}
	tok := r.rest[:j]
	if !(string(tok) == "true" || string(tok) == "false" || isJSONNumber(tok)) {
		return false
	}
	*dst = json.RawMessage(tok)
	r.rest = r.rest[j:]
	return true
}

// digits returns the JSON integer at the front of rest,
// -?(0|[1-9][0-9]*), not followed by a fraction or an exponent, and
// whether there was one.
func (r *cellReader) digits() (string, bool) {
	i := 0
	if i < len(r.rest) && r.rest[i] == '-' {
		i++
	}
	start := i
	for i < len(r.rest) && '0' <= r.rest[i] && r.rest[i] <= '9' {
		i++
	}
	n := i - start
	if n == 0 || n > 1 && r.rest[start] == '0' {
		return "", false
	}
	if i < len(r.rest) && (r.rest[i] == '.' || r.rest[i] == 'e' || r.rest[i] == 'E') {
		return "", false
	}
	tok := string(r.rest[:i])
	r.rest = r.rest[i:]
	return tok, true
}

func (r *cellReader) int(dst *int) bool {
	tok, ok := r.digits()
	if !ok {
		return false
	}
	v, err := strconv.ParseInt(tok, 10, strconv.IntSize)
	*dst = int(v)
	return err == nil
}

func (r *cellReader) uint(dst *uint64) bool {
	tok, ok := r.digits()
	if !ok || tok[0] == '-' {
		return false
	}
	v, err := strconv.ParseUint(tok, 10, 64)
	*dst = v
	return err == nil
}

func (r *cellReader) bool(dst *bool) bool {
	switch {
	case r.lit("true"):
		*dst = true
	case r.lit("false"):
		*dst = false
	default:
		return false
	}
	return true
}

// list reads null (nil) or a JSON array whose elements item reads, as
// encoding/json decodes them into a slice (an empty array is an empty,
// non-nil slice).
func list[T any](r *cellReader, dst *[]T, item func(*T) bool) bool {
	if r.lit("null") {
		*dst = nil
		return true
	}
	if !r.lit("[") {
		return false
	}
	out := []T{}
	for !r.lit("]") {
		if len(out) > 0 && !r.lit(",") {
			return false
		}
		var v T
		if !item(&v) {
			return false
		}
		out = append(out, v)
	}
	*dst = out
	return true
}

// param reads a parameter in Param.MarshalJSON's form, decoded as
// Param.UnmarshalJSON decodes it.
func (r *cellReader) param(p *Param) bool {
	w, rest, ok := cutWire(r.rest)
	if !ok || p.fromWire(w) != nil {
		return false
	}
	r.rest = rest
	return true
}
