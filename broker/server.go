package broker

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
)

// Options configure an embedded NATS server with JetStream.
type Options struct {
	// Host and Port to listen on for clients. Port -1 picks a free port;
	// Port 0 means the NATS default, 4222.
	Host string
	Port int
	// NoListen runs the server without a network listener: only in-process
	// connections (see Server.Connect) reach it.
	NoListen bool
	// StoreDir holds JetStream's file store; required.
	StoreDir string
	// User and Password, or Token, require clients to authenticate; at most
	// one of the two forms may be set.
	User, Password string
	Token          string
	// TLSCert and TLSKey are PEM files; when both are set clients must use
	// TLS.
	TLSCert, TLSKey string
	// Name of the server, shown in logs and monitoring; "schedfarm" when empty.
	// Every server of a cluster needs a name of its own.
	Name string
	// Cluster, when its Name is set, makes the server one of a NATS cluster
	// with JetStream (see ClusterOptions).
	Cluster ClusterOptions
	// Insecure lets the server listen on a non-loopback address without
	// credentials. Without it such a server refuses to start: anyone who
	// reaches the port could publish cells (which name files for workers to
	// read) and read every result.
	Insecure bool
	// Logf, when set, receives the server's notices and errors.
	Logf func(format string, args ...any)
	// MaxPayload is the largest message, in bytes, the server accepts
	// from a client (NATS max_payload); 0 means DefaultMaxPayload. A
	// result whose per-job records would pass it (less a KiB for
	// headers) travels through the jobs object store (see the package
	// comment); a parcel of cells over it is sent one cell a message.
	MaxPayload int
}

// DefaultMaxPayload is the embedded server's max_payload when
// Options.MaxPayload is 0: 8 MiB, eight times a stock nats-server's, so
// that results with the per-job records of a trace of tens of thousands of
// jobs go in one message.
const DefaultMaxPayload = 8 << 20

// Bounds on Options.MaxPayload: below a few KiB a cell with its parameters
// may not fit, and NATS itself refuses more than 64 MiB.
const (
	minMaxPayload = 4 << 10
	maxMaxPayload = 64 << 20
)

// ClusterOptions join a server to a NATS cluster. Three servers, each
// listing the others (or all three) as routes, form a JetStream cluster in
// which the farm's streams keep three replicas (see Topology).
type ClusterOptions struct {
	// Name of the cluster, the same on every server; empty for a single
	// server.
	Name string
	// Host and Port to listen on for routes from the other servers.
	Host string
	Port int
	// Routes are the other servers' route URLs, e.g. nats://b2:6222; a
	// server's own URL may be among them (it is recognised and skipped).
	Routes []string
}

// RouteUser is the user name routes authenticate with when the server has
// a token: the token is its password, so one secret guards clients and
// routes alike.
const RouteUser = "schedfarm-route"

// IsLoopback reports whether host (a name or an address) is a loopback
// address: "localhost", 127.0.0.0/8 or ::1. The empty host and 0.0.0.0 /
// :: mean every interface, which is not loopback.
func IsLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func (o Options) hasCredentials() bool { return o.User != "" || o.Token != "" }

