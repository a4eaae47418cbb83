package worker

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/schedfarm/schedfarm/broker"
	"github.com/schedfarm/schedfarm/experiments"
	"github.com/schedfarm/schedfarm/families"
	"github.com/schedfarm/schedfarm/internal/cputime"
	"github.com/schedfarm/schedfarm/runner"
)

// overheadSpec has instant cells: 40 jobs of a small trace (writeTrace),
// 2 loads × 2 schedulers × 25 replications = 100 cells at 4 points.
const overheadSpec = `name: overhead
platform: {procs: 16}
workload: {trace: t.swf, warmup: 5}
schedulers: [fcfs, easy]
axes:
  - param: workload.load
    values: [0.5, 0.9]
replications: 25
seed: 7
`

// cellMessage is a cell as a coordinator publishes it.
type cellMessage struct {
	subject string
	data    []byte
}

// BenchmarkCellOverhead measures what a worker spends on an instant cell
// besides the simulation, per cell, on the path of worker.handle between
// the fetch and the publish: the message digest, the gate (decode, data
// root, re-check), running the cell (the worker's goroutine and
// heartbeat timer around the runner), completing the result and encoding
// it. cpu-ns/op is the process's CPU time (user and system, the garbage
// collector's included) per cell; ns/op is wall time.
//
//   - gate: the digest and Trust.Admit only;
//   - overhead: the whole path with a runner that returns a real cell's
//     result at once (so no simulation);
//   - sim: the simulation alone (runner.Runner.RunCell);
//   - whole: the whole path with the simulation.
//
// warm runs the cells of the spec round-robin through one gate (its cache
// filled before the timer starts, as in a sweep where each spec point's
// first cell has been seen); cold gives each cell a new gate, so every
// re-check is a full one.
func BenchmarkCellOverhead(b *testing.B) {
	dir := b.TempDir()
	writeTrace(b, filepath.Join(dir, "t.swf"))
	spec := writeSpec(b, dir, "s.yaml", overheadSpec)
	root, err := OpenDataRoot(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer root.Close()
	cat := experiments.NewCatalog(families.Builtin())
	run := runner.New(families.Builtin())
	var msgs []cellMessage
	for _, c := range spec.Cells() {
		c.Dir = "."
		data, err := json.Marshal(c)
		if err != nil {
			b.Fatal(err)
		}
		msgs = append(msgs, cellMessage{broker.CellSubject(c.Experiment, c.ID), data})
	}
	sim := RunnerFunc(func(ctx context.Context, c runner.Cell) runner.CellResult {
		res, err := run.RunCell(ctx, c)
		if err != nil {
			b.Fatal(err)
		}
		return res
	})
	first, err := NewTrust(root, cat, 0).Admit(msgs[0].subject, msgs[0].data)
	if err != nil {
		b.Fatal(err)
	}
	res0 := sim.Run(context.Background(), first)
	if res0.Status != runner.StatusOK {
		b.Fatalf("the benchmark's cell failed: %s", res0.Error)
	}
	instant := RunnerFunc(func(context.Context, runner.Cell) runner.CellResult {
		r := res0
		r.Metrics = slices.Clone(res0.Metrics)
		return r
	})

	newWorker := func(r Runner) *worker {
		return &worker{cfg: Config{Runner: r, Gate: NewTrust(root, cat, 0), Heartbeat: time.Hour, Version: "bench"},
			stop: context.Background()}
	}
	// admit is the digest and the gate; path adds the run, the result and
	// its encoding (worker.handle and worker.publish without the network).
	admit := func(w *worker, m cellMessage) runner.Cell {
		_ = Digest(m.data)
		c, err := w.cfg.Gate.Admit(m.subject, m.data)
		if err != nil {
			b.Fatal(err)
		}
		return c
	}
	path := func(w *worker, sr *slotRunner, m cellMessage) {
		digest := Digest(m.data)
		c, err := w.cfg.Gate.Admit(m.subject, m.data)
		if err != nil {
			b.Fatal(err)
		}
		res, _, ok := w.run(sr, "bench/0", nil, nil, c)
		if !ok {
			b.Fatal("the cell did not finish")
		}
		if _, err := runner.EncodeResult(w.complete(res, c.ID, "bench/0", digest)); err != nil {
			b.Fatal(err)
		}
	}
	// slot is path on a slot's runner, made once for the worker, as a
	// worker slot runs its cells.
	slot := func(w *worker) func(m cellMessage) {
		sr, stop := w.startRunner()
		b.Cleanup(stop)
		return func(m cellMessage) { path(w, sr, m) }
	}
	warm := func(w *worker) *worker {
		for _, m := range msgs {
			admit(w, m)
		}
		return w
	}
	cases := []struct {
		name string
		op   func(i int)
	}{
		{"gate/warm", func() func(int) {
			w := warm(newWorker(instant))
			return func(i int) { admit(w, msgs[i%len(msgs)]) }
		}()},
		{"gate/cold", func(i int) { admit(newWorker(instant), msgs[i%len(msgs)]) }},
		{"overhead/warm", func() func(int) {
			run := slot(warm(newWorker(instant)))
			return func(i int) { run(msgs[i%len(msgs)]) }
		}()},
		{"overhead/cold", func(i int) {
			w := newWorker(instant)
			sr, stop := w.startRunner()
			defer stop()
			path(w, sr, msgs[i%len(msgs)])
		}},
		{"sim", func() func(int) {
			w := newWorker(instant)
			var cells []runner.Cell
			for _, m := range msgs {
				cells = append(cells, admit(w, m))
			}
			return func(i int) { sim.Run(context.Background(), cells[i%len(cells)]) }
		}()},
		{"whole/warm", func() func(int) {
			run := slot(warm(newWorker(sim)))
			return func(i int) { run(msgs[i%len(msgs)]) }
		}()},
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			start, i := cputime.Process(), 0
			for b.Loop() {
				tc.op(i)
				i++
			}
			b.ReportMetric(float64(cputime.Process()-start)/float64(b.N), "cpu-ns/op")
		})
	}
}
