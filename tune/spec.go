package tune

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/schedfarm/schedfarm/experiments"
	"github.com/schedfarm/schedfarm/families"
	"github.com/schedfarm/schedfarm/internal/lazyre"
	"github.com/schedfarm/schedfarm/internal/numeric"
	"github.com/schedfarm/schedfarm/internal/yamlnode"
	"github.com/schedfarm/schedfarm/param"
)

// Kinds of search parameters.
const (
	Float  = "float"
	Int    = "int"
	Choice = "choice"
)

// MaxEvalCells bounds the cells of one evaluation (the base experiment's
// grid points × replications).
const MaxEvalCells = 10000

// cellBound returns an upper bound on a spec's cells.
func cellBound(s *experiments.Spec) float64 {
	n := float64(len(s.Schedulers)) * float64(s.Replications)
	for _, a := range s.Axes {
		n *= float64(len(a.Values))
	}
	return n
}

// Param is one dimension of the search space.
type Param struct {
	// Name is the cell parameter it sets (e.g. scheduler.k,
	// workload.generator.migration_cost), or "scheduler" for the
	// scheduler's name.
	Name string
	// Kind is Float, Int or Choice.
	Kind string
	// Lo and Hi bound Float and Int parameters (inclusive).
	Lo, Hi float64
	// Choices are a Choice parameter's values.
	Choices []any
	// Complement, when set, names a parameter set to 1 − the value (e.g.
	// ω = 1 − δ, weights that must sum to 1).
	Complement string
}

// Objective is a metric to minimise or maximise: per replication its
// aggregate over the grid points (Points: "mean", "max" or "min"), then the
// mean (and 95% CI) over replications.
type Objective struct {
	Metric   string
	Maximize bool
	Points   string
}

// Constraint requires an evaluation's mean of Metric to satisfy Op Value
// (Op is ">=" or "<=").
type Constraint struct {
	Metric string
	Op     string
	Value  float64
}

// Names of the algorithms.
const (
	GA  = "ga"
	DE  = "de"
	PSO = "pso"
)

// Algorithm is the search's algorithm and budget.
type Algorithm struct {
	// Name is GA, DE or PSO.
	Name string
	// Population is the number of genomes per generation; Generations the
	// number of generations after the first; Budget, when > 0, stops the
	// search once that many distinct genomes were evaluated.
	Population, Generations, Budget int
	// PCross and PMut are the crossover and per-gene mutation rates;
	// Sigma the mutation's standard deviation on the [0, 1] encoding.
	PCross, PMut, Sigma float64
	// CR and F are differential evolution's crossover rate and
	// differential weight.
	CR, F float64
	// W, C1 and C2 are particle swarm's inertia weight and its cognitive
	// and social coefficients.
	W, C1, C2 float64
}

// Spec is a validated tune spec.
type Spec struct {
	// Name names the tune; it enters every cell ID and seed.
	Name string
	// Base is the base experiment (its Output the per-cell Parquet file).
	Base *experiments.Spec
	// Params are the search space's dimensions.
	Params      []Param
	Objective   Objective
	Constraints []Constraint
	// Second is the optional second objective (nil: none).
	Second    *Objective
	Algorithm Algorithm
	// ConfirmReplications is the replications of the confirmation run of
	// the best genome, with fresh seeds (0: no confirmation).
	ConfirmReplications int
	// Race, when set, races each generation's candidates: replications
	// in rounds, the candidates decided worse than the round's best
	// eliminated (nil: every genome gets the base's replications).
	Race *Race
	// Output is the per-cell Parquet file; EvalsOutput the evaluations
	// table.
	Output, EvalsOutput string

	file     string
	baseText []byte            // the base section, with name and output added
	fams     *families.Catalog // validates the trials and knows the schedulers' defaults
}

// Race is the racing of a generation's candidates (see race.go): round
// by round every surviving candidate gets replications up to Min, Min+1,
// …, Max (the same CRN seeds for all), and after each round a one-sided
// paired t test of each survivor against the round's best, with Holm's
// correction across the survivors compared, eliminates those decided
// worse at family-wise level Alpha.
//
// With an indifference zone (Indifference > 0) the same round also stops
// the survivors decided equivalent to the round's best within ±δ (two
// one-sided tests), δ = Indifference in the objective's units, or, when
// Relative, Indifference × |the best's objective over the round's
// replications|; Holm's procedure then runs over both kinds of hypothesis
// of the round together.
type Race struct {
	Min, Max int
	Alpha    float64
	// Indifference is the margin δ below which a difference of the
	// objective does not matter (0: no indifference zone, every survivor
	// runs to Max); a fraction of the best's objective when Relative.
	Indifference float64
	Relative     bool
	// Final, when > 0, is the replications of the final race of the
	// elite run after the last generation (race.final; 0: none): the
	// Elite best distinct evaluations never eliminated race on in rounds
	// at Max + 1, …, Final replications, and the winner is the search's
	// best. Final > Max: the generations race cheaply to Max
	// and only the elite are run to Final.
	Final int
	// Elite is how many take part in the final race (race.elite; default
	// EliteDefault of the searched parameters).
	Elite int
}

