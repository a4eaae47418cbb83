package claims

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/results"
)

const alongFile = `
paper: trend paper
claims:
  - id: slope
    says: A's gain over B grows along x
    cause: the gain shrinks here because of something documented
    experiment: fig
    metric: m
    kind: ratio
    a: {scheduler: a}
    b: {scheduler: b}
    at: {x: [10, 20, 40], scheduler.sf: [0.5]}
    along: x
    stat: slope
    expect: below
  - id: folds
    says: the other folds
    checks:
      - {label: span, experiment: fig, metric: m, kind: ratio, a: {scheduler: a}, b: {scheduler: b}, at: {x: [10, 20, 40], scheduler.sf: [0.5]}, along: x, stat: span, expect: below}
      - {label: mean, experiment: fig, metric: m, kind: ratio, a: {scheduler: a}, b: {scheduler: b}, at: {x: [10, 20, 40], scheduler.sf: [0.5]}, along: x, stat: mean, expect: within, band: [-0.25, -0.15]}
      - {label: min, experiment: fig, metric: m, kind: ratio, a: {scheduler: a}, b: {scheduler: b}, at: {x: [10, 20, 40], scheduler.sf: [0.5]}, along: x, stat: min, expect: below, than: -0.05}
      - {label: max, experiment: fig, metric: m, kind: ratio, a: {scheduler: a}, b: {scheduler: b}, at: {x: [10, 20, 40], scheduler.sf: [0.5]}, along: x, stat: max, expect: above, than: -0.01}
`

// Folds along an axis, by hand (α = 0.05, one look; df = 2, so F(t) = 1/2
// + t/(2√(2 + t²)) and t(0.95, 2) = 2.919986). B = 100 at every point; A
// (the scheduler with its own axis sf, at 0.5) at x = 10, 20, 40 is 90,
// 80, 70 (rep 0), 95, 80, 65 (rep 1) and 90, 85, 80 (rep 2), so A/B − 1 is
// −0.1, −0.2, −0.3; −0.05, −0.2, −0.35; −0.1, −0.15, −0.2.
//
//   - Slopes against positions 0, 1, 2: −0.1, −0.15, −0.05 (mean −0.1,
//     s/√3 = 0.028868, t = −3.464, p = F(−3.464) = 0.0371 ≤ 0.05: holds;
//     90% half-width 2.919986·0.028868 = 0.08429).
//   - Spans −0.2, −0.3, −0.1: mean −0.2, s/√3 = 0.05774, p = 0.0371: holds.
//   - Means −0.2, −0.2, −0.15: mean −0.18333, s/√3 = 0.016667, inside the
//     band [−0.25, −0.15] but not decided so: the upper one-sided test has
//     t = −2, p = F(−2) = 0.0918 > 0.05 (TOST), and the band's outside has
//     p = 1: inconclusive, 7 replications at 80% power.
//   - Minima −0.3, −0.35, −0.2: mean −0.28333, s/√3 = 0.044096, t =
//     −5.2915 against −0.05, p = 0.0170: holds.
//   - Maxima −0.1, −0.05, −0.1: mean −0.08333 against "above −0.01": the
//     opposite has t = −4.4, p = 1/2 − 4.4/(2√21.36) = 0.0240, below 0.05
//     alone; but the claim has four points and Holm needs the smallest p
//     ≤ 0.05/4 = 0.0125: inconclusive, and so is the claim (the old rule,
//     one 95% interval off its side at any point, called it "does not
//     hold").
//
// A's records at sf 1.0 (A = 1000) must not be picked; B's cells lack sf
// (the axis is A's own) and are matched at every sf.
func TestAlongByHand(t *testing.T) {
	f, err := Parse([]byte(alongFile), "t.yaml")
	if err != nil {
		t.Fatal(err)
	}
	as := [][]float64{{90, 80, 70}, {95, 80, 65}, {90, 85, 80}}
	var recs []*results.Record
	for rep, row := range as {
		for i, x := range []int64{10, 20, 40} {
			recs = append(recs,
				rec("a", rep, "m", row[i], p("scheduler.sf", 0.5), p("x", x)),
				rec("a", rep, "m", 1000, p("scheduler.sf", 1.0), p("x", x)),
				rec("b", rep, "m", 100, p("x", x)))
		}
	}
	rs := Evaluate(f, Records{"fig": recs})
	if len(rs) != 2 {
		t.Fatalf("%d results, want 2", len(rs))
	}
	slope := rs[0].Checks[0].Points
	if len(slope) != 1 {
		t.Fatalf("slope: %d points, want 1: %+v", len(slope), slope)
	}
	s := slope[0]
	if math.Abs(s.Mean+0.1) > 1e-12 || math.Abs(s.Half-0.08429) > 1e-4 || math.Abs(s.PClaim-0.03709) > 1e-4 || s.Verdict != Holds {
		t.Errorf("slope: %+v, want −0.1 ± 0.0843, p 0.0371, holds", s)
	}
	if s.Label != "scheduler.sf=0.5, slope along x" {
		t.Errorf("slope label %q", s.Label)
	}
	want := []struct {
		mean, half, pclaim, popp float64
		verdict                  string
		need                     int
	}{
		{-0.2, 0.16859, 0.03709, 0.96291, Holds, 0},
		{-0.183333, 0.04867, 0.09175, 1, Inconclusive, 7},
		{-0.283333, 0.12876, 0.01695, 0.98305, Holds, 0},
		{-0.083333, 0.04867, 0.97602, 0.02398, Inconclusive, 5},
	}
	for i, w := range want {
		pt := rs[1].Checks[i].Points[0]
		if math.Abs(pt.Mean-w.mean) > 1e-5 || math.Abs(pt.Half-w.half) > 1e-4 || math.Abs(pt.PClaim-w.pclaim) > 1e-4 ||
			math.Abs(pt.POpp-w.popp) > 1e-4 || pt.Verdict != w.verdict || pt.Need != w.need {
			t.Errorf("%s: %+v, want %.5f ± %.5f, p %.5f / %.5f, %s, need %d", rs[1].Checks[i].Check.Label, pt, w.mean, w.half, w.pclaim, w.popp, w.verdict, w.need)
		}
	}
	if rs[1].Verdict != Inconclusive {
		t.Errorf("folds: %s, want inconclusive (Holm over four points)", rs[1].Verdict)
	}
	var b bytes.Buffer
	if err := WriteMarkdown(&b, rs); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"| cause (where it does not hold) |", "sf=0.5, slope along x: -10.0% ± 8.4", "| **holds** | the gain shrinks here because of something documented |", "max along x: -8.3% ± 4.9 (≈5 reps)"} {
		if !strings.Contains(b.String(), w) {
			t.Errorf("table lacks %q:\n%s", w, b.String())
		}
	}
}

