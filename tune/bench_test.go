package tune

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/schedfarm/schedfarm/broker"
	"github.com/schedfarm/schedfarm/experiments"
	"github.com/schedfarm/schedfarm/families"
	"github.com/schedfarm/schedfarm/family"
	"github.com/schedfarm/schedfarm/internal/cputime"
	"github.com/schedfarm/schedfarm/internal/heapfloor/heapfloortest"
	"github.com/schedfarm/schedfarm/runner"
	"github.com/schedfarm/schedfarm/worker"
)

// fakeResult is an instant cell result: wait_mean, bsld_mean and
// utilization drawn from the cell's ID, so that genomes differ.
func fakeResult(c runner.Cell) runner.CellResult {
	h := sha256.Sum256([]byte(c.ID))
	x := float64(binary.LittleEndian.Uint64(h[:8])%10000) / 10000
	return runner.CellResult{CellID: c.ID, Status: runner.StatusOK, Metrics: []family.Metric{
		{Name: "wait_mean", Value: 1000 + 9000*x}, {Name: "bsld_mean", Value: 1 + 10*x}, {Name: "utilization", Value: 0.9},
	}}
}

// stubRunner answers every cell at once with fakeResult.
type stubRunner struct {
	known map[string]runner.CellResult
}

func (s *stubRunner) Run(_ context.Context, cells []runner.Cell) (map[string]runner.CellResult, error) {
	if s.known == nil {
		s.known = map[string]runner.CellResult{}
	}
	for _, c := range cells {
		if _, ok := s.known[c.ID]; !ok {
			s.known[c.ID] = fakeResult(c)
		}
	}
	return s.known, nil
}

// benchSpec is testdata/depth.yaml renamed, with the given population,
// generations and budget and no confirmation.
func benchSpec(b *testing.B, name string, pop, gens, budget int) *Spec {
	b.Helper()
	data, err := os.ReadFile("testdata/depth.yaml")
	if err != nil {
		b.Fatal(err)
	}
	text := strings.Replace(string(data), "name: tune-test-depth", "name: "+name, 1)
	text = strings.Replace(text, "algorithm: {name: ga, population: 4, budget: 11}",
		fmt.Sprintf("algorithm: {name: ga, population: %d, generations: %d, budget: %d}", pop, gens, budget), 1)
	text = strings.Replace(text, "confirm: {replications: 4}\n", "", 1)
	s, err := Parse([]byte(text), "testdata/depth.yaml", families.Builtin())
	if err != nil {
		b.Fatal(err)
	}
	s.Output = filepath.Join(b.TempDir(), name+".parquet")
	return s
}

// BenchmarkSearchOverheadPerGeneration measures the tuner's own work per
// generation — breeding (eaopt's driver and this package's model), decoding
// genomes into cells, the cache, measuring evaluations from the results —
// with cells answered instantly: population 16, 20 generations, the
// 34-genome space of testdata/depth.yaml (4 cells per genome).
func BenchmarkSearchOverheadPerGeneration(b *testing.B) {
	spec := benchSpec(b, "overhead", 16, 20, 0)
	gens := 0
	var total time.Duration
	for b.Loop() {
		start := time.Now()
		res, err := Search(context.Background(), spec, &stubRunner{}, Options{})
		if err != nil {
			b.Fatal(err)
		}
		total += time.Since(start)
		gens += res.Generations + 1
	}
	b.ReportMetric(float64(total.Microseconds())/1000/float64(gens), "ms/generation")
}

// benchFarm is an embedded NATS server with a JetStream connection, shut
// down when the benchmark ends.
func benchFarm(b *testing.B) jetstream.JetStream {
	b.Helper()
	js, stop := newBenchFarm(b)
	b.Cleanup(stop)
	return js
}

// newBenchFarm starts an embedded NATS server with a fresh store and
// returns a JetStream connection to it and a function that shuts both down.
func newBenchFarm(b *testing.B) (jetstream.JetStream, func()) {
	b.Helper()
	srv, err := broker.Start(broker.Options{NoListen: true, StoreDir: b.TempDir(), Name: "tune-bench"})
	if err != nil {
		b.Fatal(err)
	}
	nc, err := srv.Connect("tune bench")
	if err != nil {
		srv.Shutdown()
		b.Fatal(err)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		srv.Shutdown()
		b.Fatal(err)
	}
	return js, func() { nc.Close(); srv.Shutdown() }
}

