package claims

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// File is one paper's claims file.
type File struct {
	// Paper names the paper, e.g. "seed 002: Moon & Youn 2012".
	Paper string `yaml:"paper"`
	// Rules names the document that justifies the bands and settings,
	// relative to the file.
	Rules string `yaml:"rules"`
	// Specs are the experiment specs the claims read, relative to the file,
	// with their --quick reductions.
	Specs []Spec `yaml:"specs"`
	// Claims are the paper's claims.
	Claims []Claim `yaml:"claims"`
	// Appendices names computed sections the report adds to the paper's
	// (e.g. seed001-table2-capacity: whether any reading can serve Table
	// 2's finished jobs); reproduce knows them by name.
	Appendices []string `yaml:"appendices"`
	// Readings are the places where the paper admits more than one
	// reading, each a cell parameter whose values the claims that depend
	// on it are split by (Claim.Split): the report judges them side by
	// side and names the default and the reading least favourable to the
	// paper.
	Readings []Reading `yaml:"readings"`

	// Path is where the file was read from (not in the YAML).
	Path string `yaml:"-"`
}

// Spec is one figure spec of a claims file.
type Spec struct {
	// Path of the spec, relative to the claims file.
	Path string `yaml:"path"`
	// Quick lists the edits `schedfarm reproduce --quick` makes to the spec:
	// fewer jobs and replications, the same structure.
	Quick []Edit `yaml:"quick"`
	// Replications is the sequential design: the replications of the first
	// look (default: the spec's own) and the cap that undecided points may
	// reach (default: no more than the first look).
	Replications *Replications `yaml:"replications"`
}

// Replications bounds a spec's replications in the sequential design.
type Replications struct {
	Min int `yaml:"min"`
	Max int `yaml:"max"`
}

// Reading is one place where the paper admits several readings.
type Reading struct {
	// Param is the cell parameter that selects the reading (a spec axis),
	// e.g. workload.cpu_unknown or scheduler.deadlines.
	Param string `yaml:"param"`
	// Paper quotes the paper's words that leave it open, with the section.
	Paper string `yaml:"paper"`
	// Values describes each value of the parameter.
	Values map[string]string `yaml:"values"`
	// Default is the value the family uses when a spec does not choose,
	// and WhyDefault why.
	Default    string `yaml:"default"`
	WhyDefault string `yaml:"why_default"`
	// LeastFavourable is the value least favourable to the paper's claims
	// ("" when none is), and Why says how that is known.
	LeastFavourable    string `yaml:"least_favourable"`
	WhyLeastFavourable string `yaml:"why_least_favourable"`
}

// Edit replaces one value of a spec: Set is a dotted path into the YAML
// ("replications", "workload.generator.jobs") or "axes.<param>" for the
// values of the axis over <param>.
type Edit struct {
	Set   string `yaml:"set"`
	Value any    `yaml:"value"`
}

// Claim is one claim of the paper and how it is judged. A claim is one
// check (its own fields) or several (Checks), which must all hold.
type Claim struct {
	ID     string `yaml:"id"`
	Figure string `yaml:"figure"`
	// Says is the paper's sentence (or its gist) and PaperValue its number,
	// if it gives one.
	Says       string   `yaml:"says"`
	PaperValue *float64 `yaml:"paper_value"`
	// Why gives the reason for the band or rule, written before the
	// results were looked at.
	Why string `yaml:"why"`
	// Split names parameters whose values are judged separately (e.g. two
	// readings of the paper run side by side): one verdict per value.
	Split []string `yaml:"split"`
	// Cause is the documented cause where the claim does not hold (or
	// holds only in part), written after the results: the report shows it
	// beside the verdict.
	Cause string `yaml:"cause"`
	// SelfCheck marks a check of our own (a calibration or sanity check of
	// the reproduction), not a claim of the paper: the report lists it in
	// its own section and does not count it among the paper's claims.
	SelfCheck bool `yaml:"self_check"`
	Check     `yaml:",inline"`
	Checks    []Check `yaml:"checks"`
}

