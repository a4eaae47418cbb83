package claims

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/results"
)

func TestScheduleByHand(t *testing.T) {
	s := Schedule{Min: 3, Max: 20}
	if got := fmt.Sprint(s.Stages()); got != "[3 6 12 20]" {
		t.Errorf("stages %s; want [3 6 12 20]", got)
	}
	for _, c := range []struct{ n, need, want int }{
		{3, 0, 6},   // need unknown: the next look
		{3, 5, 6},   // the first look at or past the need
		{3, 7, 12},  // skips a look
		{3, 90, 20}, // beyond the cap: the cap
		{12, 13, 20},
		{20, 30, 0}, // at the cap: nothing more
	} {
		if got := s.Next(c.n, c.need); got != c.want {
			t.Errorf("Next(%d, %d) = %d; want %d", c.n, c.need, got, c.want)
		}
	}
	if (Schedule{Min: 5, Max: 5}).Looks() != 1 || (Schedule{Min: 5}).Looks() != 1 {
		t.Error("a schedule without a larger cap has one look")
	}
}

const seqFile = `
paper: seq
readings:
  - param: mode
    paper: "§1: 'the jobs are scheduled' (how is left open)"
    values: {p: the first reading, q: the second}
    default: p
    why_default: the paper's figure shows it
    least_favourable: q
    why_least_favourable: measured on the paper's own example
claims:
  - id: d
    says: A below B
    split: [mode]
    experiment: fig
    metric: m
    kind: diff
    a: {scheduler: a}
    b: {scheduler: b}
    at: {x: [1, 2]}
    expect: below
  - id: cal
    says: our calibration
    self_check: true
    experiment: fig
    metric: m
    kind: value
    a: {scheduler: b, mode: p}
    at: {x: [1]}
    expect: above
`

// Wants asks, for each undecided point of an undecided claim, both sides'
// cells at the next look of the experiment's schedule; readings are
// marked and tallied; the check of our own is not counted. Three looks:
// α′ = 0.05/3 = 0.0167. Mode p, x = 1: A − B = −3, −3.2, −2.8 (t = −26,
// decided below); x = 2: −1, 1, −2 (mean −0.667, s = 1.528: undecided).
// Mode q: A − B = 5, 6, 7 at both points (p = 0.00457 each, ≤ 0.0167/2:
// Holm decides both the other way), so the claim does not hold there and
// wants nothing.
func TestWantsAndReadings(t *testing.T) {
	f, err := Parse([]byte(seqFile), "t.yaml")
	if err != nil {
		t.Fatal(err)
	}
	diffs := map[string][][]float64{"p": {{-3, -3.2, -2.8}, {-1, 1, -2}}, "q": {{5, 6, 7}, {5, 6, 7}}}
	var recs []*results.Record
	for mode, byX := range diffs {
		for xi, ds := range byX {
			for rep, d := range ds {
				x := int64(xi + 1)
				recs = append(recs, rec("a", rep, "m", 10+d, p("mode", mode), p("x", x)), rec("b", rep, "m", 10, p("mode", mode), p("x", x)))
			}
		}
	}
	rule := Rule{Alpha: 0.05, Looks: map[string]int{"fig": 3}}
	rs := EvaluateRule(f, Records{"fig": recs}, rule)
	if len(rs) != 3 {
		t.Fatalf("%d results; want 3", len(rs))
	}
	byKey := map[string]Result{}
	for _, r := range rs {
		byKey[r.Claim.ID+ReadingLabel(r.Split)] = r
	}
	dp, dq := byKey["dmode=p"], byKey["dmode=q"]
	if dp.Verdict != Inconclusive || !dp.Default || dp.LeastFavourable || dp.Looks != 3 || dp.Alpha != 0.05/3 {
		t.Errorf("d under p: %s default %v least %v looks %d α′ %g; want inconclusive, default, 3 looks, α′ 0.05/3", dp.Verdict, dp.Default, dp.LeastFavourable, dp.Looks, dp.Alpha)
	}
	if dq.Verdict != DoesNotHold || dq.Default || !dq.LeastFavourable {
		t.Errorf("d under q: %s default %v least %v; want does not hold, least favourable", dq.Verdict, dq.Default, dq.LeastFavourable)
	}
	if dp.Checks[0].Points[0].Verdict != Holds || dp.Checks[0].Points[1].Verdict != Inconclusive {
		t.Fatalf("d under p: points %+v", dp.Checks[0].Points)
	}
	ws := Wants(rs, map[string]Schedule{"fig": {Min: 3, Max: 12}})
	var got []string
	for _, w := range ws {
		got = append(got, fmt.Sprintf("%s %v %d", w.Experiment, w.Where, w.Replications))
	}
	need := dp.Checks[0].Points[1].Need
	next := (Schedule{Min: 3, Max: 12}).Next(3, need)
	want := []string{
		fmt.Sprintf("fig map[mode:p scheduler:a x:2] %d", next),
		fmt.Sprintf("fig map[mode:p scheduler:b x:2] %d", next),
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("wants:\n%s\nwant (need %d):\n%s", strings.Join(got, "\n"), need, strings.Join(want, "\n"))
	}
	v := Summarize(f, rs, 0.05)
	if h := v.Headline(); h[Inconclusive] != 1 || len(h) != 1 {
		t.Errorf("headline %v; want the one claim under its default reading, the check of our own left out", h)
	}
	if br := v.ByReading(); br["mode=q"][DoesNotHold] != 1 {
		t.Errorf("by reading %v", br)
	}
	var b bytes.Buffer
	if err := WriteReadingTable(&b, v); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"| claim | mode=p (default) | mode=q (least favourable to the paper) |", "| d | inconclusive | does not hold |"} {
		if !strings.Contains(b.String(), w) {
			t.Errorf("reading table lacks %q:\n%s", w, b.String())
		}
	}
	b.Reset()
	if err := WriteMarkdown(&b, rs); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "mode=q (least favourable to the paper)") || !strings.Contains(b.String(), "(α′ = 0.0167)") {
		t.Errorf("table:\n%s", b.String())
	}
}

func TestReadingsParseErrors(t *testing.T) {
	_, err := Parse([]byte(`
paper: x
specs:
  - {path: a.yaml, replications: {min: 1, max: 1}}
readings:
  - {param: mode, values: {p: one}, default: r, least_favourable: z}
claims:
  - {id: c, says: s, experiment: e, metric: m, kind: value, a: {scheduler: x}, expect: above}
`), "bad.yaml")
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{
		"bad.yaml:4: specs[0].replications.min: 1; accepted: at least 2",
		"bad.yaml:4: specs[0].replications.max: 1; accepted: at least min and 2",
		"bad.yaml:6: readings[0].paper: required",
		"bad.yaml:6: readings[0].values: 1 values; accepted: at least two readings",
		`bad.yaml:6: readings[0].default: "r"; accepted: one of the values`,
		"bad.yaml:6: readings[0].why_default: required",
		`bad.yaml:6: readings[0].least_favourable: "z"; accepted: one of the values, or empty`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
}
