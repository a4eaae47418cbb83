package worker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/schedfarm/schedfarm/broker"
	"github.com/schedfarm/schedfarm/experiments"
	"github.com/schedfarm/schedfarm/runner"
)

// Runner runs one cell. Run reports every outcome, including failure, in the
// returned result (Status failed with Error set); it should return soon after
// ctx is cancelled. A panic inside Run is recovered by the worker.
type Runner interface {
	Run(ctx context.Context, c runner.Cell) runner.CellResult
}

// RunnerFunc adapts a function to Runner.
type RunnerFunc func(ctx context.Context, c runner.Cell) runner.CellResult

// Run calls f.
func (f RunnerFunc) Run(ctx context.Context, c runner.Cell) runner.CellResult {
	return f(ctx, c)
}

// Config configures a worker.
type Config struct {
	// ID names the worker in results and logs; host name and process id when
	// empty. Each slot reports as ID/slot.
	ID string
	// Slots is the number of cells run concurrently; 1 when zero.
	Slots int
	// Runner runs the cells; required.
	Runner Runner
	// Heartbeat is the interval of in-progress acks while a cell runs; a
	// third of the consumer's AckWait, at most 1s, when zero.
	Heartbeat time.Duration
	// Grace is how long running cells may take to finish once the context is
	// cancelled before they are nak'ed; 30s when zero.
	Grace time.Duration
	// FetchWait bounds one fetch request (a new one follows at once); 5s
	// when zero.
	FetchWait time.Duration
	// Version and Commit fill the result's fields of the same name when the
	// runner leaves them empty.
	Version, Commit string
	// Topology is used to create the streams and the workers consumer when
	// no coordinator has created them yet.
	Topology broker.Topology
	// Logf receives one line per notable event; silent when nil.
	Logf func(format string, args ...any)
	// Gate decodes and checks every cell message before it runs (see
	// trust.go); nil means a Trust over DataRoot with Catalog. A refused
	// cell is reported failed with the reason and never run.
	Gate Gate
	// Catalog is what the default Gate re-validates cells against
	// (experiments.NewCatalog of the worker's family catalog); required
	// when Gate is nil.
	Catalog experiments.Catalog
	// DataRoot is the only directory the default Gate lets cells read
	// files from; the working directory when empty.
	DataRoot string
}

func (c Config) validate() error {
	var errs []error
	if c.Runner == nil {
		errs = append(errs, errors.New("worker: Runner is nil; want a cell runner"))
	}
	if c.Slots < 0 {
		errs = append(errs, fmt.Errorf("worker: slots %d; want a positive number", c.Slots))
	}
	if c.Gate == nil && c.Catalog == nil {
		errs = append(errs, errors.New("worker: no Gate and no Catalog; want the catalog cells are re-validated against (experiments.NewCatalog)"))
	}
	return errors.Join(errs...)
}

// Run runs the worker until ctx is cancelled, then drains as described in
// the package documentation and returns nil. It returns an error only when
// it cannot start (bad config, no consumer); a cancellation during that
// setup is a clean stop (nil).
func Run(ctx context.Context, js jetstream.JetStream, cfg Config) error {
	if err := cfg.validate(); err != nil {
		return err
	}
	if cfg.ID == "" {
		host, _ := os.Hostname()
		cfg.ID = host + "-" + strconv.Itoa(os.Getpid())
	}
	if cfg.Slots == 0 {
		cfg.Slots = 1
	}
	if cfg.Grace <= 0 {
		cfg.Grace = 30 * time.Second
	}
	if cfg.FetchWait <= 0 {
		cfg.FetchWait = 5 * time.Second
	}
	if cfg.Logf == nil {
		cfg.Logf = func(string, ...any) {}
	}
	if cfg.Gate == nil {
		root, err := OpenDataRoot(cfg.DataRoot)
		if err != nil {
			return fmt.Errorf("worker %s: %w", cfg.ID, err)
		}
		defer root.Close()
		cfg.Gate = NewTrust(root, cfg.Catalog, 0)
	}
	// Long enough for a cluster to form and place its replicas
	// (broker.ClusterFormWait) after a broker restart.
	setupCtx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	cons, err := broker.EnsureExists(setupCtx, js, cfg.Topology)
	cancel()
	if err != nil && ctx.Err() != nil {
		return nil // stopped while setting up: no cell was taken
	}
	if err != nil {
		return fmt.Errorf("worker %s: %w", cfg.ID, err)
	}
	if cfg.Heartbeat <= 0 {
		// At most 1s, so that a coordinator that lowers AckWait (to 3s or
		// more) after this worker started does not see running cells expire.
		cfg.Heartbeat = min(cons.CachedInfo().Config.AckWait/3, time.Second)
		if cfg.Heartbeat < 50*time.Millisecond {
			cfg.Heartbeat = 50 * time.Millisecond
		}
	}
	w := &worker{cfg: cfg, js: js, cons: cons, stop: ctx}
	var wg sync.WaitGroup
	for i := range cfg.Slots {
		wg.Go(func() { w.slot(fmt.Sprintf("%s/%d", cfg.ID, i)) })
	}
	wg.Wait()
	return nil
}

