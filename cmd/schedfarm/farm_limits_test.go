package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/schedfarm/schedfarm/broker"
	"github.com/schedfarm/schedfarm/results"
	"github.com/schedfarm/schedfarm/runner"
)

// hasMsg reports whether stream name holds a message on subject.
func hasMsg(t *testing.T, js jetstream.JetStream, name, subject string) bool {
	t.Helper()
	st, err := js.Stream(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	_, err = st.GetLastMsgForSubject(context.Background(), subject)
	switch {
	case err == nil:
		return true
	case errors.Is(err, jetstream.ErrMsgNotFound):
		return false
	}
	t.Fatal(err)
	return false
}

// Acks follow the journal's fsync, shown on real processes: the
// coordinator is killed -9 once it has acked some results; every result it
// acked (its cell ran, and neither the cell nor the result is left in the
// broker's work queues: a worker acks a cell only once its result is in the
// results stream, which only the coordinator's ack removes) is in the
// journal as the restarted coordinator reads it, and the rerun completes
// the sweep with every cell once.
func TestFarmAckedResultIsInJournalAfterKill(t *testing.T) {
	f := newFarmFixture(t, true)
	runLog := filepath.Join(f.dir, "runs.log")
	// Cells 4 and on wait for a gate that never opens: the coordinator is
	// killed mid-sweep by construction.
	w := f.start(t, []string{"SCHEDFARM_FAULT_GATE=" + filepath.Join(f.dir, "gate"), "SCHEDFARM_FAULT_GATE_FROM=4", "SCHEDFARM_FAULT_RUNLOG=" + runLog}, f.natsArgs("worker", "--slots", "1", "--id", "w")...)
	coord := f.start(t, nil, f.natsArgs("coordinator", f.spec)...)
	exp := "farmtest"
	poll(t, time.Minute, "the coordinator to ack 3 results", func() bool {
		cons, err := f.js.Consumer(context.Background(), broker.ResultsStream, broker.CoordinatorConsumer(exp))
		if err != nil {
			return false
		}
		info, err := cons.Info(context.Background())
		return err == nil && info.AckFloor.Consumer >= 3
	})
	for _, p := range []*farmProc{coord, w} {
		if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		p.wait(t, 30*time.Second)
	}
	ran, err := os.ReadFile(runLog)
	if err != nil {
		t.Fatal(err)
	}
	status, err := results.ReadStatus(filepath.Join(f.dir, "out.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	acked := 0
	for _, id := range strings.Fields(string(ran)) {
		if hasMsg(t, f.js, broker.CellsStream, broker.CellSubject(exp, id)) || hasMsg(t, f.js, broker.ResultsStream, broker.ResultSubject(exp, id)) {
			continue // not acked by the coordinator (yet)
		}
		acked++
		if status[id] != runner.StatusOK {
			t.Errorf("cell %s: its result was acked but the journal has status %q; want ok", id, status[id])
		}
	}
	if acked < 3 {
		t.Errorf("%d acked results found; want at least the 3 seen acked", acked)
	}
	t.Logf("%d results acked before the kill, all in the journal; %d cells in it", acked, len(status))
	f.start(t, nil, f.natsArgs("worker", "--slots", "2", "--id", "w2")...)
	rerun := f.start(t, nil, f.natsArgs("coordinator", f.spec)...)
	if code := rerun.wait(t, 2*time.Minute); code != 0 {
		t.Fatalf("rerun exit code %d", code)
	}
	checkAllOK(t, f.readExactlyOnce(t, f.dir))
}

// A spec of more cells than --max-cells fails with the count before
// anything is published (or an embedded server started); --yes runs it.
func TestFarmGridLimit(t *testing.T) {
	f := newFarmFixture(t, true)
	p := f.start(t, nil, f.natsArgs("coordinator", "--max-cells", "10", f.spec)...)
	if code := p.wait(t, time.Minute); code != 1 {
		t.Errorf("coordinator over --max-cells: exit code %d; want 1", code)
	}
	want := "the grid has 12 cells, more than --max-cells 10: run again with --yes"
	if !strings.Contains(p.out.String(), want) {
		t.Errorf("output does not say %q:\n%s", want, p.out.String())
	}
	if _, err := f.js.Stream(context.Background(), broker.CellsStream); err == nil && f.streamMsgs(t, broker.CellsStream) != 0 {
		t.Error("cells published although the grid was refused")
	}
	p = f.start(t, []string{"SCHEDFARM_MAX_CELLS=10"}, "run", "--workers", "2", f.spec)
	if code := p.wait(t, time.Minute); code != 1 || !strings.Contains(p.out.String(), want) {
		t.Errorf("run over SCHEDFARM_MAX_CELLS: exit code %d, output:\n%s", code, p.out.String())
	}
	if _, err := os.Stat(filepath.Join(f.dir, ".schedfarm")); err == nil {
		t.Error("run over the cell limit started the embedded server")
	}
	p = f.start(t, []string{"SCHEDFARM_MAX_CELLS=10"}, "run", "--workers", "2", "--yes", f.spec)
	if code := p.wait(t, 2*time.Minute); code != 0 {
		t.Fatalf("run --yes: exit code %d", code)
	}
	checkAllOK(t, f.readExactlyOnce(t, f.dir))
}

// A gzip bomb as a spec's trace. `run --max-trace-bytes 8MiB` stops reading
// it at the limit while checking the spec's inputs, before anything is
// published (exit 1, the limit named). A worker with that limit under a
// coordinator that let it through (its default limit is 2 GiB) stops at the
// limit too: every cell fails naming it, the worker goes on, and the
// coordinator exits 3.
func TestFarmGzipBombTrace(t *testing.T) {
	f := newFarmFixture(t, true)
	var bomb bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&bomb, gzip.BestCompression)
	zw.Write([]byte("; MaxProcs: 16\n"))
	nl := bytes.Repeat([]byte{'\n'}, 1<<20)
	for range 64 { // 64 MiB of blank lines
		zw.Write(nl)
	}
	zw.Close()
	if err := os.WriteFile(filepath.Join(f.dir, "bomb.swf.gz"), bomb.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	spec := f.writeSpec(t, "bomb.yaml", strings.Replace(strings.Replace(farmSpecText, "trace.swf", "bomb.swf.gz", 1), "output: out.parquet", "output: bomb.parquet", 1))
	p := f.start(t, nil, "run", "--workers", "1", "--max-trace-bytes", "8MiB", spec)
	if code := p.wait(t, 2*time.Minute); code != exitError {
		t.Errorf("run on a gzip bomb: exit %d; want %d", code, exitError)
	}
	out := p.out.String()
	if !strings.Contains(out, "more than 8388608 bytes of SWF text") || !strings.Contains(out, "gzip bomb") || !strings.Contains(out, "nothing was") {
		t.Errorf("run on a gzip bomb with --max-trace-bytes 8MiB: want the limit named before anything was published; output:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(f.dir, "bomb.parquet")); err == nil {
		t.Error("an output was written for a spec whose trace failed the check")
	}
	f.start(t, nil, f.natsArgs("worker", "--slots", "1", "--max-trace-bytes", "8MiB")...)
	c := f.start(t, nil, f.natsArgs("coordinator", spec)...)
	if code := c.wait(t, 2*time.Minute); code != exitCellsFailed {
		t.Errorf("coordinator: exit %d; want %d", code, exitCellsFailed)
	}
	if out := c.out.String(); !strings.Contains(out, "0 ok, 12 failed") || !strings.Contains(out, "12 × ") || !strings.Contains(out, "more than 8388608 bytes of SWF text") {
		t.Errorf("worker with --max-trace-bytes 8MiB: want 12 failed cells naming the limit, in one group; output:\n%s", out)
	}
}

// A cell over its wall-time budget and one over its memory budget become
// failed cells naming the budget; the worker (one slot) runs the others.
func TestFarmCellBudgets(t *testing.T) {
	f := newFarmFixture(t, false)
	p := f.start(t, []string{"SCHEDFARM_FAULT_HANG=2", "SCHEDFARM_FAULT_HOG=5"}, "run", "--workers", "1", "--cell-timeout", "20s", "--cell-memory", "300MiB", f.spec)
	if code := p.wait(t, 3*time.Minute); code != exitCellsFailed {
		t.Fatalf("run exit code %d; want %d (every cell has its result, two failed)", code, exitCellsFailed)
	}
	recs := f.readExactlyOnce(t, f.dir)
	for _, r := range recs {
		want := map[int]string{2: "exceeded its wall-time budget of 20s", 5: "exceeded its memory budget of 300 MiB"}[r.Cell.Index]
		switch {
		case want == "" && r.Result.Status != runner.StatusOK:
			t.Errorf("cell %d: %s %q; want ok", r.Cell.Index, r.Result.Status, r.Result.Error)
		case want != "" && (r.Result.Status != runner.StatusFailed || !strings.Contains(r.Result.Error, want)):
			t.Errorf("cell %d: %s %q; want failed with %q", r.Cell.Index, r.Result.Status, r.Result.Error, want)
		}
	}
}
