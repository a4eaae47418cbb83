package coordinator_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/schedfarm/schedfarm/broker"
	"github.com/schedfarm/schedfarm/broker/brokertest"
	"github.com/schedfarm/schedfarm/coordinator"
	"github.com/schedfarm/schedfarm/family"
	"github.com/schedfarm/schedfarm/runner"
	"github.com/schedfarm/schedfarm/worker"
)

// farm is an in-test embedded broker with one client connection.
type farm struct {
	srv *broker.Server
	js  jetstream.JetStream
}

func startFarm(t testing.TB) *farm {
	t.Helper()
	srv, js := brokertest.Start(t)
	return &farm{srv: srv, js: js}
}

// smallPayload is the max_payload of the broker of the oversized-result
// tests (startSmallPayloadFarm), and oversizedRecords the per-job records
// of each of their results: about 480 KB of JSON, past it. With the
// default 8 MiB it took 200,000 records (12 MB), which under the race
// detector cost 26 s a cell on an idle 2-core VM and, on a loaded one, ran
// a two-cell run past its two minutes.
const (
	smallPayload     = 256 << 10
	oversizedRecords = 8_000
)

// startSmallPayloadFarm is startFarm with a broker whose max_payload is
// smallPayload; it fails the test unless a result of oversizedRunner's
// passes that limit (so that only the jobs object store can carry it).
func startSmallPayloadFarm(t testing.TB) *farm {
	t.Helper()
	srv, js := brokertest.StartWith(t, func(o *broker.Options) { o.MaxPayload = smallPayload })
	if got := js.Conn().MaxPayload(); got != smallPayload {
		t.Fatalf("the broker tells clients max_payload %d; want %d", got, smallPayload)
	}
	c := makeCells("size", 1)[0]
	data, err := runner.EncodeResult(oversizedRunner(oversizedRecords)(context.Background(), c))
	if err != nil {
		t.Fatal(err)
	}
	if len(data) <= smallPayload {
		t.Fatalf("a result with %d per-job records is %d bytes, within the broker's max_payload of %d: the test would not need the jobs object store", oversizedRecords, len(data), smallPayload)
	}
	return &farm{srv: srv, js: js}
}

// startWorker runs a worker until the test ends (or stop is called).
func (f *farm) startWorker(t testing.TB, cfg worker.Config) (stop func()) {
	t.Helper()
	if cfg.Gate == nil {
		cfg.Gate = worker.DecodeOnly{} // hand-made cells: no spec made them
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- worker.Run(ctx, f.js, cfg) }()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("worker %s: %v", cfg.ID, err)
			}
		})
	}
	t.Cleanup(stop)
	return stop
}

func makeCells(exp string, n int) []runner.Cell {
	cells := make([]runner.Cell, n)
	for i := range cells {
		cells[i] = runner.Cell{Experiment: exp, ID: fmt.Sprintf("c%04d", i), Index: i, Scheduler: "fcfs",
			Params: []runner.Param{{Name: "workload.load", Value: 0.5 + float64(i)/100}}, Seed: uint64(i)}
	}
	return cells
}

// memSink records results and counts writes per cell.
type memSink struct {
	mu      sync.Mutex
	writes  map[string]int
	results map[string]runner.CellResult
	flushes int
}

func newMemSink() *memSink {
	return &memSink{writes: map[string]int{}, results: map[string]runner.CellResult{}}
}

func (s *memSink) Write(c runner.Cell, r runner.CellResult) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.writes[c.ID]++
	s.results[c.ID] = r
	return nil
}

func (s *memSink) Flush() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.flushes++
	return nil
}

func (s *memSink) done() map[string]bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := map[string]bool{}
	for id := range s.writes {
		d[id] = true
	}
	return d
}

func (s *memSink) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.writes)
}

// checkExactlyOnce fails unless every cell was written exactly once.
func (s *memSink) checkExactlyOnce(t *testing.T, cells []runner.Cell) {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range cells {
		if n := s.writes[c.ID]; n != 1 {
			t.Errorf("cell %s written %d times; want exactly once", c.ID, n)
		}
	}
	if len(s.writes) != len(cells) {
		t.Errorf("%d cells written; want %d", len(s.writes), len(cells))
	}
}

