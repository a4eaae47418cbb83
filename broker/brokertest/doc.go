// Package brokertest starts a real embedded NATS server with JetStream (a
// file store in the test's temporary directory, a random loopback port) for
// tests of the farm's packages, and connects to it; everything stops when
// the test ends.
package brokertest
