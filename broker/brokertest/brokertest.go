package brokertest

import (
	"testing"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/schedfarm/schedfarm/broker"
)

// Start starts an embedded broker for tb and returns it with a JetStream
// context on a connection of its own named after the test. Server and
// connection close when tb ends.
func Start(tb testing.TB) (*broker.Server, jetstream.JetStream) {
	tb.Helper()
	srv, err := broker.Start(broker.Options{Host: "127.0.0.1", Port: -1, StoreDir: tb.TempDir()})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(srv.Shutdown)
	nc, err := srv.Connect(tb.Name())
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		tb.Fatal(err)
	}
	return srv, js
}
