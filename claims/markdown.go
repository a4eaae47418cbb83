package claims

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strings"

	"github.com/schedfarm/schedfarm/experiments"
	"github.com/schedfarm/schedfarm/runner"
)

// WriteMarkdown writes the verdicts as a Markdown table: one row per claim
// and split combination, with each check's paired differences per point
// (mean ± the half-width of the interval the decision reads, at level
// 1 − 2α′; ✗ marks a point decided on the other side, "(≈N reps)" what an
// undecided point would need) and the replications behind them.
func WriteMarkdown(w io.Writer, rs []Result) error {
	split, cause := false, false
	for _, r := range rs {
		split = split || len(r.Split) > 0
		cause = cause || r.Claim.Cause != ""
	}
	head := []string{"id", "fig.", "the paper says"}
	if split {
		head = append(head, "reading")
	}
	head = append(head, "ours: mean ± interval per point", "replications", "verdict")
	if cause {
		head = append(head, "cause (where it does not hold)")
	}
	rule := strings.Repeat("---|", len(head))
	if _, err := fmt.Fprintf(w, "| %s |\n|%s\n", strings.Join(head, " | "), rule); err != nil {
		return err
	}
	for _, r := range rs {
		c := r.Claim
		says := c.Says
		if c.PaperValue != nil {
			says += fmt.Sprintf(" (paper: %s)", num(*c.PaperValue))
		}
		cols := []string{c.ID, c.Figure, cell(says)}
		if split {
			cols = append(cols, cell(readingCell(r)))
		}
		cols = append(cols, cell(ours(r)), reps(r), "**"+r.Verdict+"**")
		if cause {
			cols = append(cols, cell(c.Cause))
		}
		if _, err := fmt.Fprintf(w, "| %s |\n", strings.Join(cols, " | ")); err != nil {
			return err
		}
	}
	return nil
}

// readingCell names a result's reading and marks the default and the one
// least favourable to the paper.
func readingCell(r Result) string {
	s := ReadingLabel(r.Split)
	var marks []string
	if r.Default && r.Declared {
		marks = append(marks, "default")
	}
	if r.LeastFavourable {
		marks = append(marks, "least favourable to the paper")
	}
	if len(marks) > 0 {
		s += " (" + strings.Join(marks, "; ") + ")"
	}
	return s
}

// reps renders the replications behind a result's points and the looks.
func reps(r Result) string {
	if r.MaxReps == 0 {
		return "—"
	}
	s := fmt.Sprint(r.MaxReps)
	if r.MinReps != r.MaxReps {
		s = fmt.Sprintf("%d–%d", r.MinReps, r.MaxReps)
	}
	if r.Looks > 1 {
		s += fmt.Sprintf(" (α′ = %.3g)", r.Alpha)
	}
	return s
}

func readingOf(ps []runner.Param) string {
	var parts []string
	for _, p := range ps {
		parts = append(parts, experiments.FormatValue(p.Value))
	}
	return strings.Join(parts, ", ")
}

// ours renders a result's checks and points.
func ours(r Result) string {
	var lines []string
	for _, cr := range r.Checks {
		var pts []string
		for _, p := range cr.Points {
			pts = append(pts, point(cr.Check, p))
		}
		s := strings.Join(pts, "; ")
		if cr.Check.Label != "" {
			s = cr.Check.Label + " — " + s
		}
		lines = append(lines, s)
	}
	return strings.Join(lines, "<br>")
}

func point(k Check, p Point) string {
	var b strings.Builder
	if p.Label != "" {
		b.WriteString(shortLabel(p.Label) + ": ")
	}
	switch {
	case p.Verdict == NoData:
		b.WriteString("no data (" + p.Note + ")")
		return b.String()
	case k.Kind == "ratio":
		fmt.Fprintf(&b, "%+.1f%%", 100*p.Mean)
		if !math.IsNaN(p.Half) {
			fmt.Fprintf(&b, " ± %.1f", 100*p.Half)
		}
	default:
		b.WriteString(num(p.Mean))
		if !math.IsNaN(p.Half) {
			b.WriteString(" ± " + num(p.Half))
		}
	}
	switch {
	case p.Verdict == DoesNotHold:
		b.WriteString(" ✗")
	case p.Verdict == Inconclusive && len(p.Samples) >= 2 && p.SD == 0:
		// A and B gave the same value in every replication (the two
		// schedulers behave alike there): no number of replications
		// decides a sign or a band edge the mean sits on.
		b.WriteString(" (the same in every replication: more cannot decide it)")
	case p.Verdict == Inconclusive && p.Need > 0:
		fmt.Fprintf(&b, " (≈%d reps)", p.Need)
	}
	return b.String()
}

// shortLabel drops the section prefixes of parameter names in a label.
func shortLabel(l string) string {
	for _, pre := range []string{"workload.generator.", "workload.", "scheduler.", "platform."} {
		l = strings.ReplaceAll(l, pre, "")
	}
	return l
}

// num formats a number with about three significant digits.
func num(x float64) string {
	switch a := math.Abs(x); {
	case math.IsNaN(x):
		return "—"
	case a >= 1000:
		return fmt.Sprintf("%.0f", x)
	case a >= 10:
		return fmt.Sprintf("%.1f", x)
	default:
		return fmt.Sprintf("%.3g", x)
	}
}

