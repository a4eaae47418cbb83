package worker_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/schedfarm/schedfarm/broker"
	"github.com/schedfarm/schedfarm/broker/brokertest"
	"github.com/schedfarm/schedfarm/family"
	"github.com/schedfarm/schedfarm/runner"
	"github.com/schedfarm/schedfarm/worker"
)

// queue starts a broker with the farm's topology (topo) and returns a
// JetStream context on it; the test publishes its cells with publishCells.
func queue(t *testing.T, ctx context.Context, topo broker.Topology) jetstream.JetStream {
	t.Helper()
	_, js := brokertest.Start(t)
	if err := broker.Ensure(ctx, js, topo); err != nil {
		t.Fatal(err)
	}
	return js
}

// publishCells publishes n cells of experiment exp straight to the cells stream
// (no coordinator, whose tidying would purge it).
func publishCells(t *testing.T, ctx context.Context, js jetstream.JetStream, exp string, n int) {
	t.Helper()
	publishCellsFrom(t, ctx, js, exp, 0, n)
}

// publishCellsFrom is publishCells for the cells of indexes from to
// from+n−1, so that later batches of one experiment get ids of their own.
func publishCellsFrom(t *testing.T, ctx context.Context, js jetstream.JetStream, exp string, from, n int) {
	t.Helper()
	for i := from; i < from+n; i++ {
		c := runner.Cell{Experiment: exp, ID: fmt.Sprintf("c%03d", i), Index: i, Scheduler: "fcfs", Seed: uint64(i)}
		data, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := js.Publish(ctx, broker.CellSubject(c.Experiment, c.ID), data, jetstream.WithMsgID(c.ID)); err != nil {
			t.Fatal(err)
		}
	}
}

// instant is a runner whose cells return at once.
var instant = worker.RunnerFunc(func(_ context.Context, c runner.Cell) runner.CellResult {
	return runner.CellResult{Status: runner.StatusOK, Metrics: []family.Metric{{Name: "seed", Value: float64(c.Seed)}}}
})

// resultsIn waits until the results stream holds n results.
func resultsIn(t *testing.T, ctx context.Context, js jetstream.JetStream, n uint64) {
	t.Helper()
	results, err := js.Stream(ctx, broker.ResultsStream)
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, fmt.Sprintf("%d results", n), func() (bool, string) {
		info, err := results.Info(ctx)
		if err != nil {
			return false, err.Error()
		}
		return info.State.Msgs == n, fmt.Sprintf("%d results", info.State.Msgs)
	})
}

// startWorker runs worker.Run with cfg on js until the returned stop is
// called; stop waits for Run to return and fails the test on its error.
func startWorker(t *testing.T, js jetstream.JetStream, cfg worker.Config) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan error, 1)
	go func() { stopped <- worker.Run(ctx, js, cfg) }()
	return func() {
		t.Helper()
		cancel()
		if err := <-stopped; err != nil {
			t.Error(err)
		}
	}
}

// waitFor polls cond until it holds or ctx ends, then fails the test with
// cond's last description of the state.
func waitFor(t *testing.T, ctx context.Context, what string, cond func() (bool, string)) {
	t.Helper()
	for {
		ok, state := cond()
		if ok {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("waiting for %s: %v; last state: %s", what, ctx.Err(), state)
		case <-time.After(20 * time.Millisecond):
		}
	}
}
