package claims

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/schedfarm/schedfarm/experiments"
)

// WriteMarkdown writes the verdicts as a Markdown table: one row per claim
// and split combination, with each check's paired differences per point
// (mean ± 95% half-width over the replications; ✗ marks a point on the
// wrong side, "(≈N reps)" what an inconclusive point would need).
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
	head = append(head, "ours: mean ± 95% CI per point", "verdict")
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
			cols = append(cols, cell(readingOf(r.Split)))
		}
		cols = append(cols, cell(ours(r)), "**"+r.Verdict+"**")
		if cause {
			cols = append(cols, cell(c.Cause))
		}
		if _, err := fmt.Fprintf(w, "| %s |\n", strings.Join(cols, " | ")); err != nil {
			return err
		}
	}
	return nil
}

func readingOf(ps []experiments.Param) string {
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
