//go:build schedfarm_faults

package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/schedfarm/schedfarm/runner"
	"github.com/schedfarm/schedfarm/worker"
)

// faultCellsStarted counts the cells this process handed to a runner of
// farmWithFaults (SCHEDFARM_FAULT_GATE_AFTER, SCHEDFARM_FAULT_GATE_MARK).
var faultCellsStarted atomic.Int64

// Test-only fault injection, compiled only with -tags schedfarm_faults (the
// fault tests build the binary that way; release builds never contain it):
//
//	SCHEDFARM_FAULT_PANIC=3,7   cells with these grid indexes panic inside
//	                            the runner, on the worker's cell goroutine
//	SCHEDFARM_FAULT_DELAY=150ms wait this long before running each cell
//	SCHEDFARM_FAULT_HOLD=DIR    before running a cell, create
//	                            DIR/started-<index> and block until the cell's
//	                            context ends (a worker to kill mid-cell)
//	SCHEDFARM_FAULT_MARK=DIR    before running a cell, create
//	                            DIR/started-<index> holding the cell id, and
//	                            go on (a worker to cut off mid-cell)
//	SCHEDFARM_FAULT_HANG=2      cells with these indexes never end and ignore
//	                            their context (a cell over a wall budget)
//	SCHEDFARM_FAULT_HOG=5       cells with these indexes allocate and touch
//	                            memory without end (over a memory budget)
//	SCHEDFARM_FAULT_RUNLOG=FILE before running a cell, append its id and a
//	                            newline to FILE (the chaos soak counts runs)
//	SCHEDFARM_FAULT_GATE=FILE   before running a cell, wait until FILE exists
//	                            (or the cell's context ends): a sweep held
//	                            open until the test has done its fault, so
//	                            it cannot end before, however busy the
//	                            machine; the wait counts as the cell's run
//	                            (heartbeats go on)
//	SCHEDFARM_FAULT_GATE_FROM=4 only cells with an index of 4 or more wait
//	SCHEDFARM_FAULT_GATE_EXCEPT=0,5  cells with these indexes never wait
//	SCHEDFARM_FAULT_GATE_AFTER=14  only the cells this process starts
//	                            after its first 14 wait: a gate by progress
//	                            where no index can say where to stop (a
//	                            tune's batches reuse indexes). It counts the
//	                            cells started (handed to this runner, a
//	                            redelivered one again), atomically as each
//	                            begins, so exactly 14 pass however many
//	                            slots run at once (a count of cells finished
//	                            would let a slot start a 15th while the 14th
//	                            runs); per process, so a cell budget's child
//	                            processes (--cell-timeout) each count 1.
//	                            With GATE_FROM or GATE_EXCEPT too, a cell
//	                            waits only if every one of them says so
//	SCHEDFARM_FAULT_GATE_MARK=DIR  a cell about to wait at the gate creates
//	                            DIR/gated-<n> holding its id, n its number
//	                            among the cells this process started (1 the
//	                            first): the test knows the process is held
func farmWithFaults(r worker.Runner) worker.Runner {
	indexes := func(env string) map[int]bool {
		m := map[int]bool{}
		for _, f := range strings.Split(os.Getenv(env), ",") {
			if i, err := strconv.Atoi(strings.TrimSpace(f)); err == nil {
				m[i] = true
			}
		}
		return m
	}
	panics, hangs, hogs := indexes("SCHEDFARM_FAULT_PANIC"), indexes("SCHEDFARM_FAULT_HANG"), indexes("SCHEDFARM_FAULT_HOG")
	runLog := os.Getenv("SCHEDFARM_FAULT_RUNLOG")
	hold := os.Getenv("SCHEDFARM_FAULT_HOLD")
	mark := os.Getenv("SCHEDFARM_FAULT_MARK")
	delay, _ := time.ParseDuration(os.Getenv("SCHEDFARM_FAULT_DELAY"))
	gate := os.Getenv("SCHEDFARM_FAULT_GATE")
	gateFrom, _ := strconv.Atoi(os.Getenv("SCHEDFARM_FAULT_GATE_FROM"))
	gateExcept := indexes("SCHEDFARM_FAULT_GATE_EXCEPT")
	gateAfter, _ := strconv.ParseInt(os.Getenv("SCHEDFARM_FAULT_GATE_AFTER"), 10, 64)
	gateMark := os.Getenv("SCHEDFARM_FAULT_GATE_MARK")
	return worker.RunnerFunc(func(ctx context.Context, c runner.Cell) runner.CellResult {
		n := faultCellsStarted.Add(1)
		if runLog != "" {
			f, err := os.OpenFile(runLog, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
			if err != nil {
				panic(err)
			}
			_, err = f.WriteString(c.ID + "\n") // one write with O_APPEND: lines of concurrent workers do not mix
			f.Close()
			if err != nil {
				panic(err)
			}
		}
		if hangs[c.Index] {
			select {}
		}
		if hogs[c.Index] {
			var keep [][]byte
			for {
				b := make([]byte, 8<<20)
				for i := range b {
					b[i] = 1
				}
				keep = append(keep, b)
				// Keep every buffer reachable, so the memory only grows until
				// the kernel or the worker's limit stops the process (and so the
				// append is a use, not a dead store: staticcheck SA4010).
				runtime.KeepAlive(keep)
			}
		}
		if hold != "" {
			marker := filepath.Join(hold, "started-"+strconv.Itoa(c.Index))
			if err := writeFaultMarker(marker, c.ID); err != nil {
				panic(err)
			}
			<-ctx.Done()
			return runner.CellResult{Status: runner.StatusFailed, Error: "held by SCHEDFARM_FAULT_HOLD"}
		}
		if mark != "" {
			if err := writeFaultMarker(filepath.Join(mark, "started-"+strconv.Itoa(c.Index)), c.ID); err != nil {
				panic(err)
			}
		}
		if gate != "" && c.Index >= gateFrom && !gateExcept[c.Index] && n > gateAfter {
			if gateMark != "" {
				if err := writeFaultMarker(filepath.Join(gateMark, "gated-"+strconv.FormatInt(n, 10)), c.ID); err != nil {
					panic(err)
				}
			}
			for {
				if _, err := os.Stat(gate); err == nil {
					break
				}
				select {
				case <-ctx.Done():
					return runner.CellResult{Status: runner.StatusFailed, Error: "stopped at SCHEDFARM_FAULT_GATE"}
				case <-time.After(20 * time.Millisecond):
				}
			}
		}
		if delay > 0 {
			select {
			case <-ctx.Done():
			case <-time.After(delay):
			}
		}
		if panics[c.Index] {
			panic(fmt.Sprintf("injected fault: cell %d (SCHEDFARM_FAULT_PANIC)", c.Index))
		}
		return r.Run(ctx, c)
	})
}

// writeFaultMarker makes path appear holding id, whole: it writes a
// temporary file beside it (a name no test globs: ".marker-*") and renames
// it into place. os.WriteFile would create path empty and write after, so a
// test that sees the file could read it before the id is in it (a CI run
// read an empty id of SCHEDFARM_FAULT_HOLD's marker on a loaded machine).
func writeFaultMarker(path, id string) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".marker-*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name()) // nothing left to remove once renamed
	_, err = f.WriteString(id)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o644)
	}
	if err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}
