package results

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"

	"github.com/schedfarm/schedfarm/experiments"
	"github.com/schedfarm/schedfarm/family"
	"github.com/schedfarm/schedfarm/runner"
)

// testCell builds cell i of a small synthetic grid with every kind of
// parameter; odd cells lack scheduler.k (as non-depth schedulers do).
func testCell(i int) runner.Cell {
	ps := []runner.Param{
		{Name: "platform.procs", Value: int64(64 << (i % 2))},
		{Name: "workload.estimates", Value: "user"},
		{Name: "workload.jobs", Value: int64(1000 + i)},
		{Name: "workload.lenient", Value: i%3 == 0},
		{Name: "workload.load", Value: 0.5 + 0.1*float64(i%4)},
	}
	sched := "easy"
	if i%2 == 0 {
		sched = "depth"
		ps = append(ps, runner.Param{Name: "scheduler.k", Value: int64(i % 5)})
	}
	var plugin *runner.PluginRef
	if i%4 == 1 {
		// A plugin's row keeps its binary's SHA-256 (the path is the
		// journal's only).
		sched, plugin = "my-plugin", &runner.PluginRef{SHA256: fmt.Sprintf("%064x", i)}
	}
	c := runner.Cell{Experiment: "t", Index: i, Scheduler: sched, Replication: i % 3, Seed: uint64(i) * 0x9e3779b97f4a7c15, Plugin: plugin}
	sort.Slice(ps, func(i, j int) bool { return ps[i].Name < ps[j].Name })
	c.Params = ps
	c.ID = experiments.CellID("t", 0, sched+c.PluginSHA256(), ps, i%3)
	return c
}

func testResult(c runner.Cell, i int) runner.CellResult {
	r := runner.CellResult{CellID: c.ID, Status: runner.StatusOK, WallSeconds: 0.01 * float64(i),
		Worker: "w1", Version: "0.1.0-dev", GoVersion: "go1.26.8", Commit: "abc",
		Metrics: []family.Metric{{Name: "jobs", Value: float64(100 + i)}, {Name: "wait_mean", Value: float64(i) / 3}}}
	if i%7 == 3 {
		r.Status, r.Error, r.Metrics = runner.StatusFailed, fmt.Sprintf("panic: cell %d", i), nil
	}
	return r
}

