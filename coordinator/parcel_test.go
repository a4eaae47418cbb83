package coordinator_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/schedfarm/schedfarm/broker"
	"github.com/schedfarm/schedfarm/coordinator"
	"github.com/schedfarm/schedfarm/runner"
	"github.com/schedfarm/schedfarm/worker"
)

// parcelWatch records, from a plain NATS subscription beside the stream,
// the parcels published for an experiment: the cell ids of each.
type parcelWatch struct {
	mu      sync.Mutex
	parcels [][]string
	bad     []string
	sub     *nats.Subscription
	nc      *nats.Conn
}

func watchParcels(t *testing.T, f *farm, exp string) *parcelWatch {
	t.Helper()
	w := &parcelWatch{nc: f.js.Conn()}
	var err error
	one := broker.CellSubject(exp, "x") // the experiment's cells' subjects, a wildcard for the cell
	w.sub, err = w.nc.Subscribe(one[:len(one)-1]+"*.parcel", func(m *nats.Msg) {
		w.mu.Lock()
		defer w.mu.Unlock()
		entries, err := broker.SplitParcel(m.Data)
		if err != nil {
			w.bad = append(w.bad, err.Error())
			return
		}
		var ids []string
		for _, e := range entries {
			ids = append(ids, e.ID)
		}
		w.parcels = append(w.parcels, ids)
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = w.sub.Unsubscribe() })
	return w
}