// margin returns δ for a round whose best has the objective best.
func (r *Race) margin(best float64) float64 {
	if r.Relative {
		return r.Indifference * math.Abs(best)
	}
	return r.Indifference
}

// Zone returns the indifference zone as written: "1%" (relative), "150"
// (absolute), or "" when there is none.
func (r *Race) Zone() string {
	switch {
	case r.Indifference <= 0:
		return ""
	case r.Relative:
		return fmt.Sprintf("%g%%", 100*r.Indifference)
	}
	return fmt.Sprintf("%g", r.Indifference)
}

// String describes the race for the evaluations table's metadata.
func (r *Race) String() string {
	s := fmt.Sprintf("min %d max %d alpha %g %s", r.Min, r.Max, r.Alpha, RaceTest)
	if z := r.Zone(); z != "" {
		s += fmt.Sprintf(" indifference %s %s", z, RaceEquivalenceTest)
	}
	if r.Final > 0 {
		s += fmt.Sprintf(" final %d elite %d", r.Final, r.Elite)
	}
	return s
}

// EliteDefault is race.elite's default for d searched parameters: irace's
// default number of configurations that survive a race and go on as
// elites, ⌊2 + log₂ d⌋ (irace user guide, minNbSurvival; López-Ibáñez et
// al. 2016).
func EliteDefault(d int) int { return int(math.Floor(2 + math.Log2(float64(max(d, 1))))) }

// RaceTest names the elimination test in the evaluations table.
const RaceTest = "paired-t-holm"

// RaceEquivalenceTest names the test that stops a survivor equivalent to
// the round's best (Race.Indifference).
const RaceEquivalenceTest = "paired-tost-holm"

// MaxRaceReplications bounds race.max.
const MaxRaceReplications = 1000

type rawSpec struct {
	Name        string         `yaml:"name"`
	Base        yaml.Node      `yaml:"base"`
	Search      []rawParam     `yaml:"search"`
	Objective   *rawObjective  `yaml:"objective"`
	Constraints []string       `yaml:"constraints"`
	Second      *rawObjective  `yaml:"second"`
	Algorithm   rawAlgorithm   `yaml:"algorithm"`
	Confirm     *rawConfirm    `yaml:"confirm"`
	Race        yaml.Node      `yaml:"race"`
	Output      string         `yaml:"output"`
	Extra       map[string]any `yaml:",inline"`
}

type rawParam struct {
	Param      string    `yaml:"param"`
	Float      []float64 `yaml:"float"`
	Int        []float64 `yaml:"int"`
	Choices    []any     `yaml:"choices"`
	Complement string    `yaml:"complement"`
}

type rawObjective struct {
	Metric string `yaml:"metric"`
	Goal   string `yaml:"goal"`
	Points string `yaml:"points"`
}

type rawAlgorithm struct {
	Name        string   `yaml:"name"`
	Population  int      `yaml:"population"`
	Generations int      `yaml:"generations"`
	Budget      int      `yaml:"budget"`
	PCross      *float64 `yaml:"p_cross"`
	PMut        *float64 `yaml:"p_mut"`
	Sigma       *float64 `yaml:"sigma"`
	CR          *float64 `yaml:"cr"`
	F           *float64 `yaml:"f"`
	W           *float64 `yaml:"w"`
	C1          *float64 `yaml:"c1"`
	C2          *float64 `yaml:"c2"`
}

type rawConfirm struct {
	Replications int `yaml:"replications"`
}

// Error lists every problem of a tune spec, each with its line and field.
type Error struct {
	File   string
	Errors []string
}

// Error renders one problem per line.
func (e *Error) Error() string {
	return fmt.Sprintf("%s: %d problem(s):\n  %s", e.File, len(e.Errors), strings.Join(e.Errors, "\n  "))
}

// Load reads and validates a tune spec against a family catalog.
func Load(path string, cat *families.Catalog) (*Spec, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(data, path, cat)
}

var (
	nameRE       = lazyre.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)
	constraintRE = lazyre.MustCompile(`^\s*([a-z0-9_]+)\s*(>=|<=)\s*(\S+)\s*$`)
)