type worker struct {
	cfg  Config
	js   jetstream.JetStream
	cons jetstream.Consumer
	stop context.Context
}

// slot takes cells and runs them one at a time until w.stop is done. It asks
// for one cell, waiting for one to come, or, while its cells run in
// microseconds, for several that are there already (nextTake, take.go).
// A finished cell is settled (result published, then the cell acked) in the
// background while the slot runs the next one, so the slot does not sit
// idle for those two round trips; up to resultsInFlight results of a slot
// await their acks, and the slot waits for them all before it returns.
func (w *worker) slot(id string) {
	// One settler per slot, for the slot's life: a goroutine per cell would
	// grow a new stack through the publication every time. The channel is
	// unbuffered, so handing it a cell waits until the settler has sent the
	// last result. The settler does not wait for the stream's ack: the
	// results it sent wait in inflight for the acker, which acks each cell
	// once its result is in (finishSettle).
	settle := make(chan settlement)
	inflight := make(chan sentResult, resultsInFlight)
	settled := make(chan struct{})
	go func() {
		defer close(inflight)
		for s := range settle {
			if p, ok := w.send(id, s); ok {
				inflight <- p
			}
		}
	}()
	go func() {
		defer close(settled)
		t := time.NewTimer(time.Hour)
		t.Stop()
		for p := range inflight {
			w.finishSettle(id, p, t)
		}
	}()
	defer func() {
		close(settle)
		<-settled
	}()
	sr, stopRunner := w.startRunner()
	defer stopRunner()
	backoff := 100 * time.Millisecond
	take := 1
	var held []jetstream.Msg
	for w.stop.Err() == nil {
		held = held[:0]
		if take > 1 {
			// Only what is there now: no cell waits here for a request
			// to fill up.
			if batch, err := w.cons.FetchNoWait(take); err == nil {
				for msg := range batch.Messages() {
					held = append(held, msg)
				}
			}
			if len(held) == 0 {
				// The queue is empty, or the request failed, or the server
				// has not yet counted the cells stored last as pending (it
				// does so in a goroutine of its own, and answers a no-wait
				// request "No Messages" meanwhile): wait for one.
				take = 1
			}
		}
		if len(held) == 0 {
			// The fetch ends early when the worker is told to stop, so an
			// idle worker stops at once.
			fetchCtx, cancel := context.WithTimeout(w.stop, w.cfg.FetchWait)
			batch, err := w.cons.Fetch(1, jetstream.FetchContext(fetchCtx))
			if err != nil {
				cancel()
				w.cfg.Logf("worker %s: fetch: %v (retrying)", id, err)
				select {
				case <-w.stop.Done():
				case <-time.After(backoff):
				}
				backoff = min(2*backoff, 5*time.Second)
				continue
			}
			backoff = 100 * time.Millisecond
			for msg := range batch.Messages() {
				held = append(held, msg)
			}
			cancel()
		}
		var slowest time.Duration
		for i, msg := range held {
			slowest = max(slowest, w.handle(sr, id, msg, held[i+1:], settle))
		}
		if len(held) > 0 {
			take = nextTake(len(held), slowest)
		}
		clear(held)
	}
}

