package experiments

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/schedfarm/schedfarm/runner"

	"github.com/schedfarm/schedfarm/internal/lazyre"
)

// The re-check of a cell received from the network (CheckCell): a worker
// that trusts nothing on the wire rebuilds the one-cell spec the cell
// would come from and validates it as the coordinator validated its spec.

// cellSpecFile names the spec CheckCell rebuilds; only its directory is
// used (to anchor the cell's relative paths), nothing is read from it.
const cellSpecFile = "cell.schedfarm.yaml"

// CheckCell re-validates a cell received from the network (the worker's
// Trust gate calls it) by the path the coordinator's spec took: it writes the one-cell spec the cell would come
// from (its parameters as fixed platform, workload and scheduler values;
// the trace-estimate settings, jobs, warmup and the common-random-numbers
// parameters as one-value axes, as a sweep may have given them), validates
// it with
// experiments.Parse against cat, expands it and requires the cell to be
// that spec's cell: the same parameters with the same kinds, the same
// plugin binary, and the ID and seed the expansion derives for the cell's
// replication. c.Dir must be the absolute directory its relative paths
// resolve against (DataRoot.Resolve). The error names the field and what
// would be accepted. CellChecker is CheckCell validating each spec point
// once.
func CheckCell(c runner.Cell, cat Catalog) error {
	if err := checkWireFields(c); err != nil {
		return err
	}
	v, err := validateCell(c, cat)
	if err != nil {
		return err
	}
	return v.admit(c)
}

// checkWireFields checks what CheckCell checks of a cell before it builds
// its spec: the replication's range and the form of the plugin fields.
func checkWireFields(c runner.Cell) error {
	if c.Replication >= MaxCells {
		return fmt.Errorf("replication %d; accepted: below %d (a spec has at most %d cells)", c.Replication, MaxCells, MaxCells)
	}
	if c.Plugin != nil {
		if !sha256RE.MatchString(c.Plugin.SHA256) {
			return fmt.Errorf("plugin.sha256 %q; accepted: 64 lower-case hex digits", c.Plugin.SHA256)
		}
		if pt := c.Plugin.PassTimeout; pt < 0 || math.IsNaN(pt) || math.IsInf(pt, 0) {
			return fmt.Errorf("plugin.pass_timeout %v; accepted: 0 (the default) or seconds > 0", pt)
		}
	}
	return nil
}

// validCell is what spec validation concluded about a cell (validateCell):
// it holds for every cell that differs from it in Replication, ID, Seed
// and Index only, and admit checks those.
type validCell struct {
	experiment string
	baseSeed   uint64
	idName     string         // the scheduler's name in the ID (a plugin's with its SHA-256)
	params     []runner.Param // the expansion's parameters (the cell's, same kinds and values)
	seedParams []runner.Param // params without the common-random-numbers ones
}

// validateCell is the expensive part of CheckCell: it builds the cell's
// one-cell spec, validates and expands it, requires the cell's parameters,
// scheduler and plugin to be that spec's cell's and checks that this
// worker derives the expansion's ID and seed for replication 0.
func validateCell(c runner.Cell, cat Catalog) (*validCell, error) {
	doc, axisNames, err := cellSpec(c, cat)
	if err != nil {
		return nil, err
	}
	spec, err := Parse(doc, filepath.Join(c.Dir, cellSpecFile), cat)
	if err != nil {
		return nil, specErrors(err, axisNames)
	}
	cells := spec.Cells()
	var want *runner.Cell
	for i := range cells {
		if sameParams(cells[i].Params, c.Params) == "" {
			want = &cells[i]
			break
		}
	}
	if want == nil {
		if len(cells) == 0 {
			return nil, errors.New("the cell's spec expands to no cell")
		}
		return nil, fmt.Errorf("params: %s", sameParams(cells[0].Params, c.Params))
	}
	if want.Scheduler != c.Scheduler {
		return nil, fmt.Errorf("scheduler %q; spec validation names it %q", c.Scheduler, want.Scheduler)
	}
	if c.Plugin != nil {
		if want.Plugin == nil {
			return nil, errors.New("plugin: set, but the scheduler is not a plugin")
		}
		if want.Plugin.SHA256 != c.Plugin.SHA256 {
			return nil, fmt.Errorf("plugin %s: the file has SHA-256 %s, the cell names %s; accepted: the binary the coordinator hashed", c.Plugin.Path, want.Plugin.SHA256, c.Plugin.SHA256)
		}
	}
	// The expansion made replication 0; replication r differs only in the
	// replication argument of CellID and CellSeed (admit derives both for
	// r). Check that this derivation gives the expansion's for 0.
	v := &validCell{experiment: c.Experiment, baseSeed: c.BaseSeed, idName: want.Scheduler, params: want.Params}
	if want.Plugin != nil {
		v.idName += "@sha256:" + want.Plugin.SHA256
	}
	for _, p := range want.Params {
		if !contains(c.CRN, p.Name) {
			v.seedParams = append(v.seedParams, p)
		}
	}
	if CellID(c.Experiment, want.BaseSeed, v.idName, want.Params, 0) != want.ID ||
		CellSeed(c.Experiment, want.BaseSeed, v.seedParams, 0) != want.Seed {
		return nil, errors.New("internal: the worker's cell ID or seed derivation differs from the spec expansion's; this worker cannot check cells")
	}
	return v, nil
}

