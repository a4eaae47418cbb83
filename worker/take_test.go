package worker_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/schedfarm/schedfarm/broker"
	"github.com/schedfarm/schedfarm/runner"
	"github.com/schedfarm/schedfarm/worker"
)

// TestSlotTakesSeveralInstantCells runs one worker slot on 64 instant cells
// and watches its pull requests on the consumer's API subject: the slot
// must ask for several cells at once (no-wait requests of more than one),
// in fewer requests than cells, and still run every cell once, each acked,
// none redelivered. A slot that kept asking for one cell at a time sends 64
// requests or more. All 64 cells are queued before the worker starts, so
// every no-wait request but the last brings as many cells as it asks for:
// fewer requests than cells means some request brought several.
//
// "Queued" means counted by the consumer, not only stored: the server acks a
// publication once the stream holds it and counts it as pending for the
// consumer later, in a goroutine of its own (nats-server v2.15.2,
// stream.go signalConsumersLoop → consumer.go processStreamSignal, npc++),
// and answers a no-wait request "No Messages" while that count is zero
// (consumer.go processNextMsgRequest). On a loaded machine that goroutine
// lagged for 24 of the slot's takes: each no-wait request came back empty,
// the slot fell back to waiting for one cell (as it should: nothing is lost,
// only requests are spent), and a CI run counted 64 cells in 66 requests.
// So the test waits until the consumer reports all 64 pending before the
// worker starts.
//
// How many fewer depends on the machine's load, not on the code: the slot
// sizes its next take from how long its last cells ran by the wall clock
// (nextTake), and on a loaded machine a goroutine descheduled for 5 ms
// makes an instant cell look slow, sending the slot back to one cell a
// request. A CI run on a busy machine took 64 cells in 33 requests, 21 of
// them for several cells (the bound was fewer than 32 then); so the test
// asks only for what holds under any load: several-cell requests, fewer
// requests than cells. The sizing rule itself is TestNextTake's.
func TestSlotTakesSeveralInstantCells(t *testing.T) {
	const n = 64
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	js := queue(t, ctx, broker.Topology{})
	publishCells(t, ctx, js, "takes", n)
	cons, err := js.Consumer(ctx, broker.CellsStream, broker.WorkersConsumer)
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, fmt.Sprintf("the workers consumer to count %d cells pending", n), func() (bool, string) {
		ci, err := cons.Info(ctx)
		if err != nil {
			return false, err.Error()
		}
		return ci.NumPending == n, fmt.Sprintf("%d pending", ci.NumPending)
	})
	var mu sync.Mutex
	var requests, several int
	sub, err := js.Conn().Subscribe("$JS.API.CONSUMER.MSG.NEXT."+broker.CellsStream+"."+broker.WorkersConsumer, func(m *nats.Msg) {
		var req struct {
			Batch  int  `json:"batch"`
			NoWait bool `json:"no_wait"`
		}
		if err := json.Unmarshal(m.Data, &req); err != nil {
			t.Errorf("pull request %q: %v", m.Data, err)
			return
		}
		mu.Lock()
		defer mu.Unlock()
		requests++
		if req.Batch > 1 {
			several++
			if !req.NoWait {
				t.Errorf("pull request %s asks for %d cells and waits for them; want several only of those there (no_wait)", m.Data, req.Batch)
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Unsubscribe()
	if err := js.Conn().Flush(); err != nil {
		t.Fatal(err)
	}
	stopWorker := startWorker(t, js, worker.Config{ID: "taker", Slots: 1, Gate: worker.DecodeOnly{}, Runner: instant})
	resultsIn(t, ctx, js, n)
	stopWorker()
	if t.Failed() {
		t.FailNow()
	}
	// An ack is a message the server takes in its own time: wait for the
	// last of them (a slot that left a cell unacked fails here when ctx
	// ends), then ask that none was delivered twice.
	var redelivered int
	waitFor(t, ctx, "every cell acked", func() (bool, string) {
		ci, err := cons.Info(ctx)
		if err != nil {
			return false, err.Error()
		}
		redelivered = ci.NumRedelivered
		return ci.NumPending == 0 && ci.NumAckPending == 0, fmt.Sprintf("%d pending, %d awaiting an ack, %d redelivered", ci.NumPending, ci.NumAckPending, ci.NumRedelivered)
	})
	if redelivered != 0 {
		t.Errorf("workers consumer: %d cells redelivered; want none", redelivered)
	}
	mu.Lock()
	defer mu.Unlock()
	t.Logf("%d cells in %d pull requests, %d of them for several cells", n, requests, several)
	if several == 0 || requests >= n {
		t.Errorf("%d cells in %d pull requests, %d of them for several cells; want several-cell requests and fewer than %d requests", n, requests, several, n)
	}
}

// TestCellsWaitingInASlotAreKeptInProgress checks that cells a slot took
// with others do not time out while an earlier one runs long. Worker A (one
// slot, AckWait 3 s) runs instant cells until it holds at least two cells
// behind the one it runs (the consumer has four or more awaiting an ack: the
// one running, at most one whose ack is on its way, and those waiting);
// that cell then runs for 2.5 AckWaits while an idle worker B asks for
// cells. Had the waiting cells no heartbeats, the server would redeliver
// them to B after AckWait; the test wants every cell run once and none
// redelivered.
//
// The moment comes from progress, not from the machine's speed. A's cells
// stay instant, so that its slot asks for several at a time (the take is
// sized from how long the last cells ran, nextTake), and a watcher asks the
// broker how many cells await an ack; when it sees four, A's next cell asks
// again itself and, if it still holds two behind it, runs long. Cells go
// out in rounds of 64 until that has happened (at most eight rounds): on a
// loaded machine a round may pass without it.
func TestCellsWaitingInASlotAreKeptInProgress(t *testing.T) {
	const round, maxRounds = 64, 8
	const ackWait = 3 * time.Second
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	js := queue(t, ctx, broker.Topology{AckWait: ackWait})
	cons, err := js.Consumer(ctx, broker.CellsStream, broker.WorkersConsumer)
	if err != nil {
		t.Fatal(err)
	}
	var slow atomic.Bool  // set by the one cell that ran long
	var armed atomic.Bool // the watcher saw four cells awaiting an ack
	startB := make(chan struct{})
	runs := make(map[string]int)
	var mu sync.Mutex
	var logs []string
	logf := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		logs = append(logs, fmt.Sprintf(format, args...))
	}
	counted := func(r worker.Runner) worker.Runner {
		return worker.RunnerFunc(func(ctx context.Context, c runner.Cell) runner.CellResult {
			mu.Lock()
			runs[c.ID]++
			mu.Unlock()
			return r.Run(ctx, c)
		})
	}
	a := counted(worker.RunnerFunc(func(ctx context.Context, c runner.Cell) runner.CellResult {
		if !slow.Load() && armed.Load() {
			// Asked inside the take: its size is decided already.
			ci, err := cons.Info(ctx)
			if err == nil && ci.NumAckPending >= 4 && !slow.Swap(true) {
				close(startB)
				time.Sleep(ackWait * 5 / 2)
			} else {
				armed.Store(false)
			}
		}
		return instant.Run(ctx, c)
	}))
	wctx, stopWorkers := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() {
		for wctx.Err() == nil && !slow.Load() {
			if ci, err := cons.Info(wctx); err == nil && ci.NumAckPending >= 4 {
				armed.Store(true)
			}
		}
	})
	errs := make(chan error, 2)
	wg.Go(func() {
		errs <- worker.Run(wctx, js, worker.Config{ID: "A", Slots: 1, Gate: worker.DecodeOnly{}, Runner: a, Logf: logf})
	})
	wg.Go(func() {
		select {
		case <-startB:
		case <-wctx.Done():
			return
		}
		errs <- worker.Run(wctx, js, worker.Config{ID: "B", Slots: 1, Gate: worker.DecodeOnly{}, Runner: counted(instant), Logf: logf})
	})
	n := 0
	for r := 0; r < maxRounds && (r == 0 || !slow.Load()); r++ {
		publishCellsFrom(t, ctx, js, "waiting", n, round)
		n += round
		resultsIn(t, ctx, js, uint64(n))
	}
	stopWorkers()
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if !slow.Load() {
		t.Fatalf("worker A never held two cells behind the one it ran (four awaiting an ack) in %d cells; the test proves nothing", n)
	}
	ci, err := cons.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if ci.NumRedelivered != 0 {
		t.Errorf("%d cells redelivered; want none (the cells waiting in A's slot were not kept in progress)", ci.NumRedelivered)
	}
	mu.Lock()
	defer mu.Unlock()
	for id, k := range runs {
		if k != 1 {
			t.Errorf("cell %s ran %d times; want once", id, k)
		}
	}
	if len(runs) != n {
		t.Errorf("%d cells ran; want %d", len(runs), n)
	}
	for _, l := range logs {
		if strings.Contains(l, "redelivered") || strings.Contains(l, "heartbeat") {
			t.Errorf("worker log: %s", l)
		}
	}
	t.Logf("%d cells in %d rounds", n, n/round)
}
