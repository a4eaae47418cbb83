package runner

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/schedfarm/schedfarm/family"
	"github.com/schedfarm/schedfarm/internal/jsonappend"
	"github.com/schedfarm/schedfarm/param"
)

// Cell is one unit of work of an experiment: one point of the parameter grid,
// one scheduler, one replication — what one run is given (RunCell). A cell
// is self-contained: a worker can run it without the spec it came from.
// Spec expansion makes cells (package experiments); it travels as JSON
// between coordinator and workers.
type Cell struct {
	// Experiment is the spec's name.
	Experiment string `json:"experiment"`
	// ID is a stable hash of the canonical parameters, scheduler and
	// replication; the same spec always yields the same IDs.
	ID string `json:"id"`
	// Index is the cell's position in the expanded grid (for progress only;
	// never an input to the simulation).
	Index int `json:"index"`
	// Scheduler is the registry name of the scheduler.
	Scheduler string `json:"scheduler"`
	// Params are the cell's resolved parameters in canonical order (sorted by
	// name): every axis value and every fixed platform, workload and scheduler
	// parameter, with dotted names such as "platform.procs",
	// "workload.load", "scheduler.k".
	Params []Param `json:"params"`
	// Replication counts from 0.
	Replication int `json:"replication"`
	// Seed derives from (experiment name, base seed, cell parameters,
	// replication) only; scheduler parameters and the parameters of
	// common_random_numbers axes are left out (CellSeed).
	Seed uint64 `json:"seed"`
	// BaseSeed is the spec's seed and CRN the names of the cell's
	// parameters left out of Seed (common_random_numbers axes), sorted:
	// with them a worker recomputes ID and Seed from the parameters
	// instead of trusting the ones on the wire.
	BaseSeed uint64   `json:"base_seed"`
	CRN      []string `json:"crn,omitempty"`
	// Dir is the directory that relative file parameters (such as
	// "workload.trace") resolve against: the spec file's directory,
	// absolute as Spec.Cells makes it. On the wire it is relative to the
	// coordinator's data root (slash-separated, empty for a cell that names
	// no file), and a worker resolves it under its own data root. It is
	// not part of the ID or the seed, so moving a checkout keeps both.
	Dir string `json:"dir,omitempty"`
	// KeepJobs asks the worker to return per-job records in
	// CellResult.Jobs (the spec has a jobs_output).
	KeepJobs bool `json:"keep_jobs,omitempty"`
	// Plugin is set when the scheduler is a plugin executable; Scheduler
	// is then its name. Its SHA-256 is part of the ID.
	Plugin *PluginRef `json:"plugin,omitempty"`
}

// PluginRef names a scheduler plugin executable by path and content.
type PluginRef struct {
	// Path is the executable's path as the spec gives it; a relative path
	// resolves against Cell.Dir (the spec's directory), like a trace.
	Path string `json:"path"`
	// SHA256 is the hex SHA-256 of the executable the coordinator saw. A
	// worker whose file at Path differs refuses the cell.
	SHA256 string `json:"sha256"`
	// PassTimeout bounds each answer of the plugin, in seconds (0: the
	// default of strategies/plugin). Not part of the ID: it does not
	// change results.
	PassTimeout float64 `json:"pass_timeout,omitempty"`
}

// PluginSHA256 returns the cell's plugin SHA-256, "" for a built-in
// scheduler.
func (c *Cell) PluginSHA256() string {
	if c.Plugin == nil {
		return ""
	}
	return c.Plugin.SHA256
}

// Param is one named parameter value. Value is float64, int64, string or bool
// after decoding (JSON numbers that are whole are decoded as int64 only when
// the spec declared them as integers; see Spec validation).
type Param struct {
	Name  string `json:"name"`
	Value any    `json:"value"`
}

// Status values of a CellResult.
const (
	StatusOK     = "ok"
	StatusFailed = "failed"
)

// CellResult is what a worker sends back for a cell.
type CellResult struct {
	CellID      string          `json:"cell_id"`
	Status      string          `json:"status"` // StatusOK or StatusFailed
	Error       string          `json:"error,omitempty"`
	Metrics     []family.Metric `json:"metrics,omitempty"` // stable order, stable names
	WallSeconds float64         `json:"wall_seconds"`
	Worker      string          `json:"worker"`
	Version     string          `json:"version"`    // schedfarm version
	GoVersion   string          `json:"go_version"` // runtime.Version() of the worker
	Commit      string          `json:"commit"`     // VCS revision of the worker binary
	// Jobs holds per-job records when the cell asked for them (KeepJobs);
	// the results writer stores them in the per-job Parquet file.
	Jobs []JobRecord `json:"jobs,omitempty"`
	// JobsObject is set in transit only: when the per-job records are too
	// large for one message, the worker stores them in the broker's object
	// store under this name (broker.JobsObjectName) and the coordinator
	// loads them back into Jobs before it writes the result.
	JobsObject string `json:"jobs_object,omitempty"`
	// CellDigest is the hex SHA-256 of the cell message the worker ran (or
	// refused), set in transit: the coordinator accepts a result only for
	// the exact message it published.
	CellDigest string `json:"cell_digest,omitempty"`
}

