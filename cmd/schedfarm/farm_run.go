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
	"strings"
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
	sf.cells.register(fs)
	path, exit := sf.parse(fs, "run", args, stdout, stderr)
	if exit >= 0 {
		return exit
	}
	if *workers < 0 || (*workers == 0 && sf.nats.url == "") {
		fmt.Fprintf(stderr, "schedfarm run: --workers %d: want at least 1 (0 only with --nats, when remote workers do the work)\n", *workers)
		return 2
	}
	if err := sf.cells.apply(); err != nil {
		fmt.Fprintf(stderr, "schedfarm run: %v\n", err)
		return 2
	}
	spec, err := farmLoadSpec(path)
	if err != nil {
		fmt.Fprintf(stderr, "schedfarm run: %v\n", err)
		return 1
	}
	if err := sf.grid.check(path, len(spec.Cells())); err != nil {
		fmt.Fprintf(stderr, "schedfarm run: %v\n", err)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	dir := *state
	if dir == "" {
		dir = filepath.Join(filepath.Dir(spec.Output), ".schedfarm")
	}
	farm, err := startFarm(sf, *workers, dir, "schedfarm run", spec.Name, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "schedfarm run: %v\n", err)
		return 1
	}
	defer farm.close()
	code := farmCoordinate(ctx, farm.coord, spec, sf.topo.topology(), sf.every, sf.dataRoot, stdout, stderr)
	if err := farm.stopWorkers(); err != nil {
		fmt.Fprintf(stderr, "schedfarm run: workers: %v\n", err)
		code = 1
	}
	return code
}

// localFarm is what `run` and `tune` start: a coordinator connection and
// this process's workers, on an embedded server or a remote one.
type localFarm struct {
	coord, work *nats.Conn
	srv         interface{ Shutdown() }
	cancel      context.CancelFunc
	done        chan error
}

// startFarm connects to the broker sf names, or starts an embedded one with
// its store in stateDir, and starts workers local worker slots (none with
// 0). who names the process in connection names; exp the experiment.
func startFarm(sf sweepFlags, workers int, stateDir, who, exp string, stderr io.Writer) (*localFarm, error) {
	f := &localFarm{done: make(chan error, 1)}
	var err error
	if sf.nats.url == "" {
		srv, serr := broker.Start(broker.Options{NoListen: true, StoreDir: stateDir, Name: strings.ReplaceAll(who, " ", "-")})
		if serr != nil {
			return nil, serr
		}
		f.srv = srv
		if f.coord, err = srv.Connect(who + " coordinator"); err == nil {
			f.work, err = srv.Connect(who + " workers")
		}
	} else if f.coord, err = farmDial(sf.nats, who+" coordinator "+exp, stderr); err == nil {
		f.work, err = farmDial(sf.nats, who+" workers "+exp, stderr)
	}
	if err != nil {
		f.close()
		return nil, err
	}
	var workCtx context.Context
	workCtx, f.cancel = context.WithCancel(context.Background())
	if workers == 0 {
		f.done <- nil
		return f, nil
	}
	js, err := jetstream.New(f.work)
	if err != nil {
		f.close()
		return nil, err
	}
	host, _ := os.Hostname()
	runner, err := sf.cells.runner()
	if err != nil {
		f.close()
		return nil, err
	}
	go func() {
		f.done <- worker.Run(workCtx, js, worker.Config{ID: fmt.Sprintf("%s-%d", host, os.Getpid()), Slots: workers,
			Runner: runner, Grace: 5 * time.Second, Topology: sf.topo.topology(), DataRoot: sf.dataRoot,
			Version: buildinfo.Version, Commit: buildinfo.Commit(),
			Logf: func(f string, a ...any) { fmt.Fprintf(stderr, f+"\n", a...) }})
	}()
	return f, nil
}

// stopWorkers stops the local workers and returns their error.
func (f *localFarm) stopWorkers() error {
	if f.cancel == nil {
		return nil
	}
	f.cancel()
	f.cancel = nil
	return <-f.done
}

// close stops the workers and closes the connections and the server.
func (f *localFarm) close() {
	_ = f.stopWorkers()
	if f.coord != nil {
		f.coord.Close()
	}
	if f.work != nil {
		f.work.Close()
	}
	if f.srv != nil {
		f.srv.Shutdown()
	}
}
