package worker

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"github.com/schedfarm/schedfarm/runner"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/schedfarm/schedfarm/broker"
	"github.com/schedfarm/schedfarm/experiments"
	"github.com/schedfarm/schedfarm/families"
	"github.com/schedfarm/schedfarm/internal/wire"
)

// DefaultMaxCellBytes bounds the size of a cell message a worker accepts.
// A real cell is a few hundred bytes to a few kilobytes.
const DefaultMaxCellBytes = 1 << 20

// Gate admits the cell messages a worker takes from the queue: it decodes
// and checks one and returns the cell to run, or an error saying why the
// worker refuses it. A refused cell is never run; the worker reports it as
// a failed cell with the error, under the digest of the message, and acks
// it.
type Gate interface {
	Admit(subject string, data []byte) (runner.Cell, error)
}

// DecodeOnly is a Gate that only decodes (DecodeCell): for tests and tools
// that run hand-made cells that no spec produced. Workers that take cells
// from a network use a Trust.
type DecodeOnly struct {
	// MaxBytes bounds the message; DefaultMaxCellBytes when zero.
	MaxBytes int
}

// Admit decodes the message.
func (d DecodeOnly) Admit(subject string, data []byte) (runner.Cell, error) {
	return DecodeCell(subject, data, d.MaxBytes)
}

// DecodeCell decodes a cell message strictly: at most maxBytes
// (DefaultMaxCellBytes when ≤ 0), valid UTF-8, one JSON object with the
// fields of runner.Cell and no others, nothing after it. The cell
// must have an experiment, an id, a scheduler, parameters sorted by unique
// non-empty names, and a replication and index ≥ 0; when subject is not
// empty it must be the cell's own subject (broker.CellSubject).
func DecodeCell(subject string, data []byte, maxBytes int) (runner.Cell, error) {
	if maxBytes <= 0 {
		maxBytes = DefaultMaxCellBytes
	}
	c, err := wire.DecodeStrict[runner.Cell](data, maxBytes, "cell", "runner.Cell")
	if err != nil {
		return c, err
	}
	var errs []string
	bad := func(format string, args ...any) { errs = append(errs, fmt.Sprintf(format, args...)) }
	if c.Experiment == "" {
		bad("experiment: empty; accepted: the spec's name")
	}
	if c.ID == "" {
		bad("id: empty; accepted: the cell's stable hash")
	}
	if c.Scheduler == "" {
		bad("scheduler: empty; accepted: a scheduler name")
	}
	if c.Replication < 0 {
		bad("replication %d; accepted: ≥ 0", c.Replication)
	}
	if c.Index < 0 {
		bad("index %d; accepted: ≥ 0", c.Index)
	}
	for i, p := range c.Params {
		switch {
		case p.Name == "":
			bad("params[%d]: empty name", i)
		case i > 0 && p.Name <= c.Params[i-1].Name:
			bad("params[%d] %q: after %q; accepted: unique names in sorted order", i, p.Name, c.Params[i-1].Name)
		}
	}
	if len(errs) == 0 && subject != "" {
		if want := broker.CellSubject(c.Experiment, c.ID); subject != want {
			bad("cell %s of experiment %s arrived on subject %s; accepted: its own subject %s", c.ID, c.Experiment, subject, want)
		}
	}
	if len(errs) > 0 {
		return c, errors.New(strings.Join(errs, "; "))
	}
	return c, nil
}

// Trust is the Gate of a worker that trusts nothing on the wire: it
// decodes the message (DecodeCell), checks the files the cell names against
// the data root (DataRoot.Resolve), and re-validates the cell as the
// coordinator validated its spec (CheckCell).
type Trust struct {
	root     *DataRoot
	cat      experiments.Catalog
	maxBytes int
}

// NewTrust returns the gate for root and cat (experiments.BuiltinCatalog()
// when nil); maxBytes bounds a message (DefaultMaxCellBytes when ≤ 0).
func NewTrust(root *DataRoot, cat experiments.Catalog, maxBytes int) *Trust {
	if cat == nil {
		cat = experiments.BuiltinCatalog()
	}
	return &Trust{root: root, cat: newPluginCache(cat), maxBytes: maxBytes}
}