// JobRecord is the outcome of one job of a cell's simulation. Times are
// seconds of simulated time; Wait and Bsld are -1 for jobs that never
// started.
type JobRecord struct {
	ID     int64   `json:"id"`
	Submit float64 `json:"submit"`
	Start  float64 `json:"start"`
	End    float64 `json:"end"`
	Procs  int64   `json:"procs"`
	Wait   float64 `json:"wait"`
	Bsld   float64 `json:"bsld"`
	State  string  `json:"state"`
}

// Kind names the kind of the parameter's value as the wire does
// (param.Kind.String(): "int", "float", "string", "bool"), or "" for a
// value of any other Go type.
func (p Param) Kind() string {
	if k, ok := param.KindOf(p.Value); ok {
		return k.String()
	}
	return ""
}

// ParamsKey is a canonical text of parameters in the given order (a
// cell's are sorted by name): each name, kind and formatted value, so that
// an integer 1 and a float 1 differ. Cells with equal keys, scheduler and
// plugin are one grid point's replications.
func ParamsKey(ps []Param) string {
	var b strings.Builder
	for _, p := range ps {
		b.WriteString(p.Name)
		b.WriteByte('=')
		b.WriteString(p.Kind())
		b.WriteByte(':')
		if s, ok := p.Value.(string); ok {
			b.WriteString(s)
		} else {
			b.WriteString(param.Format(p.Value))
		}
		b.WriteByte(0)
	}
	return b.String()
}

// paramJSON is the wire form of a Param: the kind travels with the value so
// that an integer stays an int64 and 2.0 stays a float64 after a round trip.
type paramJSON struct {
	Name  string          `json:"name"`
	Value json.RawMessage `json:"value"`
	Type  string          `json:"type,omitempty"`
}

// MarshalJSON encodes the parameter as {"name":…,"value":…,"type":…}.
// A parameter whose name and value are plain (jsonappend) is written
// directly, as the encoding/json path below writes it, byte for byte:
// cells are encoded twice a cell by a coordinator (for their digest, then
// to publish them), and their bytes are what digests and duplicate checks
// compare (TestParamWireFastPathIsMarshals).
func (p Param) MarshalJSON() ([]byte, error) {
	if b, ok := p.appendWire(make([]byte, 0, 64+len(p.Name))); ok {
		return b, nil
	}
	return p.marshalSlow()
}

// appendWire appends p's wire form and reports true, or reports false when
// a string of p is not plain, its value is not finite or of no kind: then
// MarshalJSON takes encoding/json's path.
func (p Param) appendWire(b []byte) ([]byte, bool) {
	k := p.Kind()
	if k == "" {
		return b, false
	}
	b = append(b, `{"name":`...)
	b, ok := jsonappend.String(b, p.Name)
	if !ok {
		return b, false
	}
	b = append(b, `,"value":`...)
	switch v := p.Value.(type) {
	case int64:
		b = jsonappend.Int(b, v)
	case float64:
		b, ok = jsonappend.Float(b, v)
	case string:
		b, ok = jsonappend.String(b, v)
	case bool:
		b = jsonappend.Bool(b, v)
	}
	if !ok {
		return b, false
	}
	b = append(b, `,"type":"`...)
	b = append(b, k...)
	return append(b, `"}`...), true
}

// marshalSlow is MarshalJSON by encoding/json.
func (p Param) marshalSlow() ([]byte, error) {
	k := p.Kind()
	if k == "" {
		return nil, fmt.Errorf("param %s: unsupported value type %T", p.Name, p.Value)
	}
	if f, ok := p.Value.(float64); ok && (math.IsNaN(f) || math.IsInf(f, 0)) {
		return nil, fmt.Errorf("param %s: value %v is not finite", p.Name, f)
	}
	v, err := json.Marshal(p.Value)
	if err != nil {
		return nil, err
	}
	return json.Marshal(paramJSON{Name: p.Name, Value: v, Type: k})
}

// UnmarshalJSON decodes the form written by MarshalJSON. Without a "type",
// JSON numbers decode as float64, strings as string and booleans as bool.
// The exact form MarshalJSON writes for plain names and values is split
// without encoding/json (splitWire); anything else takes encoding/json's
// path, which reads any spacing and key order and ignores unknown keys.
func (p *Param) UnmarshalJSON(data []byte) error {
	if w, ok := splitWire(data); ok {
		return p.fromWire(w)
	}
	return p.unmarshalSlow(data)
}

// unmarshalSlow is UnmarshalJSON by encoding/json.
func (p *Param) unmarshalSlow(data []byte) error {
	var w paramJSON
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	return p.fromWire(w)
}

// splitWire splits data of the exact form
//
//	{"name":"N","value":V,"type":"T"}
//
// with N and T plain (jsonappend.Plain) and V a JSON number, true, false
// or a plain string, into what json.Unmarshal would decode from it, and
// reports whether data had that form.
func splitWire(data []byte) (paramJSON, bool) {
	w, rest, ok := cutWire(data)
	return w, ok && len(rest) == 0
}

