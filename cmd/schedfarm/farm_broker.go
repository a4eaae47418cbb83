package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"strconv"
	"syscall"

	"github.com/schedfarm/schedfarm/broker"
)

// runBroker runs a standalone embedded NATS server with JetStream until
// SIGINT or SIGTERM.
func runBroker(args []string, stdout, stderr io.Writer) int {
	fs := farmFlagSet("broker", "broker [--listen host:port] [--store DIR] [--user U --password P | --token T] [--tls-cert F --tls-key F]", stdout, stderr)
	listen := fs.String("listen", farmEnvOr("SCHEDFARM_BROKER_LISTEN", "0.0.0.0:4222"), "address to listen on for clients (env SCHEDFARM_BROKER_LISTEN)")
	store := fs.String("store", farmEnvOr("SCHEDFARM_BROKER_STORE", ".schedfarm-broker"), "JetStream file store directory (env SCHEDFARM_BROKER_STORE)")
	user := fs.String("user", os.Getenv(envUser), "require this user name (env "+envUser+")")
	password := fs.String("password", os.Getenv(envPassword), "password of --user (env "+envPassword+")")
	token := fs.String("token", os.Getenv(envToken), "require this token instead of user/password (env "+envToken+")")
	cert := fs.String("tls-cert", os.Getenv("SCHEDFARM_BROKER_TLS_CERT"), "PEM server certificate; with --tls-key, clients must use TLS (env SCHEDFARM_BROKER_TLS_CERT)")
	key := fs.String("tls-key", os.Getenv("SCHEDFARM_BROKER_TLS_KEY"), "PEM server key (env SCHEDFARM_BROKER_TLS_KEY)")
	verbose := fs.Bool("v", false, "log the NATS server's notices")
	pos, exit := farmParseArgs(fs, args, stdout)
	if exit >= 0 {
		return exit
	}
	if len(pos) > 0 {
		fmt.Fprintf(stderr, "schedfarm broker: unexpected argument %q; want flags only\n", pos[0])
		return 2
	}
	host, portStr, err := net.SplitHostPort(*listen)
	port, perr := strconv.Atoi(portStr)
	if err != nil || perr != nil {
		fmt.Fprintf(stderr, "schedfarm broker: --listen %q: want host:port, e.g. 0.0.0.0:4222\n", *listen)
		return 2
	}
	opts := broker.Options{Host: host, Port: port, StoreDir: *store, User: *user, Password: *password,
		Token: *token, TLSCert: *cert, TLSKey: *key}
	if *verbose {
		opts.Logf = func(f string, a ...any) { fmt.Fprintf(stderr, f+"\n", a...) }
	}
	srv, err := broker.Start(opts)
	if err != nil {
		fmt.Fprintf(stderr, "schedfarm broker: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "schedfarm broker: listening on %s (JetStream store %s)\n", srv.ClientURL(), *store)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	<-ctx.Done()
	fmt.Fprintln(stdout, "schedfarm broker: shutting down")
	srv.Shutdown()
	return 0
}

func farmEnvOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}
