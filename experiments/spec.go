package experiments

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/schedfarm/schedfarm/runner"

	"github.com/schedfarm/schedfarm/internal/lazyre"
)

// Spec is a parsed and validated experiment spec. Build one with Load or
// Parse; the zero value is not useful.
type Spec struct {
	// Name names the experiment; it enters every cell ID and seed.
	Name string
	// File is the spec's path as given to Load ("" for Parse without one).
	File string
	// Dir is the directory that relative trace paths resolve against: the
	// spec file's directory.
	Dir string
	// Platform holds the fixed platform parameters by short name ("procs").
	Platform map[string]any
	// Workload describes the jobs every cell simulates.
	Workload WorkloadSpec
	// Schedulers lists the scheduler entries in spec order.
	Schedulers []SchedulerSpec
	// Axes lists the swept parameters in spec order.
	Axes []Axis
	// Zip lists groups of axis parameters that vary together.
	Zip [][]string
	// Replications is the number of replications per grid point (≥ 1).
	Replications int
	// MoreReplications gives some cells more replications than
	// Replications (the points a sequential design still has to decide).
	MoreReplications []PointReplications
	// Seed is the base seed; it enters every cell seed and ID.
	Seed uint64
	// Metrics lists the metric names to keep; empty keeps all.
	Metrics []string
	// Output is the per-cell Parquet path, relative to the working directory
	// unless absolute (default "<name>.parquet").
	Output string
	// JobsOutput is the optional per-job Parquet path (same resolution).
	JobsOutput string

	lines    map[string]int
	base     []runner.Param // fixed platform and workload parameters
	axisInfo []axisInfo     // resolved axes, in spec order
}

// WorkloadSpec is the workload section: a trace or a generator, plus the
// fields applied to either (runner.Fields: estimates, overrun, load, jobs,
// warmup, lenient, the trace's modelled estimates; the families' fields).
type WorkloadSpec struct {
	// Trace is the SWF path as written in the spec (plain or .gz).
	Trace string
	// Generator holds the generator's model name and parameters; nil for a
	// trace workload.
	Generator *GeneratorSpec
	// Output is what the workload yields: OutputSWF for a trace or an SWF
	// model, else the output of a family's own platform (a generator whose
	// model brings it: "projects", "cloud", "grid"), to which the SWF
	// fields do not apply.
	Output string
	// Fields are the values of the other workload fields by full name
	// ("workload.load"): those the spec gives that pass their checks, and
	// the defaults of the fields every SWF cell carries (runner.Field with
	// a Default: workload.estimates user, workload.overrun kill).
	Fields map[string]any
}

// Value returns the value of a workload field (Fields) and whether the
// spec has it.
func (w WorkloadSpec) Value(name string) (any, bool) {
	v, ok := w.Fields[name]
	return v, ok
}

// str returns a string field's value, "" when absent.
func (w WorkloadSpec) str(name string) string {
	s, _ := w.Fields[name].(string)
	return s
}

// integer returns an int field's value, 0 when absent.
func (w WorkloadSpec) integer(name string) int {
	n, _ := w.Fields[name].(int64)
	return int(n)
}

// GeneratorSpec names a synthetic workload model and its parameters.
type GeneratorSpec struct {
	Model  string
	Params map[string]any
}

// SchedulerSpec is one scheduler entry: a registry name and its fixed
// parameters, or a scheduler plugin (Plugin set, Name the plugin's name or
// the one the spec gives it).
type SchedulerSpec struct {
	Name   string
	Params map[string]any
	Plugin *runner.PluginRef
}

// Axis is one swept parameter: a dotted parameter path and its values.
type Axis struct {
	// Param is the dotted path as written, e.g. "workload.load",
	// "scheduler.k" or "scheduler.depth.k".
	Param string
	// Values are the normalized values (int64, float64, string or bool), from
	// the list or the expanded range.
	Values []any
	// CommonRandomNumbers leaves the parameter out of the cell seed: every
	// point of the axis draws the same random numbers (for a seed004
	// interarrival axis: the same projects and capacities, arrivals
	// rescaled). Scheduler parameters never enter the seed anyway.
	CommonRandomNumbers bool
}

