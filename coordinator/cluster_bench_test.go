package coordinator_test

import (
	"context"
	"fmt"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/schedfarm/schedfarm/broker"
	"github.com/schedfarm/schedfarm/coordinator"
	"github.com/schedfarm/schedfarm/worker"
)

// startBrokers starts n brokers on loopback TCP with a token; with n > 1
// they form a JetStream cluster (each lists every one as a route). It
// returns their client URLs, comma-separated.
func startBrokers(b *testing.B, n int) string {
	b.Helper()
	var routes []string
	if n > 1 {
		var ls []net.Listener
		for range n {
			l, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				b.Fatal(err)
			}
			ls = append(ls, l)
			routes = append(routes, "nats://"+l.Addr().String())
		}
		for _, l := range ls {
			l.Close()
		}
	}
	dir := b.TempDir()
	var urls []string
	for i := range n {
		o := broker.Options{Host: "127.0.0.1", Port: -1, Token: "bench", StoreDir: filepath.Join(dir, fmt.Sprint(i)), Name: fmt.Sprintf("b%d", i+1)}
		if n > 1 {
			_, port, _ := net.SplitHostPort(strings.TrimPrefix(routes[i], "nats://"))
			var p int
			fmt.Sscan(port, &p)
			o.Cluster = broker.ClusterOptions{Name: "bench", Host: "127.0.0.1", Port: p, Routes: routes}
		}
		srv, err := broker.Start(o)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(srv.Shutdown)
		urls = append(urls, srv.ClientURL())
	}
	return strings.Join(urls, ",")
}

// BenchmarkClusterThroughput measures cells per second of trivial cells
// (the simulation does nothing) through one broker and through a
// three-broker JetStream cluster whose streams have three replicas. All
// brokers run in this process on loopback TCP with file stores; the
// coordinator and a 2-slot worker each have their own TCP connection,
// given every broker's URL (so on the cluster they may sit on different
// brokers). What it shows is the cost of replication per cell, with the
// brokers sharing the machine's cores with the clients. The streams are
// created by a first, untimed sweep (on a fresh cluster that takes seconds:
// JetStream elects its leaders).
func BenchmarkClusterThroughput(b *testing.B) {
	for _, n := range []int{1, 3} {
		b.Run(fmt.Sprintf("brokers=%d", n), func(b *testing.B) {
			urls := startBrokers(b, n)
			dial := func(name string) jetstream.JetStream {
				nc, err := broker.Dial(broker.ClientOptions{URL: urls, Token: "bench", Name: name, ConnectTimeout: 30 * time.Second})
				if err != nil {
					b.Fatal(err)
				}
				b.Cleanup(nc.Close)
				js, err := jetstream.New(nc)
				if err != nil {
					b.Fatal(err)
				}
				return js
			}
			coordJS, workJS := dial("coordinator"), dial("worker")
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() {
				done <- worker.Run(ctx, workJS, worker.Config{ID: "bench", Slots: 2, Runner: worker.RunnerFunc(okRunner), Gate: worker.DecodeOnly{}})
			}()
			defer func() {
				cancel()
				if err := <-done; err != nil {
					b.Error(err)
				}
			}()
			sweep := func(exp string, n int) time.Duration {
				cells := ownIDs(makeCells(exp, n))
				start := time.Now()
				sum, err := coordinator.Run(context.Background(), coordJS, coordinator.Config{Experiment: exp, Cells: cells, Sink: newMemSink()})
				wall := time.Since(start)
				if err != nil {
					b.Fatal(err)
				}
				if sum.OK != len(cells) {
					b.Fatalf("%d of %d cells ok", sum.OK, len(cells))
				}
				return wall
			}
			// The first sweep creates the streams, which on a cluster waits
			// for it to elect its leaders: not what is measured.
			b.Logf("first sweep of 10 cells, creating the streams: %v", sweep("cluster-warmup", 10).Round(time.Millisecond))
			var total time.Duration
			cellsRun, iter := 0, 0
			for b.Loop() {
				iter++
				total += sweep(fmt.Sprintf("cluster-%d", iter), 500)
				cellsRun += 500
			}
			st, err := coordJS.Stream(context.Background(), broker.CellsStream)
			if err != nil {
				b.Fatal(err)
			}
			if r := st.CachedInfo().Config.Replicas; r != min(n, 3) {
				b.Fatalf("cells stream has %d replicas; want %d", r, min(n, 3))
			}
			b.ReportMetric(float64(cellsRun)/total.Seconds(), "cells/s")
		})
	}
}