// handle runs one delivered cell and settles its message: a nak at once,
// or, once the previous settle of the slot is done, the result and the ack
// in the background (by the slot's settler). waiting are the cells the slot
// took with this one and runs after it: they are kept in progress while
// this one runs. It returns how long the cell ran.
func (w *worker) handle(sr *slotRunner, slotID string, msg jetstream.Msg, waiting []jetstream.Msg, settle chan<- settlement) time.Duration {
	if w.stop.Err() != nil {
		_ = msg.Nak()
		return 0
	}
	var seq uint64
	if md, err := msg.Metadata(); err == nil {
		seq = md.Sequence.Stream
		if md.NumDelivered > 1 {
			// The one place JetStream's delivery count shows: the chaos
			// soak counts these lines.
			w.cfg.Logf("worker %s: %s redelivered (delivery %d)", slotID, msg.Subject(), md.NumDelivered)
		}
	}
	if broker.IsParcel(msg.Subject()) {
		return w.handleParcel(sr, slotID, msg, waiting, settle, seq)
	}
	res, cell, ran, ok := w.runMessage(sr, slotID, msg, waiting, msg.Subject(), msg.Data())
	if !ok {
		_ = msg.Nak()
		return ran
	}
	settle <- settlement{msg: msg, cell: cell, resultSubject: broker.ResultSubjectFor(msg.Subject()), seq: seq, res: res}
	return ran
}

// runMessage admits one cell message (data, on subject: the delivered
// message's own, or that of a cell of a parcel) and runs it, keeping msg
// (the delivered message) and waiting in progress meanwhile. It returns
// the cell's result, completed (complete), and how long it ran; ok is
// false when the worker is stopping and the cell did not finish within the
// grace period (the caller naks msg). A cell the gate refuses is reported
// failed under the cell id token of its subject, with the message's
// digest: the coordinator records the cell as failed when it published
// that very message, and counts a rejected message otherwise.
func (w *worker) runMessage(sr *slotRunner, slotID string, msg jetstream.Msg, waiting []jetstream.Msg, subject string, data []byte) (res runner.CellResult, cell runner.Cell, ran time.Duration, ok bool) {
	digest := Digest(data)
	cell, err := w.cfg.Gate.Admit(subject, data)
	if err != nil {
		cell = runner.Cell{ID: subject[strings.LastIndexByte(subject, '.')+1:]}
		res = runner.CellResult{CellID: cell.ID, Status: runner.StatusFailed,
			Error: fmt.Sprintf("worker refused the cell message on %s: %v", subject, err)}
		w.cfg.Logf("worker %s: refused the cell message on %s: %v", slotID, subject, err)
	} else {
		res, ran, ok = w.run(sr, slotID, msg, waiting, cell)
		if !ok {
			w.cfg.Logf("worker %s: cell %s did not finish within the %v grace period; nak'ed", slotID, cell.ID, w.cfg.Grace)
			return res, cell, ran, false
		}
	}
	return w.complete(res, cell.ID, slotID, digest), cell, ran, true
}

