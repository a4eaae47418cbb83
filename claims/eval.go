package claims

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/schedfarm/schedfarm/experiments"
	"github.com/schedfarm/schedfarm/results"
	"github.com/schedfarm/schedfarm/runner"
)

// Verdicts.
const (
	Holds        = "holds"
	DoesNotHold  = "does not hold"
	Inconclusive = "inconclusive"
	NoData       = "no data"
)

// Rule holds the settings of the verdict rule (see the package doc).
type Rule struct {
	// Alpha is the error level of a claim's verdict: the probability of a
	// false "holds" and, separately, of a false "does not hold" (default
	// 0.05).
	Alpha float64
	// Beta is 1 − the power Need aims for (default 0.2: 80%).
	Beta float64
	// Looks gives, per experiment, how many times its results may be
	// judged while replications are added (the sequential design; 1 when
	// absent). A claim's tests run at Alpha divided by the largest number
	// of looks among the experiments it reads.
	Looks map[string]int
}

// DefaultRule is the rule for a single look at every experiment.
var DefaultRule = Rule{Alpha: 0.05, Beta: 0.2}

func (r Rule) withDefaults() Rule {
	if r.Alpha <= 0 || r.Alpha >= 1 {
		r.Alpha = DefaultRule.Alpha
	}
	if r.Beta <= 0 || r.Beta >= 1 {
		r.Beta = DefaultRule.Beta
	}
	return r
}

// looks returns the number of looks a claim's tests share α among.
func (r Rule) looks(c *Claim) int {
	n := 1
	for _, k := range c.checks() {
		n = max(n, r.Looks[k.Experiment])
	}
	return n
}

// Records are results by experiment name.
type Records map[string][]*results.Record

// Add files records under their cells' experiment names.
func (r Records) Add(recs []*results.Record) {
	for _, rec := range recs {
		r[rec.Cell.Experiment] = append(r[rec.Cell.Experiment], rec)
	}
}

// Point is one grid point of a check.
type Point struct {
	// Label names the point ("workload.generator.class=8:2"; "" for a check
	// without points).
	Label string
	// Samples are the per-replication values (A − B, A/B − 1 or A).
	Samples []float64
	// Mean and Half are their mean and the half-width of the two-sided
	// interval at level 1 − 2α′ (α′ the claim's per-look level): the
	// interval whose position against the claimed side or band is the
	// point's test.
	Mean, Half float64
	// SD is the samples' standard deviation.
	SD float64
	// PClaim is the p-value of the claim's side at this point (one-sided t
	// above or below Than; two one-sided tests inside the band) and POpp
	// that of the opposite (one-sided t on the other side; outside the
	// band).
	PClaim, POpp float64
	Verdict      string
	// Need estimates the replications an inconclusive point would need to
	// be decided at the observed mean and spread with 80% power (0:
	// unknown: the mean sits on the boundary).
	Need int
	// Note explains a point without data.
	Note string

	// grid lists the grid points whose records the point reads (one, or
	// one per value along the check's axis).
	grid [][]runner.Param
}

// CheckResult is one check's points and verdict.
type CheckResult struct {
	Check   Check
	Points  []Point
	Verdict string
}

// Result is a claim's verdict under one combination of its split values.
type Result struct {
	Claim   *Claim
	Split   []runner.Param // the split parameters' values (nil: none)
	Checks  []CheckResult
	Verdict string
	// Alpha is the per-look level its tests ran at (Rule.Alpha / looks)
	// and Looks the number of looks.
	Alpha float64
	Looks int
	// MinReps and MaxReps are the fewest and the most replications behind
	// any of its points.
	MinReps, MaxReps int
	// Default is true when Split is the default reading (every declared
	// reading at its default, or no split); LeastFavourable when a split
	// value is the reading the file names least favourable to the paper.
	Default, LeastFavourable bool
	// Declared is true when a split parameter is one of the file's
	// declared readings.
	Declared bool
}

// Evaluate judges every claim of f against recs under DefaultRule.
func Evaluate(f *File, recs Records) []Result { return EvaluateRule(f, recs, DefaultRule) }