// Admit decodes, resolves and re-validates a cell message.
func (t *Trust) Admit(subject string, data []byte) (runner.Cell, error) {
	c, err := DecodeCell(subject, data, t.maxBytes)
	if err != nil {
		return c, err
	}
	if c, err = t.root.Resolve(c); err != nil {
		return c, err
	}
	return c, CheckCell(c, t.cat)
}

// cellSpecFile names the spec CheckCell rebuilds; only its directory is
// used (to anchor the cell's relative paths), nothing is read from it.
const cellSpecFile = "cell.schedfarm.yaml"

// CheckCell re-validates a cell received from the network by the path the
// coordinator's spec took: it writes the one-cell spec the cell would come
// from (its parameters as fixed platform, workload and scheduler values;
// the trace-estimate settings, jobs, warmup and the common-random-numbers
// parameters as one-value axes, as a sweep may have given them), validates
// it with
// experiments.Parse against cat, expands it and requires the cell to be
// that spec's cell: the same parameters with the same kinds, the same
// plugin binary, and the ID and seed the expansion derives for the cell's
// replication. c.Dir must be the absolute directory its relative paths
// resolve against (DataRoot.Resolve). The error names the field and what
// would be accepted.
func CheckCell(c runner.Cell, cat experiments.Catalog) error {
	if c.Replication >= experiments.MaxCells {
		return fmt.Errorf("replication %d; accepted: below %d (a spec has at most %d cells)", c.Replication, experiments.MaxCells, experiments.MaxCells)
	}
	if c.Plugin != nil {
		if !sha256RE.MatchString(c.Plugin.SHA256) {
			return fmt.Errorf("plugin.sha256 %q; accepted: 64 lower-case hex digits", c.Plugin.SHA256)
		}
		if pt := c.Plugin.PassTimeout; pt < 0 || math.IsNaN(pt) || math.IsInf(pt, 0) {
			return fmt.Errorf("plugin.pass_timeout %v; accepted: 0 (the default) or seconds > 0", pt)
		}
	}
	doc, axisNames, err := cellSpec(c)
	if err != nil {
		return err
	}
	spec, err := experiments.Parse(doc, filepath.Join(c.Dir, cellSpecFile), cat)
	if err != nil {
		return specErrors(err, axisNames)
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
			return errors.New("the cell's spec expands to no cell")
		}
		return fmt.Errorf("params: %s", sameParams(cells[0].Params, c.Params))
	}
	if want.Scheduler != c.Scheduler {
		return fmt.Errorf("scheduler %q; spec validation names it %q", c.Scheduler, want.Scheduler)
	}
	if c.Plugin != nil {
		if want.Plugin == nil {
			return errors.New("plugin: set, but the scheduler is not a plugin")
		}
		if want.Plugin.SHA256 != c.Plugin.SHA256 {
			return fmt.Errorf("plugin %s: the file has SHA-256 %s, the cell names %s; accepted: the binary the coordinator hashed", c.Plugin.Path, want.Plugin.SHA256, c.Plugin.SHA256)
		}
	}
	// The expansion made replication 0; replication r differs only in the
	// replication argument of CellID and CellSeed. Derive both for r, after
	// checking that this derivation gives the expansion's for 0.
	idName := want.Scheduler
	if want.Plugin != nil {
		idName += "@sha256:" + want.Plugin.SHA256
	}
	var seedParams []runner.Param
	for _, p := range want.Params {
		if !contains(c.CRN, p.Name) {
			seedParams = append(seedParams, p)
		}
	}
	if experiments.CellID(c.Experiment, want.BaseSeed, idName, want.Params, 0) != want.ID ||
		experiments.CellSeed(c.Experiment, want.BaseSeed, seedParams, 0) != want.Seed {
		return errors.New("internal: the worker's cell ID or seed derivation differs from the spec expansion's; this worker cannot check cells")
	}
	if id := experiments.CellID(c.Experiment, c.BaseSeed, idName, want.Params, c.Replication); id != c.ID {
		return fmt.Errorf("id %s does not belong to these parameters, scheduler, base seed and replication %d (they give %s); accepted: the ID spec expansion derives", c.ID, c.Replication, id)
	}
	if seed := experiments.CellSeed(c.Experiment, c.BaseSeed, seedParams, c.Replication); seed != c.Seed {
		return fmt.Errorf("seed %d does not belong to these parameters, base seed and replication %d (they give %d); accepted: the seed spec expansion derives", c.Seed, c.Replication, seed)
	}
	return nil
}

