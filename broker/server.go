package broker

import (
	"errors"
	"fmt"
	"net"
	"os"
	"strconv"
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
	Name string
	// Logf, when set, receives the server's notices and errors.
	Logf func(format string, args ...any)
}

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
	return errors.Join(errs...)
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
		MaxPayload:    8 << 20,
	}
	if so.Host == "" {
		so.Host = "0.0.0.0"
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