// EvaluateRule judges every claim of f against recs: per split combination
// found in the records, every check at every point, paired by
// replication, and the claim's verdict from all its points under rule.
func EvaluateRule(f *File, recs Records, rule Rule) []Result {
	rule = rule.withDefaults()
	var out []Result
	for i := range f.Claims {
		c := &f.Claims[i]
		for _, split := range splitValues(c, recs) {
			r := Result{Claim: c, Split: split, Looks: rule.looks(c)}
			r.Default, r.LeastFavourable, r.Declared = f.readingKind(split)
			r.Alpha = rule.Alpha / float64(r.Looks)
			for _, k := range c.checks() {
				r.Checks = append(r.Checks, collectCheck(k, split, recs[k.Experiment]))
			}
			decide(&r, rule)
			out = append(out, r)
		}
	}
	return out
}

// splitValues lists the combinations of the claim's split parameters'
// values present in its experiments' records (one empty combination when
// it has none), in a fixed order.
func splitValues(c *Claim, recs Records) [][]runner.Param {
	if len(c.Split) == 0 {
		return [][]runner.Param{nil}
	}
	seen := map[string][]runner.Param{}
	for _, k := range c.checks() {
		for _, r := range recs[k.Experiment] {
			var ps []runner.Param
			var key []string
			ok := true
			for _, name := range c.Split {
				v, found := r.Cell.Lookup(name)
				if !found {
					ok = false
					break
				}
				ps = append(ps, runner.Param{Name: name, Value: v})
				key = append(key, experiments.FormatValue(v))
			}
			if ok {
				seen[strings.Join(key, "\x00")] = ps
			}
		}
	}
	if len(seen) == 0 {
		return [][]runner.Param{nil}
	}
	keys := make([]string, 0, len(seen))
	for k := range seen {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([][]runner.Param, len(keys))
	for i, k := range keys {
		out[i] = seen[k]
	}
	return out
}

// points returns the check's grid points: the cartesian product of At in
// the order of its sorted parameter names and listed values.
func points(k Check) [][]runner.Param {
	names := make([]string, 0, len(k.At))
	for n := range k.At {
		names = append(names, n)
	}
	sort.Strings(names)
	out := [][]runner.Param{nil}
	for _, n := range names {
		var next [][]runner.Param
		for _, p := range out {
			for _, v := range k.At[n] {
				next = append(next, append(slices.Clone(p), runner.Param{Name: n, Value: v}))
			}
		}
		out = next
	}
	return out
}

// matches reports whether a record satisfies a selector and the point's
// and split's parameters.
func matches(r *results.Record, sel map[string]any, fixed ...[]runner.Param) bool {
	if r.Result.Status != runner.StatusOK {
		return false
	}
	for k, v := range sel {
		if k == "scheduler" {
			if r.Cell.Scheduler != experiments.FormatValue(v) {
				return false
			}
			continue
		}
		if !same(r, k, v) {
			return false
		}
	}
	for _, ps := range fixed {
		for _, p := range ps {
			if !same(r, p.Name, p.Value) && !otherSchedulers(r, p.Name) {
				return false
			}
		}
	}
	return true
}

// otherSchedulers reports whether a point parameter is a scheduler's own
// ("scheduler.<param>", the cell name of a spec axis
// "scheduler.<name>.<param>") that the record's cell lacks: such an axis
// applies to one scheduler only, and the others ran once for all its
// values (e.g. KEASY against MEASY at each migration cost), so the
// parameter does not select among their records. A record that matches
// more than once per replication is still reported as ambiguous.
func otherSchedulers(r *results.Record, name string) bool {
	if !strings.HasPrefix(name, "scheduler.") {
		return false
	}
	_, ok := r.Cell.Lookup(name)
	return !ok
}

func same(r *results.Record, name string, v any) bool {
	got, ok := r.Cell.Lookup(name)
	return ok && experiments.FormatValue(got) == experiments.FormatValue(v)
}

// sideValues returns, per replication, the metric of the one record a side
// selects (ambiguous: a note naming the replication).
func sideValues(recs []*results.Record, sel map[string]any, metric string, fixed ...[]runner.Param) (map[int]float64, string) {
	vals := map[int]float64{}
	seen := map[int]int{}
	for _, r := range recs {
		if !matches(r, sel, fixed...) {
			continue
		}
		v, ok := r.Metric(metric)
		if !ok {
			return nil, fmt.Sprintf("no metric %s", metric)
		}
		seen[r.Cell.Replication]++
		vals[r.Cell.Replication] = v
	}
	for rep, n := range seen {
		if n > 1 {
			return nil, fmt.Sprintf("selector %v matches %d records of replication %d; name more parameters", sel, n, rep)
		}
	}
	return vals, ""
}

// collectCheck gathers a check's points and their per-replication
// samples; decide judges them.
func collectCheck(k Check, split []runner.Param, recs []*results.Record) CheckResult {
	cr := CheckResult{Check: k}
	if k.Along == "" {
		for _, pt := range points(k) {
			p := Point{Label: label(pt), grid: [][]runner.Param{pt}}
			var vals map[int]float64
			vals, p.Note = pointValues(k, pt, split, recs)
			for _, rep := range sortedReps(vals) {
				p.Samples = append(p.Samples, vals[rep])
			}
			cr.Points = append(cr.Points, p)
		}
		return cr
	}
	// Fold the points along k.Along, per replication, at every point of
	// the other parameters.
	outer := k
	outer.At = map[string][]any{}
	for n, v := range k.At {
		if n != k.Along {
			outer.At[n] = v
		}
	}
	for _, pt := range points(outer) {
		p := Point{Label: label(pt)}
		if p.Label != "" {
			p.Label += ", "
		}
		p.Label += k.Stat + " along " + k.Along
		var series []map[int]float64
		for _, v := range k.At[k.Along] {
			at := append(slices.Clone(pt), runner.Param{Name: k.Along, Value: v})
			p.grid = append(p.grid, at)
			vals, note := pointValues(k, at, split, recs)
			if note != "" {
				p.Note = label(at[len(at)-1:]) + ": " + note
				series = nil
				break
			}
			series = append(series, vals)
		}
		if len(series) > 0 {
			for _, rep := range sortedReps(series[0]) {
				ys := make([]float64, 0, len(series))
				for _, s := range series {
					if y, ok := s[rep]; ok {
						ys = append(ys, y)
					}
				}
				if len(ys) == len(series) {
					p.Samples = append(p.Samples, fold(k.Stat, ys))
				}
			}
		}
		cr.Points = append(cr.Points, p)
	}
	return cr
}

// pointValues returns the check's per-replication values (A − B, A/B − 1
// or A) at one grid point, or a note saying why there are none.
func pointValues(k Check, pt, split []runner.Param, recs []*results.Record) (map[int]float64, string) {
	a, note := sideValues(recs, k.A, k.Metric, pt, split)
	if note == "" && len(a) == 0 {
		note = fmt.Sprintf("no record matches a = %v", k.A)
	}
	var b map[int]float64
	if note == "" && k.Kind != "value" {
		if b, note = sideValues(recs, k.B, k.Metric, pt, split); note == "" && len(b) == 0 {
			note = fmt.Sprintf("no record matches b = %v", k.B)
		}
	}
	if note != "" {
		return nil, note
	}
	out := map[int]float64{}
	for rep, x := range a {
		switch k.Kind {
		case "value":
			out[rep] = x
		case "diff":
			if y, ok := b[rep]; ok {
				out[rep] = x - y
			}
		case "ratio":
			if y, ok := b[rep]; ok && y != 0 {
				out[rep] = x/y - 1
			}
		}
	}
	return out, ""
}

func sortedReps(m map[int]float64) []int {
	reps := make([]int, 0, len(m))
	for rep := range m {
		reps = append(reps, rep)
	}
	sort.Ints(reps)
	return reps
}

// fold reduces the values at the successive points along an axis to one
// (see Check.Stat).
func fold(stat string, ys []float64) float64 {
	n := float64(len(ys))
	switch stat {
	case "span":
		return ys[len(ys)-1] - ys[0]
	case "mean":
		s := 0.0
		for _, y := range ys {
			s += y
		}
		return s / n
	case "min":
		return slices.Min(ys)
	case "max":
		return slices.Max(ys)
	}
	// slope against x = 0, 1, …, n−1: Σ(x−x̄)(y−ȳ) / Σ(x−x̄)².
	xbar := (n - 1) / 2
	var ybar float64
	for _, y := range ys {
		ybar += y
	}
	ybar /= n
	var num, den float64
	for i, y := range ys {
		dx := float64(i) - xbar
		num += dx * (y - ybar)
		den += dx * dx
	}
	return num / den
}

func label(ps []runner.Param) string {
	var parts []string
	for _, p := range ps {
		parts = append(parts, p.Name+"="+experiments.FormatValue(p.Value))
	}
	return strings.Join(parts, ", ")
}

func combine(vs []string) string {
	switch {
	case slices.Contains(vs, DoesNotHold):
		return DoesNotHold
	case slices.Contains(vs, NoData):
		return NoData
	case slices.Contains(vs, Inconclusive):
		return Inconclusive
	}
	return Holds
}