func TestParquetRoundTrip(t *testing.T) {
	const n = 10000
	path := filepath.Join(t.TempDir(), "out.parquet")
	w, err := Open(Options{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	for i := n - 1; i >= 0; i-- { // finish out of order
		c := testCell(i)
		if err := w.Write(c, testResult(c, i)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}

	// Typed columns and bounded row groups.
	f, _ := os.Open(path)
	defer f.Close()
	st, _ := f.Stat()
	pf, err := parquet.OpenFile(f, st.Size())
	if err != nil {
		t.Fatal(err)
	}
	if pf.NumRows() != n {
		t.Fatalf("%d rows, want %d", pf.NumRows(), n)
	}
	if got := len(pf.RowGroups()); got != (n+RowGroupRows-1)/RowGroupRows {
		t.Fatalf("%d row groups", got)
	}
	kinds := map[string]parquet.Kind{}
	for _, fld := range pf.Schema().Fields() {
		kinds[fld.Name()] = fld.Type().Kind()
	}
	want := map[string]parquet.Kind{
		"p_platform__procs": parquet.Int64, "p_workload__load": parquet.Double, "p_workload__estimates": parquet.ByteArray,
		"p_workload__lenient": parquet.Boolean, "p_scheduler__k": parquet.Int64, "m_jobs": parquet.Double,
		"m_wait_mean": parquet.Double, ColSeed: parquet.Int64, ColReplication: parquet.Int64, ColStatus: parquet.ByteArray,
		ColWallSeconds: parquet.Double, ColCellID: parquet.ByteArray, ColGitCommit: parquet.ByteArray,
		ColPluginSHA256: parquet.ByteArray,
	}
	for col, k := range want {
		if kinds[col] != k {
			t.Errorf("column %s kind %v, want %v", col, kinds[col], k)
		}
	}
	if len(kinds) != 14+6+2 {
		t.Errorf("%d columns: %v", len(kinds), kinds)
	}

	recs, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != n {
		t.Fatalf("read %d records", len(recs))
	}
	failed := 0
	for i, r := range recs {
		c := testCell(i)
		res := testResult(c, i)
		res.CellID = c.ID
		if !reflect.DeepEqual(r.Cell, c) {
			t.Fatalf("row %d cell\n%#v\nwant\n%#v", i, r.Cell, c)
		}
		if !reflect.DeepEqual(r.Result, res) {
			t.Fatalf("row %d result\n%#v\nwant\n%#v", i, r.Result, res)
		}
		if r.Result.Status == runner.StatusFailed {
			failed++
		}
	}
	if failed == 0 {
		t.Fatal("no failed rows in the test")
	}
}

func TestResumeJournal(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.parquet")
	w, err := Open(Options{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 10; i++ {
		c := testCell(i)
		if err := w.Write(c, testResult(c, i)); err != nil {
			t.Fatal(err)
		}
	}
	// Simulate a crash: no Close, and a torn last line.
	w.journal.Write([]byte(`{"cell":{"id":"torn`))
	w.journal.Close()
	w.lock.Release() // the kernel releases a dead process's lock
	if _, err := os.Stat(path); err == nil {
		t.Fatal("parquet written before Close")
	}
	done, err := ReadDone(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(done) != 9 { // cell 3 failed
		t.Fatalf("ReadDone = %d cells, want 9", len(done))
	}
	w, err = Open(Options{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	if d := w.Done(); len(d) != 9 {
		t.Fatalf("Done after reopen = %d", len(d))
	}
	if _, ok := w.Done()[testCell(3).ID]; ok {
		t.Fatal("a failed cell counts as done")
	}
	// Rerun: cell 3 now succeeds, cell 0 is (redundantly) delivered again
	// and fails; ok beats failed, one row per cell.
	c3 := testCell(3)
	if err := w.Write(c3, runner.CellResult{Status: runner.StatusOK, Metrics: []family.Metric{{Name: "jobs", Value: 1}}}); err != nil {
		t.Fatal(err)
	}
	c0 := testCell(0)
	if err := w.Write(c0, runner.CellResult{Status: runner.StatusFailed, Error: "late duplicate"}); err != nil {
		t.Fatal(err)
	}
	for i := 10; i < 12; i++ {
		c := testCell(i)
		w.Write(c, testResult(c, i))
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	recs, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 12 {
		t.Fatalf("%d rows, want 12", len(recs))
	}
	for i, r := range recs {
		if r.Cell.Index != i || (r.Result.Status != runner.StatusOK) != (i == 10) {
			t.Fatalf("row %d: index %d status %s", i, r.Cell.Index, r.Result.Status)
		}
	}

	// Without the journal, the Parquet file alone seeds a resume.
	if err := os.Remove(JournalPath(path)); err != nil {
		t.Fatal(err)
	}
	w, err = Open(Options{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	if d := w.Done(); len(d) != 11 { // cell 10 failed
		t.Fatalf("Done from Parquet = %d", len(d))
	}
	c := testCell(12)
	w.Write(c, testResult(c, 12))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if recs, _ := ReadFile(path); len(recs) != 13 {
		t.Fatalf("%d rows after import and one more cell", len(recs))
	}
}

func TestMetricsFilterAndJobs(t *testing.T) {
	dir := t.TempDir()
	path, jobsPath := filepath.Join(dir, "c.parquet"), filepath.Join(dir, "j.parquet")
	w, err := Open(Options{Path: path, JobsPath: jobsPath, Metrics: []string{"wait_mean"}})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		c := testCell(i)
		r := testResult(c, i)
		r.Jobs = []runner.JobRecord{{ID: 1, Submit: 0, Start: 1, End: 5, Procs: 2, Wait: 1, Bsld: 1.25, State: "finished"},
			{ID: 2, Submit: 3, Start: -1, End: 4, Procs: 200, Wait: -1, Bsld: -1, State: "rejected"}}
		if err := w.Write(c, r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	recs, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if len(r.Result.Metrics) != 1 || r.Result.Metrics[0].Name != "wait_mean" {
			t.Fatalf("metrics not filtered: %v", r.Result.Metrics)
		}
	}
	jobs, err := ReadJobs(jobsPath)
	if err != nil {
		t.Fatal(err)
	}
	if len(jobs) != 6 || jobs[0].CellID != testCell(0).ID || jobs[1].State != "rejected" || jobs[0].Bsld != 1.25 {
		t.Fatalf("jobs = %+v", jobs)
	}
}

// Flush makes every Write durable (the journal) at once but rebuilds the
// Parquet file at most every RewriteEvery; Close always rebuilds it.
func TestFlushRewritesAtMostEvery(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.parquet")
	w, err := Open(Options{Path: path, RewriteEvery: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	rows := func() int {
		recs, err := ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return len(recs)
	}
	for i := range 3 {
		c := testCell(i)
		if err := w.Write(c, testResult(c, i)); err != nil {
			t.Fatal(err)
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	if n := rows(); n != 1 {
		t.Errorf("Parquet has %d rows after three flushes within the hour, want 1 (the first flush's)", n)
	}
	if done, err := ReadDone(path); err != nil || len(done) != 3 {
		t.Errorf("journal has %d done cells (%v), want 3", len(done), err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if n := rows(); n != 3 {
		t.Errorf("Parquet has %d rows after Close, want 3", n)
	}
}