// Parse validates a tune spec; file names it in errors and anchors the
// base experiment's relative paths.
func Parse(data []byte, file string, cat *families.Catalog) (*Spec, error) {
	if fe := experiments.CheckUTF8(data); fe != nil {
		return nil, &Error{File: file, Errors: []string{fmt.Sprintf("line %d: (document): %s", fe.Line, fe.Msg)}}
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, &Error{File: file, Errors: yamlErrors(err, nil)}
	}
	root := (*yaml.Node)(nil)
	if len(doc.Content) > 0 {
		root = doc.Content[0]
	}
	if root == nil || root.Kind != yaml.MappingNode {
		return nil, &Error{File: file, Errors: []string{"line 1: (document): not a mapping; accepted: a tune spec with name, base, search, objective, algorithm and optionally constraints, second, confirm, race, output"}}
	}
	var raw rawSpec
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&raw); err != nil {
		return nil, &Error{File: file, Errors: yamlErrors(err, root)}
	}
	v := &validator{file: file, root: root}
	s := &Spec{file: file, Name: raw.Name, fams: cat}
	if raw.Name == "" {
		v.bad("name", "required; accepted: letters, digits, '.', '_' and '-'")
	} else if !nameRE.MatchString(raw.Name) {
		v.bad("name", "%q; accepted: letters, digits, '.', '_' and '-', starting with a letter or digit", raw.Name)
	}
	known := []string{"name", "base", "search", "objective", "constraints", "second", "algorithm", "confirm", "race", "output"}
	for i := 0; i+1 < len(root.Content); i += 2 {
		if k := root.Content[i]; !slices.Contains(known, k.Value) {
			v.errs = append(v.errs, fmt.Sprintf("line %d: %s: unknown field; accepted: %s", k.Line, fieldName(k.Value), strings.Join(known, ", ")))
		}
	}
	s.Output = raw.Output
	if s.Output == "" {
		s.Output = raw.Name + ".parquet"
	}
	if !strings.HasSuffix(s.Output, ".parquet") {
		v.bad("output", "%q; accepted: a file name ending in .parquet", raw.Output)
	}
	s.EvalsOutput = strings.TrimSuffix(s.Output, ".parquet") + ".evals.parquet"

	v.base(s, &raw, data, cat)
	v.search(s, raw.Search)
	v.objectives(s, &raw)
	v.algorithm(s, raw.Algorithm)
	if raw.Confirm != nil {
		if raw.Confirm.Replications < 2 {
			v.bad("confirm.replications", "%d; accepted: ≥ 2 (a confidence interval needs two)", raw.Confirm.Replications)
		}
		s.ConfirmReplications = raw.Confirm.Replications
	}
	v.race(s)
	if len(v.errs) == 0 {
		v.trials(s)
	}
	if len(v.errs) > 0 {
		return nil, &Error{File: file, Errors: v.errs}
	}
	return s, nil
}

// base validates the base experiment with the experiments package (its
// line numbers are the tune file's) under the tune's name and output, and
// keeps its text for the trials.
func (v *validator) base(s *Spec, raw *rawSpec, data []byte, cat *families.Catalog) {
	base := v.node("base")
	if base == nil || base.Kind != yaml.MappingNode {
		v.bad("base", "required; accepted: an experiment spec's platform, workload, schedulers (one), axes, replications and seed")
	} else {
		clash := false
		for _, k := range []string{"name", "output", "jobs_output", "metrics"} {
			if yamlnode.Get(base, k) != nil {
				v.bad("base."+k, "not allowed: the tune spec's name and output are used")
				clash = true
			}
		}
		// The base is validated whatever else is wrong (every problem at
		// once), under a stand-in name and output when those are bad.
		name, out := raw.Name, s.Output
		if !nameRE.MatchString(name) {
			name = "tune"
		}
		if !strings.HasSuffix(out, ".parquet") {
			out = "tune.parquet"
		}
		text := baseText(data, base)
		text = append(text, []byte(fmt.Sprintf("\nname: %s\noutput: %s\n", yamlQuote(name), yamlQuote(out)))...)
		s.baseText = text
		if !clash {
			bs, err := experiments.Parse(text, v.file, experiments.NewCatalog(cat))
			if err != nil {
				v.spec("base", base.Line, err)
			} else {
				s.Base = bs
				if n := cellBound(bs); n > MaxEvalCells {
					v.bad("base", "%.0f cells per evaluation (schedulers × grid points × replications); accepted: at most %d", n, MaxEvalCells)
				}
				if len(bs.Schedulers) != 1 {
					v.bad("base.schedulers", "%d schedulers; accepted: exactly one (a categorical search parameter \"scheduler\" can vary it)", len(bs.Schedulers))
				}
			}
		}
	}

}

