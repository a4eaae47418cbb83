package claims

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/family"
	"github.com/schedfarm/schedfarm/results"
	"github.com/schedfarm/schedfarm/runner"
)

// rec builds an ok record of experiment "fig" with one metric.
func rec(sched string, rep int, metric string, v float64, params ...runner.Param) *results.Record {
	return &results.Record{
		Cell:   runner.Cell{Experiment: "fig", Scheduler: sched, Replication: rep, Params: params},
		Result: runner.CellResult{Status: runner.StatusOK, Metrics: []family.Metric{{Name: metric, Value: v}}},
	}
}

func p(name string, v any) runner.Param { return runner.Param{Name: name, Value: v} }

const file = `
paper: test paper
claims:
  - id: d
    says: A below B at both points
    experiment: fig
    metric: m
    kind: diff
    a: {scheduler: a}
    b: {scheduler: b}
    at: {x: [1, 2]}
    expect: below
  - id: r
    says: A about twice B
    split: [mode]
    experiment: fig
    metric: m
    kind: ratio
    a: {scheduler: a, x: 1}
    b: {scheduler: b, x: 1}
    expect: within
    band: [0.5, 1.5]
  - id: v
    says: C above 0.9
    experiment: fig
    metric: u
    kind: value
    a: {scheduler: c}
    expect: above
    than: 0.9
  - id: n
    says: nothing to compare
    experiment: fig
    metric: m
    kind: diff
    a: {scheduler: nobody}
    b: {scheduler: b}
    expect: above
`

// Verdicts by hand (α = 0.05, one look; with df = 2, F(t) = 1/2 +
// t/(2√(2 + t²)) and t(0.95, 2) = 2.919986). At x = 1, A − B = 5, 6, 7
// (mode p) and, for claim r, A/B − 1 = 1, 1, 1 in mode p and 0.2, 0.2, 0.2
// in mode q; at x = 2, A − B = −1, 1, 3: mean 1, s = 2, s/√3 = 1.1547,
// half-width 2.919986·1.1547 = 3.3717; "below" has p = F(0.866) = 0.761
// and its opposite p = 0.239 > 0.05: inconclusive. To decide the opposite
// (the mean is 1 above 0, s = 2) at 80% power: (t(0.95, n−1) + t(0.80,
// n−1))·2/√n ≤ 1 first at n = 27 (n = 26: (1.7081 + 0.8562)·2/5.099 =
// 1.0058; n = 27: (1.7056 + 0.8557)·2/5.196 = 0.9859). C's u = 0.85, 0.86,
// 0.87: mean 0.86, s/√3 = 0.005774, half-width 0.01686; the opposite of
// "above 0.9" has p = F(−6.928) = 0.5 − 6.928/14.142 = 0.0101 ≤ 0.05.
func TestEvaluateByHand(t *testing.T) {
	f, err := Parse([]byte(file), "t.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var recs []*results.Record
	for rep, v := range [][2]float64{{5, 10}, {6, 12}, {7, 14}} {
		// x = 1: B = v[0], A = v[1] in mode p (A − B = v[0], A/B − 1 = 1);
		// mode q: A/B = 1.2.
		recs = append(recs,
			rec("a", rep, "m", v[1], p("mode", "p"), p("x", int64(1))),
			rec("b", rep, "m", v[0], p("mode", "p"), p("x", int64(1))),
			rec("a", rep, "m", 1.2*v[0], p("mode", "q"), p("x", int64(1))),
			rec("b", rep, "m", v[0], p("mode", "q"), p("x", int64(1))))
	}
	for rep, d := range []float64{-1, 1, 3} {
		recs = append(recs, rec("a", rep, "m", 10+d, p("mode", "p"), p("x", int64(2))), rec("b", rep, "m", 10, p("mode", "p"), p("x", int64(2))))
	}
	for rep, u := range []float64{0.85, 0.86, 0.87} {
		recs = append(recs, rec("c", rep, "u", u))
	}
	rs := Evaluate(f, Records{"fig": recs})
	got := map[string]Result{}
	for _, r := range rs {
		got[r.Claim.ID+readingOf(r.Split)] = r
	}
	if len(rs) != 5 {
		t.Fatalf("%d results, want 5 (r split in two): %v", len(rs), got)
	}
	// Claim d: modes p and q both match at x = 1 without a split, so the
	// selector is ambiguous there.
	d := got["d"].Checks[0].Points
	if d[0].Verdict != NoData || !strings.Contains(d[0].Note, "matches 2 records") {
		t.Errorf("d at x=1: %+v, want an ambiguous selector", d[0])
	}
	if math.Abs(d[1].Mean-1) > 1e-12 || math.Abs(d[1].Half-3.3717) > 1e-3 || d[1].Verdict != Inconclusive || d[1].Need != 27 ||
		math.Abs(d[1].PClaim-0.7611) > 1e-3 || math.Abs(d[1].POpp-0.2389) > 1e-3 {
		t.Errorf("d at x=2: %+v, want mean 1, half 3.372, p 0.761 / 0.239, inconclusive, 27 reps", d[1])
	}
	if r := got["rp"]; r.Verdict != Holds || r.Checks[0].Points[0].Mean != 1 || r.Checks[0].Points[0].Half != 0 {
		t.Errorf("r, mode p: %+v", r.Checks[0].Points[0])
	}
	if r := got["rq"]; r.Verdict != DoesNotHold || math.Abs(r.Checks[0].Points[0].Mean-0.2) > 1e-12 {
		t.Errorf("r, mode q: %+v (0.2 < 0.5 with no spread: does not hold)", r.Checks[0].Points[0])
	}
	v := got["v"].Checks[0].Points[0]
	if math.Abs(v.Mean-0.86) > 1e-12 || math.Abs(v.Half-0.01686) > 1e-4 || math.Abs(v.POpp-0.0101) > 1e-4 || v.Verdict != DoesNotHold {
		t.Errorf("v: %+v, want 0.86 ± 0.0169, p 0.0101, does not hold", v)
	}
	if n := got["n"]; n.Verdict != NoData {
		t.Errorf("n: %s, want no data", n.Verdict)
	}
	var b bytes.Buffer
	if err := WriteMarkdown(&b, rs); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| reading |", "| r |  | A about twice B | mode=q | +20.0% ± 0.0 ✗ | 3 | **does not hold** |", "no record matches a = map[scheduler:nobody]", "x=2: 1 ± 3.37 (≈27 reps)", "0.86 ± 0.0169 ✗"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, b.String())
		}
	}
}