// Validate reports every problem of o at once.
func (o Options) Validate() error {
	var errs []error
	if o.StoreDir == "" {
		errs = append(errs, errors.New("store directory: empty; want a directory path for the JetStream file store"))
	}
	if o.Port < -1 || o.Port > 65535 {
		errs = append(errs, fmt.Errorf("port %d: want -1 (any free port) or 0..65535", o.Port))
	}
	if (o.User == "") != (o.Password == "") {
		errs = append(errs, errors.New("user and password: only one of the two is set; want both or neither"))
	}
	if o.User != "" && o.Token != "" {
		errs = append(errs, errors.New("credentials: both user/password and token are set; want one form or none"))
	}
	if (o.TLSCert == "") != (o.TLSKey == "") {
		errs = append(errs, errors.New("TLS: only one of certificate and key is set; want both PEM files or neither"))
	}
	if !o.NoListen && !IsLoopback(o.Host) && !o.hasCredentials() && !o.Insecure {
		errs = append(errs, fmt.Errorf("listening on %s with no credentials: anyone who reaches the port could run cells and read results; "+
			"want a token or user/password (--token, SCHEDFARM_NATS_TOKEN), a loopback address (--listen 127.0.0.1:4222), or --insecure to allow it", hostOrAll(o.Host)))
	}
	if o.MaxPayload != 0 && (o.MaxPayload < minMaxPayload || o.MaxPayload > maxMaxPayload) {
		errs = append(errs, fmt.Errorf("max payload %d bytes: want 0 (the default, %d) or %d..%d", o.MaxPayload, DefaultMaxPayload, minMaxPayload, maxMaxPayload))
	}
	c := o.Cluster
	clustered := c.Name != "" || c.Port != 0 || len(c.Routes) > 0
	if clustered {
		if c.Name == "" {
			errs = append(errs, errors.New("cluster name: empty; want the same name on every server of the cluster (--cluster-name)"))
		}
		if o.Name == "" {
			errs = append(errs, errors.New("server name: empty; every server of a cluster needs a name of its own (--server-name)"))
		}
		if c.Port < -1 || c.Port == 0 || c.Port > 65535 {
			errs = append(errs, fmt.Errorf("cluster port %d: want -1 (any free port) or 1..65535 (--cluster host:port, e.g. 0.0.0.0:6222)", c.Port))
		}
		if o.NoListen {
			errs = append(errs, errors.New("cluster: a server without a client listener cannot be part of a cluster"))
		}
		if !IsLoopback(c.Host) && !o.hasCredentials() && !o.Insecure {
			errs = append(errs, fmt.Errorf("cluster listener on %s with no credentials: any server that reaches the port could join the cluster; "+
				"want a token or user/password (routes authenticate with them), a loopback address, or --insecure", hostOrAll(c.Host)))
		}
		for i, r := range c.Routes {
			u, err := url.Parse(r)
			if err != nil || u.Host == "" || (u.Scheme != "nats" && u.Scheme != "nats-route") {
				errs = append(errs, fmt.Errorf("route %d %q: want nats://host:port, e.g. nats://broker2:6222", i+1, r))
			}
		}
	}
	return errors.Join(errs...)
}

// maxPayload is the server's max_payload: Options.MaxPayload, or
// DefaultMaxPayload when it is 0.
func (o Options) maxPayload() int {
	if o.MaxPayload == 0 {
		return DefaultMaxPayload
	}
	return o.MaxPayload
}

// hostOrAll names a listen host for messages.
func hostOrAll(h string) string {
	switch h {
	case "", "0.0.0.0", "::":
		return "every interface"
	}
	return h
}

// routeURLs parses the routes and gives each the route credentials derived
// from the server's own (unless it carries credentials of its own).
func (o Options) routeURLs() []*url.URL {
	var urls []*url.URL
	for _, r := range o.Cluster.Routes {
		u, err := url.Parse(strings.TrimSpace(r))
		if err != nil {
			continue // reported by Validate
		}
		if u.User == nil {
			switch {
			case o.User != "":
				u.User = url.UserPassword(o.User, o.Password)
			case o.Token != "":
				u.User = url.UserPassword(RouteUser, o.Token)
			}
		}
		urls = append(urls, u)
	}
	return urls
}

// Server is a running embedded NATS server with JetStream.
type Server struct {
	ns   *server.Server
	opts Options
}