// handleParcel runs the cells of a parcel (broker.SplitParcel) one after
// the other, as handle runs a cell, and sends their results as one parcel
// of results on the parcel's result subject (message id: the first cell's
// id and the parcel's stream sequence, so a parcel run again is dropped by
// the results stream as a duplicate); the parcel is acked once that is in.
// Where a result carries per-job records, or the parcel of results would
// pass the server's max_payload, each result goes alone on its cell's own
// subject with the message id of a cell sent alone (cell id and the
// parcel's sequence), and the parcel is acked after the last, or nak'ed if
// any of them could not be published (parcelState). A worker that stops
// before the last cell has run naks the parcel and sends nothing of it. A
// parcel that does not split is terminated: it is no coordinator's.
func (w *worker) handleParcel(sr *slotRunner, slotID string, msg jetstream.Msg, waiting []jetstream.Msg, settle chan<- settlement, seq uint64) time.Duration {
	entries, err := broker.SplitParcel(msg.Data())
	if err != nil {
		w.cfg.Logf("worker %s: refused the parcel on %s: %v; terminated", slotID, msg.Subject(), err)
		_ = msg.Term()
		return 0
	}
	state := &parcelState{}
	var total time.Duration
	done := make([]settlement, 0, len(entries))
	for i, e := range entries {
		if i > 0 && w.stop.Err() != nil {
			_ = msg.Nak()
			return total
		}
		subject := broker.ParcelCellSubject(msg.Subject(), e.ID)
		res, cell, ran, ok := w.runMessage(sr, slotID, msg, waiting, subject, e.Msg)
		total += ran
		if !ok {
			_ = msg.Nak()
			return total
		}
		done = append(done, settlement{cell: cell, resultSubject: broker.ResultSubjectFor(subject), seq: seq, res: res, parcel: state})
	}
	if data, ok := w.parcelResults(done); ok {
		first := done[0]
		settle <- settlement{msg: msg, cell: first.cell, resultSubject: broker.ResultSubjectFor(msg.Subject()), seq: seq,
			data: data, msgID: "parcel:" + first.cell.ID + ":" + strconv.FormatUint(seq, 10)}
		return total
	}
	done[len(done)-1].msg = msg
	for _, s := range done {
		settle <- s
	}
	return total
}

// parcelResults encodes a parcel's results as one message
// (broker.AppendParcelResult), or reports false when they must travel one
// a message: a result with per-job records (they may need the jobs object
// store), or a parcel of results over the server's max_payload.
func (w *worker) parcelResults(done []settlement) ([]byte, bool) {
	var data []byte
	for _, s := range done {
		if len(s.res.Jobs) > 0 {
			return nil, false
		}
		b, err := runner.EncodeResult(s.res)
		if err != nil {
			return nil, false
		}
		data = broker.AppendParcelResult(data, b)
	}
	if limit := w.js.Conn().MaxPayload() - 1024; limit > 0 && int64(len(data)) > limit {
		return nil, false
	}
	return data, true
}

// settlement is a finished cell handed to its slot's settler. msg is the
// message to ack once the result is in: the cell's own, or, for the last
// cell of a parcel, the parcel (nil for the others).
type settlement struct {
	msg           jetstream.Msg
	cell          runner.Cell
	resultSubject string
	seq           uint64
	res           runner.CellResult
	// parcel is shared by the settlements of one parcel's cells.
	parcel *parcelState
	// data and msgID, when set, are a parcel's results already encoded
	// (handleParcel), sent as they are.
	data  []byte
	msgID string
}

// parcelState records that a result of a parcel's cells could not be
// published, so that the parcel is nak'ed rather than acked. A slot's
// settlements are settled in order, on one goroutine, so the last cell's
// sees what the others' recorded.
type parcelState struct{ failed bool }

// nak hands the cell back for a retry: its own message, or, for a cell of
// a parcel, the parcel (at once when the settlement carries it, else
// through the last cell's settlement).
func (s settlement) nak() {
	if s.parcel != nil {
		s.parcel.failed = true
	}
	if s.msg != nil {
		_ = s.msg.Nak()
	}
}

// ack acks the settled message, if the settlement carries one: a parcel
// only if every result of its cells was published.
func (s settlement) ack() error {
	switch {
	case s.msg == nil:
		return nil
	case s.parcel != nil && s.parcel.failed:
		return s.msg.Nak()
	}
	return s.msg.Ack()
}