// seen returns the parcels published so far: after a flush of the
// connection, every parcel the server routed before it has been handled.
func (w *parcelWatch) seen(t *testing.T) [][]string {
	t.Helper()
	if err := w.nc.Flush(); err != nil {
		t.Fatal(err)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, b := range w.bad {
		t.Errorf("a parcel that does not split: %s", b)
	}
	return w.parcels
}

// instantRunner is okRunner reporting that its cell ran for 10 µs, as the
// real runner reports a simulation's own time: a point is found instant
// from what its cells report (ParcelBudget), and a runner that reports
// nothing is timed by the worker's wall clock, which on a loaded machine
// (or under the race detector) can stretch an empty cell past
// ParcelBudget / Parcel and keep its point out of parcels: a CI run under
// -race sent only 70 of TestInstantCellsTravelInParcels' 160 cells in
// parcels so.
func instantRunner(ctx context.Context, c runner.Cell) runner.CellResult {
	r := okRunner(ctx, c)
	r.WallSeconds = 10e-6
	return r
}

// Instant cells travel in parcels of at most Config.Parcel once their
// point has shown it is instant; every cell still gets exactly one result,
// with its own digest (nothing rejected), and the streams end empty. The
// same sweep without Parcel publishes no parcel. The first window of
// cells (DefaultAhead, 64) goes out before any point has a result, so at
// most 96 of the 160 can travel in parcels; the test wants at least 80.
func TestInstantCellsTravelInParcels(t *testing.T) {
	f := startFarm(t)
	f.startWorker(t, worker.Config{ID: "w1", Slots: 2, Runner: worker.RunnerFunc(instantRunner)})
	f.startWorker(t, worker.Config{ID: "w2", Slots: 2, Runner: worker.RunnerFunc(instantRunner)})
	for _, parcel := range []int{0, 16} {
		exp := fmt.Sprintf("parcels-%d", parcel)
		watch := watchParcels(t, f, exp)
		cells := pointCells(exp, 4, 40)
		sink := newMemSink()
		sum := runCoordinator(t, context.Background(), f, coordinator.Config{Experiment: exp, Cells: cells, Sink: sink, Parcel: parcel})
		sink.checkExactlyOnce(t, cells)
		if sum.OK != len(cells) || sum.Rejected != 0 || sum.Duplicates != 0 {
			t.Errorf("parcel %d: summary %+v; want %d ok, nothing rejected or duplicated", parcel, sum, len(cells))
		}
		for _, c := range cells {
			if r := sink.results[c.ID]; r.Status != runner.StatusOK || r.Metrics[0].Value != float64(c.Seed) {
				t.Errorf("parcel %d: cell %s: result %+v", parcel, c.ID, r)
			}
		}
		parcels := watch.seen(t)
		inParcels := 0
		for _, p := range parcels {
			inParcels += len(p)
			if len(p) < 2 || len(p) > max(parcel, 2) {
				t.Errorf("parcel %d: a parcel of %d cells %v; want 2 to %d", parcel, len(p), p, parcel)
			}
		}
		switch {
		case parcel == 0 && len(parcels) != 0:
			t.Errorf("without Parcel, %d parcels were published", len(parcels))
		case parcel > 0 && inParcels < len(cells)/2:
			t.Errorf("with Parcel %d, %d of %d instant cells travelled in %d parcels; want most of them", parcel, inParcels, len(cells), len(parcels))
		}
		t.Logf("parcel %d: %d of %d cells in %d parcels", parcel, inParcels, len(cells), len(parcels))
		if n := streamMsgs(t, f, broker.CellsStream); n != 0 {
			t.Errorf("parcel %d: %d messages left in the cells stream; want 0", parcel, n)
		}
		if n := streamMsgs(t, f, broker.ResultsStream); n != 0 {
			t.Errorf("parcel %d: %d messages left in the results stream; want 0", parcel, n)
		}
	}
}

// A point whose cells take longer than ParcelBudget / Parcel each never
// travels in a parcel: the runner reports point 0's cells as taking a
// second (without taking it), the other points' as instant (10 µs,
// instantRunner).
func TestSlowPointsTravelAlone(t *testing.T) {
	f := startFarm(t)
	slow := func(ctx context.Context, c runner.Cell) runner.CellResult {
		r := instantRunner(ctx, c)
		if strings.HasPrefix(c.ID, "p0r") {
			r.WallSeconds = 1
		}
		return r
	}
	f.startWorker(t, worker.Config{ID: "w", Slots: 2, Runner: worker.RunnerFunc(slow)})
	const exp = "slow-alone"
	watch := watchParcels(t, f, exp)
	cells := pointCells(exp, 3, 40)
	sink := newMemSink()
	sum := runCoordinator(t, context.Background(), f, coordinator.Config{Experiment: exp, Cells: cells, Sink: sink, Parcel: 16})
	sink.checkExactlyOnce(t, cells)
	if sum.OK != len(cells) {
		t.Errorf("summary %+v; want %d ok", sum, len(cells))
	}
	parcels := watch.seen(t)
	if len(parcels) == 0 {
		t.Fatal("no parcel published; want the instant points' cells in parcels")
	}
	for _, p := range parcels {
		for _, id := range p {
			if strings.HasPrefix(id, "p0r") {
				t.Errorf("cell %s of the slow point travelled in parcel %v", id, p)
			}
		}
	}
}

// A parcel whose every delivery is lost (its worker dies each time) has
// each of its cells recorded as failed once MaxDeliver is exhausted, and
// leaves the queue; the other cells, alone or in parcels, complete, and a
// line of a parcel of results that is not a result of this experiment is
// refused without refusing the others.
func TestExhaustedParcelFailsEachOfItsCells(t *testing.T) {
	f := startFarm(t)
	const exp = "exhaust-parcel"
	topo := broker.Topology{AckWait: 300 * time.Millisecond, MaxDeliver: 2}
	cells := pointCells(exp, 2, 60) // more than the window: published as results come
	sink := newMemSink()
	var dropped []string // the cells of the parcel whose deliveries are dropped
	var drop string      // its subject
	forged := false      // a line of a cell not in the experiment sent once
	result := func(id string, msg []byte) []byte {
		return fmt.Appendf(nil, `{"cell_id":%q,"status":"ok","cell_digest":%q}`, id, worker.Digest(msg))
	}
	ok := func(id string, msg []byte) {
		if _, err := f.js.Publish(context.Background(), broker.ResultSubject(exp, id), result(id, msg)); err != nil {
			t.Error(err)
		}
	}
	// A hand-made worker: it completes every cell message and every
	// parcel except the first parcel it sees, whose deliveries it takes
	// and drops as a crashed worker would; a parcel's results go in one
	// message, the first of them with a line for a cell that is not in
	// the experiment, which is refused while the others are written.
	done := handMadeWorker(t, f, topo, func() bool { return sink.count() == len(cells) }, func(msg jetstream.Msg) {
		if !broker.IsParcel(msg.Subject()) {
			ok(msg.Subject()[strings.LastIndexByte(msg.Subject(), '.')+1:], msg.Data())
			_ = msg.Ack()
			return
		}
		entries, err := broker.SplitParcel(msg.Data())
		if err != nil {
			t.Error(err)
			return
		}
		if drop == "" {
			drop = msg.Subject()
			for _, e := range entries {
				dropped = append(dropped, e.ID)
			}
		}
		if msg.Subject() == drop {
			return
		}
		var results []byte
		if !forged {
			forged = true
			results = broker.AppendParcelResult(results, result("nosuch", []byte("{}")))
		}
		for _, e := range entries {
			results = broker.AppendParcelResult(results, result(e.ID, e.Msg))
		}
		if _, err := f.js.Publish(context.Background(), broker.ResultSubjectFor(msg.Subject()), results); err != nil {
			t.Error(err)
		}
		_ = msg.Ack()
	})
	sum := runCoordinator(t, context.Background(), f, coordinator.Config{Experiment: exp, Cells: cells, Sink: sink, Topology: topo, Parcel: 8})
	<-done
	sink.checkExactlyOnce(t, cells)
	if len(dropped) < 2 {
		t.Fatalf("no parcel was published (dropped %v); want the instant cells in parcels", dropped)
	}
	for _, id := range dropped {
		if r := sink.results[id]; r.Status != runner.StatusFailed || !strings.Contains(r.Error, "no result after 2 deliveries") {
			t.Errorf("cell %s of the dropped parcel: %+v; want failed after 2 deliveries", id, r)
		}
	}
	if sum.Failed != len(dropped) || sum.OK != len(cells)-len(dropped) {
		t.Errorf("summary %+v; want the %d cells of the dropped parcel failed, the rest ok", sum, len(dropped))
	}
	if !forged || sum.Rejected != 1 || len(sum.Rejections) != 1 || sum.Rejections[0].CellID != "nosuch" {
		t.Errorf("rejections %+v (forged line sent: %v); want the one line of cell nosuch refused", sum.Rejections, forged)
	}
	if n := streamMsgs(t, f, broker.CellsStream); n != 0 {
		t.Errorf("%d messages left in the cells stream; want 0 (the exhausted parcel deleted)", n)
	}
}

// Config.Parcel is checked: at most broker.MaxParcel cells a message.
func TestParcelConfigChecked(t *testing.T) {
	f := startFarm(t)
	for _, n := range []int{-1, broker.MaxParcel + 1} {
		_, err := coordinator.Run(context.Background(), f.js, coordinator.Config{Experiment: "x", Cells: makeCells("x", 1), Sink: newMemSink(), Parcel: n})
		if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("parcel %d", n)) {
			t.Errorf("Parcel %d: %v; want it refused", n, err)
		}
	}
}