// Start validates o, creates the store directory and starts the server,
// waiting until it accepts connections.
func Start(o Options) (*Server, error) {
	if err := o.Validate(); err != nil {
		return nil, fmt.Errorf("embedded NATS server: %w", err)
	}
	if err := os.MkdirAll(o.StoreDir, 0o755); err != nil {
		return nil, fmt.Errorf("embedded NATS server: create store directory: %w", err)
	}
	name := o.Name
	if name == "" {
		name = "schedfarm"
	}
	so := &server.Options{
		ServerName:    name,
		Host:          o.Host,
		Port:          o.Port,
		DontListen:    o.NoListen,
		JetStream:     true,
		StoreDir:      o.StoreDir,
		Username:      o.User,
		Password:      o.Password,
		Authorization: o.Token,
		NoSigs:        true,
		NoLog:         o.Logf == nil,
		HTTPPort:      0,
		MaxPayload:    int32(o.maxPayload()), // within 64 MiB: Validate
		// Nearly every farm subject is used once: a cell's and its
		// result's subjects name the cell, acks and publish replies go to
		// unique inboxes. The account's subject-match cache never hits on
		// such subjects and only churns (for every message a copy of the
		// subject, a map insert under the write lock, and past 1,024
		// entries a goroutine that drops them to 256), so it is off:
		// the farm benchmarks 2–7% less CPU a cell (docs/performance-log.md,
		// "Twenty-third session").
		NoSublistCache: true,
	}
	if so.Host == "" {
		so.Host = "0.0.0.0"
	}
	if c := o.Cluster; c.Name != "" {
		so.Cluster = server.ClusterOpts{Name: c.Name, Host: c.Host, Port: c.Port}
		switch {
		case o.User != "":
			so.Cluster.Username, so.Cluster.Password = o.User, o.Password
		case o.Token != "":
			so.Cluster.Username, so.Cluster.Password = RouteUser, o.Token
		}
		if so.Cluster.Host == "" {
			so.Cluster.Host = "0.0.0.0"
		}
		so.Routes = o.routeURLs()
	}
	if o.TLSCert != "" {
		tc, err := server.GenTLSConfig(&server.TLSConfigOpts{CertFile: o.TLSCert, KeyFile: o.TLSKey})
		if err != nil {
			return nil, fmt.Errorf("embedded NATS server: load TLS certificate %s and key %s: %w", o.TLSCert, o.TLSKey, err)
		}
		so.TLSConfig = tc
		so.TLS = true
		so.TLSTimeout = 5
	}
	ns, err := server.NewServer(so)
	if err != nil {
		return nil, fmt.Errorf("embedded NATS server: %w", err)
	}
	if o.Logf != nil {
		ns.SetLoggerV2(logAdapter{o.Logf}, false, false, false)
	}
	ns.Start()
	if !ns.ReadyForConnections(30 * time.Second) {
		ns.Shutdown()
		return nil, fmt.Errorf("embedded NATS server: not ready for connections after 30s (listen %s:%d, store %s)", so.Host, so.Port, o.StoreDir)
	}
	return &Server{ns: ns, opts: o}, nil
}

// ClientURL is the URL clients on this machine use to reach the server
// ("nats://127.0.0.1:port"); empty when the server does not listen.
func (s *Server) ClientURL() string {
	if s.opts.NoListen {
		return ""
	}
	addr, ok := s.ns.Addr().(*net.TCPAddr)
	if !ok {
		return s.ns.ClientURL()
	}
	host := s.opts.Host
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "127.0.0.1"
	}
	scheme := "nats"
	if s.opts.TLSCert != "" {
		scheme = "tls"
	}
	return scheme + "://" + net.JoinHostPort(host, strconv.Itoa(addr.Port))
}

// ClusterAddr is the address the server listens on for routes ("" when it
// is not part of a cluster); with a cluster port of -1 it tells the port
// picked.
func (s *Server) ClusterAddr() string {
	if s.opts.Cluster.Name == "" {
		return ""
	}
	addr := s.ns.ClusterAddr()
	if addr == nil {
		return ""
	}
	return addr.String()
}

// Name is the server's name.
func (s *Server) Name() string { return s.ns.Name() }

// Connect opens an in-process client connection to the server with its own
// credentials, whatever its listener settings.
func (s *Server) Connect(name string) (*nats.Conn, error) {
	opts := []nats.Option{nats.InProcessServer(s.ns), nats.Name(name), nats.MaxReconnects(-1)}
	switch {
	case s.opts.User != "":
		opts = append(opts, nats.UserInfo(s.opts.User, s.opts.Password))
	case s.opts.Token != "":
		opts = append(opts, nats.Token(s.opts.Token))
	}
	nc, err := nats.Connect("", opts...)
	if err != nil {
		return nil, fmt.Errorf("connect in-process to the embedded NATS server: %w", err)
	}
	return nc, nil
}

// Shutdown stops the server and waits until it is down.
func (s *Server) Shutdown() {
	s.ns.Shutdown()
	s.ns.WaitForShutdown()
}

// WaitForShutdown blocks until the server is shut down.
func (s *Server) WaitForShutdown() { s.ns.WaitForShutdown() }

type logAdapter struct{ logf func(string, ...any) }

func (l logAdapter) Noticef(format string, v ...any) { l.logf("nats: "+format, v...) }
func (l logAdapter) Warnf(format string, v ...any)   { l.logf("nats warning: "+format, v...) }
func (l logAdapter) Fatalf(format string, v ...any)  { l.logf("nats fatal: "+format, v...) }
func (l logAdapter) Errorf(format string, v ...any)  { l.logf("nats error: "+format, v...) }
func (l logAdapter) Debugf(format string, v ...any)  {}
func (l logAdapter) Tracef(format string, v ...any)  {}
