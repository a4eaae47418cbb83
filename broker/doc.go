// Package broker runs schedfarm's embedded NATS server with JetStream and
// defines the farm's JetStream topology: the streams, subjects and consumers
// that the coordinator and the workers share.
//
// Topology (all names are exported constants or functions of this package):
//
//   - stream SCHEDFARM_CELLS, work-queue retention, subjects
//     "schedfarm.cells.<experiment>.<cell id>": one message per cell to run,
//     published by the coordinator with Nats-Msg-Id = cell id;
//   - one durable pull consumer "workers" on it, without a filter subject
//     (the stream holds cells only), shared by every worker on every
//     machine; a message that exhausts its MaxDeliver stays in the stream
//     and the server publishes a max-deliveries advisory;
//   - stream SCHEDFARM_RESULTS, work-queue retention, subjects
//     "schedfarm.results.<experiment>.<cell id>": one message per finished
//     cell (ok or failed), published by a worker before it acks the cell; the
//     coordinator of an experiment consumes it through its own durable
//     consumer and acks only once the result is durably written, so results
//     published while no coordinator runs are kept;
//   - stream SCHEDFARM_ADVISORIES, limits retention, capturing the
//     max-deliveries advisories of the "workers" consumer, so a coordinator
//     that was down when a cell exhausted its deliveries still learns of it;
//   - object store SCHEDFARM_JOBS (7-day TTL): the per-job records of a
//     result that would not fit in one message (the server's max_payload),
//     stored by the worker before it publishes the result, under
//     JobsObjectName(experiment, cell id, cell message sequence), loaded by
//     the coordinator and deleted once the result is durable.
//
// A server may join a NATS cluster (Options.Cluster: a cluster name, a route
// listener and the other servers' routes, authenticated with the server's
// own token or user/password). On a cluster the topology is created with
// three replicas (Topology.Replicas), so the farm survives the loss of one
// of three servers; clients list every server and fail over (Dial). A
// server that listens beyond loopback without credentials refuses to start
// unless Options.Insecure is set.
package broker