// Check is one comparison.
type Check struct {
	// Label names the check inside a claim of several.
	Label string `yaml:"label"`
	// Experiment is the spec's name whose results the check reads.
	Experiment string `yaml:"experiment"`
	// Metric is the metric compared.
	Metric string `yaml:"metric"`
	// Kind is "diff" (A − B per replication, paired), "ratio" (A/B − 1 per
	// replication) or "value" (A alone).
	Kind string `yaml:"kind"`
	// A and B select the records compared: "scheduler" and any cell
	// parameter by its full name (e.g. workload.generator.class,
	// scheduler.generations). B is not used by "value".
	A map[string]any `yaml:"a"`
	B map[string]any `yaml:"b"`
	// At lists the grid points, as a parameter and its values (the points
	// are their cartesian product); the check must hold at every one.
	At map[string][]any `yaml:"at"`
	// Expect is "above" or "below" (than Than, default 0) or "within"
	// (Band).
	Expect string    `yaml:"expect"`
	Than   float64   `yaml:"than"`
	Band   []float64 `yaml:"band"`
	// Along names a parameter of At whose points are folded, per
	// replication, into one value by Stat (a trend along an axis, or a
	// summary over it): the check is then judged on that value at every
	// point of the other parameters of At.
	Along string `yaml:"along"`
	// Stat folds the per-point values along Along, in the order At lists
	// them: "slope" (least-squares slope against the position 0, 1, …,
	// n−1: the change per step), "span" (last − first), "mean", "min" or
	// "max".
	Stat string `yaml:"stat"`
}

// checks returns the claim's checks: Checks, or the claim itself.
func (c *Claim) checks() []Check {
	if len(c.Checks) > 0 {
		return c.Checks
	}
	return []Check{c.Check}
}

// Load reads and validates a claims file. Every problem is reported at
// once, each naming the file, the line and the field, and what is
// accepted.
func Load(path string) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(data, path)
}

