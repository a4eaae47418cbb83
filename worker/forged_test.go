package worker_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/schedfarm/schedfarm/broker"
	"github.com/schedfarm/schedfarm/broker/brokertest"
	"github.com/schedfarm/schedfarm/coordinator"
	"github.com/schedfarm/schedfarm/experiments"
	"github.com/schedfarm/schedfarm/families"
	"github.com/schedfarm/schedfarm/runner"
	"github.com/schedfarm/schedfarm/worker"
)

// forgedSink records results and counts writes per cell.
type forgedSink struct {
	mu      sync.Mutex
	writes  map[string]int
	results map[string]runner.CellResult
}

func (s *forgedSink) Write(c runner.Cell, r runner.CellResult) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.writes[c.ID]++
	s.results[c.ID] = r
	return nil
}

func (s *forgedSink) Flush() error { return nil }

// logLines collects log lines.
type logLines struct {
	mu    sync.Mutex
	lines []string
}

func (l *logLines) logf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, fmt.Sprintf(format, args...))
}

func (l *logLines) text() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.lines, "\n")
}

const forgedSpec = `name: forged
platform: {procs: 16}
workload: {trace: trace.swf}
schedulers: [fcfs, easy]
axes:
  - param: workload.load
    values: [0.5, 0.9]
seed: 3
`