// complete fills in what the worker adds to a cell's result: the cell id,
// the slot, the digest of the cell message, the version fields the runner
// left empty; a status other than ok or failed becomes failed, with the
// reason.
func (w *worker) complete(res runner.CellResult, cellID, slotID, digest string) runner.CellResult {
	res.CellID = cellID
	res.Worker = slotID
	res.CellDigest = digest
	if res.Version == "" {
		res.Version = w.cfg.Version
	}
	if res.Commit == "" {
		res.Commit = w.cfg.Commit
	}
	if res.GoVersion == "" {
		res.GoVersion = runtime.Version()
	}
	if res.Status != runner.StatusOK && res.Status != runner.StatusFailed {
		res.Error = strings.TrimSpace(fmt.Sprintf("runner returned status %q; want %q or %q. %s", res.Status, runner.StatusOK, runner.StatusFailed, res.Error))
		res.Status = runner.StatusFailed
	}
	return res
}

// A cell is settled in two steps, so that a slot's results are sent one
// after the other without waiting for each ack in between: send publishes
// the result without waiting (PublishAsync), and finishSettle, on the
// slot's acker, waits for the stream's ack of it and then acks the cell
// message. The result is in the results stream before the cell leaves the
// work queue, as before: a crash in between only runs the cell again (its
// result is then a duplicate). A result the stream did not take is
// published again, waiting for the ack, up to five times; one that still
// cannot be published naks the cell for a retry.
//
// The cell's ack is not awaited (Ack, not DoubleAck): an ack lost on the
// way, like a crash after the publication, only runs the cell again, and
// its result is dropped as a duplicate, so waiting for the server's reply
// bought a log line at the cost of a round trip per cell
// (BenchmarkFarmPrimitives: a take with DoubleAck 165 µs of CPU against
// 105 µs with Ack; docs/performance-log.md, "Farm"). Closing the connection
// flushes the acks still buffered when the worker stops.

// resultsInFlight is how many results a slot may have sent whose acks it
// has not seen yet.
const resultsInFlight = 16

// resultAckWait is how long the acker waits for the stream's ack of a
// result sent without waiting before it publishes the result again.
const resultAckWait = 10 * time.Second

// sentResult is a result sent without waiting for its ack (ack nil: the
// send failed, and the acker publishes it again, waiting).
type sentResult struct {
	s     settlement
	data  []byte
	msgID string
	ack   jetstream.PubAckFuture
	sent  time.Time
}

// send encodes a settled cell's result and publishes it without waiting
// for the stream's ack. ok is false when the result could not be encoded
// (the cell is then nak'ed for a retry).
func (w *worker) send(slotID string, s settlement) (sentResult, bool) {
	data, msgID, err := s.data, s.msgID, error(nil)
	if data == nil {
		data, msgID, err = w.encodeResult(s.cell, s.seq, s.res)
	}
	if err != nil {
		w.cfg.Logf("worker %s: cell %s: publish result: %v; nak'ed for a retry", slotID, s.cell.ID, err)
		s.nak()
		return sentResult{}, false
	}
	p := sentResult{s: s, data: data, msgID: msgID, sent: time.Now()}
	if p.ack, err = w.js.PublishAsync(s.resultSubject, data, jetstream.WithMsgID(msgID)); err != nil {
		w.cfg.Logf("worker %s: cell %s: publish result: %v (publishing it again)", slotID, s.cell.ID, err)
		p.ack = nil
	}
	return p, true
}

// finishSettle waits for the stream's ack of the result that send
// published, up to resultAckWait from its sending (t: the acker's timer,
// stopped), publishes it again where the stream did not take it, and then
// acks the cell message.
func (w *worker) finishSettle(slotID string, p sentResult, t *time.Timer) {
	cellID := p.s.cell.ID
	published := false
	if p.ack != nil {
		t.Reset(max(resultAckWait-time.Since(p.sent), 0))
		select {
		case ack := <-p.ack.Ok():
			published = true
			if ack.Duplicate {
				w.logDuplicate(slotID, cellID)
			}
		case err := <-p.ack.Err():
			w.cfg.Logf("worker %s: cell %s: publish result: %v (publishing it again)", slotID, cellID, err)
		case <-t.C:
			w.cfg.Logf("worker %s: cell %s: publish result: no ack from the results stream in %v (publishing it again)", slotID, cellID, resultAckWait)
		}
		t.Stop()
	}
	if !published {
		if err := w.publishData(p.s.resultSubject, cellID, p.msgID, slotID, p.data); err != nil {
			w.cfg.Logf("worker %s: cell %s: publish result: %v; nak'ed for a retry", slotID, cellID, err)
			p.s.nak()
			return
		}
	}
	if err := p.s.ack(); err != nil {
		// The result is published; a redelivery only runs the cell again and
		// its result is dropped as a duplicate.
		w.cfg.Logf("worker %s: cell %s: ack: %v", slotID, cellID, err)
	}
}