// okRunner returns one metric derived from the cell's seed.
func okRunner(_ context.Context, c runner.Cell) runner.CellResult {
	return runner.CellResult{Status: runner.StatusOK, Metrics: []family.Metric{{Name: "seed", Value: float64(c.Seed)}}}
}

func runCoordinator(t *testing.T, ctx context.Context, f *farm, cfg coordinator.Config) coordinator.Summary {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	sum, err := coordinator.Run(ctx, f.js, cfg)
	if err != nil {
		t.Fatalf("coordinator: %v", err)
	}
	return sum
}

// runResult is what a coordinator run returned.
type runResult struct {
	sum coordinator.Summary
	err error
}

// startRun runs a coordinator over js in the background; its result comes
// on the channel returned.
func startRun(ctx context.Context, js jetstream.JetStream, cfg coordinator.Config) <-chan runResult {
	done := make(chan runResult, 1)
	go func() {
		sum, err := coordinator.Run(ctx, js, cfg)
		done <- runResult{sum, err}
	}()
	return done
}

// ownConnection connects to f's server on a connection of its own, as a
// coordinator process has: closing it after the coordinator stops drops
// its last pull request, which an open connection would keep, taking
// results it never reads.
func (f *farm) ownConnection(t testing.TB, name string) (jetstream.JetStream, func()) {
	t.Helper()
	nc, err := f.srv.Connect(name)
	if err != nil {
		t.Fatal(err)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	return js, nc.Close
}

// waitFor polls cond until it holds or the deadline passes.
func waitFor(t testing.TB, d time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", d, what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// waitPullsDropped waits until the server has dropped every pull request
// on experiment's results consumer, after the connection of the
// coordinator that made them was closed. Until the server has processed
// that close, a request of the stopped coordinator can still take a
// result, which then comes back only after the consumer's ack wait (30 s):
// a test that has cells finish while no coordinator runs waits here before
// letting them finish. (A consumer's info drops the requests nobody
// listens to any more before it counts them.)
func waitPullsDropped(t testing.TB, f *farm, experiment string) {
	t.Helper()
	waitFor(t, time.Minute, "the stopped coordinator's pull requests to be dropped", func() bool {
		cons, err := f.js.Consumer(context.Background(), broker.ResultsStream, broker.CoordinatorConsumer(experiment))
		if err != nil {
			t.Fatal(err)
		}
		info, err := cons.Info(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return info.NumWaiting == 0
	})
}

func streamMsgs(t testing.TB, f *farm, name string) uint64 {
	t.Helper()
	st, err := f.js.Stream(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	info, err := st.Info(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return info.State.Msgs
}

func TestSweepEveryCellExactlyOnce(t *testing.T) {
	f := startFarm(t)
	f.startWorker(t, worker.Config{ID: "w1", Slots: 2, Runner: worker.RunnerFunc(okRunner)})
	f.startWorker(t, worker.Config{ID: "w2", Slots: 2, Runner: worker.RunnerFunc(okRunner)})
	cells := makeCells("sweep", 40)
	sink := newMemSink()
	sum := runCoordinator(t, context.Background(), f, coordinator.Config{Experiment: "sweep", Cells: cells, Sink: sink})
	sink.checkExactlyOnce(t, cells)
	if sum.OK != 40 || sum.Failed != 0 || sum.Published != 40 {
		t.Errorf("summary %+v; want 40 published, 40 ok", sum)
	}
	for _, c := range cells {
		r := sink.results[c.ID]
		if r.Status != runner.StatusOK || r.Metrics[0].Value != float64(c.Seed) || r.Worker == "" || r.GoVersion == "" {
			t.Errorf("cell %s: result %+v", c.ID, r)
		}
	}
	if n := streamMsgs(t, f, broker.CellsStream); n != 0 {
		t.Errorf("%d messages left in the cells stream; want 0", n)
	}
	if n := streamMsgs(t, f, broker.ResultsStream); n != 0 {
		t.Errorf("%d messages left in the results stream; want 0 (all acked)", n)
	}
	// Running again with everything done publishes nothing.
	sum = runCoordinator(t, context.Background(), f, coordinator.Config{Experiment: "sweep", Cells: cells, Sink: newMemSink(), Done: sink.done()})
	if sum.Skipped != 40 || sum.Published != 0 {
		t.Errorf("rerun summary %+v; want 40 skipped, 0 published", sum)
	}
}

func TestPanickingCellFailsOthersComplete(t *testing.T) {
	f := startFarm(t)
	runCell := func(ctx context.Context, c runner.Cell) runner.CellResult {
		if c.Index == 3 {
			var m map[string]int
			//lint:ignore SA5000 the point: a real runtime panic (assignment to entry in nil map)
			m["boom"]++
		}
		if c.Index == 5 {
			return runner.CellResult{Status: runner.StatusFailed, Error: "simulation: bad platform"}
		}
		return okRunner(ctx, c)
	}
	f.startWorker(t, worker.Config{ID: "w", Slots: 1, Runner: worker.RunnerFunc(runCell)})
	cells := makeCells("panic", 10)
	sink := newMemSink()
	sum := runCoordinator(t, context.Background(), f, coordinator.Config{Experiment: "panic", Cells: cells, Sink: sink})
	sink.checkExactlyOnce(t, cells)
	if sum.OK != 8 || sum.Failed != 2 || len(sum.Failures) != 2 {
		t.Fatalf("summary %+v; want 8 ok, 2 failed", sum)
	}
	r := sink.results["c0003"]
	if r.Status != runner.StatusFailed || !strings.Contains(r.Error, "panic: assignment to entry in nil map") || !strings.Contains(r.Error, "farm_test.go") {
		t.Errorf("panicking cell: status %q, error %q; want failed with the panic text and the stack head", r.Status, r.Error)
	}
	if r := sink.results["c0005"]; r.Error != "simulation: bad platform" {
		t.Errorf("failing cell: error %q", r.Error)
	}
}

// A cell whose every delivery is lost (its worker dies each time) is
// recorded as failed once MaxDeliver is exhausted, and removed from the queue.
func TestMaxDeliverExhaustedIsRecordedFailed(t *testing.T) {
	f := startFarm(t)
	topo := broker.Topology{AckWait: 300 * time.Millisecond, MaxDeliver: 2}
	cells := makeCells("exhaust", 5)
	sink := newMemSink()
	// A hand-made "worker" that completes every cell except c0002, whose
	// deliveries it takes and drops as a crashed worker would.
	done := handMadeWorker(t, f, topo, func() bool { return sink.count() == len(cells) }, func(msg jetstream.Msg) {
		id := msg.Subject()[len(msg.Subject())-5:]
		if id == "c0002" {
			return
		}
		data := fmt.Sprintf(`{"cell_id":%q,"status":"ok","cell_digest":%q}`, id, worker.Digest(msg.Data()))
		if _, err := f.js.Publish(context.Background(), broker.ResultSubject("exhaust", id), []byte(data)); err != nil {
			t.Error(err)
		}
		_ = msg.Ack()
	})
	sum := runCoordinator(t, context.Background(), f, coordinator.Config{Experiment: "exhaust", Cells: cells, Sink: sink, Topology: topo})
	<-done
	sink.checkExactlyOnce(t, cells)
	r := sink.results["c0002"]
	if sum.Failed != 1 || r.Status != runner.StatusFailed || !strings.Contains(r.Error, "no result after 2 deliveries") {
		t.Errorf("summary %+v, c0002 %+v; want c0002 failed after 2 deliveries", sum, r)
	}
	if n := streamMsgs(t, f, broker.CellsStream); n != 0 {
		t.Errorf("%d messages left in the cells stream; want 0 (the exhausted cell deleted)", n)
	}
}

// handMadeWorker takes the workers consumer's messages (topo's), one a
// request, and hands each to handle until done reports true, in the
// background, as a worker process would; the channel closes when it stops.
func handMadeWorker(t *testing.T, f *farm, topo broker.Topology, done func() bool, handle func(jetstream.Msg)) <-chan struct{} {
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		cons, err := broker.EnsureExists(context.Background(), f.js, topo)
		if err != nil {
			t.Error(err)
			return
		}
		for !done() {
			batch, err := cons.Fetch(1, jetstream.FetchMaxWait(200*time.Millisecond))
			if err != nil {
				continue
			}
			for msg := range batch.Messages() {
				handle(msg)
			}
		}
	}()
	return stopped
}

// A coordinator stopped mid-sweep and started again finishes the sweep with
// every cell exactly once; results published while it was down are kept.
func TestCoordinatorRestartResumes(t *testing.T) {
	f := startFarm(t)
	gate := make(chan struct{})
	var once sync.Once
	runCell := func(ctx context.Context, c runner.Cell) runner.CellResult {
		if c.Index >= 10 {
			<-gate
		}
		return okRunner(ctx, c)
	}
	f.startWorker(t, worker.Config{ID: "w", Slots: 2, Runner: worker.RunnerFunc(runCell)})
	defer once.Do(func() { close(gate) })
	cells := makeCells("restart", 30)
	sink := newMemSink()
	// The first coordinator has a connection of its own, closed when it
	// stops, as a stopped coordinator process's is.
	js1, closeConn := f.ownConnection(t, "first coordinator")
	ctx, cancel := context.WithCancel(context.Background())
	first := startRun(ctx, js1, coordinator.Config{Experiment: "restart", Cells: cells, Sink: sink, FlushEvery: 1})
	waitFor(t, time.Minute, "10 results", func() bool { return sink.count() >= 10 })
	cancel()
	if r := <-first; !errors.Is(r.err, context.Canceled) {
		t.Fatalf("interrupted coordinator returned %v; want context.Canceled", r.err)
	}
	closeConn()
	waitPullsDropped(t, f, "restart")
	// Cells finish while no coordinator runs: their results must wait.
	once.Do(func() { close(gate) })
	waitFor(t, time.Minute, "results queued while the coordinator is down", func() bool {
		return streamMsgs(t, f, broker.ResultsStream) >= 5
	})
	waiting := int(streamMsgs(t, f, broker.ResultsStream))
	sum := runCoordinator(t, context.Background(), f, coordinator.Config{Experiment: "restart", Cells: cells, Sink: sink, Done: sink.done()})
	sink.checkExactlyOnce(t, cells)
	if sum.Skipped < 10 || sum.Skipped+sum.OK != 30 {
		t.Errorf("rerun summary %+v; want ≥10 skipped and the rest ok", sum)
	}
	// The results that waited are read before anything is published: their
	// cells are not published again (after a broker restart, which forgets
	// consumed cells' message ids, a worker would run them twice).
	if sum.Waiting == 0 || sum.Published != 30-sum.Skipped-sum.Waiting {
		t.Errorf("rerun summary %+v; want the waiting results (%d in the stream) read first and only the other cells published", sum, waiting)
	}
}

// When the output was lost, rerunning the same spec (within the dedupe
// window, so every publication is a duplicate) runs everything again instead
// of waiting forever.
func TestRerunAfterOutputLostRepublishes(t *testing.T) {
	f := startFarm(t)
	f.startWorker(t, worker.Config{ID: "w", Slots: 2, Runner: worker.RunnerFunc(okRunner)})
	cells := makeCells("lost", 12)
	runCoordinator(t, context.Background(), f, coordinator.Config{Experiment: "lost", Cells: cells, Sink: newMemSink()})
	sink := newMemSink()
	runCoordinator(t, context.Background(), f, coordinator.Config{Experiment: "lost", Cells: cells, Sink: sink})
	sink.checkExactlyOnce(t, cells)
}

// A stopping worker lets its running cell finish within the grace period.
func TestWorkerDrainsRunningCell(t *testing.T) {
	f := startFarm(t)
	started := make(chan struct{}, 1)
	release := make(chan struct{})
	runCell := func(ctx context.Context, c runner.Cell) runner.CellResult {
		started <- struct{}{}
		<-release
		return okRunner(ctx, c)
	}
	stop := f.startWorker(t, worker.Config{ID: "drainer", Runner: worker.RunnerFunc(runCell), Grace: time.Minute})
	cells := makeCells("drain", 1)
	sink := newMemSink()
	errc := make(chan error, 1)
	go func() {
		_, err := coordinator.Run(context.Background(), f.js, coordinator.Config{Experiment: "drain", Cells: cells, Sink: sink})
		errc <- err
	}()
	<-started
	stopped := make(chan struct{})
	go func() { stop(); close(stopped) }()
	close(release)
	<-stopped
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	if r := sink.results["c0000"]; r.Worker != "drainer/0" || r.Status != runner.StatusOK {
		t.Errorf("result %+v; want ok from drainer/0", r)
	}
}

// A stopping worker naks a cell that outlives the grace period; another
// worker then runs it.
func TestWorkerNaksCellPastGrace(t *testing.T) {
	f := startFarm(t)
	started := make(chan struct{}, 1)
	stuck := func(ctx context.Context, c runner.Cell) runner.CellResult {
		started <- struct{}{}
		<-ctx.Done()
		return runner.CellResult{Status: runner.StatusFailed, Error: ctx.Err().Error()}
	}
	stop := f.startWorker(t, worker.Config{ID: "slow", Runner: worker.RunnerFunc(stuck), Grace: 50 * time.Millisecond})
	cells := makeCells("nak", 1)
	sink := newMemSink()
	errc := make(chan error, 1)
	go func() {
		_, err := coordinator.Run(context.Background(), f.js, coordinator.Config{Experiment: "nak", Cells: cells, Sink: sink})
		errc <- err
	}()
	<-started
	stop()
	f.startWorker(t, worker.Config{ID: "fast", Runner: worker.RunnerFunc(okRunner)})
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	if r := sink.results["c0000"]; r.Worker != "fast/0" || r.Status != runner.StatusOK {
		t.Errorf("result %+v; want ok from fast/0", r)
	}
}

// A cell that runs longer than the ack wait is kept alive by the worker's
// in-progress heartbeats: it is not redelivered and runs once.
//
// The worker's default heartbeat is a third of the ack wait, so a correct
// worker leaves two thirds of it as the margin for a heartbeat to be sent
// and handled: with the 300 ms ack wait this test once used, a 200 ms
// stall of the worker's or the broker's goroutines (a loaded machine, a
// CPU-throttled container) would redeliver the cell and fail the test. The
// ack wait is 3 s (a 2 s margin, as in the worker package's
// TestCellsWaitingInASlotAreKeptInProgress), and the cell runs for two and
// a half ack waits: at least that on any machine, so a worker without
// heartbeats has its cell redelivered to the idle worker, which runs it.
func TestHeartbeatsKeepLongCellFromRedelivery(t *testing.T) {
	f := startFarm(t)
	const ackWait = 3 * time.Second
	topo := broker.Topology{AckWait: ackWait, MaxDeliver: 5}
	var mu sync.Mutex
	runs := map[string]int{}
	slow := func(ctx context.Context, c runner.Cell) runner.CellResult {
		mu.Lock()
		runs[c.ID]++
		mu.Unlock()
		select {
		case <-ctx.Done():
		case <-time.After(ackWait * 5 / 2):
		}
		return okRunner(ctx, c)
	}
	// Two workers: a redelivered cell would be picked up by the idle one.
	f.startWorker(t, worker.Config{ID: "a", Runner: worker.RunnerFunc(slow), Topology: topo})
	f.startWorker(t, worker.Config{ID: "b", Runner: worker.RunnerFunc(slow), Topology: topo})
	cells := makeCells("long", 1)
	sink := newMemSink()
	runCoordinator(t, context.Background(), f, coordinator.Config{Experiment: "long", Cells: cells, Sink: sink, Topology: topo})
	sink.checkExactlyOnce(t, cells)
	mu.Lock()
	defer mu.Unlock()
	if runs["c0000"] != 1 {
		t.Errorf("long cell ran %d times; want 1 (heartbeats should prevent redelivery)", runs["c0000"])
	}
}

// Per-job records too large for one message (oversizedRecords against the
// broker's max_payload, smallPayload) travel through the jobs
// object store: the sink gets every record in order, and the object is
// deleted once the result is durable. The deletions' bounds (a minute
// each, 30 s for those still queued when the run ends, after which they
// are left to the bucket's TTL) are raised to 5 minutes: under the race
// detector beside busy loops a run once ended with its deletions given
// up, and the objects stayed.
func TestOversizedJobsTravelThroughObjectStore(t *testing.T) {
	defer coordinator.SetReapBounds(5*time.Minute, 5*time.Minute)()
	f := startSmallPayloadFarm(t)
	const n = oversizedRecords
	f.startWorker(t, worker.Config{ID: "w", Runner: oversizedRunner(n)})
	cells := makeCells("huge", 2)
	sink := newMemSink()
	sum := runCoordinator(t, context.Background(), f, coordinator.Config{Experiment: "huge", Cells: cells, Sink: sink})
	if sum.OK != 2 {
		t.Fatalf("%d of 2 cells ok: %+v", sum.OK, sum.Failures)
	}
	for _, c := range cells {
		r := sink.results[c.ID]
		if len(r.Jobs) != n || r.JobsObject != "" {
			t.Fatalf("cell %s: %d per-job records (object %q); want %d loaded back", c.ID, len(r.Jobs), r.JobsObject, n)
		}
		for i, j := range r.Jobs {
			if j.ID != int64(i+1) || j.Procs != 1+int64(i%64) || j.End != float64(i)+2 {
				t.Fatalf("cell %s: record %d = %+v; want id %d", c.ID, i, j, i+1)
			}
		}
	}
	store, err := f.js.ObjectStore(context.Background(), broker.JobsBucket)
	if err != nil {
		t.Fatal(err)
	}
	// The objects go in the background once the results are durable; the
	// minute is a safety net, not a bound on how fast (a loaded machine
	// may take seconds): objects never deleted stay for good.
	waitFor(t, time.Minute, "the jobs objects to be deleted", func() bool {
		objs, err := store.List(context.Background())
		return errors.Is(err, jetstream.ErrNoObjectsFound) || (err == nil && len(objs) == 0)
	})
}

// runOutcome is what a coordinator run in the background returned.
type runOutcome struct {
	sum coordinator.Summary
	err error
}

// runInBackground runs a coordinator with cfg for at most limit; its
// outcome comes on the channel returned.
func runInBackground(f *farm, limit time.Duration, cfg coordinator.Config) <-chan runOutcome {
	done := make(chan runOutcome, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), limit)
		defer cancel()
		sum, err := coordinator.Run(ctx, f.js, cfg)
		done <- runOutcome{sum, err}
	}()
	return done
}

// oversizedRunner returns cells' results with n per-job records each (about
// 60 bytes of JSON a record: oversizedRecords pass smallPayload, 200,000
// the default 8 MiB).
func oversizedRunner(n int) worker.RunnerFunc {
	return func(ctx context.Context, c runner.Cell) runner.CellResult {
		r := okRunner(ctx, c)
		r.Jobs = make([]runner.JobRecord, n)
		for i := range r.Jobs {
			r.Jobs[i] = runner.JobRecord{ID: int64(i + 1), Submit: float64(i), Start: float64(i) + 0.5, End: float64(i) + 2, Procs: 1 + int64(i%64), Wait: 0.5, Bsld: 1.25, State: "done"}
		}
		return r
	}
}

// TestTopologyReady: a caller that says the topology is ready (the tuner,
// one sweep per generation) still gets its streams when they are missing,
// and later sweeps on the same connection skip broker.Ensure; every cell of
// each sweep exactly once.
func TestTopologyReady(t *testing.T) {
	f := startFarm(t)
	first := makeCells("ready-1", 10)
	sink := newMemSink()
	// No stream exists yet: TopologyReady must fall back to Ensure.
	done := runInBackground(f, 2*time.Minute, coordinator.Config{Experiment: "ready-1", Cells: first, Sink: sink, TopologyReady: true})
	waitFor(t, 30*time.Second, "the cells stream", func() bool {
		_, err := f.js.Stream(context.Background(), broker.CellsStream)
		return err == nil
	})
	f.startWorker(t, worker.Config{ID: "w1", Slots: 2, Runner: worker.RunnerFunc(okRunner)})
	if o := <-done; o.err != nil || o.sum.OK != 10 || o.sum.Published != 10 {
		t.Errorf("first sweep: %+v, %v; want 10 published, 10 ok", o.sum, o.err)
	}
	sink.checkExactlyOnce(t, first)
	second := makeCells("ready-2", 10)
	sink2 := newMemSink()
	if sum := runCoordinator(t, context.Background(), f, coordinator.Config{Experiment: "ready-2", Cells: second, Sink: sink2, TopologyReady: true}); sum.OK != 10 {
		t.Errorf("second sweep: %+v; want 10 ok", sum)
	}
	sink2.checkExactlyOnce(t, second)
}
