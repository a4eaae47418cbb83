package results

import (
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/family"
	"github.com/schedfarm/schedfarm/runner"
)

// Results of two builds of one plugin never mix: they are summarised as
// name@<sha prefix>; a name with one build keeps its plain name.
func TestSummariseKeepsPluginBuildsApart(t *testing.T) {
	sha := func(c byte) string { return strings.Repeat(string(c), 64) }
	var recs []*Record
	for rep := range 2 {
		for _, s := range []struct {
			name, sha string
			wait      float64
		}{{"mine", sha('a'), 10}, {"mine", sha('b'), 20}, {"easy", "", 30}, {"other", sha('c'), 40}} {
			c := runner.Cell{Scheduler: s.name, Replication: rep, Params: []runner.Param{{Name: "workload.load", Value: 0.5}}}
			if s.sha != "" {
				c.Plugin = &runner.PluginRef{SHA256: s.sha}
			}
			recs = append(recs, &Record{Cell: c, Result: runner.CellResult{Status: runner.StatusOK,
				Metrics: []family.Metric{{Name: "wait_mean", Value: s.wait + float64(rep)}}}})
		}
	}
	s := Summarise(recs)
	got := map[string]float64{}
	for _, g := range s.Groups {
		got[g.Scheduler] = g.Stats["wait_mean"].Mean
	}
	want := map[string]float64{"mine@aaaaaaaaaaaa": 10.5, "mine@bbbbbbbbbbbb": 20.5, "easy": 30.5, "other": 40.5}
	if len(got) != len(want) {
		t.Fatalf("groups %v; want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("group %s: mean %g; want %g (groups %v)", k, got[k], v, got)
		}
	}
}
