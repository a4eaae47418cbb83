package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strings"
	"syscall"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/schedfarm/schedfarm/broker"
	"github.com/schedfarm/schedfarm/internal/buildinfo"
	"github.com/schedfarm/schedfarm/internal/lockfile"
	"github.com/schedfarm/schedfarm/worker"
)

// runRun runs `schedfarm run`: coordinator and local workers in one
// process, on an embedded NATS server unless --nats names one.
func runRun(args []string, stdout, stderr io.Writer) int {
	fs := farmFlagSet("run", "run [--workers N] [--state DIR] [--nats URL [credentials]] spec.yaml", stdout, stderr)
	withExitCodes(fs)
	workers := fs.Int("workers", runtime.NumCPU(), "cells simulated concurrently in this process (0 with --nats: only remote workers)")
	state := fs.String("state", "", "directory of the embedded server's JetStream store, scratch space of this run: emptied when it starts and when it completes (default .schedfarm/<output file name>/ beside the output)")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of this process to this file for go tool pprof: the in-process workers' cells (where a spec's cells spend their time), the coordinator and the embedded server; not with --cell-timeout or --cell-memory, which run each cell in a child process")
	var sf sweepFlags
	sf.register(fs)
	sf.cells.register(fs)
	path, exit := sf.parse(fs, "run", args, stdout, stderr)
	if exit >= 0 {
		return exit
	}
	if *workers < 0 || (*workers == 0 && sf.nats.url == "") {
		fmt.Fprintf(stderr, "schedfarm run: --workers %d: want at least 1 (0 only with --nats, when remote workers do the work)\n", *workers)
		return exitUsage
	}
	if err := sf.cells.apply(); err != nil {
		fmt.Fprintf(stderr, "schedfarm run: %v\n", err)
		return exitUsage
	}
	if *cpuProfile != "" {
		stopProfile, err := startCPUProfile(*cpuProfile, sf.cells.budget)
		if err != nil {
			fmt.Fprintf(stderr, "schedfarm run: --cpuprofile %s: %v\n", *cpuProfile, err)
			return exitUsage
		}
		defer stopProfile()
	}
	spec, err := farmLoadSpec(path)
	if err != nil {
		fmt.Fprintf(stderr, "schedfarm run: %v\n", err)
		return exitError
	}
	if err := sf.grid.check(path, len(spec.Cells())); err != nil {
		fmt.Fprintf(stderr, "schedfarm run: %v\n", err)
		return exitError
	}
	// The output is checked and owned before the embedded server (and its
	// store) exists: a second run of the experiment stops here.
	out, done, code := farmPrepare("run", path, spec, sf, stderr)
	if code != exitOK {
		return code
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	dir := *state
	if dir == "" {
		dir = defaultStateDir(spec.Output)
	}
	farm, err := startFarm(sf, *workers, dir, "schedfarm run", spec.Name, stderr)
	if err != nil {
		out.Abandon()
		return exitFor(stderr, "run", path, err)
	}
	defer farm.close()
	code = farmCoordinate(ctx, farm.coord, spec, out, done, sf.topology(), sf.dispatch, sf.every, sf.dataRoot, sf.parcelSize(), stdout, stderr)
	if err := farm.stopWorkers(); err != nil {
		fmt.Fprintf(stderr, "schedfarm run: workers: %v\n", err)
		code = exitError
	}
	if code == exitOK || code == exitCellsFailed {
		farm.complete = true // the sweep is whole: its store is of no more use
	}
	return code
}

// discardStreams deletes the embedded server's streams before it shuts
// down, when the sweep is whole and its store is about to be removed. A
// server's shutdown keeps its streams for a restart: it tells the pull
// requests still waiting (the idle workers') that it is going away and
// then sleeps 50 ms for the word to get out, and it waits for each
// consumer's state to be flushed, in steps of 10 ms (nats-server v2.15's
// signalPullConsumers and consumerFileStore.waitOnFlusher): about 85 ms
// of every run's end on the development VM, spent on a store that is
// deleted right after. A deleted stream takes its consumers and their
// waiting requests with it and is not flushed. It is best effort: what a
// deletion leaves, the removal of the store takes.
func (f *localFarm) discardStreams() {
	js, err := jetstream.New(f.coord)
	if err != nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	names := js.StreamNames(ctx)
	var all []string
	for name := range names.Name() {
		all = append(all, name)
	}
	for _, name := range all {
		_ = js.DeleteStream(ctx, name)
	}
}

