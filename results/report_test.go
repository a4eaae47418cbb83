package results

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/experiments"
	"github.com/schedfarm/schedfarm/family"
	"github.com/schedfarm/schedfarm/runner"
)

// sweepRecords: {fcfs, easy} × load {0.5, 0.7, 0.9} × 3 replications, with
// wait_mean = 100·load·(2 for fcfs) + replication, and one failed cell.
func sweepRecords() []*Record {
	var recs []*Record
	for rep := 0; rep < 3; rep++ {
		for _, load := range []float64{0.5, 0.7, 0.9} {
			for _, sched := range []string{"fcfs", "easy"} {
				ps := []runner.Param{{Name: "platform.procs", Value: int64(128)}, {Name: "workload.load", Value: load}}
				c := runner.Cell{Experiment: "s", Scheduler: sched, Params: ps, Replication: rep, Index: len(recs)}
				c.ID = experiments.CellID("s", 0, sched, ps, rep)
				f := 1.0
				if sched == "fcfs" {
					f = 2
				}
				r := runner.CellResult{CellID: c.ID, Status: runner.StatusOK, Metrics: []family.Metric{
					{Name: "wait_mean", Value: 100*load*f + float64(rep)}, {Name: "utilization", Value: load}}}
				if sched == "easy" && load == 0.9 && rep == 2 {
					r = runner.CellResult{CellID: c.ID, Status: runner.StatusFailed, Error: "boom"}
				}
				recs = append(recs, &Record{Cell: c, Result: r})
			}
		}
	}
	return recs
}

func TestSummariseAndReport(t *testing.T) {
	s := Summarise(sweepRecords())
	if len(s.Groups) != 6 || s.Cells != 18 || s.Failed != 1 {
		t.Fatalf("groups %d cells %d failed %d", len(s.Groups), s.Cells, s.Failed)
	}
	if strings.Join(s.Axes, ",") != "workload.load" || len(s.Fixed) != 1 || s.Fixed[0].Name != "platform.procs" {
		t.Fatalf("axes %v fixed %v", s.Axes, s.Fixed)
	}
	// First group: load 0.5, fcfs: values 100, 101, 102 → mean 101,
	// s = 1, half-width = t(0.975, 2)·1/√3 = 4.3026527/1.7320508 = 2.4841377.
	g := s.Groups[0]
	if g.Scheduler != "fcfs" {
		t.Fatalf("first group %s", g.Scheduler)
	}
	st := g.Stats["wait_mean"]
	if st.N != 3 || math.Abs(st.Mean-101) > 1e-9 || math.Abs(st.HalfWidth-2.4841377) > 1e-6 {
		t.Fatalf("stat %+v", st)
	}
	last := s.Groups[5]
	if last.Scheduler != "easy" || last.OK != 2 || last.Failed != 1 || last.Stats["wait_mean"].N != 2 {
		t.Fatalf("last group %+v", last)
	}

	var text bytes.Buffer
	if err := s.WriteText(&text, []string{"wait_mean"}); err != nil {
		t.Fatal(err)
	}
	out := text.String()
	for _, want := range []string{"18 cells, 1 failed, 6 groups", "fixed: platform.procs=128", "0.5       fcfs  3       0  101.0     2.484"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	if err := s.WriteText(&text, []string{"nope"}); err == nil || !strings.Contains(err.Error(), "present: utilization, wait_mean") {
		t.Errorf("unknown metric error: %v", err)
	}
	var csvOut bytes.Buffer
	if err := s.WriteCSV(&csvOut); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(csvOut.String(), "\n"); n != 1+6*2 {
		t.Fatalf("csv has %d lines", n)
	}

	dir := t.TempDir()
	files, err := s.Plot(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 4 {
		t.Fatalf("files %v", files)
	}
	for _, f := range files {
		if st, err := os.Stat(f); err != nil || st.Size() < 1000 {
			t.Fatalf("%s: %v", f, err)
		}
	}
	if filepath.Base(files[0]) != "utilization_vs_workload_load.png" {
		t.Fatalf("file name %s", files[0])
	}
	if dst := os.Getenv("SCHEDFARM_KEEP_PLOTS"); dst != "" {
		b, _ := os.ReadFile(filepath.Join(dir, "wait_mean_vs_workload_load.png"))
		os.WriteFile(dst, b, 0o644)
	}
}

// The baseline column compares each group with the baseline scheduler at
// the same point, ignoring scheduler parameters.
func TestBaselineColumn(t *testing.T) {
	recs := sweepRecords()
	// A third scheduler with a parameter: wait_mean = 100·load·3 at rep 0.
	for _, load := range []float64{0.5, 0.9} {
		ps := []runner.Param{{Name: "platform.procs", Value: int64(128)}, {Name: "scheduler.sf", Value: 0.5}, {Name: "workload.load", Value: load}}
		c := runner.Cell{Experiment: "s", Scheduler: "sf", Params: ps}
		c.ID = experiments.CellID("s", 0, "sf", ps, 0)
		recs = append(recs, &Record{Cell: c, Result: runner.CellResult{CellID: c.ID, Status: runner.StatusOK,
			Metrics: []family.Metric{{Name: "wait_mean", Value: 300 * load}, {Name: "utilization", Value: load}}}})
	}
	s := Summarise(recs)
	if err := s.SetBaseline("nope"); err == nil || !strings.Contains(err.Error(), "fcfs, easy, sf") {
		t.Errorf("unknown baseline: %v", err)
	}
	if err := s.SetBaseline("fcfs"); err != nil {
		t.Fatal(err)
	}
	var text bytes.Buffer
	if err := s.WriteText(&text, []string{"wait_mean"}); err != nil {
		t.Fatal(err)
	}
	// load 0.5: fcfs 101, easy 51 → −49.5%, sf 150 → +48.5%;
	// load 0.9: fcfs 181, easy (90, 91) → 90.5 → −50.0%, sf 270 → +49.2%.
	for _, want := range []string{"vs fcfs", "101.0     2.484    +0.0%", "-49.5%", "+48.5%", "-50.0%", "+49.2%"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, text.String())
		}
	}
}