// cutWire is splitWire for a parameter at the start of data; it also
// returns what follows it.
func cutWire(data []byte) (paramJSON, []byte, bool) {
	var w paramJSON
	r := cellReader{rest: data}
	ok := r.lit(`{"name":`) && r.str(&w.Name) &&
		r.lit(`,"value":`) && r.scalar(&w.Value) &&
		r.lit(`,"type":`) && r.str(&w.Type) && r.lit("}")
	return w, r.rest, ok
}

// isJSONNumber reports whether b is one JSON number:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func isJSONNumber(b []byte) bool {
	i := 0
	digits := func() int {
		n := 0
		for i < len(b) && '0' <= b[i] && b[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case digits() == 0:
		return false
	}
	if i < len(b) && b[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(b)
}

// fromWire sets p from its decoded wire form.
func (p *Param) fromWire(w paramJSON) error {
	raw, err := scalarValue(w.Value)
	if err != nil {
		return fmt.Errorf("param %s: %w", w.Name, err)
	}
	p.Name = w.Name
	switch w.Type {
	case param.Int.String():
		n, ok := raw.(json.Number)
		if !ok {
			return fmt.Errorf("param %s: type int but value %s", w.Name, w.Value)
		}
		i, err := strconv.ParseInt(n.String(), 10, 64)
		if err != nil {
			return fmt.Errorf("param %s: %w", w.Name, err)
		}
		p.Value = i
	case param.Float.String(), "":
		if n, ok := raw.(json.Number); ok {
			f, err := strconv.ParseFloat(n.String(), 64)
			if err != nil {
				return fmt.Errorf("param %s: %w", w.Name, err)
			}
			p.Value = f
			return nil
		}
		if w.Type == param.Float.String() {
			return fmt.Errorf("param %s: type float but value %s", w.Name, w.Value)
		}
		switch v := raw.(type) {
		case string, bool:
			p.Value = v
		default:
			return fmt.Errorf("param %s: value %s is not a scalar", w.Name, w.Value)
		}
	case param.String.String():
		s, ok := raw.(string)
		if !ok {
			return fmt.Errorf("param %s: type string but value %s", w.Name, w.Value)
		}
		p.Value = s
	case param.Bool.String():
		b, ok := raw.(bool)
		if !ok {
			return fmt.Errorf("param %s: type bool but value %s", w.Name, w.Value)
		}
		p.Value = b
	default:
		return fmt.Errorf("param %s: unknown type %q; accepted: int, float, string, bool", w.Name, w.Type)
	}
	return nil
}

// scalarValue decodes a parameter's JSON value as a json.Decoder with
// UseNumber does (a number as json.Number, a string, a bool, …). v comes
// from json.Unmarshal, which has checked that it is one JSON value without
// surrounding space, so a number, true, false and a string without escapes
// in valid UTF-8 are read off directly (a decoder per parameter was about a
// quarter of a worker's CPU per instant cell); anything else takes the
// decoder.
func scalarValue(v json.RawMessage) (any, error) {
	if len(v) > 0 {
		switch c := v[0]; {
		case c == '-' || '0' <= c && c <= '9':
			return json.Number(v), nil
		case string(v) == "true":
			return true, nil
		case string(v) == "false":
			return false, nil
		case c == '"' && len(v) >= 2 && v[len(v)-1] == '"' && bytes.IndexByte(v, '\\') < 0 && utf8.Valid(v):
			return string(v[1 : len(v)-1]), nil
		}
	}
	dec := json.NewDecoder(bytes.NewReader(v))
	dec.UseNumber()
	var raw any
	err := dec.Decode(&raw)
	return raw, err
}

// Lookup returns the value of the named parameter (a dotted name such as
// "workload.load") and whether the cell has it.
func (c *Cell) Lookup(name string) (any, bool) {
	i := sort.Search(len(c.Params), func(i int) bool { return c.Params[i].Name >= name })
	if i < len(c.Params) && c.Params[i].Name == name {
		return c.Params[i].Value, true
	}
	// Params should be sorted; fall back to a scan for hand-built cells.
	for _, p := range c.Params {
		if p.Name == name {
			return p.Value, true
		}
	}
	return nil, false
}

// WithParam returns a copy of c whose named parameter has value v (its
// Params slice copied, c's own left alone; no parameter is added if c has
// none of that name). Tests use it to forge one field of a cell.
func (c Cell) WithParam(name string, v any) Cell {
	c.Params = append([]Param(nil), c.Params...)
	for i := range c.Params {
		if c.Params[i].Name == name {
			c.Params[i].Value = v
		}
	}
	return c
}

// ParamsWithPrefix returns the parameters whose names start with prefix,
// with the prefix removed, as a map (for scheduler and generator params).
func (c *Cell) ParamsWithPrefix(prefix string) map[string]any {
	m := map[string]any{}
	for _, p := range c.Params {
		if rest, ok := strings.CutPrefix(p.Name, prefix); ok && rest != "" {
			m[rest] = p.Value
		}
	}
	return m
}
