package main

import (
	"context"
	"fmt"
	"github.com/schedfarm/schedfarm/internal/buildinfo"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"syscall"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/schedfarm/schedfarm/broker"
	"github.com/schedfarm/schedfarm/worker"
)

// runRun runs `schedfarm run`: coordinator and local workers in one
// process, on an embedded NATS server unless --nats names one.
func runRun(args []string, stdout, stderr io.Writer) int {
	fs := farmFlagSet("run", "run [--workers N] [--state DIR] [--nats URL [credentials]] spec.yaml", stdout, stderr)
	workers := fs.Int("workers", runtime.NumCPU(), "cells simulated concurrently in this process (0 with --nats: only remote workers)")
	state := fs.String("state", "", "directory of the embedded server's JetStream store (default .schedfarm/ beside the output)")
	var sf sweepFlags
	sf.register(fs)
	path, exit := sf.parse(fs, "run", args, stdout, stderr)
	if exit >= 0 {
		return exit
	}
	if *workers < 0 || (*workers == 0 && sf.nats.url == "") {
		fmt.Fprintf(stderr, "schedfarm run: --workers %d: want at least 1 (0 only with --nats, when remote workers do the work)\n", *workers)
		return 2
	}
	spec, err := farmLoadSpec(path)
	if err != nil {
		fmt.Fprintf(stderr, "schedfarm run: %v\n", err)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	var coordConn, workConn *nats.Conn
	if sf.nats.url == "" {
		dir := *state
		if dir == "" {
			dir = filepath.Join(filepath.Dir(spec.Output), ".schedfarm")
		}
		srv, err := broker.Start(broker.Options{NoListen: true, StoreDir: dir, Name: "schedfarm-run"})
		if err != nil {
			fmt.Fprintf(stderr, "schedfarm run: %v\n", err)
			return 1
		}
		defer srv.Shutdown()
		if coordConn, err = srv.Connect("schedfarm run coordinator"); err == nil {
			workConn, err = srv.Connect("schedfarm run workers")
		}
		if err != nil {
			fmt.Fprintf(stderr, "schedfarm run: %v\n", err)
			return 1
		}
	} else {
		if coordConn, err = farmDial(sf.nats, "schedfarm run coordinator "+spec.Name, stderr); err == nil {
			workConn, err = farmDial(sf.nats, "schedfarm run workers "+spec.Name, stderr)
		}
		if err != nil {
			fmt.Fprintf(stderr, "schedfarm run: %v\n", err)
			return 1
		}
	}
	defer coordConn.Close()
	defer workConn.Close()

	workCtx, stopWorkers := context.WithCancel(context.Background())
	defer stopWorkers()
	workDone := make(chan error, 1)
	if *workers > 0 {
		js, err := jetstream.New(workConn)
		if err != nil {
			fmt.Fprintf(stderr, "schedfarm run: %v\n", err)
			return 1
		}
		host, _ := os.Hostname()
		go func() {
			workDone <- worker.Run(workCtx, js, worker.Config{ID: fmt.Sprintf("%s-%d", host, os.Getpid()), Slots: *workers,
				Runner: farmCellRunner(), Grace: 5 * time.Second, Topology: sf.topo.topology(),
				Version: buildinfo.Version, Commit: buildinfo.Commit(),
				Logf: func(f string, a ...any) { fmt.Fprintf(stderr, f+"\n", a...) }})
		}()
	} else {
		workDone <- nil
	}
	code := farmCoordinate(ctx, coordConn, spec, sf.topo.topology(), sf.every, stdout, stderr)
	stopWorkers()
	if err := <-workDone; err != nil {
		fmt.Fprintf(stderr, "schedfarm run: workers: %v\n", err)
		code = 1
	}
	return code
}