// search validates the search space: one dimension per parameter, a
// float or int range or choices.
func (v *validator) search(s *Spec, search []rawParam) {
	if len(search) == 0 {
		v.bad("search", "required; accepted: a list of {param, float: [lo, hi] | int: [lo, hi] | choices: [a, b, …]}")
	}
	seen := map[string]bool{}
	for i, rp := range search {
		f := fmt.Sprintf("search[%d]", i)
		p := Param{Name: rp.Param, Complement: rp.Complement}
		if rp.Param == "" {
			v.bad(f+".param", "required; accepted: a cell parameter such as scheduler.k or workload.generator.load, or scheduler")
			continue
		}
		if !paramRE.MatchString(rp.Param) {
			v.bad(f+".param", "%q; accepted: a dotted parameter path such as scheduler.k, scheduler.<name>.k or workload.load, or scheduler", rp.Param)
			continue
		}
		if rp.Complement != "" && !paramRE.MatchString(rp.Complement) {
			v.bad(f+".complement", "%q; accepted: a dotted parameter path such as scheduler.omega", rp.Complement)
			continue
		}
		if seen[rp.Param] {
			v.bad(f+".param", "%s searched twice; accepted: each parameter once", rp.Param)
		}
		seen[rp.Param] = true
		n := 0
		if rp.Float != nil {
			n++
			p.Kind = Float
		}
		if rp.Int != nil {
			n++
			p.Kind = Int
		}
		if rp.Choices != nil {
			n++
			p.Kind = Choice
		}
		switch {
		case n != 1:
			v.bad(f, "%s: give exactly one of float: [lo, hi], int: [lo, hi] or choices: [a, b, …]", rp.Param)
			continue
		case p.Kind == Choice:
			if len(rp.Choices) < 2 {
				v.bad(f+".choices", "%d value(s); accepted: at least two (one value is not a search: fix it in base)", len(rp.Choices))
			}
			p.Choices = rp.Choices
		default:
			r := rp.Float
			if p.Kind == Int {
				r = rp.Int
			}
			if len(r) != 2 || !(r[0] < r[1]) || math.IsInf(r[0], 0) || math.IsInf(r[1], 0) {
				v.bad(f+"."+p.Kind, "%v; accepted: [lo, hi] with lo < hi, finite (an empty range is not a search)", r)
				continue
			}
			if p.Kind == Int && (r[0] != math.Trunc(r[0]) || r[1] != math.Trunc(r[1])) {
				v.bad(f+".int", "%v; accepted: integer bounds", r)
				continue
			}
			p.Lo, p.Hi = r[0], r[1]
		}
		if p.Name == "scheduler" && p.Kind != Choice {
			v.bad(f, "scheduler: accepted only as choices: [name, …]")
		}
		if p.Complement != "" && (p.Kind != Float || p.Lo < 0 || p.Hi > 1) {
			v.bad(f+".complement", "%s: accepted only with float: [lo, hi] inside [0, 1]", p.Complement)
		}
		s.Params = append(s.Params, p)
	}

}

// objectives validates the objective, the optional second objective and
// the constraints.
func (v *validator) objectives(s *Spec, raw *rawSpec) {
	obj := func(field string, ro *rawObjective) *Objective {
		if ro == nil {
			return nil
		}
		o := &Objective{Metric: ro.Metric, Points: ro.Points}
		switch o.Points {
		case "":
			o.Points = "mean"
		case "mean", "max", "min":
		default:
			v.bad(field+".points", "%q; accepted: mean, max or min (the aggregate over the grid points, per replication)", ro.Points)
		}
		switch strings.ToLower(ro.Goal) {
		case "minimize", "minimise", "min":
		case "maximize", "maximise", "max":
			o.Maximize = true
		default:
			v.bad(field+".goal", "%q; accepted: minimize or maximize", ro.Goal)
		}
		if ro.Metric == "" {
			v.bad(field+".metric", "required; accepted: a metric of the base experiment's results")
		}
		return o
	}
	if o := obj("objective", raw.Objective); o != nil {
		s.Objective = *o
	} else {
		v.bad("objective", "required; accepted: {metric: NAME, goal: minimize|maximize}")
	}
	s.Second = obj("second", raw.Second)
	for i, c := range raw.Constraints {
		m := constraintRE.FindStringSubmatch(c)
		if m == nil {
			v.bad(fmt.Sprintf("constraints[%d]", i), "%q; accepted: \"metric >= value\" or \"metric <= value\"", c)
			continue
		}
		x, err := strconv.ParseFloat(m[3], 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			v.bad(fmt.Sprintf("constraints[%d]", i), "value %q; accepted: a finite number", m[3])
			continue
		}
		s.Constraints = append(s.Constraints, Constraint{Metric: m[1], Op: m[2], Value: x})
	}

}

// algorithm validates the algorithm, its budget and its settings
// (algorithmSettings).
func (v *validator) algorithm(s *Spec, a rawAlgorithm) {
	s.Algorithm = Algorithm{Name: a.Name, Population: a.Population, Generations: a.Generations, Budget: a.Budget}
	if a.Name == "" {
		s.Algorithm.Name = GA
	}
	minPop := 2
	switch s.Algorithm.Name {
	case GA:
	case DE:
		minPop = 4 // an individual and three others
	case PSO:
	default:
		v.bad("algorithm.name", "%q; accepted: ga, de (differential evolution) or pso (particle swarm)", a.Name)
	}
	if a.Population < minPop {
		v.bad("algorithm.population", "%d; accepted: an integer ≥ %d", a.Population, minPop)
	}
	if a.Generations < 0 || a.Budget < 0 || a.Generations == 0 && a.Budget == 0 {
		v.bad("algorithm", "generations %d, budget %d; accepted: generations ≥ 1 or a budget ≥ 1 of evaluations (a budget of 0 searches nothing)", a.Generations, a.Budget)
	} else if a.Budget > 0 && a.Budget < a.Population {
		v.bad("algorithm.budget", "%d; accepted: at least the population (%d): the first generation alone evaluates that many genomes", a.Budget, a.Population)
	}
	if a.Budget > 0 && a.Generations == 0 {
		s.Algorithm.Generations = 1 << 20 // the budget stops it
	}
	given := map[string]*float64{"p_cross": a.PCross, "p_mut": a.PMut, "sigma": a.Sigma, "cr": a.CR, "f": a.F, "w": a.W, "c1": a.C1, "c2": a.C2}
	for _, st := range algorithmSettings() {
		value := st.Default.(float64)
		if p := given[st.Name]; p != nil {
			switch {
			case st.algo != s.Algorithm.Name:
				v.bad("algorithm."+st.Name, "applies to algorithm %s only, not %s", st.algo, s.Algorithm.Name)
				continue
			case !(*p >= st.Min && *p <= st.Max):
				v.bad("algorithm."+st.Name, "%g; accepted: in [%g, %g]", *p, st.Min, st.Max)
			}
			value = *p
		}
		st.set(&s.Algorithm, value)
	}
}

