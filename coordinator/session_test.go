package coordinator_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/schedfarm/schedfarm/broker"
	"github.com/schedfarm/schedfarm/coordinator"
	"github.com/schedfarm/schedfarm/runner"
	"github.com/schedfarm/schedfarm/worker"
)

// handWorker is a hand-made worker: it answers every cell message of the
// workers consumer with an ok result and keeps each message's result, so
// that a test can publish it again later as a late duplicate.
type handWorker struct {
	mu   sync.Mutex
	sent map[string][]byte // cell id -> result message
	runs map[string]int    // cell id -> deliveries answered
}

func startHandWorker(t *testing.T, f *farm, exp string) *handWorker {
	t.Helper()
	h := &handWorker{sent: map[string][]byte{}, runs: map[string]int{}}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	t.Cleanup(func() { cancel(); <-done })
	go func() {
		defer close(done)
		cons, err := broker.EnsureExists(ctx, f.js, broker.Topology{})
		if err != nil {
			if ctx.Err() == nil {
				t.Error(err)
			}
			return
		}
		for ctx.Err() == nil {
			batch, err := cons.Fetch(1, jetstream.FetchMaxWait(100*time.Millisecond))
			if err != nil {
				continue
			}
			for msg := range batch.Messages() {
				id := msg.Subject()[strings.LastIndexByte(msg.Subject(), '.')+1:]
				data := []byte(fmt.Sprintf(`{"cell_id":%q,"status":"ok","cell_digest":%q}`, id, worker.Digest(msg.Data())))
				h.mu.Lock()
				h.sent[id] = data
				h.runs[id]++
				h.mu.Unlock()
				if _, err := f.js.Publish(ctx, broker.ResultSubject(exp, id), data); err != nil && ctx.Err() == nil {
					t.Error(err)
				}
				_ = msg.DoubleAck(ctx)
			}
		}
	}()
	return h
}

// A session runs several batches over one set of consumers: every cell is
// written once, a cell done in an earlier run is neither published nor
// written again, a late duplicate result of an earlier run's cell is
// dropped in the next run, the consumer is created once, the streams are
// empty after every run, and Close purges and stops.
func TestSessionRuns(t *testing.T) {
	f := startFarm(t)
	const exp = "session"
	h := startHandWorker(t, f, exp)
	cells := makeCells(exp, 30)
	sink := newMemSink()
	s, err := coordinator.NewSession(f.js, coordinator.Config{Experiment: exp, Sink: sink})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var created time.Time
	batches := []struct {
		cells            []runner.Cell
		done             map[string]bool
		skipped, publish int
		dup              bool
	}{
		{cells: cells[:10], publish: 10},
		// Cells 5-9 were written by the first run: skipped without Done;
		// cell 0's result arrives again before this run (dropped).
		{cells: cells[5:20], publish: 10, skipped: 5, dup: true},
		// Cells 20-24 are done according to the caller.
		{cells: cells[15:30], done: map[string]bool{"c0020": true, "c0021": true, "c0022": true, "c0023": true, "c0024": true}, publish: 5, skipped: 10},
		{cells: cells[:30], skipped: 30},
	}
	for i, b := range batches {
		if b.dup {
			h.mu.Lock()
			data := h.sent["c0000"]
			h.mu.Unlock()
			if _, err := f.js.Publish(ctx, broker.ResultSubject(exp, "c0000"), data); err != nil {
				t.Fatal(err)
			}
		}
		sum, err := s.Run(ctx, coordinator.Batch{Cells: b.cells, Done: b.done})
		if err != nil {
			t.Fatalf("run %d: %v", i, err)
		}
		if sum.Published != b.publish || sum.OK != b.publish || sum.Skipped != b.skipped || sum.Total != len(b.cells) {
			t.Errorf("run %d: summary %+v; want %d published and ok, %d skipped", i, sum, b.publish, b.skipped)
		}
		if want := map[bool]int{true: 1}[b.dup]; sum.Duplicates != want {
			t.Errorf("run %d: %d duplicates; want %d", i, sum.Duplicates, want)
		}
		// Acks are asynchronous: the acked results leave the work queue
		// shortly after the run. The minute is a safety net, not a bound
		// on how fast (a loaded machine may take seconds): results never
		// acked stay in the work queue for good.
		waitFor(t, time.Minute, fmt.Sprintf("run %d: an empty results stream", i), func() bool {
			return streamMsgs(t, f, broker.ResultsStream) == 0
		})
		if n := streamMsgs(t, f, broker.CellsStream); n != 0 {
			t.Errorf("run %d: %d messages left in the cells stream; want 0", i, n)
		}
		st, err := f.js.Stream(ctx, broker.ResultsStream)
		if err != nil {
			t.Fatal(err)
		}
		cons, err := st.Consumer(ctx, broker.CoordinatorConsumer(exp))
		if err != nil {
			t.Fatalf("run %d: the session's consumer: %v", i, err)
		}
		if c := cons.CachedInfo().Created; i == 0 {
			created = c
		} else if !c.Equal(created) {
			t.Errorf("run %d: the results consumer was created again (%v, first %v)", i, c, created)
		}
	}
	want := append(append([]runner.Cell(nil), cells[:20]...), cells[25:]...)
	sink.checkExactlyOnce(t, want)
	h.mu.Lock()
	for id, n := range h.runs {
		if n != 1 {
			t.Errorf("cell %s delivered to a worker %d times; want once", id, n)
		}
	}
	h.mu.Unlock()
	s.Close(ctx)
	s.Close(ctx) // idempotent
	if _, err := s.Run(ctx, coordinator.Batch{Cells: cells[:1]}); err == nil || !strings.Contains(err.Error(), "closed session") {
		t.Errorf("run after Close: %v; want a closed-session error", err)
	}
}

// A session whose consumer disappeared between two runs (a broker that
// lost its store, an operator) creates it again and finishes the run.
func TestSessionReopensLostConsumer(t *testing.T) {
	f := startFarm(t)
	const exp = "session-lost"
	startHandWorker(t, f, exp)
	cells := makeCells(exp, 8)
	sink := newMemSink()
	var logs strings.Builder
	var mu sync.Mutex
	s, err := coordinator.NewSession(f.js, coordinator.Config{Experiment: exp, Sink: sink, Logf: func(format string, a ...any) {
		mu.Lock()
		fmt.Fprintf(&logs, format+"\n", a...)
		mu.Unlock()
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(context.Background())
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if _, err := s.Run(ctx, coordinator.Batch{Cells: cells[:4]}); err != nil {
		t.Fatal(err)
	}
	st, err := f.js.Stream(ctx, broker.ResultsStream)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.DeleteConsumer(ctx, broker.CoordinatorConsumer(exp)); err != nil {
		t.Fatal(err)
	}
	sum, err := s.Run(ctx, coordinator.Batch{Cells: cells[4:]})
	if err != nil || sum.OK != 4 {
		t.Fatalf("run after the consumer was deleted: %+v, %v; want 4 ok", sum, err)
	}
	sink.checkExactlyOnce(t, cells)
	mu.Lock()
	defer mu.Unlock()
	if !strings.Contains(logs.String(), "creating the consumers again") {
		t.Errorf("log lacks the reopening:\n%s", logs.String())
	}
}
