// Package worker pulls schedfarm cells from the JetStream work queue, runs
// them and publishes their results.
//
// A worker has N slots; each slot fetches one cell at a time (prefetch 1, so
// no cell waits in a local buffer while its ack timer runs), runs it while
// sending in-progress heartbeats, publishes the result to the results stream
// and waits for the publish ack, and only then acks the cell. That settling
// runs in the background while the slot fetches and runs its next cell (at
// most one settle per slot at a time), so the slot is not idle for those
// round trips. A cell that
// panics is reported as failed with the panic text and the head of its stack;
// the slot goes on. When the context given to Run is cancelled the worker
// stops fetching, lets running cells finish within a grace period, naks the
// ones that do not, and returns.
//
// A worker trusts nothing on the wire (trust.go, dataroot.go): every cell
// message passes a Gate before it runs. The default one, Trust, decodes it
// strictly (size, schema, its own subject), reads the files it names only
// inside the data root (no absolute path, no "..", no symbolic link out of
// it; os.Root), and re-validates the cell by the spec validation path, ID
// and seed included. A refused cell is never run: it is reported failed
// with the reason, under the SHA-256 of the message it came in, so that a
// coordinator records it only when it published that very message.
package worker