// raw* mirror the YAML; strict decoding rejects unknown fields.
type rawSpec struct {
	Name             string         `yaml:"name"`
	Platform         map[string]any `yaml:"platform"`
	Workload         rawWorkload    `yaml:"workload"`
	Schedulers       []yaml.Node    `yaml:"schedulers"`
	Axes             []rawAxis      `yaml:"axes"`
	Zip              [][]string     `yaml:"zip"`
	Replications     *int           `yaml:"replications"`
	MoreReplications []rawMore      `yaml:"more_replications"`
	Seed             uint64         `yaml:"seed"`
	Metrics          []string       `yaml:"metrics"`
	Output           string         `yaml:"output"`
	JobsOutput       string         `yaml:"jobs_output"`
}

type rawWorkload struct {
	Trace     string         `yaml:"trace"`
	Generator map[string]any `yaml:"generator"`

	// Fields holds every other key by short name: the spec's own fields
	// (runner.Fields: estimates, load, …) and those the families define
	// (family.SpecChecker, e.g. cpu_usage); any other is an unknown field
	// (unknownWorkloadFields).
	Fields map[string]any `yaml:",inline"`
}

type rawMore struct {
	Where        map[string]any `yaml:"where"`
	Replications int            `yaml:"replications"`
}

type rawAxis struct {
	Param               string    `yaml:"param"`
	Values              []any     `yaml:"values"`
	Range               *rawRange `yaml:"range"`
	CommonRandomNumbers bool      `yaml:"common_random_numbers"`
}

type rawRange struct {
	From any `yaml:"from"`
	To   any `yaml:"to"`
	Step any `yaml:"step"`
}

type rawScheduler struct {
	Name        string         `yaml:"name"`
	Params      map[string]any `yaml:"params"`
	Plugin      string         `yaml:"plugin"`
	PassTimeout any            `yaml:"pass_timeout"`
}

// section names the spec section each raw type decodes, for error messages
// about unknown fields.
var sectionTypes = map[string]reflect.Type{
	"experiments.rawSpec":      reflect.TypeOf(rawSpec{}),
	"experiments.rawWorkload":  reflect.TypeOf(rawWorkload{}),
	"experiments.rawAxis":      reflect.TypeOf(rawAxis{}),
	"experiments.rawRange":     reflect.TypeOf(rawRange{}),
	"experiments.rawScheduler": reflect.TypeOf(rawScheduler{}),
	"experiments.rawMore":      reflect.TypeOf(rawMore{}),
}

// FieldError is one problem with one field of a spec.
type FieldError struct {
	// Path is the field's dotted path with list indexes, e.g.
	// "schedulers[2]" or "axes[0].values[3]".
	Path string
	// Line is the 1-based line of the field in the YAML (0 when unknown).
	Line int
	// Msg says what is wrong and, after "; accepted: ", what would be.
	Msg string
}

// Error renders "line N: path: msg".
func (e FieldError) Error() string {
	s := e.Msg
	if e.Path != "" {
		s = e.Path + ": " + s
	}
	if e.Line > 0 {
		s = "line " + strconv.Itoa(e.Line) + ": " + s
	}
	return s
}

// SpecError collects every problem found in a spec.
type SpecError struct {
	File   string
	Errors []FieldError
}

// Error lists every problem, one per line.
func (e *SpecError) Error() string {
	var b strings.Builder
	name := e.File
	if name == "" {
		name = "spec"
	}
	if len(e.Errors) == 1 {
		fmt.Fprintf(&b, "%s: %s", name, e.Errors[0].Error())
		return b.String()
	}
	fmt.Fprintf(&b, "%s: %d errors:", name, len(e.Errors))
	for _, fe := range e.Errors {
		b.WriteString("\n  ")
		b.WriteString(fe.Error())
	}
	return b.String()
}

// Load reads, decodes and validates the spec file at path. Relative trace
// paths in it resolve against the file's directory. On any problem the error
// is a *SpecError listing all of them.
func Load(path string, cat Catalog) (*Spec, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(data, path, cat)
}