// withWorkers runs f while a worker with slots slots runs cells with run
// (the worker's default gate: every cell re-validated).
func withWorkers(b *testing.B, js jetstream.JetStream, slots int, run worker.RunnerFunc, f func()) {
	b.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- worker.Run(ctx, js, worker.Config{ID: fmt.Sprintf("bench-%d", slots), Slots: slots, Runner: run, Catalog: experiments.NewCatalog(families.Builtin())})
	}()
	f()
	cancel()
	if err := <-done; err != nil {
		b.Error(err)
	}
}

// BenchmarkFarmOverheadPerGeneration measures a generation on the farm with
// cells that cost nothing (instant fake results): the tuner's work plus
// publishing a generation's cells over the embedded NATS server, a worker
// (2 slots) taking and re-validating them, and collecting and journalling
// the results. Population 8, 10 generations, 4 cells per genome. Beside
// the wall time per generation, cpu-ms/generation is the CPU time the whole
// process (tuner, broker, worker) spent per generation: on a loaded
// machine the wall time also counts the waits for a CPU at every round
// trip, the CPU time does not. ms/later-generation leaves the first
// generation out: it also pays what a tune pays once (the coordinator
// session's stream look-ups, broker.Ensure and consumers; the first Parquet
// rewrite of the output). store=file and store=memory put the cells and
// results streams on the file store or in memory (as tune makes them on its
// embedded broker); heap=floor keeps the farm processes' heap floor as well
// (heapfloor.Farm), as tune's process does.
func BenchmarkFarmOverheadPerGeneration(b *testing.B) {
	for _, v := range []struct {
		name            string
		inMemory, floor bool
	}{{"store=file", false, false}, {"store=memory", true, false}, {"store=memory,heap=floor", true, true}} {
		b.Run(v.name, func(b *testing.B) {
			if v.floor {
				heapfloortest.KeepFarmFloor(b)
			}
			farmOverheadPerGeneration(b, v.inMemory)
		})
	}
}

// farmOverheadPerGeneration is BenchmarkFarmOverheadPerGeneration with the
// cells and results streams on the file store or in memory (inMemory: as
// tune makes them on its embedded broker, broker.Topology.InMemory).
func farmOverheadPerGeneration(b *testing.B, inMemory bool) {
	js := benchFarm(b)
	topo := broker.Topology{InMemory: inMemory}
	if err := broker.Ensure(context.Background(), js, topo); err != nil {
		b.Fatal(err)
	}
	n, gens, cells := 0, 0, 0
	var total, later, cpu time.Duration
	laterGens := 0
	withWorkers(b, js, 2, func(_ context.Context, c runner.Cell) runner.CellResult { return fakeResult(c) }, func() {
		for b.Loop() {
			n++
			spec := benchSpec(b, fmt.Sprintf("farm-overhead-%d", n), 8, 10, 0)
			r, err := NewFarmRunner(js, spec, topo, nil)
			if err != nil {
				b.Fatal(err)
			}
			var firstDone time.Time
			opt := Options{Progress: func(p Progress) {
				if p.Generation == 0 && !p.Confirming {
					firstDone = time.Now()
				}
			}}
			start, cpu0 := time.Now(), cputime.Process()
			res, err := Search(context.Background(), spec, r, opt)
			if err != nil {
				b.Fatal(err)
			}
			end := time.Now()
			total += end.Sub(start)
			later += end.Sub(firstDone)
			laterGens += res.Generations
			cpu += cputime.Process() - cpu0
			if err := r.Close(); err != nil {
				b.Fatal(err)
			}
			gens += res.Generations + 1
			cells += r.Published
		}
	})
	b.ReportMetric(float64(total.Microseconds())/1000/float64(gens), "ms/generation")
	b.ReportMetric(float64(later.Microseconds())/1000/float64(laterGens), "ms/later-generation")
	b.ReportMetric(float64(cpu.Microseconds())/1000/float64(gens), "cpu-ms/generation")
	b.ReportMetric(float64(cells)/float64(gens), "cells/generation")
}

// speedupSpec is the shipped experiments/tune-depth.yaml (depth k ∈ 0…32,
// population 8, 3 replications per evaluation, load 0.9) with the cells of
// the farm's own speedup measure, the quickstart's: 20,000 Lublin–Feitelson
// jobs on 128 processors with Tsafrir user estimates.
const speedupSpec = `name: %s
base:
  platform: {procs: 128}
  workload:
    generator: {model: lublin99, jobs: 20000, procs: 128, estimates: tsafrir05}
    estimates: user
    load: 0.9
  schedulers: [depth]
  replications: 3
  seed: 1
search:
  - {param: scheduler.k, int: [0, 32]}
objective: {metric: wait_mean, goal: minimize}
second: {metric: wait_max, goal: minimize}
constraints: ["utilization >= 0.5"]
algorithm: {name: ga, population: 8, generations: 1}
output: %s.parquet
`