// A well-defined comparison holds when the interval lies on the claimed
// side: A − B = 5, 6, 7 (mean 6, s/√3 = 0.57735, 90% half-width
// 2.919986·0.57735 = 1.686) is above 0; "below" does not hold: its
// opposite has p = 1/2 − 10.392/(2√110) = 0.00457.
func TestJudgeSides(t *testing.T) {
	for _, c := range []struct {
		expect string
		want   string
	}{{"above", Holds}, {"below", DoesNotHold}} {
		r := Result{Alpha: 0.05, Looks: 1, Checks: []CheckResult{{Check: Check{Expect: c.expect}, Points: []Point{{Samples: []float64{5, 6, 7}}}}}}
		decide(&r, DefaultRule)
		pt := r.Checks[0].Points[0]
		if pt.Verdict != c.want || r.Verdict != c.want || math.Abs(pt.Half-1.6859) > 1e-3 {
			t.Errorf("%s: %+v, want %s", c.expect, pt, c.want)
		}
	}
}

// A bad claims file is reported whole, each problem with its line and
// field and what is accepted.
func TestParseErrors(t *testing.T) {
	_, err := Parse([]byte(`
paper: x
claims:
  - id: a
    says: s
    experiment: e
    metric: m
    kind: sum
    a: {scheduler: x}
    expect: within
  - id: a
    experiment: e
    metric: m
    kind: value
    a: {scheduler: x}
    expect: above
    band: [1, 0]
`), "bad.yaml")
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{
		`bad.yaml:4: claims[0].kind: "sum"; accepted: diff, ratio, value`,
		"bad.yaml:4: claims[0].b: required for kind sum",
		"bad.yaml:4: claims[0].band: []; accepted: [low, high]",
		`bad.yaml:11: claims[1].id: "a" repeats`,
		"bad.yaml:11: claims[1].says: required",
		"bad.yaml:11: claims[1].band: [1 0]; accepted: [low, high] with low ≤ high for expect within",
	} {
		if !strings.Contains(err.Error(), want) && !strings.Contains(err.Error(), strings.ReplaceAll(want, "[1 0]; accepted: [low, high] with low ≤ high for expect within", "given with expect above")) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
}

// A point whose paired values are identical in every replication (0 ± 0,
// as CPLMT − CMMS at one rate of seed 001 with deadline-aware baselines)
// says that more replications cannot decide it, rather than nothing.
func TestPointTheSameInEveryReplication(t *testing.T) {
	k := Check{Kind: "diff"}
	p := Point{Label: "rate=10", Samples: []float64{0, 0, 0}, Mean: 0, Half: 0, SD: 0, Verdict: Inconclusive}
	if got, want := point(k, p), "rate=10: 0 ± 0 (the same in every replication: more cannot decide it)"; got != want {
		t.Errorf("point = %q; want %q", got, want)
	}
	p.Samples, p.SD, p.Half, p.Need = []float64{-1, 1, 0}, 1, 2.48, 27
	if got, want := point(k, p), "rate=10: 0 ± 2.48 (≈27 reps)"; got != want {
		t.Errorf("point = %q; want %q", got, want)
	}
}
