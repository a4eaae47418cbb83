package main

import (
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/claims"
)

// The seed 001 claims file's appendix prints Table 2's capacity per
// reading (cloud.Table2Capacity, whose numbers its own test computes by
// hand); an unknown appendix name is refused with the accepted ones.
func TestAppendices(t *testing.T) {
	f, err := claims.Load("../../experiments/claims/seed001.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := checkAppendices(f); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	writeAppendices(&b, f)
	for _, want := range []string{"### Table 2's capacity", "| copied | units |", "| split | units |", "| yes |", "| no |"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("appendix lacks %q:\n%s", want, b.String())
		}
	}
	f.Appendices = []string{"nope"}
	if err := checkAppendices(f); err == nil || !strings.Contains(err.Error(), `appendices: "nope"; accepted: seed001-table2-capacity`) {
		t.Errorf("unknown appendix: %v", err)
	}
}