// logDuplicate says that the results stream dropped a cell's result as a
// duplicate.
func (w *worker) logDuplicate(slotID, cellID string) {
	w.cfg.Logf("worker %s: cell %s: result dropped by the results stream as a duplicate: the cell was redelivered and its other run's result is in", slotID, cellID)
}

// slotRunner runs a slot's cells on one goroutine for the slot's life,
// with one heartbeat ticker: a goroutine and a ticker per cell cost a new
// stack grown through the simulation and a timer each time.
type slotRunner struct {
	cells chan runRequest
	done  chan runner.CellResult
	hb    *time.Ticker
}

type runRequest struct {
	ctx  context.Context
	cell runner.Cell
}

// startRunner starts a slot's runner goroutine; stop ends it once the cell
// it runs, if any, returns (an abandoned one may never: the process is
// about to exit then).
func (w *worker) startRunner() (sr *slotRunner, stop func()) {
	sr = &slotRunner{cells: make(chan runRequest), done: make(chan runner.CellResult, 1), hb: time.NewTicker(time.Hour)}
	sr.hb.Stop()
	go func() {
		for req := range sr.cells {
			sr.done <- w.runOne(req.ctx, req.cell)
		}
	}()
	return sr, func() {
		close(sr.cells)
		sr.hb.Stop()
	}
}

// runOne runs a cell, a panic recovered into a failed result.
func (w *worker) runOne(ctx context.Context, cell runner.Cell) (res runner.CellResult) {
	defer func() {
		if p := recover(); p != nil {
			res = runner.CellResult{Status: runner.StatusFailed,
				Error: fmt.Sprintf("panic: %v\n%s", p, stackHead(debug.Stack(), 12))}
		}
	}()
	return w.cfg.Runner.Run(ctx, cell)
}

// run runs the cell on the slot's runner with heartbeats and panic
// recovery, and returns how long it ran. The heartbeats keep in progress
// the cell and the ones waiting after it in the slot. ok is false when the
// worker is stopping and the cell did not finish within the grace period.
func (w *worker) run(sr *slotRunner, slotID string, msg jetstream.Msg, waiting []jetstream.Msg, cell runner.Cell) (res runner.CellResult, ran time.Duration, ok bool) {
	runCtx, cancelRun := context.WithCancel(context.Background())
	defer cancelRun()
	start := time.Now()
	sr.cells <- runRequest{runCtx, cell}
	sr.hb.Reset(w.cfg.Heartbeat)
	defer sr.hb.Stop()
	stopping := w.stop.Done()
	var grace <-chan time.Time
	for {
		select {
		case res = <-sr.done:
			ran = time.Since(start)
			if grace != nil && runCtx.Err() != nil {
				return res, ran, false
			}
			if res.WallSeconds == 0 {
				res.WallSeconds = ran.Seconds()
			}
			return res, ran, true
		case <-sr.hb.C:
			if err := msg.InProgress(); err != nil {
				w.cfg.Logf("worker %s: cell %s: heartbeat: %v", slotID, cell.ID, err)
			}
			for _, m := range waiting {
				if err := m.InProgress(); err != nil {
					w.cfg.Logf("worker %s: %s, waiting in the slot: heartbeat: %v", slotID, m.Subject(), err)
				}
			}
		case <-stopping:
			stopping = nil
			t := time.NewTimer(w.cfg.Grace)
			defer t.Stop()
			grace = t.C
		case <-grace:
			cancelRun()
			// Give the runner a moment to honour the cancellation; a runner
			// that ignores it is abandoned (the process is about to exit),
			// and the slot runs nothing more (handle naks every cell once
			// the worker is stopping).
			select {
			case <-sr.done:
			case <-time.After(time.Second):
			}
			return runner.CellResult{}, time.Since(start), false
		}
	}
}