// admit requires c's ID and seed to be the ones spec expansion derives for
// its replication from the validated cell's experiment, base seed,
// scheduler and parameters.
func (v *validCell) admit(c runner.Cell) error {
	if id := CellID(v.experiment, v.baseSeed, v.idName, v.params, c.Replication); id != c.ID {
		return fmt.Errorf("id %s does not belong to these parameters, scheduler, base seed and replication %d (they give %s); accepted: the ID spec expansion derives", c.ID, c.Replication, id)
	}
	if seed := CellSeed(v.experiment, v.baseSeed, v.seedParams, c.Replication); seed != c.Seed {
		return fmt.Errorf("seed %d does not belong to these parameters, base seed and replication %d (they give %d); accepted: the seed spec expansion derives", c.Seed, c.Replication, seed)
	}
	return nil
}

var sha256RE = lazyre.MustCompile(`^[0-9a-f]{64}$`)

// joint reports whether name is a field a sweep may combine in ways a
// spec with fixed values refuses (runner.Field.Joint: the trace-estimate
// settings; warmup ≥ jobs): CheckCell gives it as a one-value axis, each
// value checked on its own as in a sweep.
func joint(name string) bool {
	f, ok := runner.FieldOf(name)
	return ok && f.Joint
}

// fixedField reports whether CheckCell gives the workload field name as a
// fixed value of the workload section: every other field of the table
// (trace, overrun, load, lenient) and every family's workload field
// (Catalog.WorkloadFields, e.g. seed 000's cpu_usage), which a spec
// checks together rather than one per axis.
func fixedField(cat Catalog, name string) bool {
	if f, ok := runner.FieldOf(name); ok {
		return !f.Joint && strings.HasPrefix(name, "workload.")
	}
	if cat == nil {
		return false
	}
	for _, fd := range cat.WorkloadFields() {
		if fd.Name == name {
			return true
		}
	}
	return false
}

// cellSpec writes the one-cell spec of c as YAML. axisNames[i] is the
// parameter of axes[i], for error messages.
func cellSpec(c runner.Cell, cat Catalog) (doc []byte, axisNames []string, err error) {
	for _, n := range c.CRN {
		if _, ok := c.Lookup(n); !ok {
			return nil, nil, fmt.Errorf("crn: %q is not a parameter of the cell; accepted: names of the cell's parameters", n)
		}
	}
	platform, workload, generator, sched := mapping(), mapping(), mapping(), mapping()
	var axes []*yaml.Node
	addAxis := func(name string, crn bool, values ...any) {
		ax := mapping()
		set(ax, "param", str(name))
		vs := &yaml.Node{Kind: yaml.SequenceNode}
		for _, v := range values {
			vs.Content = append(vs.Content, scalar(v))
		}
		set(ax, "values", vs)
		if crn {
			set(ax, "common_random_numbers", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "true"})
		}
		axes = append(axes, ax)
		axisNames = append(axisNames, name)
	}
	for _, p := range c.Params {
		crn := contains(c.CRN, p.Name)
		parts := strings.Split(p.Name, ".")
		switch {
		case crn && p.Name != "workload.trace" && p.Name != "workload.generator.model":
			addAxis(p.Name, true, p.Value)
			continue
		case crn:
			addAxis(p.Name, true, p.Value) // the validator says why not (model), or sweeps the trace
		}
		switch {
		case joint(p.Name):
			values := []any{p.Value}
			if p.Name == "workload.user_estimates" && p.Value != "tsafrir05" {
				// A sweep that models estimates at some of its points
				// may carry max_estimate and est_bins at the others.
				if _, ok := c.Lookup("workload.max_estimate"); ok {
					values = append(values, "tsafrir05")
				} else if _, ok := c.Lookup("workload.est_bins"); ok {
					values = append(values, "tsafrir05")
				}
			}
			addAxis(p.Name, false, values...)
		case len(parts) == 2 && parts[0] == "platform":
			set(platform, parts[1], scalar(p.Value))
		case len(parts) == 2 && parts[0] == "workload" && fixedField(cat, p.Name):
			set(workload, parts[1], scalar(p.Value))
		case len(parts) == 3 && parts[0] == "workload" && parts[1] == "generator":
			set(generator, parts[2], scalar(p.Value))
		case len(parts) == 2 && parts[0] == "scheduler":
			set(sched, parts[1], scalar(p.Value))
		default:
			addAxis(p.Name, false, p.Value) // the validator names the unknown path
		}
	}
	if len(generator.Content) > 0 {
		set(workload, "generator", generator)
	}
	entry := mapping()
	if c.Plugin != nil {
		set(entry, "plugin", str(filepath.ToSlash(c.Plugin.Path)))
		if c.Plugin.PassTimeout > 0 {
			set(entry, "pass_timeout", scalar(c.Plugin.PassTimeout))
		}
	}
	set(entry, "name", str(c.Scheduler))
	if len(sched.Content) > 0 {
		set(entry, "params", sched)
	}
	root := mapping()
	set(root, "name", str(c.Experiment))
	set(root, "seed", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.FormatUint(c.BaseSeed, 10)})
	set(root, "replications", scalar(int64(1)))
	if len(platform.Content) > 0 {
		set(root, "platform", platform)
	}
	set(root, "workload", workload)
	set(root, "schedulers", &yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{entry}})
	if len(axes) > 0 {
		set(root, "axes", &yaml.Node{Kind: yaml.SequenceNode, Content: axes})
	}
	if c.KeepJobs {
		set(root, "output", str("cell.parquet"))
		set(root, "jobs_output", str("cell-jobs.parquet"))
	}
	doc, err = yaml.Marshal(root)
	if err != nil {
		return nil, nil, fmt.Errorf("the cell does not make a spec: %v", err)
	}
	return doc, axisNames, nil
}

