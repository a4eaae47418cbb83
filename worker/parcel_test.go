package worker_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/schedfarm/schedfarm/broker"
	"github.com/schedfarm/schedfarm/runner"
	"github.com/schedfarm/schedfarm/worker"
)

// publishParcel publishes cells from..from+n−1 of exp as one parcel, as a
// coordinator does (broker.AppendParcel, broker.ParcelSubject).
func publishParcel(t *testing.T, ctx context.Context, js jetstream.JetStream, exp string, from, n int) []runner.Cell {
	t.Helper()
	var data []byte
	var cells []runner.Cell
	for i := from; i < from+n; i++ {
		c := runner.Cell{Experiment: exp, ID: fmt.Sprintf("c%03d", i), Index: i, Scheduler: "fcfs", Seed: uint64(i)}
		msg, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		data = broker.AppendParcel(data, c.ID, msg)
		cells = append(cells, c)
	}
	if _, err := js.Publish(ctx, broker.ParcelSubject(exp, cells[0].ID), data, jetstream.WithMsgID("parcel:"+cells[0].ID)); err != nil {
		t.Fatal(err)
	}
	return cells
}

// resultsByCell reads every result of exp in the results stream, alone
// (on its cell's own subject) or in a parcel of results (one a line), by
// cell id (the results stream de-duplicates by message id, so a count
// above one is a result stored twice), and the number of messages.
func resultsByCell(t *testing.T, ctx context.Context, js jetstream.JetStream, exp string) (map[string][]runner.CellResult, int) {
	t.Helper()
	st, err := js.Stream(ctx, broker.ResultsStream)
	if err != nil {
		t.Fatal(err)
	}
	info, err := st.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]runner.CellResult{}
	msgs := 0
	for seq := info.State.FirstSeq; seq <= info.State.LastSeq && info.State.Msgs > 0; seq++ {
		m, err := st.GetMsg(ctx, seq)
		if err != nil {
			t.Fatal(err)
		}
		msgs++
		lines := [][]byte{m.Data}
		if broker.IsParcel(m.Subject) {
			if lines, err = broker.SplitParcelResults(m.Data); err != nil {
				t.Fatalf("%s: %v", m.Subject, err)
			}
		}
		for _, line := range lines {
			var r runner.CellResult
			if err := json.Unmarshal(line, &r); err != nil {
				t.Fatal(err)
			}
			if want := broker.ResultSubject(exp, r.CellID); !broker.IsParcel(m.Subject) && m.Subject != want {
				t.Errorf("result of %s on %s; want its own subject %s", r.CellID, m.Subject, want)
			}
			out[r.CellID] = append(out[r.CellID], r)
		}
	}
	return out, msgs
}

// cellsStreamEmpties waits until the cells stream holds no message: the
// parcel acked.
func cellsStreamEmpties(t *testing.T, ctx context.Context, js jetstream.JetStream) {
	t.Helper()
	st, err := js.Stream(ctx, broker.CellsStream)
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "the parcel acked", func() (bool, string) {
		info, err := st.Info(ctx)
		if err != nil {
			return false, err.Error()
		}
		return info.State.Msgs == 0, fmt.Sprintf("%d messages in the cells stream", info.State.Msgs)
	})
}

// A parcel's cells each get a result of their own, with the digest of
// their own message, all in one parcel of results; a cell the gate
// refuses is reported failed, the rest of the parcel runs, and the parcel
// leaves the queue once its results are in.
func TestParcelCellsEachGetTheirResult(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	js := queue(t, ctx, broker.Topology{})
	cells := publishParcel(t, ctx, js, "parcel", 0, 16)
	refuse := gateFunc(func(subject string, data []byte) (runner.Cell, error) {
		if strings.HasSuffix(subject, ".c005") {
			return runner.Cell{}, fmt.Errorf("refused for the test")
		}
		return worker.DecodeOnly{}.Admit(subject, data)
	})
	stop := startWorker(t, js, worker.Config{ID: "w", Slots: 1, Runner: instant, Gate: refuse})
	cellsStreamEmpties(t, ctx, js)
	stop()
	got, msgs := resultsByCell(t, ctx, js, "parcel")
	if msgs != 1 {
		t.Errorf("%d result messages for the parcel; want its results in one", msgs)
	}
	var data []byte
	for _, c := range cells {
		rs := got[c.ID]
		if len(rs) != 1 {
			t.Fatalf("cell %s: %d results; want 1", c.ID, len(rs))
		}
		r := rs[0]
		data, _ = json.Marshal(c)
		if r.CellDigest != worker.Digest(data) {
			t.Errorf("cell %s: digest %s; want its own message's %s", c.ID, r.CellDigest, worker.Digest(data))
		}
		switch {
		case c.ID == "c005" && (r.Status != runner.StatusFailed || !strings.Contains(r.Error, "worker refused the cell message on "+broker.CellSubject("parcel", "c005"))):
			t.Errorf("refused cell: %+v; want failed, naming the cell's own subject", r)
		case c.ID != "c005" && r.Status != runner.StatusOK:
			t.Errorf("cell %s: %+v; want ok", c.ID, r)
		}
	}
}