// encodeResult returns a result's message and its message id: the cell id
// plus the cell message's stream sequence, so that a redelivery of the
// same message that runs again is dropped by the results stream as a
// duplicate, while a later re-publication of the cell (a new sequence)
// gets through. Per-job records that would push the message over the
// server's max_payload go to the jobs object store first, and the message
// names the object.
func (w *worker) encodeResult(cell runner.Cell, seq uint64, res runner.CellResult) (data []byte, msgID string, err error) {
	data, err = runner.EncodeResult(res)
	if err != nil {
		return nil, "", fmt.Errorf("encode result: %w", err)
	}
	limit := w.js.Conn().MaxPayload() - 1024
	if limit > 0 && int64(len(data)) > limit && len(res.Jobs) > 0 {
		name := broker.JobsObjectName(cell.Experiment, cell.ID, seq)
		if err := w.putJobs(name, res.Jobs); err != nil {
			return nil, "", err
		}
		res.Jobs, res.JobsObject = nil, name
		if data, err = runner.EncodeResult(res); err != nil {
			return nil, "", fmt.Errorf("encode result: %w", err)
		}
	}
	if limit > 0 && int64(len(data)) > limit {
		// Retrying cannot help: report the cell as failed with the reason.
		res = runner.CellResult{CellID: res.CellID, Status: runner.StatusFailed, Worker: res.Worker,
			WallSeconds: res.WallSeconds, Version: res.Version, GoVersion: res.GoVersion, Commit: res.Commit,
			Error: fmt.Sprintf("result is %d bytes without its per-job records, over the NATS server's max_payload of %d bytes; "+
				"raise max_payload on the server (schedfarm broker --max-payload)", len(data), limit+1024)}
		if data, err = runner.EncodeResult(res); err != nil {
			return nil, "", fmt.Errorf("encode result: %w", err)
		}
	}
	return data, cell.ID + ":" + strconv.FormatUint(seq, 10), nil
}

// publishData publishes an encoded result and waits for the stream's ack,
// trying up to five times.
func (w *worker) publishData(subject, cellID, msgID, slotID string, data []byte) error {
	var last error
	for attempt := range 5 {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		ack, err := w.js.Publish(ctx, subject, data, jetstream.WithMsgID(msgID))
		cancel()
		if err == nil {
			if ack.Duplicate {
				w.logDuplicate(slotID, cellID)
			}
			return nil
		}
		last = err
		w.cfg.Logf("worker %s: cell %s: publish result (attempt %d of 5): %v", slotID, cellID, attempt+1, err)
		time.Sleep(time.Duration(attempt+1) * 200 * time.Millisecond)
	}
	return last
}

// putJobs stores per-job records in the jobs object store under name.
func (w *worker) putJobs(name string, jobs []runner.JobRecord) error {
	data, err := json.Marshal(jobs)
	if err != nil {
		return fmt.Errorf("encode per-job records: %w", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	store, err := broker.JobsStore(ctx, w.js, w.cfg.Topology)
	if err != nil {
		return err
	}
	if _, err := store.PutBytes(ctx, name, data); err != nil {
		return fmt.Errorf("store %d bytes of per-job records as %s/%s: %w", len(data), broker.JobsBucket, name, err)
	}
	return nil
}

// stackHead keeps the frames from the panicking call on, at most n lines.
func stackHead(stack []byte, n int) string {
	lines := strings.Split(strings.TrimSpace(string(stack)), "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "panic(") {
			// Skip panic(...) and its file line.
			lines = lines[min(i+2, len(lines)):]
			break
		}
	}
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "\n")
}