// TestForgedMessagesAreRejected publishes forged and broken cell messages
// and result messages straight to the farm's subjects of a real embedded
// NATS server, ahead of a real sweep: the worker (one slot, data root a
// temporary directory, the default Trust gate) refuses every forged cell
// with the reason stated below and runs none of them; the coordinator
// records none of the workers' reports on them nor any forged result, and
// counts each as a rejected message; the real sweep finishes with every
// cell exactly once, all ok.
func TestForgedMessagesAreRejected(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	writeSWF(t, filepath.Join(root, "trace.swf"))
	writeSWF(t, filepath.Join(outside, "secret.swf"))
	if err := os.Symlink(filepath.Join(outside, "secret.swf"), filepath.Join(root, "escape.swf")); err != nil {
		t.Fatal(err)
	}
	specPath := filepath.Join(root, "spec.yaml")
	if err := os.WriteFile(specPath, []byte(forgedSpec), 0o644); err != nil {
		t.Fatal(err)
	}
	spec, err := experiments.Load(specPath, experiments.NewCatalog(families.Builtin()))
	if err != nil {
		t.Fatal(err)
	}
	cells := spec.Cells()

	_, js := brokertest.Start(t)
	ctx := context.Background()
	if err := broker.Ensure(ctx, js, broker.Topology{}); err != nil {
		t.Fatal(err)
	}

	// The published form of a real cell: its directory relative to the
	// data root.
	legit := cells[0]
	legit.Dir = "."
	encode := func(c runner.Cell) []byte {
		b, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	tamperedID := legit
	tamperedID.ID = "0123456789abcdef"
	unknownSched := legit
	unknownSched.Scheduler = "nosuch"
	big := fmt.Sprintf(`{"experiment":"forged","id":"big","scheduler":"fcfs","params":[],"pad":%q}`, strings.Repeat("x", 2<<20))
	forgedCells := []struct {
		name, id string
		data     []byte
		reason   string // in the worker's log line
	}{
		{"absolute path", legit.ID, encode(legit.WithParam("workload.trace", "/etc/passwd")), `workload.trace "/etc/passwd": an absolute path`},
		{"dot-dot", legit.ID, encode(legit.WithParam("workload.trace", "../"+filepath.Base(outside)+"/secret.swf")), "leaves the data root"},
		{"symlink escape", legit.ID, encode(legit.WithParam("workload.trace", "escape.swf")), "symbolic links may not lead out of it"},
		{"unknown scheduler", legit.ID, encode(unknownSched), `unknown scheduler "nosuch"`},
		{"out-of-range parameter", legit.ID, encode(legit.WithParam("workload.load", -0.5)), "load must be > 0"},
		{"tampered id", tamperedID.ID, encode(tamperedID), "id 0123456789abcdef does not belong to these parameters"},
		{"malformed json", "badjson", []byte(`{"experiment":"forged","id":`), "cell message does not decode"},
		{"oversized", "big", []byte(big), "bytes; accepted: at most 1048576"},
	}
	for i, f := range forgedCells {
		if _, err := js.Publish(ctx, broker.CellSubject("forged", f.id), f.data, jetstream.WithMsgID(fmt.Sprintf("forged-%d", i))); err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
	}
	zeros := strings.Repeat("0", 64)
	forgedResults := []struct {
		name, id, data, reason string
	}{
		{"unknown cell", "ffffffffffffffff", `{"cell_id":"ffffffffffffffff","status":"ok","cell_digest":"` + zeros + `"}`, "not in experiment forged"},
		{"infinite metric", cells[1].ID, `{"cell_id":"` + cells[1].ID + `","status":"ok","metrics":[{"name":"wait_mean","value":1e999}],"cell_digest":"` + zeros + `"}`, "does not decode"},
		{"NaN metric", cells[1].ID, `{"cell_id":"` + cells[1].ID + `","status":"ok","metrics":[{"name":"wait_mean","value":NaN}],"cell_digest":"` + zeros + `"}`, "does not decode"},
		{"malformed bytes", cells[2].ID, "\xff\xfe{garbage", "not UTF-8"},
		{"oversized", cells[2].ID, `{"cell_id":"` + cells[2].ID + `","status":"failed","error":"` + strings.Repeat("e", 100<<10) + `"}`, "bytes; accepted: at most 65536"},
		{"wrong digest", cells[3].ID, `{"cell_id":"` + cells[3].ID + `","status":"ok","metrics":[{"name":"wait_mean","value":1}],"cell_digest":"` + zeros + `"}`, "this coordinator did not publish"},
	}
	for _, f := range forgedResults {
		if _, err := js.Publish(ctx, broker.ResultSubject("forged", f.id), []byte(f.data)); err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
	}

	var mu sync.Mutex
	ran := map[string]int{} // runs per cell id
	runCell := worker.RunnerFunc(func(ctx context.Context, c runner.Cell) runner.CellResult {
		mu.Lock()
		ran[c.ID]++
		mu.Unlock()
		res, err := runner.New(families.Builtin()).RunCell(ctx, c)
		if err != nil {
			res.Status, res.Error = runner.StatusFailed, err.Error()
		}
		return res
	})
	var wlog, clog logLines
	wctx, stop := context.WithCancel(ctx)
	wdone := make(chan error, 1)
	go func() {
		wdone <- worker.Run(wctx, js, worker.Config{ID: "w", Slots: 1, Runner: runCell, DataRoot: root, Logf: wlog.logf, Catalog: experiments.NewCatalog(families.Builtin())})
	}()
	defer func() {
		stop()
		if err := <-wdone; err != nil {
			t.Error(err)
		}
	}()
	out := &forgedSink{writes: map[string]int{}, results: map[string]runner.CellResult{}}
	rctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	sum, err := coordinator.Run(rctx, js, coordinator.Config{Experiment: "forged", Cells: cells, Sink: out,
		DataRoot: root, MaxResultBytes: 64 << 10, Logf: clog.logf})
	if err != nil {
		t.Fatalf("coordinator: %v\nworker log:\n%s\ncoordinator log:\n%s", err, wlog.text(), clog.text())
	}

	for _, c := range cells {
		if n := out.writes[c.ID]; n != 1 || out.results[c.ID].Status != runner.StatusOK {
			t.Errorf("cell %s written %d times, status %q (%s); want once, ok", c.ID, n, out.results[c.ID].Status, out.results[c.ID].Error)
		}
	}
	if len(out.writes) != len(cells) || sum.OK != len(cells) || sum.Failed != 0 {
		t.Errorf("%d cells written, summary %d ok %d failed; want %d ok", len(out.writes), sum.OK, sum.Failed, len(cells))
	}
	// Every forged cell either has an id of its own or borrows cells[0]'s:
	// each real cell ran once, and nothing else ran.
	mu.Lock()
	for _, c := range cells {
		if ran[c.ID] != 1 {
			t.Errorf("cell %s ran %d times; want once (a forged cell with its id ran)", c.ID, ran[c.ID])
		}
		delete(ran, c.ID)
	}
	for id, n := range ran {
		t.Errorf("the runCell ran %s (%d times), which is not a real cell", id, n)
	}
	mu.Unlock()
	wl := wlog.text()
	for _, f := range forgedCells {
		if !strings.Contains(wl, "refused the cell message on "+broker.CellSubject("forged", f.id)) || !strings.Contains(wl, f.reason) {
			t.Errorf("forged cell %q: the worker's log does not state %q:\n%s", f.name, f.reason, wl)
		}
	}
	reasons := ""
	for _, r := range sum.Rejections {
		reasons += r.Subject + ": " + r.Reason + "\n"
	}
	for _, f := range forgedResults {
		if !strings.Contains(reasons, broker.ResultSubject("forged", f.id)+": ") || !strings.Contains(reasons, f.reason) {
			t.Errorf("forged result %q: no rejection states %q:\n%s", f.name, f.reason, reasons)
		}
	}
	if want := len(forgedCells) + len(forgedResults); sum.Rejected != want {
		t.Errorf("%d messages rejected; want %d (each forged cell's refusal and each forged result):\n%s", sum.Rejected, want, reasons)
	}
	t.Logf("rejections:\n%s", reasons)
}

// writeSWF writes a small valid SWF trace for 16 processors.
func writeSWF(t *testing.T, path string) {
	t.Helper()
	var b strings.Builder
	b.WriteString("; Version: 2.2\n; MaxProcs: 16\n")
	for i := 1; i <= 60; i++ {
		run, procs := 50+(i*37)%400, 1+(i*7)%8
		fmt.Fprintf(&b, "%d %d -1 %d %d -1 -1 %d %d -1 1 1 1 1 1 -1 -1 -1\n", i, i*30, run, procs, procs, run*2)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}
