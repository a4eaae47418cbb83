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
	"github.com/schedfarm/schedfarm/worker"
)

// fakeResult is an instant cell result: wait_mean, bsld_mean and
// utilization drawn from the cell's ID, so that genomes differ.
func fakeResult(c experiments.Cell) experiments.CellResult {
	h := sha256.Sum256([]byte(c.ID))
	x := float64(binary.LittleEndian.Uint64(h[:8])%10000) / 10000
	return experiments.CellResult{CellID: c.ID, Status: experiments.StatusOK, Metrics: []experiments.Metric{
		{Name: "wait_mean", Value: 1000 + 9000*x}, {Name: "bsld_mean", Value: 1 + 10*x}, {Name: "utilization", Value: 0.9},
	}}
}

// stubRunner answers every cell at once with fakeResult.
type stubRunner struct {
	known map[string]experiments.CellResult
}

func (s *stubRunner) Run(_ context.Context, cells []experiments.Cell) (map[string]experiments.CellResult, error) {
	if s.known == nil {
		s.known = map[string]experiments.CellResult{}
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
	s, err := Parse([]byte(text), "testdata/depth.yaml", experiments.BuiltinCatalog())
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

// benchFarm is an embedded NATS server with a JetStream connection.
func benchFarm(b *testing.B) jetstream.JetStream {
	b.Helper()
	srv, err := broker.Start(broker.Options{NoListen: true, StoreDir: b.TempDir(), Name: "tune-bench"})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(srv.Shutdown)
	nc, err := srv.Connect("tune bench")
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

// withWorkers runs f while a worker with slots slots runs cells with run
// (the worker's default gate: every cell re-validated).
func withWorkers(b *testing.B, js jetstream.JetStream, slots int, run worker.RunnerFunc, f func()) {
	b.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- worker.Run(ctx, js, worker.Config{ID: fmt.Sprintf("bench-%d", slots), Slots: slots, Runner: run})
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
// the results. Population 8, 10 generations, 4 cells per genome.
func BenchmarkFarmOverheadPerGeneration(b *testing.B) {
	js := benchFarm(b)
	n, gens, cells := 0, 0, 0
	var total time.Duration
	withWorkers(b, js, 2, func(_ context.Context, c experiments.Cell) experiments.CellResult { return fakeResult(c) }, func() {
		for b.Loop() {
			n++
			spec := benchSpec(b, fmt.Sprintf("farm-overhead-%d", n), 8, 10, 0)
			r, err := NewFarmRunner(js, spec, broker.Topology{}, nil)
			if err != nil {
				b.Fatal(err)
			}
			start := time.Now()
			res, err := Search(context.Background(), spec, r, Options{})
			if err != nil {
				b.Fatal(err)
			}
			total += time.Since(start)
			if err := r.Close(); err != nil {
				b.Fatal(err)
			}
			gens += res.Generations + 1
			cells += r.Published
		}
	})
	b.ReportMetric(float64(total.Microseconds())/1000/float64(gens), "ms/generation")
	b.ReportMetric(float64(cells)/float64(gens), "cells/generation")
}

// BenchmarkGenerationSpeedup2Over1 runs a generation of real cells — the
// initial population of 16 genomes of testdata/depth.yaml (the distinct
// ones: 4 cells each, of a generated 2000-job workload on 64 processors) — on the farm with 1 and
// with 2 worker slots and reports the speedup, and the speedup of the same
// cells on 1 and 2 goroutines without the farm (raw-speedup: what the
// machine offers at that moment).
func BenchmarkGenerationSpeedup2Over1(b *testing.B) {
	js := benchFarm(b)
	run := func(ctx context.Context, c experiments.Cell) experiments.CellResult {
		res, err := experiments.RunCell(ctx, c)
		if err != nil {
			b.Fatalf("cell %s: %v", c.ID, err)
		}
		return res
	}
	n, cells := 0, 0
	var t [3]time.Duration
	var r [3]time.Duration
	for b.Loop() {
		for _, slots := range []int{1, 2} {
			n++
			spec := benchSpec(b, fmt.Sprintf("speedup-%d", n), 16, 1, 16)
			start := time.Now()
			if _, err := Search(context.Background(), spec, &LocalRunner{Workers: slots}, Options{}); err != nil {
				b.Fatal(err)
			}
			r[slots] += time.Since(start)
			fr, err := NewFarmRunner(js, spec, broker.Topology{}, nil)
			if err != nil {
				b.Fatal(err)
			}
			withWorkers(b, js, slots, run, func() {
				start := time.Now()
				if _, err := Search(context.Background(), spec, fr, Options{}); err != nil {
					b.Fatal(err)
				}
				t[slots] += time.Since(start)
			})
			cells += fr.Published
			if err := fr.Close(); err != nil {
				b.Fatal(err)
			}
		}
	}
	runs := float64(n / 2)
	b.ReportMetric(float64(t[1].Milliseconds())/runs, "ms/generation-1w")
	b.ReportMetric(float64(t[2].Milliseconds())/runs, "ms/generation-2w")
	b.ReportMetric(float64(t[1])/float64(t[2]), "speedup")
	b.ReportMetric(float64(r[1])/float64(r[2]), "raw-speedup")
	b.ReportMetric(float64(cells)/float64(n), "cells/generation")
}
