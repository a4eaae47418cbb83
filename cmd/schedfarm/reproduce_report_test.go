package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/claims"
)

// The before → after table attributes each changed verdict: to the rule
// when the previous rule gives the new results the earlier verdict, to the
// results when it gives them the new one, to both otherwise; a claim judged
// once before and per reading now is compared at its default reading, and
// a claim turned into a check of our own says so.
func TestBeforeAfterAttribution(t *testing.T) {
	rv := func(reading string, def bool, verdict, prev string) claims.ReadingVerdict {
		return claims.ReadingVerdict{Reading: reading, Default: def, Verdict: verdict, PreviousRule: prev}
	}
	before := []claims.Verdicts{{Paper: "seed 9: a paper", Claims: []claims.ClaimVerdict{
		{ID: "rule", Readings: []claims.ReadingVerdict{rv("", true, claims.DoesNotHold, "")}},
		{ID: "data", Readings: []claims.ReadingVerdict{rv("", true, claims.Inconclusive, "")}},
		{ID: "both", Readings: []claims.ReadingVerdict{rv("", true, claims.Holds, "")}},
		{ID: "split", Readings: []claims.ReadingVerdict{rv("", true, claims.Inconclusive, "")}},
		{ID: "same", Readings: []claims.ReadingVerdict{rv("", true, claims.Holds, "")}},
		{ID: "cal", Readings: []claims.ReadingVerdict{rv("", true, claims.Holds, "")}},
	}}}
	now := claims.Verdicts{Paper: "seed 9: a paper", Claims: []claims.ClaimVerdict{
		{ID: "rule", Readings: []claims.ReadingVerdict{rv("", true, claims.Inconclusive, claims.DoesNotHold)}},
		{ID: "data", Readings: []claims.ReadingVerdict{rv("", true, claims.Holds, claims.Holds)}},
		{ID: "both", Readings: []claims.ReadingVerdict{rv("", true, claims.Inconclusive, claims.DoesNotHold)}},
		{ID: "split", Readings: []claims.ReadingVerdict{rv("r=a", true, claims.Holds, claims.Holds), rv("r=b", false, claims.DoesNotHold, claims.DoesNotHold)}},
		{ID: "same", Readings: []claims.ReadingVerdict{rv("", true, claims.Holds, claims.Holds)}},
		{ID: "cal", SelfCheck: true, Readings: []claims.ReadingVerdict{rv("", true, claims.Holds, claims.Holds)}},
	}}
	var b bytes.Buffer
	writeBeforeAfter(&b, before, []paperSection{{file: &claims.File{Paper: now.Paper}, verdicts: now}})
	out := b.String()
	for _, want := range []string{
		"| seed 9: a paper | 3 → 3 | 1 → 0 | 2 → 2 | 0 → 0 |",
		"| seed 9 | rule |  | does not hold | inconclusive | does not hold | the rule (",
		"| seed 9 | data |  | inconclusive | holds | holds | the results (",
		"| seed 9 | both |  | holds | inconclusive | does not hold | the rule and the results |",
		"| seed 9 | split | r=a | inconclusive | holds | holds | the results (code, workload or replications; the previous rule agrees with the new verdict); judged per reading since (before: once) |",
		"| seed 9 | split | r=b | — | does not hold | does not hold | new claim or reading |",
		"| seed 9 | cal |  | holds | holds | holds | now a check of our own, not counted |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "| same |") {
		t.Errorf("an unchanged verdict is listed:\n%s", out)
	}
}
