package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// TestWholeSweepDiscardsItsStreams checks localFarm.close on the embedded
// server once the sweep is whole: the streams are deleted before the server
// shuts down (discardStreams), with a consumer that still has a pull request
// waiting — what makes nats-server's shutdown sleep — and then the store is
// removed. A farm whose sweep is not whole keeps its store as it was.
func TestWholeSweepDiscardsItsStreams(t *testing.T) {
	for _, whole := range []bool{true, false} {
		dir := t.TempDir()
		f, err := startFarm(sweepFlags{}, 0, dir, "schedfarm test", "close", io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		js, err := jetstream.New(f.coord)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"TEST_A", "TEST_B"} {
			if _, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: name, Subjects: []string{name + ".>"}, Storage: jetstream.FileStorage}); err != nil {
				t.Fatal(err)
			}
		}
		cons, err := js.CreateOrUpdateConsumer(ctx, "TEST_A", jetstream.ConsumerConfig{Durable: "waiting", AckPolicy: jetstream.AckExplicitPolicy})
		if err != nil {
			t.Fatal(err)
		}
		// A pull request that waits on the server until it expires.
		if _, err := cons.Fetch(1, jetstream.FetchMaxWait(time.Minute)); err != nil {
			t.Fatal(err)
		}
		if whole {
			f.discardStreams()
			var left []string
			for name := range js.StreamNames(ctx).Name() {
				left = append(left, name)
			}
			if len(left) > 0 {
				t.Errorf("streams left after discardStreams: %v; want none", left)
			}
		}
		f.complete = whole
		f.close()
		cancel()
		_, err = os.Stat(filepath.Join(dir, "jetstream", "$G", "streams", "TEST_A"))
		switch {
		case whole && err == nil:
			t.Errorf("whole sweep: the store %s is still there", filepath.Join(dir, "jetstream"))
		case !whole && err != nil:
			t.Errorf("sweep not whole: the stream's directory: %v; want it kept", err)
		}
	}
}
