// Package worker pulls schedfarm cells from the JetStream work queue, runs
// them and publishes their results.
//
// A worker has N slots; each slot takes one cell at a time, or, while its
// cells run in microseconds, up to sixteen that are in the queue already
// (take.go: as many as its last cells say would run within 10 ms; a pull
// request costs the broker about as much as the delivery it brings). It
// runs them one after the other while sending in-progress heartbeats for
// the cell it runs and the ones waiting after it (so no cell's ack timer
// runs out in the slot), publishes each result to the results stream,
// and acks the cell only once the stream has acknowledged its result
// (without waiting for the ack's reply: a lost ack only runs the cell
// again, and its result is dropped as a duplicate). That settling runs in
// the background while the slot fetches and runs its next cell, so the
// slot is not idle for those round trips: the slot's settler sends each
// result without waiting for the stream (PublishAsync), up to 16 of them
// awaiting their acks, and its acker takes the acks in order, acks each
// cell, and publishes a result again, waiting, where the stream did not
// take it (no ack within 10 s of its sending included); a result that
// still cannot be published naks its cell for a retry
// (TestNoCellLeavesTheQueueWithoutItsResult). A cell that
// panics is reported as failed with the panic text and the head of its stack;
// the slot goes on. When the context given to Run is cancelled the worker
// stops fetching, lets running cells finish within a grace period, naks the
// ones that do not and the ones still waiting in a slot, and returns. A
// worker killed outright leaves its running and waiting cells to the
// consumer's AckWait, as before: each is delivered again, once.
//
// A message may also be a parcel of cells (broker.SplitParcel), which a
// coordinator sends for cells of points found to run in microseconds
// (coordinator.Config.Parcel): the slot runs its cells one after the other
// as it runs cells taken together, each through the Gate under the subject
// it would have had alone, sends their results as one parcel of results
// (or, where one carries per-job records, each alone on its cell's own
// subject), and acks the parcel once they are in; it naks the parcel
// instead if it stops inside it or a result cannot be published, and a
// redelivered parcel runs whole again, its results already in dropped as
// duplicates (handleParcel).
//
// A worker trusts nothing on the wire (trust.go, dataroot.go): every cell
// message passes a Gate before it runs. The default one, Trust, decodes it
// strictly (size, schema, its own subject), reads the files it names only
// inside the data root (no absolute path, no "..", no symbolic link out of
// it; os.Root), and re-validates the cell by the spec validation path, ID
// and seed included. A refused cell is never run: it is reported failed
// with the reason, under the SHA-256 of the message it came in, so that a
// coordinator records it only when it published that very message.
//
// The re-check is cached by spec point (experiments.CellChecker, one per
// Trust, at most experiments.DefaultCheckCacheSize points): the cells of one
// point differ only in replication, ID and seed, so the point's one-cell
// spec is validated once, under the SHA-256 of every cell field that
// validation reads (experiment, base seed, scheduler, each parameter's
// name, kind and exact value, crn, dir, keep_jobs, the plugin's path, hash
// and timeout) and of what the catalog says of the plugin now; each cell
// still gets the decode, the data-root checks, the look at its trace, the
// plugin's hash, and its ID and seed derived for its replication and
// compared. The cache trusts the wire no more: only an admitted cell fills
// it, a cell whose key is not in it takes the full check, and a refused
// cell gets the error the full check gives (tests: TestTrustCache*,
// experiments' TestCellChecker*, FuzzCell compares the two).
//
// Per-cell CPU of the worker's own path (BenchmarkCellOverhead: digest,
// gate, run with a runner that returns at once, result completed and
// encoded; cpu-ns/op is getrusage user+system), median of 6 runs, before
// the cache (2fab268 with the benchmark added) and after (the cache, and
// runner.Param reading scalar values without a json.Decoder), on 2 vCPUs
// (Intel Xeon Processor, nproc 2), go1.26.8, the machine busy with another
// job (load 6), so absolute numbers are high:
//
//	go test -c -o /tmp/w.test ./worker && cd worker &&
//	for i in 1 2 3 4 5 6; do /tmp/w.test -test.run XXX -test.bench 'CellOverhead|CheckCell' -test.benchmem; done
//
//	                          before     after   before/after
//	overhead/warm (per cell)  736 µs     78 µs   9.5×
//	overhead/cold (new point) 765 µs    540 µs   1.4×
//	gate/warm                 704 µs     44 µs   16×
//	sim (a 40-job cell)       129 µs    126 µs   (the simulation, unchanged)
//	whole/warm                994 µs    202 µs   4.9×
//
// What remained per cell was mostly decoding the message (40%, the
// parameters' JSON included) and encoding the result. Both, and the
// re-check's two hashes, are now written and read without reflection in
// the exact form encoding/json writes (runner.DecodeCellWire,
// runner.EncodeResult, experiments.CellID; encoding/json for anything
// else), and each slot keeps one runner and one settler goroutine for its
// life: three runs each of 2bcfe88 and f4632d2 alternating on a 2-vCPU AMD
// EPYC VM (docs/performance-log.md, "One settler and one runner per slot"):
// overhead/warm 44–53 → 22–25 µs of CPU, gate/warm 23–27 → 10–13 µs,
// whole/warm 101–133 → 85–101 µs; BenchmarkCheckCell 20–21 → 3.6–4.4 µs
// (6b869e4).
package worker