// Parse decodes and validates a spec. file names it in errors and its
// directory anchors relative trace paths ("" means the working directory).
func Parse(data []byte, file string, cat Catalog) (*Spec, error) {
	if fe := CheckUTF8(data); fe != nil {
		return nil, &SpecError{File: file, Errors: []FieldError{*fe}}
	}
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, &SpecError{File: file, Errors: []FieldError{yamlSyntaxError(err)}}
	}
	lines := map[string]int{}
	if len(root.Content) > 0 {
		indexLines(root.Content[0], "", lines)
	}

	var raw rawSpec
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var decodeErrs []FieldError
	if err := dec.Decode(&raw); err != nil && !errors.Is(err, io.EOF) {
		var te *yaml.TypeError
		if !errors.As(err, &te) {
			return nil, &SpecError{File: file, Errors: []FieldError{yamlSyntaxError(err)}}
		}
		for _, msg := range te.Errors {
			decodeErrs = append(decodeErrs, decodeError(msg, &root))
		}
	}
	if unknown := unknownWorkloadFields(raw.Workload, lines, cat); len(unknown) > 0 {
		decodeErrs = append(decodeErrs, unknown...)
		sortByLine(decodeErrs)
	}
	if len(decodeErrs) > 0 {
		return nil, &SpecError{File: file, Errors: decodeErrs}
	}

	dir := "."
	if file != "" {
		dir = filepath.Dir(file)
	}
	v := &validator{cat: cat, lines: lines, dir: dir}
	spec := v.build(&raw)
	spec.File = file
	spec.lines = lines
	if len(v.errs) > 0 {
		sortByLine(v.errs)
		return nil, &SpecError{File: file, Errors: v.errs}
	}
	return spec, nil
}

// sortByLine orders errors by line, stably, those without a line last.
func sortByLine(errs []FieldError) {
	sort.SliceStable(errs, func(i, j int) bool {
		li, lj := errs[i].Line, errs[j].Line
		if li == 0 || lj == 0 {
			return li != 0 && lj == 0
		}
		return li < lj
	})
}

var lineRE = lazyre.MustCompile(`^(?:yaml: )?line (\d+): (.*)$`)

func yamlSyntaxError(err error) FieldError {
	line, problem, _ := YAMLErrorLine(err.Error())
	return FieldError{Line: line, Msg: "invalid YAML: " + problem}
}

var unknownFieldRE = lazyre.MustCompile(`^field (\S+) not found in type (\S+)$`)

// decodeError turns one message of a *yaml.TypeError into a FieldError with
// the field's path and, for unknown fields, the accepted ones.
func decodeError(msg string, root *yaml.Node) FieldError {
	fe := FieldError{Msg: msg}
	m := lineRE.FindStringSubmatch(msg)
	if m == nil {
		return fe
	}
	fe.Line, _ = strconv.Atoi(m[1])
	fe.Msg = m[2]
	if u := unknownFieldRE.FindStringSubmatch(m[2]); u != nil {
		key := u[1]
		if p, ok := findKey(root, fe.Line, key); ok {
			fe.Path = p
		} else {
			fe.Path = key
		}
		fe.Msg = "unknown field"
		if t, ok := sectionTypes[u[2]]; ok {
			fe.Msg += "; accepted: " + strings.Join(yamlFields(t), ", ")
		}
		return fe
	}
	if p, ok := findValue(root, fe.Line); ok {
		fe.Path = p
	}
	fe.Msg = FriendlyDecode(fe.Msg)
	return fe
}

func yamlFields(t reflect.Type) []string {
	var names []string
	for i := 0; i < t.NumField(); i++ {
		tag := strings.Split(t.Field(i).Tag.Get("yaml"), ",")[0]
		if tag != "" && tag != "-" {
			names = append(names, tag)
		}
	}
	sort.Strings(names)
	return names
}

// indexLines records the line of every mapping key and sequence item under
// their dotted paths.
func indexLines(n *yaml.Node, path string, lines map[string]int) {
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		indexLines(n.Content[0], path, lines)
		return
	}
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			p := joinPath(path, k.Value)
			lines[p] = k.Line
			indexLines(n.Content[i+1], p, lines)
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			p := path + "[" + strconv.Itoa(i) + "]"
			lines[p] = c.Line
			indexLines(c, p, lines)
		}
	}
}

func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// findKey returns the path of the mapping key named key on line.
func findKey(root *yaml.Node, line int, key string) (string, bool) {
	lines := map[string]int{}
	if len(root.Content) > 0 {
		indexLines(root.Content[0], "", lines)
	}
	var best string
	for p, l := range lines {
		if l == line && (p == key || strings.HasSuffix(p, "."+key)) {
			if best == "" || len(p) < len(best) {
				best = p
			}
		}
	}
	return best, best != ""
}

// findValue returns the deepest path recorded on line.
func findValue(root *yaml.Node, line int) (string, bool) {
	lines := map[string]int{}
	if len(root.Content) > 0 {
		indexLines(root.Content[0], "", lines)
	}
	var best string
	for p, l := range lines {
		if l == line && (len(p) > len(best) || (len(p) == len(best) && p < best)) {
			best = p
		}
	}
	return best, best != ""
}