func mapping() *yaml.Node { return &yaml.Node{Kind: yaml.MappingNode} }

func str(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }

func set(m *yaml.Node, key string, v *yaml.Node) { m.Content = append(m.Content, str(key), v) }

// scalar encodes a parameter value with an explicit tag, so that its kind
// survives YAML (2.0 stays a float, "12" a string).
func scalar(v any) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode}
	switch x := v.(type) {
	case int64:
		n.Tag, n.Value = "!!int", strconv.FormatInt(x, 10)
	case float64:
		n.Tag, n.Value = "!!float", strconv.FormatFloat(x, 'g', -1, 64)
	case bool:
		n.Tag, n.Value = "!!bool", strconv.FormatBool(x)
	case string:
		n.Tag, n.Value = "!!str", x
	default:
		n.Tag, n.Value = "!!null", "null" // the validator refuses it
	}
	return n
}

// axisRE matches the axes[i] prefix of a spec error's field path.
var axisRE = lazyre.MustCompile(`^axes\[(\d+)\]`)

// specErrors turns the SpecError of a cell's spec into an error that names
// the cell's parameters instead of the rebuilt spec's lines.
func specErrors(err error, axisNames []string) error {
	var se *SpecError
	if !errors.As(err, &se) {
		return fmt.Errorf("spec validation: %w", err)
	}
	var msgs []string
	for _, fe := range se.Errors {
		path := fe.Path
		if m := axisRE.FindStringSubmatch(path); m != nil {
			if i, _ := strconv.Atoi(m[1]); i < len(axisNames) {
				path = "param " + axisNames[i]
			}
		}
		if path == "" {
			msgs = append(msgs, fe.Msg)
		} else {
			msgs = append(msgs, path+": "+fe.Msg)
		}
	}
	return errors.New("spec validation: " + strings.Join(msgs, "; "))
}

// sameParams returns "" when got has exactly the parameters of want, with
// the same kinds and values, and otherwise the first difference.
func sameParams(want, got []runner.Param) string {
	w := map[string]runner.Param{}
	for _, p := range want {
		w[p.Name] = p
	}
	for _, p := range got {
		q, ok := w[p.Name]
		switch {
		case !ok:
			return fmt.Sprintf("%s is not a parameter of this cell's spec (a default or an unset field)", p.Name)
		case p.Kind() != q.Kind():
			return fmt.Sprintf("%s has kind %s; spec validation makes it %s", p.Name, p.Kind(), q.Kind())
		case !reflect.DeepEqual(p.Value, q.Value):
			return fmt.Sprintf("%s is %v; spec validation makes it %v", p.Name, p.Value, q.Value)
		}
		delete(w, p.Name)
	}
	for _, p := range want {
		if _, missing := w[p.Name]; missing {
			return fmt.Sprintf("%s is missing (spec validation gives it %s)", p.Name, FormatValue(p.Value))
		}
	}
	return ""
}
