package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/schedfarm/schedfarm/claims"
	"github.com/schedfarm/schedfarm/internal/buildinfo"
)

// verdictsFile is the machine-readable verdicts reproduce writes beside
// its report: the README's tables and a later run's before → after table
// are made from it.
const verdictsFile = "verdicts.json"

// writeVerdicts writes the papers' verdicts as JSON.
func writeVerdicts(path string, vs []claims.Verdicts) error {
	data, err := json.MarshalIndent(vs, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}

// readVerdicts reads a verdicts.json.
func readVerdicts(path string) ([]claims.Verdicts, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var vs []claims.Verdicts
	if err := json.Unmarshal(data, &vs); err != nil {
		return nil, fmt.Errorf("%s: %w; accepted: a verdicts.json written by schedfarm reproduce", path, err)
	}
	return vs, nil
}

// rulePreamble states the verdict rule for the report's readers.
const rulePreamble = `**How a claim is judged** (claims/doc.go; error rates proved by simulation in claims/errorrate_test.go). Every comparison is paired: the schedulers of one grid point and replication see the same jobs and random draws, and the samples are the per-replication differences (or ratios). Each claim is judged from all its points at error level α = 0.05, with Student-t tests; with L looks of the sequential design each test runs at α′ = α/L.

- **above / below**: a point holds when the one-sided test of the claimed side rejects at α′; the interval shown, mean ± t(1−α′)·s/√n, then lies on that side.
- **within a band**: a point holds only when the whole interval lies inside the band (two one-sided tests), never on the mean alone; "about the same" claims are bands of a stated practical margin.
- **does not hold**: only on a decided opposite: the one-sided test of the other side (outside the band) rejects under Holm's procedure at α′ over all the claim's points, so the chance of a false "does not hold" is at most α however many points the claim has (✗ marks those points).
- A claim **holds** when every point holds (a false "holds" has probability at most α), **does not hold** when any point is decided against it, and is **inconclusive** otherwise; "(≈N reps)" is the replications an undecided point would need at its observed mean and spread (80% power).
- **Replications until decided**: a spec's schedule looks at min, 2·min, … replications up to its cap; after each look only the cells of undecided points of undecided claims get more replications (new replication indices, the same common random numbers). The looks are fixed before any result, so α is divided among them.
- **Readings**: where a paper admits several readings, each claim that depends on one is judged under every reading side by side; the paper's tally counts its claims under the default reading, and the reading least favourable to the paper is named.
- **Checks of our own** (calibration, sanity) are reported apart and not counted among the paper's claims.`

// writeReproduction renders the reproduction report: the rule, a summary
// per paper, then per paper its specs' runs, readings, claims, checks of
// our own and plots; with earlier verdicts, a before → after table.
func writeReproduction(w *bytes.Buffer, secs []paperSection, earlier []claims.Verdicts, quick, judgeOnly bool, wall time.Duration, workers, specsAtOnce int, remote bool, maxReps int) {
	mode := "full"
	if quick {
		mode = "quick (fewer jobs and replications; the verdicts are a smoke test, not findings)"
	}
	if judgeOnly {
		mode += ", judged again from an earlier run's results (--judge-only: the wall clocks are that run's, the sum of its specs', which overlap where specs ran side by side; each spec is judged under the sequential design its run used, read from its log)"
	}
	where := fmt.Sprintf("an embedded broker, %d local workers", workers)
	if specsAtOnce > 1 {
		where = fmt.Sprintf("an embedded broker, %d cells simulated at once by up to %d specs run side by side", workers, specsAtOnce)
	}
	if remote {
		where = "a remote farm"
	}
	fmt.Fprintf(w, "# Reproduction of the papers' claims\n\n")
	fmt.Fprintf(w, "schedfarm %s (commit %s), run %s: %s, on %s, %s wall clock.\n\n", buildinfo.Version, buildinfo.Commit(), mode, time.Now().UTC().Format("2006-01-02"), where, wall.Round(time.Second))
	if builds := resultBuilds(secs); judgeOnly || len(builds) > 1 {
		fmt.Fprintf(w, "The results were made by %s (the rows' provenance).\n\n", strings.Join(builds, ", "))
	}
	if maxReps > 0 {
		fmt.Fprintf(w, "Replications were capped at %d for every spec (--max-replications %d, in place of the claims files' caps): the sequential design, and so α′, is the one with that cap; each paper's table of runs gives its schedule.\n\n", maxReps, maxReps)
	}
	fmt.Fprintf(w, "%s\n\n", rulePreamble)
	fmt.Fprintf(w, "## Summary\n\nThe papers' claims under their default readings (checks of our own not counted):\n\n")
	fmt.Fprintf(w, "| paper | claims | holds | does not hold | inconclusive | no data | cells run | cells had every point run to the cap | wall clock |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, s := range secs {
		h := s.verdicts.Headline()
		cells, atCap, wall := 0, 0, time.Duration(0)
		for _, r := range s.runs {
			cells += r.cells
			atCap += r.atCap
			wall += r.wall
		}
		fmt.Fprintf(w, "| %s | %d | %d | %d | %d | %d | %d | %d | %s |\n", s.file.Paper, h[claims.Holds]+h[claims.DoesNotHold]+h[claims.Inconclusive]+h[claims.NoData],
			h[claims.Holds], h[claims.DoesNotHold], h[claims.Inconclusive], h[claims.NoData], cells, atCap, wall.Round(time.Second))
	}
	fmt.Fprintln(w)
	if earlier != nil {
		writeBeforeAfter(w, earlier, secs)
	}
	for _, s := range secs {
		writePaper(w, s)
	}
}

// writePaper renders one paper's section.
func writePaper(w *bytes.Buffer, s paperSection) {
	fmt.Fprintf(w, "## %s\n\n", s.file.Paper)
	if s.file.Rules != "" {
		fmt.Fprintf(w, "Rules, settings and the reasons for the bands: `%s`. ", filepath.Join(filepath.Dir(s.file.Path), s.file.Rules))
	}
	fmt.Fprintf(w, "Verdicts under the default readings: %s.", s.verdicts.Headline())
	br := s.verdicts.ByReading()
	for _, k := range claims.SortedKeys(br) {
		fmt.Fprintf(w, " Under %s: %s.", k, br[k])
	}
	fmt.Fprintf(w, "\n\n| spec | cells | cells had every point run to the cap | failed | replications: first look → cap (looks) | wall clock |\n|---|---:|---:|---:|---|---:|\n")
	for _, r := range s.runs {
		fmt.Fprintf(w, "| %s | %d | %d | %d | %d → %d (%d) | %s |\n", r.name, r.cells, r.atCap, r.failed, r.sched.Min, r.sched.Max, r.sched.Looks(), r.wall.Round(time.Second))
	}
	fmt.Fprintln(w)
	if len(s.file.Readings) > 0 {
		fmt.Fprintf(w, "### Readings\n\nWhere the paper admits more than one reading, each is a named option, and the claims that depend on it are judged under each.\n\n")
		fmt.Fprintf(w, "| parameter | the paper's words | readings | default, and why | least favourable to the paper |\n|---|---|---|---|---|\n")
		for _, r := range s.file.Readings {
			var vals []string
			for _, k := range claims.SortedKeys(r.Values) {
				vals = append(vals, "`"+k+"`: "+r.Values[k])
			}
			least := "none known"
			if r.LeastFavourable != "" {
				least = "`" + r.LeastFavourable + "`: " + r.WhyLeastFavourable
			}
			fmt.Fprintf(w, "| %s | %s | %s | `%s`: %s | %s |\n", r.Param, cellText(r.Paper), cellText(strings.Join(vals, "<br>")), r.Default, cellText(r.WhyDefault), cellText(least))
		}
		fmt.Fprintln(w)
		var b bytes.Buffer
		_ = claims.WriteReadingTable(&b, s.verdicts)
		if b.Len() > 0 {
			fmt.Fprintf(w, "Verdicts by reading, side by side:\n\n%s\n", b.String())
		}
	}
	var paper, ours []claims.Result
	for _, r := range s.results {
		if r.Claim.SelfCheck {
			ours = append(ours, r)
		} else {
			paper = append(paper, r)
		}
	}
	fmt.Fprintf(w, "### Claims\n\n")
	_ = claims.WriteMarkdown(w, paper)
	fmt.Fprintln(w)
	if len(ours) > 0 {
		fmt.Fprintf(w, "### Checks of our own (not claims of the paper; not counted)\n\n")
		_ = claims.WriteMarkdown(w, ours)
		fmt.Fprintln(w)
	}
	var ap strings.Builder
	writeAppendices(&ap, s.file)
	w.WriteString(ap.String())
	for _, r := range s.runs {
		if len(r.plots) == 0 {
			continue
		}
		fmt.Fprintf(w, "### %s\n\n", r.name)
		for _, p := range r.plots {
			rel, _ := filepath.Rel(filepath.Dir(r.output), p)
			fmt.Fprintf(w, "![%s](%s)\n", strings.TrimSuffix(filepath.Base(p), ".png"), rel)
		}
		fmt.Fprintln(w)
	}
}

// writeBeforeAfter compares the verdicts with an earlier run's: per paper
// the counts under the default readings, then every claim and reading
// whose verdict changed, attributed to the rule (the previous rule on
// these results gives the earlier verdict), to the results (it gives the
// new one: the implementation, the workload or more replications moved
// them) or to both.
func writeBeforeAfter(w io.Writer, earlier []claims.Verdicts, secs []paperSection) {
	before := map[string]claims.Verdicts{}
	for _, v := range earlier {
		before[v.Paper] = v
	}
	fmt.Fprintf(w, "## Before → after\n\nAgainst the earlier report's verdicts (--before). Counts under the default readings, checks of our own left out:\n\n")
	fmt.Fprintf(w, "| paper | holds | does not hold | inconclusive | no data |\n|---|---|---|---|---|\n")
	type change struct{ paper, id, reading, was, now, prev, why string }
	var changes []change
	for _, s := range secs {
		b, ok := before[s.file.Paper]
		a := s.verdicts.Headline()
		if !ok {
			fmt.Fprintf(w, "| %s | (new) %d | %d | %d | %d |\n", s.file.Paper, a[claims.Holds], a[claims.DoesNotHold], a[claims.Inconclusive], a[claims.NoData])
			continue
		}
		h := b.Headline()
		fmt.Fprintf(w, "| %s | %d → %d | %d → %d | %d → %d | %d → %d |\n", s.file.Paper, h[claims.Holds], a[claims.Holds], h[claims.DoesNotHold], a[claims.DoesNotHold],
			h[claims.Inconclusive], a[claims.Inconclusive], h[claims.NoData], a[claims.NoData])
		old := map[string]claims.ReadingVerdict{}
		oldSelf := map[string]bool{}
		for _, c := range b.Claims {
			oldSelf[c.ID] = c.SelfCheck
			for _, r := range c.Readings {
				old[c.ID+"\x00"+r.Reading] = r
			}
		}
		for _, c := range s.verdicts.Claims {
			for _, r := range c.Readings {
				o, ok := old[c.ID+"\x00"+r.Reading]
				split := ""
				if !ok && r.Default {
					// A claim judged once before and per reading now: its
					// one earlier verdict is compared with the default's.
					o, ok = old[c.ID+"\x00"]
					if ok {
						split = "; judged per reading since (before: once)"
					}
				}
				ch := change{paper: shortPaper(s.file.Paper), id: c.ID, reading: r.Reading, now: r.Verdict, prev: r.PreviousRule}
				switch {
				case !ok:
					ch.was, ch.why = "—", "new claim or reading"
				case o.Verdict == r.Verdict && oldSelf[c.ID] == c.SelfCheck && split == "":
					continue
				case o.Verdict == r.Verdict && oldSelf[c.ID] == c.SelfCheck:
					ch.was, ch.why = o.Verdict, "unchanged"
				case o.Verdict == r.Verdict:
					ch.was, ch.why = o.Verdict, "now a check of our own, not counted"
				case r.PreviousRule == o.Verdict:
					ch.was, ch.why = o.Verdict, "the rule (the previous rule gives these results the earlier verdict)"
				case r.PreviousRule == r.Verdict:
					ch.was, ch.why = o.Verdict, "the results (code, workload or replications; the previous rule agrees with the new verdict)"
				default:
					ch.was, ch.why = o.Verdict, "the rule and the results"
				}
				if c.SelfCheck && ch.why != "now a check of our own, not counted" {
					ch.why += "; a check of our own"
				}
				ch.why += split
				changes = append(changes, ch)
			}
		}
	}
	fmt.Fprintln(w)
	if len(changes) == 0 {
		fmt.Fprintf(w, "No verdict changed.\n\n")
		return
	}
	fmt.Fprintf(w, "Every verdict that changed (the claim's cause, in its paper's table, says why the results moved):\n\n| paper | claim | reading | before | after | previous rule on these results | why |\n|---|---|---|---|---|---|---|\n")
	for _, c := range changes {
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s |\n", c.paper, c.id, c.reading, c.was, c.now, c.prev, c.why)
	}
	fmt.Fprintln(w)
}

// cellText escapes a Markdown table cell.
func cellText(s string) string { return strings.ReplaceAll(s, "|", "\\|") }

// shortPaper returns a paper's name up to its first colon ("seed 000").
func shortPaper(name string) string {
	if i := strings.Index(name, ":"); i > 0 {
		return name[:i]
	}
	return name
}

// resultBuilds lists, in order, the builds (commit, or the binary's
// SHA-256) that made the results the report judges, from their rows.
func resultBuilds(secs []paperSection) []string {
	var builds []string
	for _, s := range secs {
		for _, r := range s.runs {
			for _, rec := range r.recs {
				if c := rec.Result.Commit; c != "" && !slices.Contains(builds, c) {
					builds = append(builds, c)
				}
			}
		}
	}
	slices.Sort(builds)
	return builds
}
