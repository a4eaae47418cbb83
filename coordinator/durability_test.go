package coordinator_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/schedfarm/schedfarm/broker"
	"github.com/schedfarm/schedfarm/coordinator"
	"github.com/schedfarm/schedfarm/worker"
)

// gateSink is a sink whose first Flush (its fsync) blocks until the test
// releases it with an outcome; a failed flush stays failed, as a file whose
// fsync failed does.
type gateSink struct {
	*memSink
	entered chan struct{} // closed when the first Flush starts
	release chan error    // the first Flush's outcome
	once    sync.Once
	mu      sync.Mutex
	failed  error
}

func newGateSink() *gateSink {
	return &gateSink{memSink: newMemSink(), entered: make(chan struct{}), release: make(chan error)}
}

func (g *gateSink) Flush() error {
	first := false
	g.once.Do(func() { first = true })
	if first {
		close(g.entered)
		err := <-g.release
		g.mu.Lock()
		g.failed = err
		g.mu.Unlock()
		if err != nil {
			return err
		}
		return g.memSink.Flush()
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.failed != nil {
		return g.failed
	}
	return g.memSink.Flush()
}

// coordAcks reads the coordinator's results consumer: how many results it
// has acked (its ack floor) and how many it holds unacked.
func coordAcks(t *testing.T, f *farm, exp string) (acked uint64, pending int) {
	t.Helper()
	cons, err := f.js.Consumer(context.Background(), broker.ResultsStream, broker.CoordinatorConsumer(exp))
	if err != nil {
		t.Fatal(err)
	}
	info, err := cons.Info(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return info.AckFloor.Consumer, info.NumAckPending
}

// Acks follow the sink's fsync: while Flush blocks, the results written are
// not acked (they stay in the results stream); when Flush fails they are
// never acked, the run stops with the error, and a rerun gets them all
// again (after the results ack wait, 30 s: the failed run does not nak
// them); when it succeeds they are acked.
func TestAcksFollowFlush(t *testing.T) {
	const exp, n = "durable", 20
	f := startFarm(t)
	stopWorker := f.startWorker(t, worker.Config{ID: "w", Slots: 2, Runner: worker.RunnerFunc(okRunner)})
	cells := makeCells(exp, n)

	for _, outcome := range []error{errors.New("fsync out.parquet.journal.jsonl: input/output error"), nil} {
		sink := newGateSink()
		done := startRun(context.Background(), f.js, coordinator.Config{Experiment: exp, Cells: cells, Sink: sink,
			FlushEvery: 5, FlushInterval: 50 * time.Millisecond})
		<-sink.entered
		written := sink.count()
		if written == 0 {
			t.Fatal("Flush called with nothing written")
		}
		// Give a premature ack every chance to arrive before looking.
		time.Sleep(300 * time.Millisecond)
		acked, pending := coordAcks(t, f, exp)
		if acked != 0 || pending < written {
			t.Errorf("flush %v pending: %d results written, consumer acked %d and holds %d unacked; want 0 acked, ≥ %d unacked",
				outcome, written, acked, pending, written)
		}
		if msgs := streamMsgs(t, f, broker.ResultsStream); msgs < uint64(written) {
			t.Errorf("flush pending: %d results in the stream; want ≥ %d (none acked)", msgs, written)
		}
		sink.release <- outcome
		r := <-done
		acked, _ = coordAcks(t, f, exp)
		if outcome != nil {
			if r.err == nil || !strings.Contains(r.err.Error(), "input/output error") {
				t.Fatalf("run with a failing fsync: %v; want the flush error", r.err)
			}
			if acked != 0 {
				t.Errorf("consumer acked %d results although no flush succeeded; want 0", acked)
			}
			if msgs := streamMsgs(t, f, broker.ResultsStream); msgs < uint64(written) {
				t.Errorf("%d results left in the stream after the failed flush; want ≥ %d", msgs, written)
			}
			continue
		}
		// The rerun after the failed flush: every cell exactly once (the
		// results left unacked came again), all acked.
		if r.err != nil {
			t.Fatal(r.err)
		}
		sink.checkExactlyOnce(t, cells)
		if msgs := streamMsgs(t, f, broker.ResultsStream); msgs != 0 {
			t.Errorf("%d results left unacked after a successful run; want 0", msgs)
		}
	}
	stopWorker()
}