// startCPUProfile starts profiling this process into the file at path and
// returns the function that stops and closes it. It refuses a cell budget:
// the cells would run in child processes, outside the profile.
func startCPUProfile(path string, budget worker.Budget) (func(), error) {
	if !budget.IsZero() {
		return nil, fmt.Errorf("with --cell-timeout or --cell-memory each cell runs in a child process, outside this process's profile; accepted: no cell budget")
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}, nil
}

// defaultStateDir is the embedded server's store of an output when --state
// is not given: .schedfarm/<output file name>/ beside the output, one per
// output, so that runs of two experiments in one directory never share it.
func defaultStateDir(output string) string {
	return filepath.Join(filepath.Dir(output), ".schedfarm", filepath.Base(output))
}

// localFarm is what `run` and `tune` start: a coordinator connection and
// this process's workers, on an embedded server or a remote one.
type localFarm struct {
	coord, work *nats.Conn
	srv         interface{ Shutdown() }
	cancel      context.CancelFunc
	done        chan error
	// store is the embedded server's JetStream store and lock its owner
	// lock (nil on a remote broker); complete says the sweep is whole, so
	// close empties the store.
	store    string
	lock     *lockfile.Lock
	complete bool
}

// startFarm connects to the broker sf names, or starts an embedded one with
// its store in stateDir, and starts workers local worker slots (none with
// 0). who names the process in connection names; exp the experiment.
func startFarm(sf sweepFlags, workers int, stateDir, who, exp string, stderr io.Writer) (*localFarm, error) {
	f := &localFarm{done: make(chan error, 1)}
	var err error
	if sf.nats.url == "" {
		// The embedded server is this process's alone (it listens on no
		// port): its store holds nothing a later run needs (the journal
		// has every result), so it is owned while the run lasts and
		// emptied first; a store left by a crash, or torn by two servers,
		// can then never stall a sweep.
		if err := os.MkdirAll(stateDir, 0o755); err != nil {
			return nil, fmt.Errorf("embedded broker store %s: %w", stateDir, err)
		}
		if f.lock, err = lockfile.Acquire(filepath.Join(stateDir, "owner.lock"), lockfile.Self(who+" of experiment "+exp)); err != nil {
			return nil, fmt.Errorf("the embedded broker's store %s has an owner already: %w: wait for it to end, or give this run another --state DIR", stateDir, err)
		}
		f.store = filepath.Join(stateDir, "jetstream")
		if err := os.RemoveAll(f.store); err != nil {
			f.close()
			return nil, fmt.Errorf("emptying the embedded broker store %s: %w", f.store, err)
		}
		srv, serr := broker.Start(broker.Options{NoListen: true, StoreDir: stateDir, Name: strings.ReplaceAll(who, " ", "-")})
		if serr != nil {
			f.close()
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
		f.done <- worker.Run(workCtx, js, worker.Config{ID: fmt.Sprintf("%s-%d", host, os.Getpid()), Slots: workers, Catalog: specCatalog(),
			Runner: runner, Grace: 5 * time.Second, Topology: sf.topology(), DataRoot: sf.dataRoot,
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
	if f.srv != nil && f.store != "" && f.complete {
		f.discardStreams()
	}
	if f.coord != nil {
		f.coord.Close()
	}
	if f.work != nil {
		f.work.Close()
	}
	if f.srv != nil {
		f.srv.Shutdown()
		f.srv = nil
	}
	if f.store != "" && f.complete {
		_ = os.RemoveAll(f.store)
	}
	f.lock.Release()
}