// timedRunner runs cells one at a time in this process, timing each, and
// computes the greedy makespan of those cells in their order on two
// workers: whichever is free first takes the next cell, as two worker
// slots pulling from the queue do.
type timedRunner struct {
	known    map[string]runner.CellResult
	sum      time.Duration
	makespan time.Duration
}

func (r *timedRunner) Run(ctx context.Context, cells []runner.Cell) (map[string]runner.CellResult, error) {
	if r.known == nil {
		r.known = map[string]runner.CellResult{}
	}
	var free [2]time.Duration
	for _, c := range cells {
		if _, ok := r.known[c.ID]; ok {
			continue
		}
		start := time.Now()
		res, err := runner.New(families.Builtin()).RunCell(ctx, c)
		if err != nil {
			return nil, fmt.Errorf("cell %s: %w", c.ID, err)
		}
		d := time.Since(start)
		r.known[c.ID] = res
		r.sum += d
		w := 0
		if free[1] < free[0] {
			w = 1
		}
		free[w] += d
	}
	r.makespan += max(free[0], free[1])
	return r.known, nil
}

// BenchmarkGenerationSpeedup2Over1 runs one generation of real cells — the
// initial population of the shipped tune-depth search (8 genomes × 3
// replications, at most 24 distinct cells) — on the farm with 1 and with 2
// worker slots and reports the speedup. The cells are the size of those of
// the farm's own speedup measure (the quickstart: 20,000 Lublin jobs, about
// 0.2 s a cell on the 2-vCPU machine), so that the number is the farm's on a
// tuner's generation rather than how well 10-ms cells scale on two vCPUs;
// the generation is the shipped tune's. Beside it: the speedup of the same
// cells on 1 and 2 goroutines without the farm (raw-speedup: what the
// machine offers at that moment) and the most any 2-way run of the
// generation's cells in their publish order can reach (order-bound: Σ cell
// ÷ the greedy makespan of the one-goroutine pass's cell times; a
// generation of 24 cells of unequal cost leaves one slot idle while the
// other finishes the last cell).
func BenchmarkGenerationSpeedup2Over1(b *testing.B) {
	run := func(ctx context.Context, c runner.Cell) runner.CellResult {
		res, err := runner.New(families.Builtin()).RunCell(ctx, c)
		if err != nil {
			b.Fatalf("cell %s: %v", c.ID, err)
		}
		return res
	}
	// Every measurement runs the very same generation: one spec name (the
	// name enters every cell's seed), a fresh output, and for the farm a
	// fresh broker (the same cell ids on one broker within its dedupe
	// window would be published as duplicates).
	spec := func() *Spec {
		s, err := Parse([]byte(fmt.Sprintf(speedupSpec, "speedup", "speedup")), "speedup.yaml", families.Builtin())
		if err != nil {
			b.Fatal(err)
		}
		s.Output = filepath.Join(b.TempDir(), "speedup.parquet")
		return s
	}
	n, cells := 0, 0
	var t, r [3]time.Duration
	timed := &timedRunner{}
	for b.Loop() {
		n++
		for _, slots := range []int{1, 2} {
			var raw Runner = &LocalRunner{Sim: runner.New(families.Builtin()), Workers: 2}
			if slots == 1 {
				timed.known = nil
				raw = timed
			}
			start := time.Now()
			if _, err := Search(context.Background(), spec(), raw, Options{}); err != nil {
				b.Fatal(err)
			}
			r[slots] += time.Since(start)
		}
		for _, slots := range []int{1, 2} {
			js, stop := newBenchFarm(b)
			sp := spec()
			fr, err := NewFarmRunner(js, sp, broker.Topology{}, nil)
			if err != nil {
				b.Fatal(err)
			}
			withWorkers(b, js, slots, run, func() {
				start := time.Now()
				if _, err := Search(context.Background(), sp, fr, Options{}); err != nil {
					b.Fatal(err)
				}
				t[slots] += time.Since(start)
			})
			cells += fr.Published
			if err := fr.Close(); err != nil {
				b.Fatal(err)
			}
			stop()
		}
	}
	b.ReportMetric(float64(t[1].Milliseconds())/float64(n), "ms/generation-1w")
	b.ReportMetric(float64(t[2].Milliseconds())/float64(n), "ms/generation-2w")
	b.ReportMetric(float64(t[1])/float64(t[2]), "speedup")
	b.ReportMetric(float64(r[1])/float64(r[2]), "raw-speedup")
	b.ReportMetric(float64(timed.sum)/float64(timed.makespan), "order-bound")
	b.ReportMetric(float64(cells)/float64(2*n), "cells/generation")
}