// race validates the race block: min ≥ 2 (a paired t test needs two
// values), max ≥ min (default: base.replications), alpha in (0, 0.5]
// (default 0.05), and at most MaxEvalCells cells per evaluation at max.
func (v *validator) race(s *Spec) {
	n := v.node("race")
	if n == nil {
		return
	}
	if n.Kind != yaml.MappingNode && n.Tag != "!!null" { // race: alone is the defaults
		v.bad("race", "%q; accepted: {min: N, max: N, alpha: A, indifference: D or P%%, final: N, elite: N} (every field optional)", n.Value)
		return
	}
	var r struct {
		Min, Max     *int
		Alpha        *float64
		Indifference *yaml.Node
		Final, Elite *int
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, val := n.Content[i], n.Content[i+1]
		var err error
		switch k.Value {
		case "min":
			err = val.Decode(&r.Min)
		case "max":
			err = val.Decode(&r.Max)
		case "alpha":
			err = val.Decode(&r.Alpha)
		case "indifference":
			r.Indifference = val
			continue
		case "final":
			err = val.Decode(&r.Final)
		case "elite":
			err = val.Decode(&r.Elite)
		default:
			v.errs = append(v.errs, fmt.Sprintf("line %d: race.%s: unknown field; accepted: min, max, alpha, indifference, final, elite", k.Line, fieldName(k.Value)))
			continue
		}
		if err != nil {
			what := "an integer"
			if k.Value == "alpha" {
				what = "a number"
			}
			v.errs = append(v.errs, fmt.Sprintf("line %d: race.%s: %q; accepted: %s", val.Line, k.Value, val.Value, what))
		}
	}
	rc := &Race{Min: 2, Alpha: 0.05}
	if s.Base != nil {
		rc.Max = s.Base.Replications
		if len(s.Base.MoreReplications) > 0 {
			v.bad("race", "not with base.more_replications; accepted: a race decides each candidate's replications itself")
		}
	}
	if r.Min != nil {
		rc.Min = *r.Min
		if rc.Min < 2 {
			v.bad("race.min", "%d; accepted: an integer ≥ 2 (the first test needs two paired values)", rc.Min)
		}
	}
	if r.Max != nil {
		rc.Max = *r.Max
	}
	switch {
	case rc.Max > MaxRaceReplications:
		v.bad("race.max", "%d; accepted: at most %d", rc.Max, MaxRaceReplications)
	case rc.Max < rc.Min && (r.Max != nil || s.Base != nil):
		field := "race.max"
		if r.Max == nil {
			field = "race"
		}
		v.bad(field, "max %d (default: base.replications) below min %d; accepted: max ≥ min", rc.Max, rc.Min)
	}
	if r.Alpha != nil {
		rc.Alpha = *r.Alpha
		if !(rc.Alpha > 0 && rc.Alpha <= 0.5) {
			v.bad("race.alpha", "%g; accepted: a family-wise level in (0, 0.5]", rc.Alpha)
		}
	}
	if n := r.Indifference; n != nil {
		rc.Indifference, rc.Relative = indifference(n)
		if rc.Indifference < 0 {
			got := strconv.Quote(n.Value)
			if n.Kind != yaml.ScalarNode {
				got = "a list or mapping"
			}
			v.errs = append(v.errs, fmt.Sprintf("line %d: race.indifference: %s; accepted: a margin in the objective's units (a number ≥ 0; 0: none) or a percentage of the best's objective in (0%%, 100%%), e.g. 1%%", n.Line, got))
			rc.Indifference, rc.Relative = 0, false
		}
	}
	if s.Base != nil && s.Base.Replications > 0 && rc.Max <= MaxRaceReplications {
		if n := cellBound(s.Base) / float64(s.Base.Replications) * float64(rc.Max); n > MaxEvalCells {
			v.bad("race.max", "%d: %.0f cells per evaluation (grid points × max); accepted: at most %d", rc.Max, n, MaxEvalCells)
		}
	}
	if r.Final != nil {
		rc.Final = *r.Final
		switch {
		case rc.Final > MaxRaceReplications:
			v.bad("race.final", "%d; accepted: at most %d", rc.Final, MaxRaceReplications)
		case rc.Final <= rc.Max:
			v.bad("race.final", "%d; accepted: more than race.max (%d): the final race runs the elite past the generations' races", rc.Final, rc.Max)
		case s.Base != nil && s.Base.Replications > 0:
			if n := cellBound(s.Base) / float64(s.Base.Replications) * float64(rc.Final); n > MaxEvalCells {
				v.bad("race.final", "%d: %.0f cells per evaluation (grid points × final); accepted: at most %d", rc.Final, n, MaxEvalCells)
			}
		}
	}
	if rc.Final > 0 {
		rc.Elite = EliteDefault(len(s.Params))
	}
	if r.Elite != nil {
		rc.Elite = *r.Elite
		if rc.Final == 0 {
			v.bad("race.elite", "%d without race.final; accepted: elite only with a final race", rc.Elite)
		} else if rc.Elite < 2 {
			v.bad("race.elite", "%d; accepted: an integer ≥ 2 (a race needs two candidates)", rc.Elite)
		}
	}
	s.Race = rc
}

