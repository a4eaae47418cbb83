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
	return StartWith(tb, nil)
}

// StartWith is Start with the server's options changed by configure (nil:
// none) after the test's defaults (loopback, a random port, a store in the
// test's temporary directory) are set: a smaller max_payload, for one.
func StartWith(tb testing.TB, configure func(*broker.Options)) (*broker.Server, jetstream.JetStream) {
	tb.Helper()
	o := broker.Options{Host: "127.0.0.1", Port: -1, StoreDir: tb.TempDir()}
	if configure != nil {
		configure(&o)
	}
	srv, err := broker.Start(o)
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
