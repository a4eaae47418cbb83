// Package coordinator publishes the cells of an experiment to the farm's
// JetStream work queue, collects their results into a sink, and reports
// progress.
//
// The coordinator is resumable and crash-safe: cells are published with
// Nats-Msg-Id = cell id, so republishing after a restart does not queue a
// cell twice; results live in a JetStream stream and are acked only after the
// sink has made them durable (ResultSink.Flush), so results published while
// the coordinator is down, or written but not yet flushed when it crashed,
// are delivered again; every cell is written to the sink at most once per
// run, and cells the caller reports as already done are skipped. A cell that
// exhausts its deliveries (its workers crashed or timed out every time) is
// learnt from the server's max-deliveries advisory, kept in a stream so that
// it survives a coordinator restart; it is recorded as failed and its message
// deleted so the sweep goes on.
//
// The coordinator re-validates every result (validate.go): a message that
// is not a well-formed result (strict JSON, bounded size, finite numbers,
// status ok or failed) of a cell of this experiment, on its own subject,
// for the very cell message this coordinator published (the digest the
// worker reports), is counted and logged as rejected (Summary.Rejected,
// Snapshot.Rejected) and never written.
//
// The order of publication decides a sweep's tail (dispatch.go): by
// default a window of cells is kept ahead of the results and each next
// cell is taken from the grid point whose replications ran longest
// (longest processing time first), probing every point once early;
// DispatchGrid publishes every cell at once in grid order. With
// Config.Parcel, the window's cells of points whose replications so far
// ran in microseconds travel several to a message (a parcel,
// broker.SplitParcel; Nats-Msg-Id from its first and last cells and its
// size): a parcel the stream reports as a duplicate and that is no longer
// queued has its cells without a result published again alone, and a
// parcel that exhausts its deliveries has each of its cells recorded as
// failed. A parcel's results come back as one message (a parcel of
// results), each line judged as a result of its own.
//
// Run runs one experiment to its end. A Session runs an experiment in
// several batches over the same streams and consumers (a tuner's
// generations, each one run): the fixed cost of a run — looking the streams
// and the object store up, creating the experiment's durable results and
// advisories consumers, purging the finished experiment — is paid once per
// session instead of once per batch, with the same guarantees per batch.
package coordinator
