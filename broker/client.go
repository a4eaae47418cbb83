package broker

import (
	"errors"
	"fmt"
	"net"
	"slices"
	"time"

	"github.com/nats-io/nats.go"
)

// ClientOptions say how to reach a NATS server from another process or
// machine.
type ClientOptions struct {
	// URL of the server, e.g. "nats://broker:4222" or "tls://host:4222";
	// several may be given separated by commas (the servers of a cluster):
	// the client connects to one of them and fails over to the others.
	URL string
	// User and Password, or Token; at most one form.
	User, Password string
	Token          string
	// CAFile is a PEM bundle to verify the server's TLS certificate with;
	// setting it turns TLS on.
	CAFile string
	// CertFile and KeyFile are an optional client certificate for mutual TLS.
	CertFile, KeyFile string
	// Name is the connection name shown by the server.
	Name string
	// Logf, when set, is told when the connection is lost and when it is
	// re-established (to which server).
	Logf func(format string, args ...any)
	// ConnectTimeout is how long Dial keeps retrying while the server is
	// unreachable (it may still be starting; see retryableConnectError);
	// 30s when zero. Authentication and TLS errors are not retried.
	ConnectTimeout time.Duration
}

// Validate reports every problem of o at once.
func (o ClientOptions) Validate() error {
	var errs []error
	if o.URL == "" {
		errs = append(errs, errors.New("NATS URL: empty; want e.g. nats://host:4222 (flag --nats or SCHEDFARM_NATS)"))
	}
	if (o.User == "") != (o.Password == "") {
		errs = append(errs, errors.New("NATS user and password: only one is set; want both or neither"))
	}
	if o.User != "" && o.Token != "" {
		errs = append(errs, errors.New("NATS credentials: both user/password and token are set; want one form or none"))
	}
	if (o.CertFile == "") != (o.KeyFile == "") {
		errs = append(errs, errors.New("NATS client certificate: only one of certificate and key is set; want both or neither"))
	}
	return errors.Join(errs...)
}

// Dial connects to the server described by o. The connection reconnects
// forever, so that workers and coordinators ride out a broker restart, and
// given several URLs (or a cluster that announces its other servers) fails
// over to another server. It pings the server every 5 s and gives the
// connection up after two unanswered pings, so a server that vanished
// without closing its connections (a killed container, a cut link) is
// noticed within about 15 s instead of the NATS default of minutes.
func Dial(o ClientOptions) (*nats.Conn, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	opts := []nats.Option{
		nats.Name(o.Name),
		nats.MaxReconnects(-1),
		nats.ReconnectWait(500 * time.Millisecond),
		nats.RetryOnFailedConnect(false),
		nats.PingInterval(5 * time.Second),
		nats.MaxPingsOutstanding(2),
	}
	if o.Logf != nil {
		opts = append(opts,
			nats.DisconnectErrHandler(func(nc *nats.Conn, err error) {
				if err != nil { // nil: closed on purpose
					o.Logf("nats: connection lost (%v); reconnecting", err)
				}
			}),
			nats.ReconnectHandler(func(nc *nats.Conn) {
				o.Logf("nats: reconnected to %s", nc.ConnectedUrlRedacted())
			}))
	}
	switch {
	case o.User != "":
		opts = append(opts, nats.UserInfo(o.User, o.Password))
	case o.Token != "":
		opts = append(opts, nats.Token(o.Token))
	}
	if o.CAFile != "" {
		opts = append(opts, nats.RootCAs(o.CAFile))
	}
	if o.CertFile != "" {
		opts = append(opts, nats.ClientCert(o.CertFile, o.KeyFile))
	}
	timeout := o.ConnectTimeout
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	deadline := time.Now().Add(timeout)
	var told []string // the errors already reported to Logf
	for {
		nc, err := nats.Connect(o.URL, opts...)
		if err == nil {
			return nc, nil
		}
		if !retryableConnectError(err) || time.Now().After(deadline) {
			return nil, fmt.Errorf("connect to NATS at %s: %w", o.URL, err)
		}
		if o.Logf != nil && !slices.Contains(told, err.Error()) && len(told) < 8 {
			told = append(told, err.Error())
			o.Logf("nats: connect to %s: %v; trying again for up to %v (the server may still be starting)", o.URL, err, timeout)
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// retryableConnectError reports whether a first connection that failed
// with err may succeed if tried again: the server may still be starting.
// nats.Connect reports only the last server it tried, and calls a refused
// connection there ErrNoServers; a host name that does not resolve (yet:
// a compose or Kubernetes service name exists only once its container
// does), a dial that failed otherwise (refused, unreachable, timed out)
// and a server that did not answer the handshake in time come back as
// they are. Those are retried too: until 6 Dec 2026 only ErrNoServers
// was, so which server nats.Connect happened to try last (it shuffles
// them) decided whether a starting cluster was waited for. Errors of
// authentication, TLS or the URL are not retried: trying again cannot
// mend them.
func retryableConnectError(err error) bool {
	if errors.Is(err, nats.ErrNoServers) || errors.Is(err, nats.ErrTimeout) {
		return true
	}
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		return true
	}
	var opErr *net.OpError
	return errors.As(err, &opErr) && opErr.Op == "dial"
}
