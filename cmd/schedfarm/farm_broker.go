package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"

	"github.com/schedfarm/schedfarm/broker"
)

// runBroker runs a standalone embedded NATS server with JetStream until
// SIGINT or SIGTERM.
func runBroker(args []string, stdout, stderr io.Writer) int {
	fs := farmFlagSet("broker", "broker [--listen host:port] [--store DIR] [--user U --password P | --token T] [--tls-cert F --tls-key F]\n"+
		"         [--server-name NAME --cluster-name NAME --cluster host:port --routes nats://host:port,...] [--max-payload BYTES] [--insecure]", stdout, stderr)
	listen := fs.String("listen", farmEnvOr("SCHEDFARM_BROKER_LISTEN", "0.0.0.0:4222"), "address to listen on for clients (env SCHEDFARM_BROKER_LISTEN)")
	store := fs.String("store", farmEnvOr("SCHEDFARM_BROKER_STORE", ".schedfarm-broker"), "JetStream file store directory (env SCHEDFARM_BROKER_STORE)")
	user := fs.String("user", os.Getenv(envUser), "require this user name (env "+envUser+")")
	password := fs.String("password", os.Getenv(envPassword), "password of --user (env "+envPassword+")")
	token := fs.String("token", os.Getenv(envToken), "require this token instead of user/password (env "+envToken+")")
	cert := fs.String("tls-cert", os.Getenv("SCHEDFARM_BROKER_TLS_CERT"), "PEM server certificate; with --tls-key, clients must use TLS (env SCHEDFARM_BROKER_TLS_CERT)")
	key := fs.String("tls-key", os.Getenv("SCHEDFARM_BROKER_TLS_KEY"), "PEM server key (env SCHEDFARM_BROKER_TLS_KEY)")
	serverName := fs.String("server-name", os.Getenv("SCHEDFARM_BROKER_NAME"), "name of this server; each server of a cluster needs its own (env SCHEDFARM_BROKER_NAME)")
	clusterName := fs.String("cluster-name", os.Getenv("SCHEDFARM_CLUSTER_NAME"), "join a NATS cluster of this name, the same on every server (env SCHEDFARM_CLUSTER_NAME)")
	clusterListen := fs.String("cluster", farmEnvOr("SCHEDFARM_CLUSTER_LISTEN", "0.0.0.0:6222"), "address to listen on for routes from the other servers, with --cluster-name (env SCHEDFARM_CLUSTER_LISTEN)")
	routes := fs.String("routes", os.Getenv("SCHEDFARM_CLUSTER_ROUTES"), "comma-separated route URLs of the cluster's servers, e.g. nats://b1:6222,nats://b2:6222,nats://b3:6222 (env SCHEDFARM_CLUSTER_ROUTES)")
	maxPayload := fs.Int("max-payload", 0, fmt.Sprintf("largest message a client may send, in bytes (NATS max_payload); 0: %d. A result whose per-job records pass it goes through the jobs object store", broker.DefaultMaxPayload))
	insecure := fs.Bool("insecure", os.Getenv("SCHEDFARM_BROKER_INSECURE") == "1", "allow listening beyond loopback with no credentials (env SCHEDFARM_BROKER_INSECURE=1)")
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
		Token: *token, TLSCert: *cert, TLSKey: *key, Name: *serverName, Insecure: *insecure, MaxPayload: *maxPayload}
	if *clusterName != "" || *routes != "" {
		ch, cp, err := net.SplitHostPort(*clusterListen)
		cport, perr := strconv.Atoi(cp)
		if err != nil || perr != nil {
			fmt.Fprintf(stderr, "schedfarm broker: --cluster %q: want host:port, e.g. 0.0.0.0:6222\n", *clusterListen)
			return 2
		}
		opts.Cluster = broker.ClusterOptions{Name: *clusterName, Host: ch, Port: cport}
		for _, r := range strings.Split(*routes, ",") {
			if r = strings.TrimSpace(r); r != "" {
				opts.Cluster.Routes = append(opts.Cluster.Routes, r)
			}
		}
	}
	if *verbose {
		opts.Logf = func(f string, a ...any) { fmt.Fprintf(stderr, f+"\n", a...) }
	}
	srv, err := broker.Start(opts)
	if err != nil {
		fmt.Fprintf(stderr, "schedfarm broker: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "schedfarm broker: %s (JetStream store %s)\n", listeningOn(host, srv.ClientURL()), *store)
	if addr := srv.ClusterAddr(); addr != "" {
		fmt.Fprintf(stdout, "schedfarm broker: server %s of cluster %s, routes on %s to %s\n", srv.Name(), opts.Cluster.Name, addr, strings.Join(opts.Cluster.Routes, ","))
	}
	switch {
	case *insecure && !broker.IsLoopback(host) && *user == "" && *token == "":
		fmt.Fprintf(stderr, "schedfarm broker: WARNING: --insecure: listening on %s with no credentials; anyone who reaches the port can run cells and read results\n", *listen)
	case !broker.IsLoopback(host) && *cert == "":
		fmt.Fprintf(stderr, "schedfarm broker: note: no TLS (--tls-cert, --tls-key): credentials and results travel in clear text; fine on a private network, not beyond\n")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	<-ctx.Done()
	fmt.Fprintln(stdout, "schedfarm broker: shutting down")
	srv.Shutdown()
	return 0
}

// listeningOn says where the broker listens: the address it was given
// (with the port it got), and the URL clients on this host use — which
// differ for 0.0.0.0, where the server's own client URL names loopback.
func listeningOn(host, clientURL string) string {
	port := clientURL
	if i := strings.LastIndexByte(clientURL, ':'); i >= 0 {
		port = clientURL[i+1:]
	}
	addr := net.JoinHostPort(host, port)
	switch host {
	case "", "0.0.0.0", "::":
		return fmt.Sprintf("listening on %s, every interface (on this host: %s)", addr, clientURL)
	}
	return fmt.Sprintf("listening on %s (clients: %s)", addr, clientURL)
}

func farmEnvOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}