// Parse decodes and validates a claims file's content (path names it in
// errors and anchors the relative paths in it).
func Parse(data []byte, path string) (*File, error) {
	var f File
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var root yaml.Node
	_ = yaml.Unmarshal(data, &root)
	f.Path = path
	var errs []error
	bad := func(line int, field, format string, a ...any) {
		errs = append(errs, fmt.Errorf("%s:%d: %s: %s", path, line, field, fmt.Sprintf(format, a...)))
	}
	claimNodes := seqOf(&root, "claims")
	if f.Paper == "" {
		bad(1, "paper", "required; accepted: the paper's name")
	}
	if len(f.Claims) == 0 {
		bad(1, "claims", "required; accepted: a list of claims")
	}
	specs := map[string]bool{}
	for i, s := range f.Specs {
		line := lineOf(seqOf(&root, "specs"), i)
		if s.Path == "" {
			bad(line, fmt.Sprintf("specs[%d].path", i), "required; accepted: a spec file relative to %s", filepath.Dir(path))
			continue
		}
		specs[s.Path] = true
		for j, e := range s.Quick {
			if e.Set == "" {
				bad(line, fmt.Sprintf("specs[%d].quick[%d].set", i, j), "required; accepted: a dotted path such as replications, workload.generator.jobs or axes.<param>")
			}
		}
	}
	for i, s := range f.Specs {
		if r := s.Replications; r != nil {
			line := lineOf(seqOf(&root, "specs"), i)
			field := fmt.Sprintf("specs[%d].replications", i)
			if r.Min != 0 && r.Min < 2 {
				bad(line, field+".min", "%d; accepted: at least 2 (a test needs two replications), or 0 for the spec's own", r.Min)
			}
			if r.Max != 0 && r.Max < max(r.Min, 2) {
				bad(line, field+".max", "%d; accepted: at least min and 2, or 0 for no more than the first look", r.Max)
			}
		}
	}
	readings := map[string]bool{}
	for i, r := range f.Readings {
		line := lineOf(seqOf(&root, "readings"), i)
		field := fmt.Sprintf("readings[%d]", i)
		switch {
		case r.Param == "":
			bad(line, field+".param", "required; accepted: the cell parameter that selects the reading")
		case readings[r.Param]:
			bad(line, field+".param", "%q repeats an earlier reading; accepted: one entry per parameter", r.Param)
		}
		readings[r.Param] = true
		if r.Paper == "" {
			bad(line, field+".paper", "required; accepted: the paper's words that leave it open, with the section")
		}
		if len(r.Values) < 2 {
			bad(line, field+".values", "%d values; accepted: at least two readings, value: description", len(r.Values))
		}
		if _, ok := r.Values[r.Default]; !ok {
			bad(line, field+".default", "%q; accepted: one of the values", r.Default)
		}
		if r.WhyDefault == "" {
			bad(line, field+".why_default", "required; accepted: why the family uses the default")
		}
		if r.LeastFavourable != "" {
			if _, ok := r.Values[r.LeastFavourable]; !ok {
				bad(line, field+".least_favourable", "%q; accepted: one of the values, or empty", r.LeastFavourable)
			}
			if r.WhyLeastFavourable == "" {
				bad(line, field+".why_least_favourable", "required with least_favourable; accepted: how it is known")
			}
		}
	}
	ids := map[string]bool{}
	for i := range f.Claims {
		c := &f.Claims[i]
		line := lineOf(claimNodes, i)
		field := fmt.Sprintf("claims[%d]", i)
		if c.ID == "" {
			bad(line, field+".id", "required")
		} else if ids[c.ID] {
			bad(line, field+".id", "%q repeats an earlier claim's id; accepted: a unique id", c.ID)
		}
		ids[c.ID] = true
		if c.Says == "" {
			bad(line, field+".says", "required; accepted: the paper's claim in words")
		}
		if len(c.Checks) > 0 && c.Check.Metric != "" {
			bad(line, field, "has both checks and a check of its own; accepted: one or the other")
		}
		for j, k := range c.checks() {
			cf := field
			if len(c.Checks) > 0 {
				cf = fmt.Sprintf("%s.checks[%d]", field, j)
			}
			for _, e := range k.validate() {
				bad(line, cf+"."+e.field, "%s", e.msg)
			}
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return &f, nil
}

type fieldErr struct{ field, msg string }

// Kinds and expectations accepted.
var (
	kinds   = []string{"diff", "ratio", "value"}
	expects = []string{"above", "below", "within"}
	folds   = []string{"slope", "span", "mean", "min", "max"}
)

func (k Check) validate() []fieldErr {
	var errs []fieldErr
	bad := func(field, format string, a ...any) {
		errs = append(errs, fieldErr{field, fmt.Sprintf(format, a...)})
	}
	if k.Experiment == "" {
		bad("experiment", "required; accepted: the name of the spec whose results the check reads")
	}
	if k.Metric == "" {
		bad("metric", "required; accepted: a metric name of the results")
	}
	if !slices.Contains(kinds, k.Kind) {
		bad("kind", "%q; accepted: %s", k.Kind, strings.Join(kinds, ", "))
	}
	if len(k.A) == 0 {
		bad("a", "required; accepted: a selector such as {scheduler: easy}")
	}
	if k.Kind != "value" && len(k.B) == 0 {
		bad("b", "required for kind %s; accepted: a selector such as {scheduler: easy}", k.Kind)
	}
	if !slices.Contains(expects, k.Expect) {
		bad("expect", "%q; accepted: %s", k.Expect, strings.Join(expects, ", "))
	}
	if k.Expect == "within" && (len(k.Band) != 2 || k.Band[0] > k.Band[1]) {
		bad("band", "%v; accepted: [low, high] with low ≤ high for expect within", k.Band)
	}
	if k.Expect != "within" && len(k.Band) > 0 {
		bad("band", "given with expect %s; accepted only with expect within", k.Expect)
	}
	for p, vs := range k.At {
		if len(vs) == 0 {
			bad("at."+p, "no values; accepted: a list of the parameter's values")
		}
	}
	switch {
	case k.Along == "" && k.Stat != "":
		bad("stat", "%q without along; accepted: along naming a parameter of at", k.Stat)
	case k.Along != "":
		vs, ok := k.At[k.Along]
		if !ok {
			bad("along", "%q is not a parameter of at; accepted: one of at's parameters", k.Along)
		}
		if !slices.Contains(folds, k.Stat) {
			bad("stat", "%q; accepted with along: %s", k.Stat, strings.Join(folds, ", "))
		} else if ok && (k.Stat == "slope" || k.Stat == "span") && len(vs) < 2 {
			bad("at."+k.Along, "%d value for stat %s; accepted: at least 2", len(vs), k.Stat)
		}
	}
	return errs
}

// seqOf returns the sequence node under key in a document root.
func seqOf(root *yaml.Node, key string) *yaml.Node {
	if root == nil || len(root.Content) == 0 {
		return nil
	}
	m := root.Content[0]
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// lineOf returns the line of item i of a sequence node (1 if unknown).
func lineOf(seq *yaml.Node, i int) int {
	if seq == nil || i >= len(seq.Content) {
		return 1
	}
	return seq.Content[i].Line
}