// cell escapes a table cell.
func cell(s string) string { return strings.ReplaceAll(s, "|", "\\|") }

// WriteReadingTable writes, for the claims judged under more than one
// reading, their verdicts side by side: a row per claim, a column per
// reading (the default first). It writes nothing when no claim is split.
func WriteReadingTable(w io.Writer, v Verdicts) error {
	var cols []string
	seen := map[string]bool{}
	var split []ClaimVerdict
	for _, c := range v.Claims {
		if len(c.Readings) < 2 {
			continue
		}
		split = append(split, c)
		for _, r := range c.Readings {
			if !seen[r.Reading] {
				seen[r.Reading] = true
				cols = append(cols, r.Reading)
			}
		}
	}
	if len(split) == 0 {
		return nil
	}
	def := map[string]bool{}
	least := map[string]bool{}
	for _, c := range split {
		for _, r := range c.Readings {
			def[r.Reading] = def[r.Reading] || r.Default
			least[r.Reading] = least[r.Reading] || r.LeastFavourable
		}
	}
	sortDefaultFirst(cols, def)
	head := []string{"claim"}
	for _, c := range cols {
		h := c
		if def[c] {
			h += " (default)"
		}
		if least[c] {
			h += " (least favourable to the paper)"
		}
		head = append(head, cell(h))
	}
	if _, err := fmt.Fprintf(w, "| %s |\n|%s\n", strings.Join(head, " | "), strings.Repeat("---|", len(head))); err != nil {
		return err
	}
	for _, c := range split {
		row := []string{c.ID}
		for _, col := range cols {
			v := "—"
			for _, r := range c.Readings {
				if r.Reading == col {
					v = r.Verdict
				}
			}
			row = append(row, v)
		}
		if _, err := fmt.Fprintf(w, "| %s |\n", strings.Join(row, " | ")); err != nil {
			return err
		}
	}
	return nil
}

// sortDefaultFirst orders reading columns: default readings first, then
// the others, each group in the order found.
func sortDefaultFirst(cols []string, def map[string]bool) {
	out := make([]string, 0, len(cols))
	for _, c := range cols {
		if def[c] {
			out = append(out, c)
		}
	}
	for _, c := range cols {
		if !def[c] {
			out = append(out, c)
		}
	}
	copy(cols, out)
}

// WriteSummary writes the verdicts of several papers as the README shows
// them: a count per paper under the default readings, then a row per
// claim with its verdict under each reading (the default first, marked),
// checks of our own apart. Everything in it comes from the Verdicts, so a
// README that embeds it agrees with the report it was made from.
func WriteSummary(w io.Writer, papers []Verdicts) error {
	var b strings.Builder
	b.WriteString("| paper | claims | holds | does not hold | inconclusive | no data |\n|---|---:|---:|---:|---:|---:|\n")
	for _, v := range papers {
		h := v.Headline()
		n := h[Holds] + h[DoesNotHold] + h[Inconclusive] + h[NoData]
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %d |\n", cell(v.Paper), n, h[Holds], h[DoesNotHold], h[Inconclusive], h[NoData])
	}
	for _, v := range papers {
		fmt.Fprintf(&b, "\n**%s**\n\n| claim | fig. | the paper says | verdict (default reading first) | replications |\n|---|---|---|---|---|\n", v.Paper)
		var ours []ClaimVerdict
		for _, c := range v.Claims {
			if c.SelfCheck {
				ours = append(ours, c)
				continue
			}
			summaryRow(&b, c)
		}
		if len(ours) > 0 {
			b.WriteString("\nChecks of our own (not counted):\n\n| check | fig. | what it checks | verdict | replications |\n|---|---|---|---|---|\n")
			for _, c := range ours {
				summaryRow(&b, c)
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func summaryRow(b *strings.Builder, c ClaimVerdict) {
	rs := append([]ReadingVerdict(nil), c.Readings...)
	sort.SliceStable(rs, func(i, j int) bool { return rs[i].Default && !rs[j].Default })
	var vs, reps []string
	for _, r := range rs {
		v := "**" + r.Verdict + "**"
		if r.Verdict == Inconclusive && r.Need > 0 {
			v += fmt.Sprintf(" (≈%d reps)", r.Need)
		}
		if r.Reading != "" {
			mark := ""
			if r.Default && len(rs) > 1 {
				mark = ", default"
			}
			if r.LeastFavourable {
				mark += ", least favourable to the paper"
			}
			v = r.Reading + mark + ": " + v
		}
		vs = append(vs, v)
		rep := fmt.Sprint(r.MaxReps)
		if r.MinReps != r.MaxReps {
			rep = fmt.Sprintf("%d–%d", r.MinReps, r.MaxReps)
		}
		reps = append(reps, rep)
	}
	fmt.Fprintf(b, "| %s | %s | %s | %s | %s |\n", c.ID, cell(c.Figure), cell(c.Says), cell(strings.Join(vs, "<br>")), strings.Join(reps, ", "))
}