// indifference reads race.indifference: a finite number ≥ 0 (absolute,
// in the objective's units) or "P%" with 0 < P < 100 (relative); -1 when
// it is neither.
func indifference(n *yaml.Node) (float64, bool) {
	if n.Kind != yaml.ScalarNode {
		return -1, false
	}
	if p, ok := strings.CutSuffix(strings.TrimSpace(n.Value), "%"); ok {
		x, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || !(x > 0 && x < 100) {
			return -1, false
		}
		return x / 100, true
	}
	var x float64
	if err := n.Decode(&x); err != nil || !(x >= 0) || math.IsInf(x, 0) {
		return -1, false
	}
	return x, false
}

// setting is one setting of an algorithm: its declaration (a float with
// range and default), the algorithm it applies to, and its field.
type setting struct {
	param.Spec
	algo string
	set  func(a *Algorithm, v float64)
}

// algorithmSettings declares the algorithms' settings, each once: the
// spec's algorithm.<name> fields, their defaults, ranges and meaning.
func algorithmSettings() []setting {
	f := func(name, algo string, def, lo, hi float64, doc string, set func(a *Algorithm, v float64)) setting {
		return setting{Spec: param.Spec{Name: name, Kind: param.Float, Default: def, Min: lo, Max: hi, Doc: doc}, algo: algo, set: set}
	}
	return []setting{
		f("p_cross", GA, 0.7, 0, 1, "crossover rate", func(a *Algorithm, v float64) { a.PCross = v }),
		f("p_mut", GA, 0.3, 0, 1, "per-gene mutation rate", func(a *Algorithm, v float64) { a.PMut = v }),
		f("sigma", GA, 0.2, 0, 1, "standard deviation of a mutation on the [0, 1] encoding", func(a *Algorithm, v float64) { a.Sigma = v }),
		f("cr", DE, 0.9, 0, 1, "differential evolution's crossover rate", func(a *Algorithm, v float64) { a.CR = v }),
		f("f", DE, 0.8, 0, 2, "differential evolution's differential weight", func(a *Algorithm, v float64) { a.F = v }),
		f("w", PSO, 0.7, 0, 1, "particle swarm's inertia weight", func(a *Algorithm, v float64) { a.W = v }),
		f("c1", PSO, 1.5, 0, 4, "particle swarm's cognitive coefficient", func(a *Algorithm, v float64) { a.C1 = v }),
		f("c2", PSO, 1.5, 0, 4, "particle swarm's social coefficient", func(a *Algorithm, v float64) { a.C2 = v }),
	}
}

var (
	unknownFieldRE = lazyre.MustCompile(`^field (\S+) not found in type \S+$`)
)

// yamlErrors turns a YAML error into problems with a line and a field (the
// key at that line; "(document)" when none).
func yamlErrors(err error, root *yaml.Node) []string {
	msgs := []string{err.Error()}
	var te *yaml.TypeError
	if errors.As(err, &te) {
		msgs = te.Errors
	}
	var out []string
	for _, msg := range msgs {
		line, field := 1, "(document)"
		if n, problem, ok := experiments.YAMLErrorLine(msg); ok {
			line, msg = n, problem
			if f := fieldAt(root, line, ""); f != "" {
				field = f
			}
		} else {
			msg = "invalid YAML: " + problem
		}
		if unknownFieldRE.MatchString(msg) {
			msg = "unknown field"
		}
		msg = experiments.FriendlyDecode(msg)
		out = append(out, fmt.Sprintf("line %d: %s: %s", line, field, msg))
	}
	return out
}

var paramRE = lazyre.MustCompile(`^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$`)

var pathRE = lazyre.MustCompile(`^[A-Za-z0-9_.\[\]-]+$`)

var plainFieldRE = lazyre.MustCompile(`^[A-Za-z0-9_-]+$`)

// fieldName is a key as a field name in a problem: itself when plain,
// quoted otherwise.
func fieldName(k string) string {
	if plainFieldRE.MatchString(k) {
		return k
	}
	return strconv.Quote(k)
}

