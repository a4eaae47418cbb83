package claims

import (
	"fmt"
	"sort"
	"strings"

	"github.com/schedfarm/schedfarm/experiments"
	"github.com/schedfarm/schedfarm/runner"
)

// Verdicts is one paper's judged claims in the form the report, the
// README's tables and a later comparison read (verdicts.json): one entry
// per claim, with its verdict under every reading it was split by.
type Verdicts struct {
	Paper string `json:"paper"`
	// File is the claims file, as reproduce named it.
	File string `json:"file"`
	// Alpha is the rule's error level per claim.
	Alpha  float64        `json:"alpha"`
	Claims []ClaimVerdict `json:"claims"`
}

// ClaimVerdict is one claim (or check of our own) and its verdicts.
type ClaimVerdict struct {
	ID        string           `json:"id"`
	Figure    string           `json:"figure,omitempty"`
	Says      string           `json:"says"`
	SelfCheck bool             `json:"self_check,omitempty"`
	Readings  []ReadingVerdict `json:"readings"`
}

// ReadingVerdict is a claim's verdict under one combination of its split
// values.
type ReadingVerdict struct {
	// Reading names the split values, "param=value, …" ("" without split).
	Reading string `json:"reading,omitempty"`
	// Default is true for the default reading (and for a claim without
	// readings); LeastFavourable when a value is the reading its file names
	// least favourable to the paper.
	Default         bool   `json:"default"`
	LeastFavourable bool   `json:"least_favourable,omitempty"`
	Verdict         string `json:"verdict"`
	// MinReps and MaxReps are the fewest and most replications behind its
	// points; Looks the looks its tests shared α among.
	MinReps int `json:"min_reps"`
	MaxReps int `json:"max_reps"`
	Looks   int `json:"looks"`
	// Need is, for an inconclusive verdict, the most replications any of
	// its undecided points is estimated to need (0: unknown).
	Need int `json:"need,omitempty"`
	// PreviousRule is the verdict the previous rule gives the same results
	// (PreviousRule), to attribute changes between reports.
	PreviousRule string `json:"previous_rule,omitempty"`
}

// Summarize turns a paper's results into its Verdicts, claims in file
// order and readings in the order Evaluate found them.
func Summarize(f *File, rs []Result, alpha float64) Verdicts {
	v := Verdicts{Paper: f.Paper, File: f.Path, Alpha: alpha}
	byClaim := map[*Claim]int{}
	for _, r := range rs {
		i, ok := byClaim[r.Claim]
		if !ok {
			i = len(v.Claims)
			byClaim[r.Claim] = i
			v.Claims = append(v.Claims, ClaimVerdict{ID: r.Claim.ID, Figure: r.Claim.Figure, Says: r.Claim.Says, SelfCheck: r.Claim.SelfCheck})
		}
		rv := ReadingVerdict{Reading: ReadingLabel(r.Split), Default: r.Default, LeastFavourable: r.LeastFavourable, Verdict: r.Verdict,
			MinReps: r.MinReps, MaxReps: r.MaxReps, Looks: r.Looks, PreviousRule: PreviousRule(r)}
		if r.Verdict == Inconclusive {
			for _, cr := range r.Checks {
				for _, p := range cr.Points {
					if p.Verdict == Inconclusive {
						rv.Need = max(rv.Need, p.Need)
					}
				}
			}
		}
		v.Claims[i].Readings = append(v.Claims[i].Readings, rv)
	}
	return v
}

// readingKind reports whether split values are the default reading (every
// declared reading at its default; values of undeclared parameters count
// as default), whether any is the least favourable one and whether any
// split parameter is a declared reading.
func (f *File) readingKind(split []runner.Param) (def, least, declared bool) {
	def = true
	for _, p := range split {
		for _, r := range f.Readings {
			if r.Param != p.Name {
				continue
			}
			declared = true
			v := experiments.FormatValue(p.Value)
			if v != r.Default {
				def = false
			}
			if r.LeastFavourable != "" && v == r.LeastFavourable {
				least = true
			}
		}
	}
	return def, least, declared
}

// ReadingLabel names split values for tables: "name=value, …" with the
// parameters' section prefixes dropped.
func ReadingLabel(ps []runner.Param) string {
	var parts []string
	for _, p := range ps {
		parts = append(parts, shortLabel(p.Name)+"="+experiments.FormatValue(p.Value))
	}
	return strings.Join(parts, ", ")
}

// Tally counts verdicts.
type Tally map[string]int

// String renders "N holds, N does not hold, …" in a fixed order.
func (t Tally) String() string {
	var parts []string
	for _, v := range []string{Holds, DoesNotHold, Inconclusive, NoData} {
		if t[v] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", t[v], v))
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// Headline counts the paper's claims once each, under the default reading
// (checks of our own left out). A claim split by a parameter that is no
// declared reading has several default rows; each counts.
func (v Verdicts) Headline() Tally {
	t := Tally{}
	for _, c := range v.Claims {
		if c.SelfCheck {
			continue
		}
		for _, r := range c.Readings {
			if r.Default {
				t[r.Verdict]++
			}
		}
	}
	return t
}

// ByReading counts the claims' verdicts per non-default reading value:
// "param=value" → tally over the claims split by it (checks of our own
// left out).
func (v Verdicts) ByReading() map[string]Tally {
	out := map[string]Tally{}
	for _, c := range v.Claims {
		if c.SelfCheck {
			continue
		}
		for _, r := range c.Readings {
			if r.Default || r.Reading == "" {
				continue
			}
			if out[r.Reading] == nil {
				out[r.Reading] = Tally{}
			}
			out[r.Reading][r.Verdict]++
		}
	}
	return out
}

// SortedKeys returns a map's keys in order.
func SortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