// A missing point along the axis leaves the fold without data, naming it.
func TestAlongMissingPoint(t *testing.T) {
	f, err := Parse([]byte(alongFile), "t.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var recs []*results.Record
	for _, x := range []int64{10, 20} {
		recs = append(recs, rec("a", 0, "m", 90, p("scheduler.sf", 0.5), p("x", x)), rec("b", 0, "m", 100, p("x", x)))
	}
	pt := Evaluate(f, Records{"fig": recs})[0].Checks[0].Points[0]
	if pt.Verdict != NoData || !strings.Contains(pt.Note, "x=40: no record matches") {
		t.Errorf("%+v, want no data naming x=40", pt)
	}
}

func TestAlongParseErrors(t *testing.T) {
	_, err := Parse([]byte(`
paper: x
claims:
  - id: a
    says: s
    checks:
      - {experiment: e, metric: m, kind: value, a: {scheduler: x}, expect: above, stat: mean}
      - {experiment: e, metric: m, kind: value, a: {scheduler: x}, expect: above, at: {x: [1, 2]}, along: y, stat: mean}
      - {experiment: e, metric: m, kind: value, a: {scheduler: x}, expect: above, at: {x: [1]}, along: x, stat: slope}
      - {experiment: e, metric: m, kind: value, a: {scheduler: x}, expect: above, at: {x: [1, 2]}, along: x, stat: median}
`), "bad.yaml")
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{
		`bad.yaml:4: claims[0].checks[0].stat: "mean" without along`,
		`bad.yaml:4: claims[0].checks[1].along: "y" is not a parameter of at`,
		`bad.yaml:4: claims[0].checks[2].at.x: 1 value for stat slope; accepted: at least 2`,
		`bad.yaml:4: claims[0].checks[3].stat: "median"; accepted with along: slope, span, mean, min, max`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
}

// An undecided fold wants every point along its axis, both sides: the
// replications are folded per replication, so they must grow together.
// The "folds" claim is inconclusive (its mean and max points undecided).
func TestAlongWants(t *testing.T) {
	f, err := Parse([]byte(alongFile), "t.yaml")
	if err != nil {
		t.Fatal(err)
	}
	as := [][]float64{{90, 80, 70}, {95, 80, 65}, {90, 85, 80}}
	var recs []*results.Record
	for rep, row := range as {
		for i, x := range []int64{10, 20, 40} {
			recs = append(recs, rec("a", rep, "m", row[i], p("scheduler.sf", 0.5), p("x", x)), rec("b", rep, "m", 100, p("x", x)))
		}
	}
	ws := Wants(Evaluate(f, Records{"fig": recs}), map[string]Schedule{"fig": {Min: 3, Max: 12}})
	var got []string
	for _, w := range ws {
		got = append(got, fmt.Sprint(w.Where, " ", w.Replications))
	}
	// mean's need is 7 (TestAlongByHand), max's 5: the looks 6 and 12 give
	// 12 for the points of the fold that needs 7.
	want := []string{
		"map[scheduler:a scheduler.sf:0.5 x:10] 12", "map[scheduler:a scheduler.sf:0.5 x:20] 12", "map[scheduler:a scheduler.sf:0.5 x:40] 12",
		"map[scheduler:b scheduler.sf:0.5 x:10] 12", "map[scheduler:b scheduler.sf:0.5 x:20] 12", "map[scheduler:b scheduler.sf:0.5 x:40] 12",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("wants:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
