package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/schedfarm/schedfarm/broker"
	"github.com/schedfarm/schedfarm/results"
	"github.com/schedfarm/schedfarm/runner"
)

// The fault tests run the real schedfarm binary, built once by TestMain
// with the schedfarm_faults tag (see farm_faults_on.go), as separate
// processes against an in-test NATS server, and run real cells: the spec
// below simulates a generated 300-job SWF trace with FCFS and EASY.

var (
	farmBin    string // path of the test binary; "" in -short mode
	farmBinErr error
)

func TestMain(m *testing.M) {
	flag.Parse()
	if testing.Short() {
		os.Exit(m.Run())
	}
	dir, err := os.MkdirTemp("", "schedfarm-test-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	farmBin = filepath.Join(dir, "schedfarm")
	build := exec.Command("go", "build", "-tags", "schedfarm_faults", "-o", farmBin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		farmBinErr = fmt.Errorf("go build -tags schedfarm_faults: %v\n%s", err, out)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// farmFixture is a spec with its trace in a temporary directory and,
// optionally, an in-test NATS server.
type farmFixture struct {
	dir  string
	spec string
	srv  *broker.Server
	js   jetstream.JetStream
}

const farmSpecText = `name: farmtest
platform:
  procs: 16
workload:
  trace: trace.swf
schedulers:
  - fcfs
  - easy
axes:
  - param: workload.load
    values: [0.5, 0.7, 0.9]
replications: 2
seed: 7
output: out.parquet
`

const farmCells = 12 // 3 loads × 2 schedulers × 2 replications

func newFarmFixture(t *testing.T, withServer bool) *farmFixture {
	t.Helper()
	if testing.Short() {
		t.Skip("process-level farm test; skipped with -short")
	}
	if farmBinErr != nil {
		t.Fatal(farmBinErr)
	}
	f := &farmFixture{dir: t.TempDir()}
	writeFarmTrace(t, filepath.Join(f.dir, "trace.swf"))
	f.spec = f.writeSpec(t, "spec.yaml", farmSpecText)
	if withServer {
		srv, err := broker.Start(broker.Options{Host: "127.0.0.1", Port: -1, StoreDir: filepath.Join(f.dir, "nats")})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(srv.Shutdown)
		f.srv = srv
		nc, err := srv.Connect("test")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(nc.Close)
		if f.js, err = jetstream.New(nc); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

func (f *farmFixture) writeSpec(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(f.dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// writeFarmTrace writes a deterministic 300-job SWF trace for 16 processors.
func writeFarmTrace(t *testing.T, path string) {
	t.Helper()
	var b strings.Builder
	b.WriteString("; Version: 2.2\n; MaxProcs: 16\n")
	for i := 1; i <= 300; i++ {
		run, procs := 50+(i*37)%400, 1+(i*7)%8
		fmt.Fprintf(&b, "%d %d -1 %d %d -1 -1 %d %d -1 1 1 1 1 1 -1 -1 -1\n", i, i*30, run, procs, procs, run*2)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// farmProc is a running schedfarm subprocess.
type farmProc struct {
	cmd  *exec.Cmd
	out  *syncBuffer
	done chan struct{}
	err  error
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// start runs the test binary in dir with args and extra environment; the
// process is killed when the test ends.
func (f *farmFixture) start(t *testing.T, env []string, args ...string) *farmProc {
	t.Helper()
	cmd := exec.Command(farmBin, args...)
	cmd.Dir = f.dir
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "SCHEDFARM_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, env...)
	return launch(t, cmd, strings.Join(args, " "))
}

// launch starts cmd with its output captured; the process is killed when the
// test ends, and its output (labelled what) is logged if the test failed.
func launch(t *testing.T, cmd *exec.Cmd, what string) *farmProc {
	t.Helper()
	p := &farmProc{cmd: cmd, out: &syncBuffer{}, done: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = p.out, p.out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.err = cmd.Wait(); close(p.done) }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-p.done
		if t.Failed() {
			t.Logf("output of schedfarm %s:\n%s", what, p.out.String())
		}
	})
	return p
}

// wait waits for the process to exit and returns its exit code.
func (p *farmProc) wait(t *testing.T, d time.Duration) int {
	t.Helper()
	select {
	case <-p.done:
	case <-time.After(d):
		_ = p.cmd.Process.Kill()
		<-p.done
		t.Fatalf("schedfarm %s still running after %v; output:\n%s", strings.Join(p.cmd.Args[1:], " "), d, p.out.String())
	}
	return p.cmd.ProcessState.ExitCode()
}

// openGate creates the file that cells held by SCHEDFARM_FAULT_GATE wait
// for.
func openGate(t *testing.T, path string) {
	t.Helper()
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
}

// poll waits until cond holds, failing the test after d.
func poll(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", d, what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// expectedCells returns the spec's cells by id.
func (f *farmFixture) expectedCells(t *testing.T) map[string]runner.Cell {
	t.Helper()
	spec, err := farmLoadSpec(f.spec)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]runner.Cell{}
	for _, c := range spec.Cells() {
		m[c.ID] = c
	}
	if len(m) != farmCells {
		t.Fatalf("spec expands to %d cells; the tests assume %d", len(m), farmCells)
	}
	return m
}

// readExactlyOnce reads the Parquet output in dir and checks that it has
// every cell of the spec exactly once; it returns the records by cell id.
func (f *farmFixture) readExactlyOnce(t *testing.T, dir string) map[string]*results.Record {
	t.Helper()
	recs, err := results.ReadFile(filepath.Join(dir, "out.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	want := f.expectedCells(t)
	got := map[string]*results.Record{}
	for _, r := range recs {
		if got[r.Cell.ID] != nil {
			t.Errorf("cell %s appears more than once in the output", r.Cell.ID)
		}
		got[r.Cell.ID] = r
		if _, ok := want[r.Cell.ID]; !ok {
			t.Errorf("output has cell %s, which is not in the spec", r.Cell.ID)
		}
	}
	for id := range want {
		if got[id] == nil {
			t.Errorf("cell %s missing from the output", id)
		}
	}
	if len(recs) != farmCells {
		t.Errorf("output has %d rows; want %d", len(recs), farmCells)
	}
	return got
}

func (f *farmFixture) natsArgs(sub string, extra ...string) []string {
	return append([]string{sub, "--nats", f.srv.ClientURL()}, extra...)
}

func (f *farmFixture) streamMsgs(t *testing.T, name string) uint64 {
	t.Helper()
	return streamMsgs(t, f.js, name)
}

// streamMsgs is the number of messages in a stream.
func streamMsgs(t *testing.T, js jetstream.JetStream, name string) uint64 {
	t.Helper()
	st, err := js.Stream(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	info, err := st.Info(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return info.State.Msgs
}

func checkAllOK(t *testing.T, recs map[string]*results.Record) {
	t.Helper()
	for id, r := range recs {
		if r.Result.Status != runner.StatusOK {
			t.Errorf("cell %s: status %s, error %q; want ok", id, r.Result.Status, r.Result.Error)
		}
	}
}

// kill -9 of a worker process in the middle of a cell: the cell is
// redelivered and completed by another worker; every cell exactly once.
func TestFarmWorkerKilledMidCell(t *testing.T) {
	f := newFarmFixture(t, true)
	hold := filepath.Join(f.dir, "hold")
	if err := os.Mkdir(hold, 0o755); err != nil {
		t.Fatal(err)
	}
	coord := f.start(t, nil, f.natsArgs("coordinator", "--ack-wait", "1s", "--progress-every", "1s", f.spec)...)
	victim := f.start(t, []string{"SCHEDFARM_FAULT_HOLD=" + hold}, f.natsArgs("worker", "--slots", "1", "--id", "victim")...)
	heldID := waitMarker(t, hold, time.Minute)
	if err := victim.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	victim.wait(t, 30*time.Second)
	rescuer := f.start(t, nil, f.natsArgs("worker", "--slots", "2", "--id", "rescuer")...)
	if code := coord.wait(t, 2*time.Minute); code != 0 {
		t.Fatalf("coordinator exit code %d; want 0; output:\n%s", code, coord.out.String())
	}
	// SIGTERM stops an idle worker with exit code 0.
	if err := rescuer.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code := rescuer.wait(t, 30*time.Second); code != 0 {
		t.Errorf("worker exit code %d after SIGTERM; want 0", code)
	}
	recs := f.readExactlyOnce(t, f.dir)
	checkAllOK(t, recs)
	if r := recs[heldID]; r == nil || !strings.HasPrefix(r.Result.Worker, "rescuer/") {
		t.Errorf("held cell %s: %+v; want it completed by the rescuer", heldID, r)
	}
	if n := f.streamMsgs(t, broker.CellsStream); n != 0 {
		t.Errorf("%d cells left in the work queue; want 0", n)
	}
}

// kill -9 of the coordinator mid-sweep: results published meanwhile wait in
// the results stream; the rerun finishes with every cell exactly once.
func TestFarmCoordinatorKilledAndRerun(t *testing.T) {
	f := newFarmFixture(t, true)
	// Cells 4 and on wait for the gate, which opens after the kill: the
	// sweep cannot end before it, however busy the machine.
	gate := filepath.Join(f.dir, "gate")
	f.start(t, []string{"SCHEDFARM_FAULT_GATE=" + gate, "SCHEDFARM_FAULT_GATE_FROM=4"}, f.natsArgs("worker", "--slots", "1", "--id", "w")...)
	coord := f.start(t, nil, f.natsArgs("coordinator", f.spec)...)
	journal := results.JournalPath(filepath.Join(f.dir, "out.parquet"))
	poll(t, time.Minute, "3 results in the journal", func() bool {
		b, _ := os.ReadFile(journal)
		return bytes.Count(b, []byte("\n")) >= 3
	})
	if err := coord.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	coord.wait(t, 30*time.Second)
	openGate(t, gate)
	poll(t, time.Minute, "results queued while no coordinator runs", func() bool {
		return f.streamMsgs(t, broker.ResultsStream) >= 2
	})
	rerun := f.start(t, nil, f.natsArgs("coordinator", f.spec)...)
	if code := rerun.wait(t, 2*time.Minute); code != 0 {
		t.Fatalf("rerun exit code %d; want 0", code)
	}
	if !regexp.MustCompile(`farmtest: 12 cells, ([3-9]|1[0-2]) done before`).MatchString(rerun.out.String()) {
		t.Errorf("rerun summary does not report ≥3 cells done before:\n%s", rerun.out.String())
	}
	checkAllOK(t, f.readExactlyOnce(t, f.dir))
	if n := f.streamMsgs(t, broker.ResultsStream); n != 0 {
		t.Errorf("%d results left unacked; want 0", n)
	}
}

// A cell whose simulation panics is reported as failed with the panic text;
// the others complete (in-process workers of `schedfarm run`).
func TestFarmPanickingCellRecordedFailed(t *testing.T) {
	f := newFarmFixture(t, false)
	run := f.start(t, []string{"SCHEDFARM_FAULT_PANIC=4"}, "run", "--workers", "2", f.spec)
	if code := run.wait(t, 2*time.Minute); code != exitCellsFailed {
		t.Fatalf("run exit code %d; want %d (every cell has its result, one failed)", code, exitCellsFailed)
	}
	if out := run.out.String(); !strings.Contains(out, "11 ok, 1 failed") || !strings.Contains(out, "1 cells failed, 1 distinct messages:\n  1 × panic: injected fault: cell 4") ||
		!strings.Contains(out, "1 of 12 cells failed (exit status 3)") {
		t.Errorf("summary does not report the failed cell by message:\n%s", out)
	}
	recs := f.readExactlyOnce(t, f.dir)
	for _, r := range recs {
		if r.Cell.Index == 4 {
			if r.Result.Status != runner.StatusFailed || !strings.Contains(r.Result.Error, "panic: injected fault: cell 4") ||
				!strings.Contains(r.Result.Error, "farm_faults_on.go") {
				t.Errorf("panicking cell: status %s, error %q; want failed with the panic and its stack head", r.Result.Status, r.Result.Error)
			}
		} else if r.Result.Status != runner.StatusOK {
			t.Errorf("cell %d: status %s (%s); want ok", r.Cell.Index, r.Result.Status, r.Result.Error)
		}
	}
	// The embedded server's store was .schedfarm/out.parquet/ beside the
	// output; the sweep being whole, it is emptied.
	if _, err := os.Stat(filepath.Join(f.dir, ".schedfarm", "out.parquet", "owner.lock")); err != nil {
		t.Errorf("embedded server state directory: %v; want .schedfarm/out.parquet/ beside the output", err)
	}
	if _, err := os.Stat(filepath.Join(f.dir, ".schedfarm", "out.parquet", "jetstream")); err == nil {
		t.Errorf("the embedded server's store is left after a complete sweep; want it emptied")
	}
}

// The same spec on 1 and on 4 workers gives identical metric columns.
func TestFarmSameMetricsOn1And4Workers(t *testing.T) {
	f := newFarmFixture(t, false)
	dirs := map[int]string{1: filepath.Join(f.dir, "w1"), 4: filepath.Join(f.dir, "w4")}
	got := map[int]map[string]*results.Record{}
	for n, dir := range dirs {
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		p := f.start(t, nil, "run", "--workers", fmt.Sprint(n), "--state", filepath.Join(dir, "state"), "--progress-every", "1s", f.spec)
		if code := p.wait(t, 2*time.Minute); code != 0 {
			t.Fatalf("run --workers %d exit code %d", n, code)
		}
		got[n] = f.readExactlyOnce(t, f.dir)
		checkAllOK(t, got[n])
		if err := os.Rename(filepath.Join(f.dir, "out.parquet"), filepath.Join(dir, "out.parquet")); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(results.JournalPath(filepath.Join(f.dir, "out.parquet")), results.JournalPath(filepath.Join(dir, "out.parquet"))); err != nil {
			t.Fatal(err)
		}
	}
	for id, r1 := range got[1] {
		r4 := got[4][id]
		if len(r1.Result.Metrics) == 0 {
			t.Errorf("cell %s has no metrics", id)
		}
		if fmt.Sprint(r1.Result.Metrics) != fmt.Sprint(r4.Result.Metrics) {
			t.Errorf("cell %s: metrics differ between 1 and 4 workers:\n1: %v\n4: %v", id, r1.Result.Metrics, r4.Result.Metrics)
		}
	}
}

// Malformed specs are rejected with precise errors before anything is
// published.
func TestFarmMalformedSpecsPublishNothing(t *testing.T) {
	f := newFarmFixture(t, true)
	if err := broker.Ensure(context.Background(), f.js, broker.Topology{}); err != nil {
		t.Fatal(err)
	}
	cases := []struct{ name, from, to, want string }{
		{"unknown scheduler", "  - easy\n", "  - eazy\n", `unknown scheduler "eazy"`},
		{"bad axis", "param: workload.load", "param: workload.bogus", "workload.bogus"},
		{"negative load", "values: [0.5, 0.7, 0.9]", "values: [0.5, -0.7, 0.9]", "axes[0].values[1]"},
		{"unknown field", "replications: 2", "replicatons: 2", "replicatons"},
	}
	for _, c := range cases {
		text := strings.Replace(farmSpecText, c.from, c.to, 1)
		if text == farmSpecText {
			t.Fatalf("%s: the edit did not apply", c.name)
		}
		spec := f.writeSpec(t, "bad.yaml", text)
		p := f.start(t, nil, f.natsArgs("coordinator", spec)...)
		if code := p.wait(t, time.Minute); code != 1 {
			t.Errorf("%s: exit code %d; want 1", c.name, code)
		}
		if out := p.out.String(); !strings.Contains(out, c.want) || !strings.Contains(out, "line ") {
			t.Errorf("%s: error output does not name %q with its line:\n%s", c.name, c.want, out)
		}
	}
	if n := f.streamMsgs(t, broker.CellsStream); n != 0 {
		t.Errorf("%d cells published for malformed specs; want 0", n)
	}
	// `run` rejects it before starting the embedded server.
	p := f.start(t, nil, "run", filepath.Join(f.dir, "bad.yaml"))
	if code := p.wait(t, time.Minute); code != 1 {
		t.Errorf("run on a malformed spec: exit code %d; want 1", code)
	}
	if _, err := os.Stat(filepath.Join(f.dir, ".schedfarm")); err == nil {
		t.Errorf("run on a malformed spec created the embedded server's state directory")
	}
}

// `schedfarm broker` with a token serves a coordinator and workers in other
// processes; a wrong token is refused.
func TestFarmBrokerSubcommandWithToken(t *testing.T) {
	f := newFarmFixture(t, false)
	b := f.start(t, []string{"SCHEDFARM_NATS_TOKEN=s3cret"}, "broker", "--listen", "127.0.0.1:-1", "--store", filepath.Join(f.dir, "store"))
	re := regexp.MustCompile(`listening on 127\.0\.0\.1:\d+ \(clients: (nats://[^)\s]+)\)`)
	var url string
	poll(t, time.Minute, "the broker to listen", func() bool {
		if m := re.FindStringSubmatch(b.out.String()); m != nil {
			url = m[1]
		}
		return url != ""
	})
	bad := f.start(t, nil, "coordinator", "--nats", url, "--token", "wrong", f.spec)
	if code := bad.wait(t, time.Minute); code != 1 || !strings.Contains(strings.ToLower(bad.out.String()), "authorization") {
		t.Errorf("wrong token: exit code %d, output %q; want 1 and an authorization error", code, bad.out.String())
	}
	f.start(t, []string{"SCHEDFARM_NATS=" + url, "SCHEDFARM_NATS_TOKEN=s3cret"}, "worker", "--slots", "2")
	coord := f.start(t, []string{"SCHEDFARM_NATS_TOKEN=s3cret"}, "coordinator", "--nats", url, f.spec)
	if code := coord.wait(t, 2*time.Minute); code != 0 {
		t.Fatalf("coordinator exit code %d", code)
	}
	checkAllOK(t, f.readExactlyOnce(t, f.dir))
	if err := b.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code := b.wait(t, 30*time.Second); code != 0 {
		t.Errorf("broker exit code %d after SIGTERM; want 0", code)
	}
}

// schedfarm broker --max-payload reaches the server it runs: a client of a
// broker started with --max-payload 65536 is told 65,536 bytes and cannot
// publish a message one byte longer, while a client of a broker started
// without the flag is told broker.DefaultMaxPayload and can. (The flag's
// bounds are TestBrokerMaxPayloadBounds'; the jobs object store that carries
// larger results, the coordinator package's oversized-result tests.)
func TestFarmBrokerSubcommandMaxPayload(t *testing.T) {
	f := newFarmFixture(t, false)
	re := regexp.MustCompile(`listening on 127\.0\.0\.1:\d+ \(clients: (nats://[^)\s]+)\)`)
	for _, c := range []struct {
		flags []string
		want  int64
	}{
		{[]string{"--max-payload", "65536"}, 65536},
		{nil, broker.DefaultMaxPayload},
	} {
		args := append([]string{"broker", "--listen", "127.0.0.1:-1", "--store", t.TempDir()}, c.flags...)
		b := f.start(t, nil, args...)
		var url string
		poll(t, time.Minute, "the broker to listen", func() bool {
			if m := re.FindStringSubmatch(b.out.String()); m != nil {
				url = m[1]
			}
			return url != ""
		})
		nc, err := nats.Connect(url)
		if err != nil {
			t.Fatal(err)
		}
		if got := nc.MaxPayload(); got != c.want {
			t.Errorf("schedfarm broker %v: clients told max_payload %d; want %d", c.flags, got, c.want)
		}
		if err := nc.Publish("probe", make([]byte, 65537)); (err == nil) != (c.want > 65536) {
			t.Errorf("schedfarm broker %v: publishing 65,537 bytes: error %v; want an error only when max_payload is 65536", c.flags, err)
		}
		nc.Close()
		if err := b.cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		if code := b.wait(t, 30*time.Second); code != 0 {
			t.Errorf("schedfarm broker %v: exit code %d after SIGTERM; want 0", c.flags, code)
		}
	}
}
