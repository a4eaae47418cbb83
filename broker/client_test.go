package broker

import (
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
)

// TestRetryableConnectError pins which first-connection failures Dial
// tries again (a server that may still be starting) and which it reports
// at once (trying again cannot mend them), wrapped or not.
func TestRetryableConnectError(t *testing.T) {
	lookup := &net.OpError{Op: "dial", Net: "tcp",
		Err: &net.DNSError{Err: "no such host", Name: "broker2", IsNotFound: true}}
	refused := &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connect: connection refused")}
	cases := []struct {
		name string
		err  error
		want bool
	}{
		{"every server refused (nats.go's ErrNoServers)", nats.ErrNoServers, true},
		{"the handshake timed out", nats.ErrTimeout, true},
		{"a name that does not resolve yet", lookup, true},
		{"a refused dial reported as it is", refused, true},
		{"the same, wrapped", fmt.Errorf("connect: %w", lookup), true},
		{"a bare DNS error", &net.DNSError{Err: "server misbehaving", Name: "broker1", IsTemporary: true}, true},
		{"authorization", nats.ErrAuthorization, false},
		{"an unknown certificate authority", &x509.UnknownAuthorityError{}, false},
		{"a TLS alert from the server", &net.OpError{Op: "remote error", Err: errors.New("tls: bad certificate")}, false},
		{"a bad URL", nats.ErrBadSubject, false},
	}
	for _, c := range cases {
		if got := retryableConnectError(c.err); got != c.want {
			t.Errorf("%s (%v): retryable %v; want %v", c.name, c.err, got, c.want)
		}
	}
}

// TestDialWaitsForAServerStillStarting proves that Dial keeps trying while
// the servers of its URL are unreachable in the ways a starting cluster's
// are: nothing listens yet on one's port (connection refused), and the
// other's name does not resolve (a compose service whose container does
// not exist yet; names under .invalid never resolve, RFC 2606).
// nats.Connect shuffles the servers and reports the last one's error only,
// so until 6 Dec 2026 Dial gave up at once whenever the unresolvable one
// came last. The server is started once Dial has reported the failed
// lookup and is still trying (progress, not a timer); Dial must then
// return a connection to it.
func TestDialWaitsForAServerStillStarting(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	url := fmt.Sprintf("nats://127.0.0.1:%d,nats://broker9.invalid:4222", port)
	lookupFailed := make(chan struct{})
	var once sync.Once
	type dialed struct {
		nc  *nats.Conn
		err error
	}
	done := make(chan dialed, 1)
	go func() {
		nc, err := Dial(ClientOptions{URL: url, ConnectTimeout: 10 * time.Minute, Logf: func(format string, args ...any) {
			// the error, not the URL, which names the host too
			if strings.Contains(fmt.Sprintf(format, args...), "lookup broker9.invalid") {
				once.Do(func() { close(lookupFailed) })
			}
		}})
		done <- dialed{nc, err}
	}()
	select {
	case d := <-done:
		if d.nc != nil {
			d.nc.Close()
		}
		t.Fatalf("Dial returned before any server was up (error: %v); want it to keep trying", d.err)
	case <-lookupFailed:
	}
	srv, err := Start(Options{Host: "127.0.0.1", Port: port, StoreDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	select {
	case d := <-done:
		if d.err != nil {
			t.Fatalf("Dial after the server started: %v", d.err)
		}
		defer d.nc.Close()
		if got := d.nc.ConnectedAddr(); got != fmt.Sprintf("127.0.0.1:%d", port) {
			t.Errorf("connected to %q; want the server started at 127.0.0.1:%d", got, port)
		}
	case <-time.After(2 * time.Minute): // a bound on a failure, not a trigger
		t.Fatal("Dial still had no connection two minutes after the server started")
	}
}