// fieldAt returns the dotted path of the last key on line (below n, whose
// path is prefix), or "".
func fieldAt(n *yaml.Node, line int, prefix string) string {
	if n == nil {
		return ""
	}
	found := ""
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			p := fieldName(n.Content[i].Value)
			if prefix != "" {
				p = prefix + "." + p
			}
			if n.Content[i].Line == line {
				found = p
			}
			if f := fieldAt(n.Content[i+1], line, p); f != "" {
				found = f
			}
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			if f := fieldAt(c, line, fmt.Sprintf("%s[%d]", prefix, i)); f != "" {
				found = f
			} else if c.Line == line && c.Kind == yaml.ScalarNode {
				found = fmt.Sprintf("%s[%d]", prefix, i)
			}
		}
	}
	return found
}

// validator collects problems.
type validator struct {
	file string
	root *yaml.Node
	errs []string
}

// node returns the value node of a top-level key.
func (v *validator) node(key string) *yaml.Node { return yamlnode.Get(v.root, key) }

// line returns the line of a dotted field (its top-level key's, at least).
func (v *validator) line(field string) int {
	top, rest, _ := strings.Cut(field, ".")
	top, idx, hasIdx := strings.Cut(top, "[")
	n := v.node(top)
	if n == nil {
		return 1
	}
	if hasIdx && n.Kind == yaml.SequenceNode {
		if i, err := strconv.Atoi(strings.TrimSuffix(idx, "]")); err == nil && i < len(n.Content) {
			n = n.Content[i]
		}
	}
	for _, k := range strings.Split(rest, ".") {
		if c := yamlnode.Get(n, k); c != nil && k != "" {
			n = c
		}
	}
	return n.Line
}

func (v *validator) bad(field, format string, args ...any) {
	v.errs = append(v.errs, fmt.Sprintf("line %d: %s: %s", v.line(field), field, fmt.Sprintf(format, args...)))
}

// spec adds an experiments error, its lines the tune file's for the base
// section and `at` for a trial.
func (v *validator) spec(prefix string, at int, err error) {
	var se *experiments.SpecError
	if !errors.As(err, &se) {
		v.errs = append(v.errs, fmt.Sprintf("line %d: %s: %v", at, prefix, err))
		return
	}
	for _, fe := range se.Errors {
		line := fe.Line
		if prefix != "base" || line == 0 {
			line = at
		}
		field := prefix
		if fe.Path != "" {
			p := fe.Path
			if !pathRE.MatchString(p) {
				p = strconv.Quote(p)
			}
			field += "." + p
		}
		v.errs = append(v.errs, fmt.Sprintf("line %d: %s: %s", line, field, fe.Msg))
	}
}

// trials validates the search space and the metrics by building
// experiments at the bounds: first one experiment with every parameter at
// its bounds (or every choice) and the metrics named as its metrics; when
// that fails, the metrics alone and each parameter alone, to name the
// culprit, and the parameters together (their combination at the corners:
// a parameter one of the searched schedulers does not take) only when each
// passed alone.
func (v *validator) trials(s *Spec) {
	var metrics []string
	for _, m := range append([]string{s.Objective.Metric}, constraintMetrics(s)...) {
		if !slices.Contains(metrics, m) {
			metrics = append(metrics, m)
		}
	}
	if s.Second != nil && !slices.Contains(metrics, s.Second.Metric) {
		metrics = append(metrics, s.Second.Metric)
	}
	together := s.Params
	if len(together) > 10 {
		together = nil // 2^n corners: too many; each alone below
	}
	if together != nil {
		if _, err := trialSpec(s, together, metrics); err == nil {
			return
		}
	}
	ok := true
	if _, err := trialSpec(s, nil, metrics); err != nil {
		v.spec("objective, second or constraints", v.line("objective"), err)
		ok = false
	}
	for i, p := range s.Params {
		if _, err := trialSpec(s, []Param{p}, nil); err != nil {
			v.spec(fmt.Sprintf("search[%d] (%s)", i, p.Name), v.line(fmt.Sprintf("search[%d]", i)), err)
			ok = false
		}
	}
	if ok && len(s.Params) > 1 && together != nil {
		if _, err := trialSpec(s, s.Params, nil); err != nil {
			v.spec("search (the parameters together, at their bounds)", v.line("search"), err)
		}
	}
}

func constraintMetrics(s *Spec) []string {
	var out []string
	for _, c := range s.Constraints {
		out = append(out, c.Metric)
	}
	return out
}

