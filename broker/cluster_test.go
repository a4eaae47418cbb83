package broker_test

import (
	"context"
	"fmt"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/schedfarm/schedfarm/broker"
)

// freePorts returns n TCP ports that were free a moment ago on 127.0.0.1.
func freePorts(t *testing.T, n int) []int {
	t.Helper()
	var ports []int
	var ls []net.Listener
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	for _, l := range ls {
		l.Close()
	}
	return ports
}

// startCluster starts three brokers on loopback that form a JetStream
// cluster, each listing all three as routes, with a token.
func startCluster(t *testing.T, token string) []*broker.Server {
	t.Helper()
	ports := freePorts(t, 3)
	var routes []string
	for _, p := range ports {
		routes = append(routes, fmt.Sprintf("nats://127.0.0.1:%d", p))
	}
	dir := t.TempDir()
	var srvs []*broker.Server
	for i := range 3 {
		srv, err := broker.Start(broker.Options{Host: "127.0.0.1", Port: -1, Token: token,
			StoreDir: filepath.Join(dir, fmt.Sprint(i)), Name: fmt.Sprintf("b%d", i+1),
			Cluster: broker.ClusterOptions{Name: "farmtest", Host: "127.0.0.1", Port: ports[i], Routes: routes}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(srv.Shutdown)
		srvs = append(srvs, srv)
	}
	return srvs
}

// dialJS connects to url with token until the test ends.
func dialJS(t *testing.T, url, token string) (*nats.Conn, jetstream.JetStream) {
	t.Helper()
	nc, err := broker.Dial(broker.ClientOptions{URL: url, Token: token, ConnectTimeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	return nc, js
}

func urls(srvs []*broker.Server) string {
	var us []string
	for _, s := range srvs {
		us = append(us, s.ClientURL())
	}
	return strings.Join(us, ",")
}

// Three brokers form a JetStream cluster: a client given all three URLs
// creates the farm's streams with three replicas, and when the cells
// stream's leader goes down the stream keeps its messages and takes new
// ones.
func TestClusterStreamsHaveThreeReplicasAndSurviveTheLeader(t *testing.T) {
	srvs := startCluster(t, "t+k/=x") // base64 characters: the token travels in route URLs
	nc, js := dialJS(t, urls(srvs), "t+k/=x")
	if !broker.Clustered(js) {
		t.Fatalf("client connected to %s reports no cluster", nc.ConnectedUrl())
	}
	ctx := context.Background()
	var notes []string
	topo := broker.Topology{Logf: func(f string, a ...any) { notes = append(notes, fmt.Sprintf(f, a...)) }}
	if _, err := broker.EnsureExists(ctx, js, topo); err != nil {
		t.Fatalf("EnsureExists on the cluster: %v (notes %q)", err, notes)
	}
	if err := broker.Ensure(ctx, js, topo); err != nil {
		t.Fatal(err)
	}
	if _, err := broker.JobsStore(ctx, js, topo); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{broker.CellsStream, broker.ResultsStream, broker.AdvisoriesStream, "OBJ_" + broker.JobsBucket} {
		st, err := js.Stream(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		info := st.CachedInfo()
		if info.Config.Replicas != 3 || info.Cluster == nil || info.Cluster.Leader == "" || len(info.Cluster.Replicas) != 2 {
			t.Errorf("stream %s: replicas %d, cluster %+v; want 3 replicas with a leader", name, info.Config.Replicas, info.Cluster)
		}
	}
	st, err := js.Stream(ctx, broker.CellsStream)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		if _, err := js.Publish(ctx, broker.CellSubject("exp", fmt.Sprint(i)), []byte("cell")); err != nil {
			t.Fatal(err)
		}
	}
	leader := st.CachedInfo().Cluster.Leader
	// A second client connected to the leader alone: it learns the other
	// servers from the cluster and fails over to one of them.
	var leaderURL string
	for _, s := range srvs {
		if s.Name() == leader {
			leaderURL = s.ClientURL()
		}
	}
	nc2, js2 := dialJS(t, leaderURL, "t+k/=x")
	for _, s := range srvs {
		if s.Name() == leader {
			t.Logf("shutting down %s, the leader of %s", leader, broker.CellsStream)
			s.Shutdown()
		}
	}
	// The stream elects a new leader, keeps the five cells and takes a
	// sixth, from either client.
	for i, js := range []jetstream.JetStream{js, js2} {
		deadline := time.Now().Add(30 * time.Second)
		for {
			pctx, cancel := context.WithTimeout(ctx, 2*time.Second)
			_, err := js.Publish(pctx, broker.CellSubject("exp", "5"), []byte("cell"), jetstream.WithMsgID("sixth"))
			cancel()
			if err == nil {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("client %d: publish after the leader went down: %v", i+1, err)
			}
		}
	}
	if u := nc2.ConnectedUrl(); u == leaderURL || u == "" {
		t.Errorf("client of the leader alone is connected to %q; want another server", u)
	}
	info, err := st.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if info.State.Msgs != 6 || info.Cluster.Leader == leader || info.Cluster.Leader == "" {
		t.Errorf("after %s went down: %d messages, leader %q; want 6 messages and a new leader", leader, info.State.Msgs, info.Cluster.Leader)
	}
}

// A single server gets one replica; a count set by hand wins, and one the
// server cannot hold is an error naming it.
func TestSingleServerReplicas(t *testing.T) {
	srv, err := broker.Start(broker.Options{Host: "127.0.0.1", Port: -1, StoreDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	nc, err := srv.Connect("test")
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	if broker.Clustered(js) {
		t.Fatal("a single server reports a cluster")
	}
	ctx := context.Background()
	err = broker.Ensure(ctx, js, broker.Topology{Replicas: 3})
	if err == nil || !strings.Contains(err.Error(), "3 replicas") {
		t.Errorf("3 replicas on a single server: %v; want an error naming the 3 replicas", err)
	}
	if err := broker.Ensure(ctx, js, broker.Topology{}); err != nil {
		t.Fatal(err)
	}
	st, err := js.Stream(ctx, broker.CellsStream)
	if err != nil {
		t.Fatal(err)
	}
	if r := st.CachedInfo().Config.Replicas; r != 1 {
		t.Errorf("replicas on a single server: %d; want 1", r)
	}
}

// A broker that listens beyond loopback without credentials refuses to
// start unless told --insecure; so does a cluster listener. Cluster
// settings are checked together.
func TestNonLoopbackNeedsCredentials(t *testing.T) {
	dir := t.TempDir()
	for _, host := range []string{"0.0.0.0", "", "::"} {
		err := broker.Options{Host: host, StoreDir: dir}.Validate()
		if err == nil || !strings.Contains(err.Error(), "no credentials") || !strings.Contains(err.Error(), "--insecure") {
			t.Errorf("host %q without credentials: %v; want a refusal naming --insecure", host, err)
		}
		if err := (broker.Options{Host: host, StoreDir: dir, Insecure: true}).Validate(); err != nil {
			t.Errorf("host %q with Insecure: %v", host, err)
		}
		if err := (broker.Options{Host: host, StoreDir: dir, Token: "t"}).Validate(); err != nil {
			t.Errorf("host %q with a token: %v", host, err)
		}
	}
	for _, host := range []string{"127.0.0.1", "localhost", "::1"} {
		if err := (broker.Options{Host: host, StoreDir: dir}).Validate(); err != nil {
			t.Errorf("loopback host %q without credentials: %v", host, err)
		}
	}
	if err := (broker.Options{NoListen: true, StoreDir: dir}).Validate(); err != nil {
		t.Errorf("no listener, no credentials: %v", err)
	}
	err := broker.Options{Host: "127.0.0.1", StoreDir: dir,
		Cluster: broker.ClusterOptions{Host: "0.0.0.0", Port: 6222, Routes: []string{"http://x", "nats://b2:6222"}}}.Validate()
	for _, want := range []string{"cluster name", "server name", "cluster listener on every interface with no credentials", `route 1 "http://x"`} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("bad cluster options: %v; want it to mention %q", err, want)
		}
	}
	if err == nil || strings.Contains(err.Error(), "route 2") {
		t.Errorf("bad cluster options: %v; route 2 is valid", err)
	}
	// A real start is refused the same way.
	if _, err := broker.Start(broker.Options{Host: "0.0.0.0", Port: -1, StoreDir: dir}); err == nil {
		t.Error("Start on 0.0.0.0 without credentials succeeded")
	}
}
