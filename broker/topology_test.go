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
		got, why := takeOne(t, ctx, cons)
		for _, subject := range got {
			if seen[subject] {
				t.Errorf("%s delivered twice", subject)
			}
			seen[subject] = true
		}
		if len(got) == 0 {
			t.Fatalf("no cell delivered after %d of %d (%v)", len(seen), n, why)
		}
	}
}

// takeOne fetches one message from cons (waiting up to 10 s), acks it and
// returns the subjects delivered; when none was, the fetch's error says why.
func takeOne(t *testing.T, ctx context.Context, cons jetstream.Consumer) (subjects []string, why error) {
	t.Helper()
	batch, err := cons.Fetch(1, jetstream.FetchMaxWait(10*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	for msg := range batch.Messages() {
		subjects = append(subjects, msg.Subject())
		if err := msg.DoubleAck(ctx); err != nil {
			t.Fatal(err)
		}
	}
	return subjects, batch.Error()
}

// storages returns the storage of each of the farm's streams, by name.
func storages(t *testing.T, ctx context.Context, js jetstream.JetStream) map[string]jetstream.StorageType {
	t.Helper()
	got := map[string]jetstream.StorageType{}
	for _, name := range []string{broker.CellsStream, broker.ResultsStream, broker.AdvisoriesStream} {
		st, err := js.Stream(ctx, name)
		if err != nil {
			t.Fatalf("stream %s: %v", name, err)
		}
		got[name] = st.CachedInfo().Config.Storage
	}
	return got
}

// TestInMemoryQueues: Topology.InMemory creates the cells and results
// streams in memory (the advisories stream stays on file), by Ensure and
// by EnsureExists alike; without it every stream is on file; and an
// existing stream keeps the storage it was made with whatever a later
// Ensure asks (a storage cannot change, and updating it would fail), so a
// worker and a coordinator with different settings share one topology.
// Cells published to the in-memory stream are delivered as before.
func TestInMemoryQueues(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	memQueues := map[string]jetstream.StorageType{broker.CellsStream: jetstream.MemoryStorage,
		broker.ResultsStream: jetstream.MemoryStorage, broker.AdvisoriesStream: jetstream.FileStorage}
	allFile := map[string]jetstream.StorageType{broker.CellsStream: jetstream.FileStorage,
		broker.ResultsStream: jetstream.FileStorage, broker.AdvisoriesStream: jetstream.FileStorage}
	same := func(a, b map[string]jetstream.StorageType) bool { return fmt.Sprint(a) == fmt.Sprint(b) }

	_, js := brokertest.Start(t)
	if err := broker.Ensure(ctx, js, broker.Topology{InMemory: true}); err != nil {
		t.Fatal(err)
	}
	if got := storages(t, ctx, js); !same(got, memQueues) {
		t.Errorf("Ensure with InMemory: storages %v; want %v", got, memQueues)
	}
	if err := broker.Ensure(ctx, js, broker.Topology{}); err != nil {
		t.Fatalf("Ensure without InMemory over in-memory streams: %v", err)
	}
	cons, err := broker.EnsureExists(ctx, js, broker.Topology{})
	if err != nil {
		t.Fatal(err)
	}
	if got := storages(t, ctx, js); !same(got, memQueues) {
		t.Errorf("after Ensure and EnsureExists without InMemory: storages %v; want them kept, %v", got, memQueues)
	}
	if _, err := js.Publish(ctx, broker.CellSubject("exp", "c1"), []byte("{}")); err != nil {
		t.Fatal(err)
	}
	if got, why := takeOne(t, ctx, cons); len(got) != 1 {
		t.Errorf("%d cells delivered from the in-memory stream; want 1 (%v)", len(got), why)
	}

	_, js2 := brokertest.Start(t)
	if _, err := broker.EnsureExists(ctx, js2, broker.Topology{InMemory: true}); err != nil {
		t.Fatal(err)
	}
	if got := storages(t, ctx, js2); !same(got, memQueues) {
		t.Errorf("EnsureExists with InMemory: storages %v; want %v", got, memQueues)
	}
	if err := broker.Ensure(ctx, js2, broker.Topology{InMemory: true}); err != nil {
		t.Fatal(err)
	}

	_, js3 := brokertest.Start(t)
	if err := broker.Ensure(ctx, js3, broker.Topology{}); err != nil {
		t.Fatal(err)
	}
	if err := broker.Ensure(ctx, js3, broker.Topology{InMemory: true}); err != nil {
		t.Fatalf("Ensure with InMemory over file streams: %v", err)
	}
	if got := storages(t, ctx, js3); !same(got, allFile) {
		t.Errorf("without InMemory, then Ensure with it: storages %v; want them kept, %v", got, allFile)
	}
}

// updateCounter is a real JetStream context that notes the name of every
// stream it is asked to update.
type updateCounter struct {
	jetstream.JetStream
	updated []string
}

func (u *updateCounter) UpdateStream(ctx context.Context, cfg jetstream.StreamConfig) (jetstream.Stream, error) {
	u.updated = append(u.updated, cfg.Name)
	return u.JetStream.UpdateStream(ctx, cfg)
}

// TestEnsureLeavesSettledStreamsAlone: Ensure over streams that already hold
// its settings — made by a worker's EnsureExists, as on a fresh farm, or by
// an earlier Ensure — updates none of them (such an update races inside
// nats-server with a consumer created at the same moment: holdsSettings);
// a stream whose setting was changed meanwhile is updated back, and only
// that one.
func TestEnsureLeavesSettledStreamsAlone(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, js := brokertest.Start(t)
	if _, err := broker.EnsureExists(ctx, js, broker.Topology{}); err != nil {
		t.Fatal(err)
	}
	for _, after := range []string{"a worker's EnsureExists", "an earlier Ensure"} {
		u := &updateCounter{JetStream: js}
		if err := broker.Ensure(ctx, u, broker.Topology{}); err != nil {
			t.Fatal(err)
		}
		if len(u.updated) != 0 {
			t.Errorf("Ensure after %s updated %v; want no stream updated", after, u.updated)
		}
	}
	st, err := js.Stream(ctx, broker.CellsStream)
	if err != nil {
		t.Fatal(err)
	}
	changed := st.CachedInfo().Config
	changed.Duplicates = broker.DedupeWindow / 2
	if _, err := js.UpdateStream(ctx, changed); err != nil {
		t.Fatal(err)
	}
	u := &updateCounter{JetStream: js}
	if err := broker.Ensure(ctx, u, broker.Topology{}); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(u.updated) != fmt.Sprint([]string{broker.CellsStream}) {
		t.Errorf("Ensure after the cells stream's duplicate window was changed updated %v; want [%s] alone", u.updated, broker.CellsStream)
	}
	if st, err = js.Stream(ctx, broker.CellsStream); err != nil {
		t.Fatal(err)
	}
	if got := st.CachedInfo().Config.Duplicates; got != broker.DedupeWindow {
		t.Errorf("the cells stream's duplicate window after Ensure: %v; want %v", got, broker.DedupeWindow)
	}
}
