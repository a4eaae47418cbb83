package broker_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/schedfarm/schedfarm/broker"
	"github.com/schedfarm/schedfarm/broker/brokertest"
)

// TestWorkersConsumerIsUnfiltered checks that Ensure leaves the workers
// consumer without a filter subject — also one made by an earlier version
// with the filter "schedfarm.cells.>", which it updates in place — and that the
// consumer then delivers every waiting cell once (the stream holds cells
// only, so no filter is the same messages; with the filter, each take cost
// a walk of the stream's per-subject index, see workersConsumer).
func TestWorkersConsumerIsUnfiltered(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, js := brokertest.Start(t)
	if err := broker.Ensure(ctx, js, broker.Topology{}); err != nil {
		t.Fatal(err)
	}
	// The workers consumer as versions before this change made it.
	old, err := js.CreateOrUpdateConsumer(ctx, broker.CellsStream, jetstream.ConsumerConfig{
		Durable: broker.WorkersConsumer, AckPolicy: jetstream.AckExplicitPolicy,
		AckWait: broker.DefaultAckWait, FilterSubject: "schedfarm.cells.>", MaxAckPending: -1,
	})
	if err != nil {
		t.Fatal(err)
	}
	if f := old.CachedInfo().Config.FilterSubject; f == "" {
		t.Fatalf("the earlier consumer was made without its filter; the test needs it")
	}
	const n = 5
	for i := range n {
		if _, err := js.Publish(ctx, broker.CellSubject("exp", fmt.Sprintf("c%d", i)), []byte("{}")); err != nil {
			t.Fatal(err)
		}
	}
	if err := broker.Ensure(ctx, js, broker.Topology{}); err != nil {
		t.Fatalf("Ensure over the earlier, filtered consumer: %v", err)
	}
	cons, err := broker.EnsureExists(ctx, js, broker.Topology{})
	if err != nil {
		t.Fatal(err)
	}
	info, err := cons.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if f, fs := info.Config.FilterSubject, info.Config.FilterSubjects; f != "" || len(fs) > 0 {
		t.Errorf("workers consumer filters %q %q; want no filter", f, fs)
	}
	seen := map[string]bool{}
	for len(seen) < n {
		batch, err := cons.Fetch(1, jetstream.FetchMaxWait(10*time.Second))
		if err != nil {
			t.Fatal(err)
		}
		got := 0
		for msg := range batch.Messages() {
			got++
			if seen[msg.Subject()] {
				t.Errorf("%s delivered twice", msg.Subject())
			}
			seen[msg.Subject()] = true
			if err := msg.DoubleAck(ctx); err != nil {
				t.Fatal(err)
			}
		}
		if got == 0 {
			t.Fatalf("no cell delivered after %d of %d (%v)", len(seen), n, batch.Error())
		}
	}
}