// trialSpec parses the base with ps as extra axes at their bounds (a
// "scheduler" choice replaces the schedulers) and metrics as the spec's
// metrics.
func trialSpec(s *Spec, ps []Param, metrics []string) (*experiments.Spec, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(s.baseText, &doc); err != nil {
		return nil, err
	}
	root := doc.Content[0]
	axes := yamlnode.Get(root, "axes")
	if axes == nil {
		axes = &yaml.Node{Kind: yaml.SequenceNode}
		yamlnode.Set(root, "axes", axes)
	}
	for _, p := range ps {
		if p.Name == "scheduler" {
			sch := yamlnode.Get(root, "schedulers")
			var entry *yaml.Node
			if sch != nil && len(sch.Content) > 0 {
				entry = sch.Content[0]
			}
			list := &yaml.Node{Kind: yaml.SequenceNode}
			for _, c := range p.Choices {
				e := &yaml.Node{Kind: yaml.ScalarNode, Value: fmt.Sprint(c)}
				if entry != nil && entry.Kind == yaml.MappingNode {
					e = &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{
						{Kind: yaml.ScalarNode, Value: "name"}, {Kind: yaml.ScalarNode, Value: fmt.Sprint(c)}}}
					if params := yamlnode.Get(entry, "params"); params != nil {
						yamlnode.Set(e, "params", params)
					}
				}
				list.Content = append(list.Content, e)
			}
			yamlnode.Set(root, "schedulers", list)
			continue
		}
		values := p.Choices
		if p.Kind != Choice {
			values = []any{p.bound(p.Lo), p.bound(p.Hi)}
		}
		addAxis(axes, p.Name, values)
		if p.Complement != "" {
			addAxis(axes, p.Complement, []any{1 - p.Lo, 1 - p.Hi})
			var zip yaml.Node
			if err := zip.Encode([][]string{{p.Name, p.Complement}}); err != nil {
				return nil, err
			}
			if z := yamlnode.Get(root, "zip"); z != nil {
				z.Content = append(z.Content, zip.Content...)
			} else {
				yamlnode.Set(root, "zip", &zip)
			}
		}
	}
	if len(metrics) > 0 {
		var m yaml.Node
		if err := m.Encode(metrics); err != nil {
			return nil, err
		}
		yamlnode.Set(root, "metrics", &m)
	}
	var b bytes.Buffer
	if err := yaml.NewEncoder(&b).Encode(&doc); err != nil {
		return nil, err
	}
	return experiments.Parse(b.Bytes(), s.file, experiments.NewCatalog(s.fams))
}

// addAxis appends an axis over name with values to a sequence of axes.
func addAxis(axes *yaml.Node, name string, values []any) {
	var vals yaml.Node
	_ = vals.Encode(values)
	axis := &yaml.Node{Kind: yaml.MappingNode}
	yamlnode.Set(axis, "param", &yaml.Node{Kind: yaml.ScalarNode, Value: name})
	yamlnode.Set(axis, "values", &vals)
	axes.Content = append(axes.Content, axis)
}

// bound returns a bound as the parameter's kind.
func (p Param) bound(x float64) any {
	if p.Kind == Int {
		return int64(x)
	}
	return x
}

// baseText returns the base section's text as a document of its own (its
// lines keep their numbers: the lines before it are left blank).
func baseText(data []byte, base *yaml.Node) []byte {
	lines := strings.Split(string(data), "\n")
	if base.Style&yaml.FlowStyle != 0 || base.Line < 1 || base.Line > len(lines) {
		var b bytes.Buffer
		_ = yaml.NewEncoder(&b).Encode(base)
		return b.Bytes()
	}
	start := base.Line - 1 // 0-based line of the base's first key
	indent := len(lines[start]) - len(strings.TrimLeft(lines[start], " "))
	out := make([]string, 0, len(lines))
	for i := 0; i < start; i++ {
		out = append(out, "")
	}
	for i := start; i < len(lines); i++ {
		l := lines[i]
		trimmed := strings.TrimLeft(l, " ")
		if trimmed != "" && !strings.HasPrefix(trimmed, "#") && len(l)-len(trimmed) < indent {
			break // the next top-level key
		}
		if len(l) >= indent {
			l = l[indent:]
		} else {
			l = strings.TrimLeft(l, " ")
		}
		out = append(out, l)
	}
	return []byte(strings.Join(out, "\n"))
}

func yamlQuote(s string) string { return strconv.Quote(s) }

// Dir returns the directory the spec's relative paths are relative to.
func (s *Spec) Dir() string { return filepath.Dir(s.file) }

// value decodes a genome's gene x in [0, 1] into the parameter's value:
// lo + x·(hi − lo) for Float, the nearest of the hi − lo + 1 integers for
// Int, the ⌊x·k⌋-th of k choices.
func (p Param) value(x float64) any {
	x = min(max(x, 0), 1)
	switch p.Kind {
	case Int:
		n := p.Hi - p.Lo + 1
		return int64(min(p.Lo+math.Floor(x*n), p.Hi))
	case Choice:
		k := len(p.Choices)
		return normalize(p.Choices[min(int(x*float64(k)), k-1)])
	}
	return p.Lo + x*(p.Hi-p.Lo)
}

// normalize turns YAML numbers into the int64/float64 cell values use.
func normalize(v any) any {
	switch x := v.(type) {
	case int:
		return int64(x)
	case float64, string, bool, int64:
		return x
	}
	if f, ok := numeric.Float(v); ok {
		return f
	}
	return fmt.Sprint(v)
}