var sha256RE = regexp.MustCompile(`^[0-9a-f]{64}$`)

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Parameters that a sweep may combine in ways a spec with fixed values
// refuses (the trace-estimate settings; warmup ≥ jobs), so CheckCell gives
// them as one-value axes, each value checked on its own as in a sweep.
var estimateGroup = map[string]bool{
	"workload.estimates": true, "workload.user_estimates": true,
	"workload.max_estimate": true, "workload.est_bins": true,
	"workload.jobs": true, "workload.warmup": true,
}

// fixedWorkload reports whether CheckCell gives the workload field key
// (workload.<key>) as a fixed value: the spec's own trace settings and
// every family's workload fields (families.WorkloadFields, e.g. seed 000's
// cpu_usage), which a spec checks together rather than one per axis.
func fixedWorkload(key string) bool {
	switch key {
	case "trace", "overrun", "load", "lenient":
		return true
	}
	_, ok := families.WorkloadField("workload." + key)
	return ok
}

// cellSpec writes the one-cell spec of c as YAML. axisNames[i] is the
// parameter of axes[i], for error messages.
func cellSpec(c runner.Cell) (doc []byte, axisNames []string, err error) {
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
		case estimateGroup[p.Name]:
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
		case len(parts) == 2 && parts[0] == "workload" && fixedWorkload(parts[1]):
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
var axisRE = regexp.MustCompile(`^axes\[(\d+)\]`)

// specErrors turns the SpecError of a cell's spec into an error that names
// the cell's parameters instead of the rebuilt spec's lines.
func specErrors(err error, axisNames []string) error {
	var se *experiments.SpecError
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
			return fmt.Sprintf("%s is missing (spec validation gives it %s)", p.Name, experiments.FormatValue(p.Value))
		}
	}
	return ""
}

// pluginCache is a Catalog that remembers what it learnt from each plugin
// executable (by path, size and modification time), so that a worker does
// not start a plugin twice per cell to check and then run it.
type pluginCache struct {
	experiments.Catalog
	mu    sync.Mutex
	infos map[pluginKey]experiments.PluginInfo
}

type pluginKey struct {
	path string
	size int64
	mod  time.Time
}

func newPluginCache(cat experiments.Catalog) *pluginCache {
	return &pluginCache{Catalog: cat, infos: map[pluginKey]experiments.PluginInfo{}}
}

// Plugin describes the plugin at path, from the cache when the file is
// unchanged.
func (p *pluginCache) Plugin(path string) (experiments.PluginInfo, error) {
	pc, ok := p.Catalog.(experiments.PluginCatalog)
	if !ok {
		return experiments.PluginInfo{}, errors.New("this worker's scheduler catalog runs no plugins")
	}
	st, err := os.Stat(path)
	if err != nil {
		return experiments.PluginInfo{}, err
	}
	key := pluginKey{path, st.Size(), st.ModTime()}
	p.mu.Lock()
	info, ok := p.infos[key]
	p.mu.Unlock()
	if ok {
		return info, nil
	}
	if info, err = pc.Plugin(path); err != nil {
		return info, err
	}
	p.mu.Lock()
	p.infos[key] = info
	p.mu.Unlock()
	return info, nil
}

// ModelSchedulers delegates to the wrapped catalog when it is a
// FamilyCatalog.
func (p *pluginCache) ModelSchedulers(model string) []string {
	if fc, ok := p.Catalog.(experiments.FamilyCatalog); ok {
		return fc.ModelSchedulers(model)
	}
	return nil
}

// CheckModelScheduler delegates to the wrapped catalog when it is a
// FamilyCatalog.
func (p *pluginCache) CheckModelScheduler(model, name string, params map[string]any) error {
	if fc, ok := p.Catalog.(experiments.FamilyCatalog); ok {
		return fc.CheckModelScheduler(model, name, params)
	}
	return fmt.Errorf("model %q has no scheduler family in this catalog", model)
}

// Digest returns the hex SHA-256 of a message: what a worker reports as
// CellResult.CellDigest and a coordinator compares with the cell it
// published.
func Digest(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}