// A worker told to stop inside a parcel finishes the cell it runs, hands
// the parcel back (nak) without publishing any of its results, and another
// worker runs the whole parcel: every cell has exactly one result in the
// results stream, the second worker's, and the parcel leaves the queue.
// The stop is triggered by progress (the fourth cell), not by a timer.
func TestWorkerStoppedInsideAParcelHandsItBack(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	js := queue(t, ctx, broker.Topology{})
	cells := publishParcel(t, ctx, js, "handback", 0, 12)
	// The first worker's fourth cell returns only once the worker has
	// been told to stop, so the stop falls inside the parcel whatever the
	// machine's speed.
	workerCtx, stopFirst := context.WithCancel(ctx)
	var once sync.Once
	ran := make(chan struct{})
	first := worker.RunnerFunc(func(ctx context.Context, c runner.Cell) runner.CellResult {
		if c.Index == 3 {
			once.Do(func() { close(ran) })
			<-workerCtx.Done()
		}
		return instant(ctx, c)
	})
	firstDone := make(chan error, 1)
	go func() {
		firstDone <- worker.Run(workerCtx, js, worker.Config{ID: "first", Slots: 1, Runner: first, Gate: worker.DecodeOnly{}, Grace: time.Minute,
			Logf: func(f string, a ...any) { t.Logf(f, a...) }})
	}()
	select {
	case <-ran:
	case err := <-firstDone:
		t.Fatalf("the first worker ended before running the parcel: %v", err)
	case <-ctx.Done():
		t.Fatal("the first worker never ran the parcel's fourth cell")
	}
	stopFirst()
	if err := <-firstDone; err != nil {
		t.Fatal(err)
	}
	results, err := js.Stream(ctx, broker.ResultsStream)
	if err != nil {
		t.Fatal(err)
	}
	info, err := results.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if info.State.Msgs != 0 {
		t.Fatalf("the first worker left %d result messages; want none of a parcel it handed back", info.State.Msgs)
	}
	stopSecond := startWorker(t, js, worker.Config{ID: "second", Slots: 1, Runner: instant, Gate: worker.DecodeOnly{}})
	cellsStreamEmpties(t, ctx, js)
	stopSecond()
	got, _ := resultsByCell(t, ctx, js, "handback")
	byWorker := map[string]int{}
	for _, c := range cells {
		if rs := got[c.ID]; len(rs) != 1 || rs[0].Status != runner.StatusOK {
			t.Errorf("cell %s: results %+v; want exactly one, ok", c.ID, rs)
		} else {
			byWorker[strings.SplitN(rs[0].Worker, "/", 2)[0]]++
		}
	}
	if byWorker["second"] != len(cells) {
		t.Errorf("results by worker %v; want every one from the second (the first stopped inside the parcel)", byWorker)
	}
}

// gateFunc adapts a function to worker.Gate.
type gateFunc func(subject string, data []byte) (runner.Cell, error)

func (g gateFunc) Admit(subject string, data []byte) (runner.Cell, error) { return g(subject, data) }

// Results that carry per-job records travel one a message, on their cells'
// own subjects (the jobs object store may be needed for them), even from a
// parcel; the parcel is acked after the last.
func TestParcelResultsWithJobsTravelAlone(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	js := queue(t, ctx, broker.Topology{})
	cells := publishParcel(t, ctx, js, "withjobs", 0, 5)
	withJobs := worker.RunnerFunc(func(ctx context.Context, c runner.Cell) runner.CellResult {
		r := instant(ctx, c)
		r.Jobs = []runner.JobRecord{{ID: int64(c.Index) + 1}}
		return r
	})
	stop := startWorker(t, js, worker.Config{ID: "w", Slots: 1, Runner: withJobs, Gate: worker.DecodeOnly{}})
	cellsStreamEmpties(t, ctx, js)
	stop()
	got, msgs := resultsByCell(t, ctx, js, "withjobs")
	if msgs != len(cells) {
		t.Errorf("%d result messages; want %d, one a cell", msgs, len(cells))
	}
	for _, c := range cells {
		if rs := got[c.ID]; len(rs) != 1 || len(rs[0].Jobs) != 1 {
			t.Errorf("cell %s: results %+v; want one, with its per-job record", c.ID, rs)
		}
	}
}
