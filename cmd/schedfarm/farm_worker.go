package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/schedfarm/schedfarm/broker"
	"github.com/schedfarm/schedfarm/internal/buildinfo"
	"github.com/schedfarm/schedfarm/worker"
)

// runWorker runs `schedfarm worker`: pull cells from a NATS server until
// SIGINT or SIGTERM, then drain and exit 0.
func runWorker(args []string, stdout, stderr io.Writer) int {
	fs := farmFlagSet("worker", "worker --nats URL [--slots N] [--id NAME] [--grace D] [credentials]", stdout, stderr)
	var nf natsFlags
	nf.register(fs)
	slots := fs.Int("slots", runtime.NumCPU(), "cells run concurrently (one per CPU is right for CPU-bound simulations)")
	id := fs.String("id", os.Getenv("SCHEDFARM_WORKER_ID"), "worker name in results and logs; host name and pid when empty (env SCHEDFARM_WORKER_ID)")
	grace := fs.Duration("grace", 30*time.Second, "on SIGTERM, how long running cells may take to finish before they are handed back to the queue")
	quiet := fs.Bool("q", false, "log only errors")
	var lim cellLimitFlags
	lim.register(fs)
	runCell := fs.Bool("run-cell", false, "run one JSON cell read from stdin, write its JSON result to stdout and exit (the child process of a worker with a cell budget)")
	var dataRoot string
	registerDataRoot(fs, &dataRoot)
	pos, exit := farmParseArgs(fs, args, stdout)
	if exit >= 0 {
		return exit
	}
	if len(pos) > 0 {
		fmt.Fprintf(stderr, "schedfarm worker: unexpected argument %q; want flags only\n", pos[0])
		return 2
	}
	if err := lim.apply(); err != nil {
		fmt.Fprintf(stderr, "schedfarm worker: %v\n", err)
		return 2
	}
	if *runCell {
		return farmServeCell(os.Stdin, stdout, stderr)
	}
	runner, err := lim.runner()
	if err != nil {
		fmt.Fprintf(stderr, "schedfarm worker: %v\n", err)
		return 2
	}
	if *slots < 1 {
		fmt.Fprintf(stderr, "schedfarm worker: --slots %d: want at least 1\n", *slots)
		return 2
	}
	nc, err := farmDial(nf, strings.TrimSpace("schedfarm worker "+*id), stderr)
	if err != nil {
		fmt.Fprintf(stderr, "schedfarm worker: %v\n", err)
		return 1
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		fmt.Fprintf(stderr, "schedfarm worker: %v\n", err)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	logf := func(f string, a ...any) { fmt.Fprintf(stderr, f+"\n", a...) }
	if !*quiet {
		fmt.Fprintf(stderr, "schedfarm worker: %d slots on %s\n", *slots, nc.ConnectedUrlRedacted())
	}
	err = worker.Run(ctx, js, worker.Config{ID: *id, Slots: *slots, Runner: runner, Grace: *grace, Catalog: specCatalog(),
		Version: buildinfo.Version, Commit: buildinfo.Commit(), Logf: logf, Topology: broker.Topology{Logf: logf}, DataRoot: dataRoot})
	if err != nil {
		fmt.Fprintf(stderr, "schedfarm worker: %v\n", err)
		return 1
	}
	if !*quiet {
		fmt.Fprintln(stderr, "schedfarm worker: stopped")
	}
	return 0
}
