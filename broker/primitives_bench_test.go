package broker_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/schedfarm/schedfarm/broker"
	"github.com/schedfarm/schedfarm/broker/brokertest"
	"github.com/schedfarm/schedfarm/internal/cputime"
)

// BenchmarkFarmPrimitives measures, one at a time on the embedded broker
// with the farm's streams, the JetStream exchanges the farm makes for each
// cell, with messages of the farm benchmark's sizes (a 192-byte cell, a
// 321-byte result: coordinator's BenchmarkFarmOverheadPerCell):
//
//   - cell-publish: the coordinator publishes a cell (PublishAsync with a
//     message id, every publish ack awaited at the end);
//   - cell-take: a worker takes a cell and acks it (Fetch(1), Ack, as a
//     worker slot does while its cells take long; DoubleAck cost 60 µs more
//     a take);
//   - cell-take-8: the same, eight cells a request (FetchNoWait(8), as a
//     slot does while its cells are instant: worker/take.go);
//   - result-publish: the worker publishes its result (Publish with a
//     message id, waiting for the ack);
//   - result-take: the coordinator reads results and acks each
//     (Messages with 512 pulled at a time, Ack);
//   - cell-bundle-16, result-bundle-16: what the exchanges above cost a
//     cell when one message carries sixteen cells (a parcel, parcel.go;
//     the coordinator sends instant cells so) or sixteen results (a
//     parcel of results, which a worker sends back for a parcel): a
//     message of sixteen copies of the cell (or result) published as the
//     cells are, then taken and acked one a request (cells) or read and
//     acked as the results are; per cell carried, publication and take
//     together.
//
// cpu-us/msg is the CPU time of the whole process (broker and clients
// run in it) per message, from getrusage. Their sum against the farm
// benchmark's cpu-ms/cell says how much of a cell's cost is the broker's
// exchanges and how much the farm's own work; result-publish and
// result-take together bound what carrying several results per message
// (a group commit) could save.
func BenchmarkFarmPrimitives(b *testing.B) {
	const n = 2000
	cell := []byte(`{"experiment":"overhead-5000-1","id":"overhead-5000-1-c0000","index":0,"scheduler":"fcfs",` +
		`"params":[{"name":"workload.load","value":0.5,"type":"float"}],"replication":0,"seed":0,"base_seed":0}`)
	result := []byte(`{"cell_id":"overhead-5000-1-c0000","status":"ok","metrics":[{"name":"seed","value":0}],` +
		`"wall_seconds":0.0000123,"worker":"overhead-5000-1/0","version":"v0.0.0-dev","go_version":"go1.26.0",` +
		`"commit":"9f509b9aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","cell_digest":"` + strings.Repeat("0", 64) + `"}`)
	_, js := brokertest.Start(b)
	ctx := context.Background()
	if err := broker.Ensure(ctx, js, broker.Topology{}); err != nil {
		b.Fatal(err)
	}
	workers, err := broker.EnsureExists(ctx, js, broker.Topology{})
	if err != nil {
		b.Fatal(err)
	}
	results, err := js.Stream(ctx, broker.ResultsStream)
	if err != nil {
		b.Fatal(err)
	}
	round := 0
	// measure runs step on n messages of a fresh experiment and reports
	// the CPU per message under name; prepare and cleanup, outside the
	// measurement, set up and empty the streams.
	measure := func(name string, prepare, step, cleanup func(exp string) error) {
		b.Run(name, func(b *testing.B) {
			var cpu time.Duration
			msgs := 0
			for b.Loop() {
				round++
				exp := fmt.Sprintf("prim-%d", round)
				if prepare != nil {
					b.StopTimer()
					if err := prepare(exp); err != nil {
						b.Fatal(err)
					}
					b.StartTimer()
				}
				c0 := cputime.Process()
				if err := step(exp); err != nil {
					b.Fatal(err)
				}
				cpu += cputime.Process() - c0
				msgs += n
				if cleanup != nil {
					b.StopTimer()
					if err := cleanup(exp); err != nil {
						b.Fatal(err)
					}
					b.StartTimer()
				}
			}
			b.ReportMetric(float64(cpu.Nanoseconds())/1e3/float64(msgs), "cpu-us/msg")
		})
	}
	publishCells := func(exp string) error {
		for i := range n {
			id := fmt.Sprintf("c%05d", i)
			if _, err := js.PublishAsync(broker.CellSubject(exp, id), cell, jetstream.WithMsgID(exp+id)); err != nil {
				return err
			}
		}
		select {
		case <-js.PublishAsyncComplete():
			return nil
		case <-time.After(time.Minute):
			return fmt.Errorf("publish acks did not all come back within a minute")
		}
	}
	// takeOneByOne takes count messages from the work queue, one a
	// request, and acks each.
	takeOneByOne := func(count int) error {
		for range count {
			batch, err := workers.Fetch(1, jetstream.FetchMaxWait(5*time.Second))
			if err != nil {
				return err
			}
			got := 0
			for msg := range batch.Messages() {
				got++
				if err := msg.Ack(); err != nil {
					return err
				}
			}
			if got != 1 {
				return fmt.Errorf("fetched %d messages; want 1 (%v)", got, batch.Error())
			}
		}
		return nil
	}
	takeCells := func(string) error { return takeOneByOne(n) }
	takeCells8 := func(string) error {
		for got := 0; got < n; {
			batch, err := workers.FetchNoWait(8)
			if err != nil {
				return err
			}
			k := 0
			for msg := range batch.Messages() {
				k++
				if err := msg.Ack(); err != nil {
					return err
				}
			}
			if k == 0 {
				return fmt.Errorf("no cell after %d of %d (%v)", got, n, batch.Error())
			}
			got += k
		}
		return nil
	}
	publishResults := func(exp string) error {
		for i := range n {
			id := fmt.Sprintf("c%05d", i)
			if _, err := js.Publish(ctx, broker.ResultSubject(exp, id), result, jetstream.WithMsgID(exp+id+":1")); err != nil {
				return err
			}
		}
		return nil
	}
	// takeResultsN reads count result messages of exp and acks each.
	takeResultsN := func(exp string, count int) error {
		cons, err := results.CreateOrUpdateConsumer(ctx, jetstream.ConsumerConfig{
			Durable: broker.CoordinatorConsumer(exp), AckPolicy: jetstream.AckExplicitPolicy,
			FilterSubject: broker.ResultFilter(exp), MaxAckPending: -1,
		})
		if err != nil {
			return err
		}
		it, err := cons.Messages(jetstream.PullMaxMessages(512))
		if err != nil {
			return err
		}
		defer it.Stop()
		for range count {
			msg, err := it.Next()
			if err != nil {
				return err
			}
			if err := msg.Ack(); err != nil {
				return err
			}
		}
		return results.DeleteConsumer(ctx, broker.CoordinatorConsumer(exp))
	}
	takeResults := func(exp string) error { return takeResultsN(exp, n) }
	purgeResults := func(exp string) error {
		return results.Purge(ctx, jetstream.WithPurgeSubject(broker.ResultFilter(exp)))
	}
	// bundled returns a step that publishes n/bundle messages of bundle
	// copies of one (a JSON array, as a bundle would be), asynchronously
	// with message ids, and then takes them: one bundle a request and its
	// ack (cells), or read with the results' consumer and acked (results).
	const bundle = 16
	bundled := func(one []byte, subject func(exp, id string) string, results bool) func(exp string) error {
		msg := append([]byte{'['}, one...)
		for range bundle - 1 {
			msg = append(append(msg, ','), one...)
		}
		msg = append(msg, ']')
		return func(exp string) error {
			for i := range n / bundle {
				id := fmt.Sprintf("b%05d", i)
				if _, err := js.PublishAsync(subject(exp, id), msg, jetstream.WithMsgID(exp+id)); err != nil {
					return err
				}
			}
			select {
			case <-js.PublishAsyncComplete():
			case <-time.After(time.Minute):
				return fmt.Errorf("publish acks did not all come back within a minute")
			}
			if results {
				return takeResultsN(exp, n/bundle)
			}
			return takeOneByOne(n / bundle)
		}
	}
	measure("cell-publish", nil, publishCells, takeCells)
	measure("cell-take", publishCells, takeCells, nil)
	measure("cell-take-8", publishCells, takeCells8, nil)
	measure("result-publish", nil, publishResults, purgeResults)
	measure("result-take", publishResults, takeResults, nil)
	measure("cell-bundle-16", nil, bundled(cell, broker.CellSubject, false), nil)
	measure("result-bundle-16", nil, bundled(result, broker.ResultSubject, true), nil)
}
