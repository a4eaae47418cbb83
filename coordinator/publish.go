package coordinator

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/schedfarm/schedfarm/broker"
	"github.com/schedfarm/schedfarm/runner"
)

// publish sends the cells with Nats-Msg-Id = cell id, all at once in grid
// order (DispatchGrid) or a window ahead of their results, longest first
// (DispatchLongestFirst, publishWindowed). A cell the stream reports as a
// duplicate is published again under a fresh id unless it is still queued,
// its result is waiting, or it is done (see resolveDuplicate). A
// publication that gets no ack (a broker restarting, a cluster electing a
// new stream leader) is sent again with the same id, which the stream
// de-duplicates, for up to republishWait.
func (c *coordinator) publish(ctx context.Context, cells []runner.Cell) error {
	if c.disp != nil {
		return c.publishWindowed(ctx, c.disp)
	}
	s := sender{c: c}
	for _, cell := range cells {
		if err := s.send(ctx, cell); err != nil {
			return err
		}
	}
	return s.settleAll(ctx)
}

// sender publishes cells asynchronously, with at most sendWindow
// publications awaiting their acks; cells handed to pack travel in parcels
// of up to Config.Parcel (broker.AppendParcel), published when full or at
// flush.
type sender struct {
	c        *coordinator
	inflight []sent
	// parcel: the cells packed and not yet published, and their parcel;
	// firstData: the first one's own encoding (EncodeCell's, a fresh
	// slice), which a parcel of one is sent as.
	parcel     []runner.Cell
	parcelData []byte
	firstData  []byte
}

// sent is a publication awaiting its ack: one cell (cells nil), or a
// parcel of cells.
type sent struct {
	cell  runner.Cell
	cells []runner.Cell
	data  []byte
	ack   jetstream.PubAckFuture
}

// subject and msgID are the publication's subject and message id.
func (o sent) subject() string {
	if o.cells != nil {
		return broker.ParcelSubject(o.cell.Experiment, o.cell.ID)
	}
	return broker.CellSubject(o.cell.Experiment, o.cell.ID)
}

func (o sent) msgID() string {
	if o.cells != nil {
		return parcelMsgID(o.cells)
	}
	return o.cell.ID
}

// parcelMsgID is a parcel's message id: its first and last cells' ids and
// its size, so that the same parcel published twice is de-duplicated.
func parcelMsgID(cells []runner.Cell) string {
	return "parcel:" + cells[0].ID + ":" + cells[len(cells)-1].ID + ":" + strconv.Itoa(len(cells))
}

const sendWindow = 256

// send publishes cell, first settling the oldest publication if
// sendWindow are awaiting their acks.
func (s *sender) send(ctx context.Context, cell runner.Cell) error {
	data, err := runner.EncodeCell(cell)
	if err != nil {
		return fmt.Errorf("encode cell %s: %w", cell.ID, err)
	}
	return s.publish(ctx, sent{cell: cell, data: data})
}

// publish sends o asynchronously, first settling the oldest publication if
// sendWindow are awaiting their acks.
func (s *sender) publish(ctx context.Context, o sent) error {
	var err error
	if o.ack, err = s.c.js.PublishAsync(o.subject(), o.data, jetstream.WithMsgID(o.msgID())); err != nil {
		return fmt.Errorf("cell %s: %w", o.cell.ID, err)
	}
	s.inflight = append(s.inflight, o)
	if len(s.inflight) >= sendWindow {
		return s.settleOldest(ctx, nil, nil)
	}
	return nil
}

// pack adds cell to the parcel being filled, publishing it once it holds
// Config.Parcel cells.
func (s *sender) pack(ctx context.Context, cell runner.Cell) error {
	data, err := runner.EncodeCell(cell)
	if err != nil {
		return fmt.Errorf("encode cell %s: %w", cell.ID, err)
	}
	if len(s.parcel) == 0 {
		s.firstData = data
	}
	s.parcel = append(s.parcel, cell)
	s.parcelData = broker.AppendParcel(s.parcelData, cell.ID, data)
	if len(s.parcel) >= s.c.cfg.Parcel {
		return s.flush(ctx)
	}
	return nil
}

// flush publishes the parcel being filled, if any: a parcel of one cell
// goes as that cell's own message, its encoding made by pack.
func (s *sender) flush(ctx context.Context) error {
	cells := s.parcel
	if len(cells) == 0 {
		return nil
	}
	s.parcel = nil
	data, first := s.parcelData, s.firstData
	s.parcelData, s.firstData = nil, nil
	if len(cells) == 1 {
		return s.publish(ctx, sent{cell: cells[0], data: first})
	}
	return s.publish(ctx, sent{cell: cells[0], cells: cells, data: data})
}

// settleOldest handles the oldest publication's outcome: ack or failed
// when the caller already received it from the future, else waited for
// here. A failed publication is sent again (republish).
func (s *sender) settleOldest(ctx context.Context, ack *jetstream.PubAck, failed error) error {
	o := s.inflight[0]
	s.inflight[0] = sent{}
	s.inflight = s.inflight[1:]
	if ack == nil && failed == nil {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case failed = <-o.ack.Err():
		case ack = <-o.ack.Ok():
		}
	}
	if failed != nil {
		var err error
		if ack, err = s.c.republish(ctx, o, failed); err != nil {
			return err
		}
	}
	if ack.Duplicate {
		var err error
		if o.cells != nil {
			err = s.c.resolveDuplicateParcel(ctx, o)
		} else {
			err = s.c.resolveDuplicate(ctx, o.cell, o.data)
		}
		if err != nil {
			return err
		}
	}
	if s.c.disp != nil {
		s.c.mu.Lock()
		if o.cells == nil {
			s.c.disp.acked[o.cell.ID] = true
		}
		for _, cell := range o.cells {
			s.c.disp.acked[cell.ID] = true
		}
		s.c.mu.Unlock()
	}
	return nil
}

// settleAll publishes the parcel being filled and settles every
// publication awaiting its ack.
func (s *sender) settleAll(ctx context.Context) error {
	if err := s.flush(ctx); err != nil {
		return err
	}
	for len(s.inflight) > 0 {
		if err := s.settleOldest(ctx, nil, nil); err != nil {
			return err
		}
	}
	return nil
}

// dispatcher is the state of DispatchLongestFirst's publication, shared
// by the publisher and the results loop under coordinator.mu.
type dispatcher struct {
	queue *dispatchQueue
	// ahead is the window: at most that many cells published without a
	// result.
	ahead int
	// published and acked: the cells handed to the broker that have no
	// result yet (as many as the window holds), and those of them whose
	// publication it acknowledged (requeueLost looks only at these).
	published, acked map[string]bool
	// sent counts the cells published.
	sent int
	// wake tells the publisher the window has room or grew.
	wake chan struct{}
}

func newDispatcher(cells []runner.Cell, ahead int) *dispatcher {
	return &dispatcher{queue: newDispatchQueue(cells), ahead: ahead,
		published: make(map[string]bool, len(cells)), acked: make(map[string]bool, len(cells)),
		wake: make(chan struct{}, 1)}
}

func (d *dispatcher) signal() {
	select {
	case d.wake <- struct{}{}:
	default:
	}
}

// resulted records that cell has its result after wall seconds of work;
// the caller holds coordinator.mu.
func (d *dispatcher) resulted(cellID string, wall float64) {
	delete(d.published, cellID)
	delete(d.acked, cellID)
	d.queue.observe(cellID, wall)
	// The window is refilled a quarter at a time: one publisher wake-up
	// and one flush of publications for several results, which is most
	// of what the window would add to an instant cell
	// (BenchmarkFarmOverheadPerCell, docs/performance-log.md "The farm's
	// tail").
	if d.ahead-len(d.published) >= max(1, d.ahead/4) {
		d.signal()
	}
}

// growWindow widens the window by n cells (workers waiting for cells while
// some are held back).
func (c *coordinator) growWindow(n int) {
	c.mu.Lock()
	c.disp.ahead += n
	c.mu.Unlock()
	c.disp.signal()
}

// publishWindowed publishes d's cells, keeping at most d.ahead of them
// without a result (plus the rest of the last bundle), each time the
// window has room the next bundles by d.queue's order; a cell done
// meanwhile (a result of an earlier run's publication) is skipped.
func (c *coordinator) publishWindowed(ctx context.Context, d *dispatcher) error {
	s := sender{c: c}
	var batch []runner.Cell
	var packed []bool // packed[i]: batch[i] travels in a parcel
	for {
		batch, packed = batch[:0], packed[:0]
		c.mu.Lock()
		for len(d.published) < d.ahead {
			bundle := d.queue.next()
			if bundle == nil {
				break
			}
			for _, cell := range bundle {
				if c.done[cell.ID] {
					continue
				}
				d.published[cell.ID] = true
				d.sent++
				batch = append(batch, cell)
				packed = append(packed, c.cfg.Parcel > 1 && d.queue.instant(cell.ID, c.cfg.Parcel))
			}
		}
		left := d.queue.len()
		c.mu.Unlock()
		for i, cell := range batch {
			var err error
			if packed[i] {
				err = s.pack(ctx, cell)
			} else {
				err = s.send(ctx, cell)
			}
			if err != nil {
				return err
			}
		}
		if err := s.flush(ctx); err != nil {
			return err
		}
		if left == 0 {
			return s.settleAll(ctx)
		}
		// Wait for room, settling acks as they come so that a failed
		// publication is sent again without waiting for the window.
		for waiting := true; waiting; {
			var ok <-chan *jetstream.PubAck
			var failed <-chan error
			if len(s.inflight) > 0 {
				ok, failed = s.inflight[0].ack.Ok(), s.inflight[0].ack.Err()
			}
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-d.wake:
				waiting = false
			case ack := <-ok:
				if err := s.settleOldest(ctx, ack, nil); err != nil {
					return err
				}
			case err := <-failed:
				if err := s.settleOldest(ctx, nil, err); err != nil {
					return err
				}
			}
		}
	}
}

// republish publishes a cell (or a parcel) again, with the same message
// id, after its asynchronous publication failed with first, until the
// stream acks it or republishWait has passed.
func (c *coordinator) republish(ctx context.Context, o sent, first error) (*jetstream.PubAck, error) {
	cell, data := o.cell, o.data
	c.cfg.Logf("coordinator: cell %s: publish: %v; publishing again", cell.ID, first)
	deadline := time.Now().Add(republishWait)
	last := first
	for time.Now().Before(deadline) {
		pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		ack, err := c.js.Publish(pctx, o.subject(), data, jetstream.WithMsgID(o.msgID()))
		cancel()
		if err == nil {
			return ack, nil
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		last = err
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(500 * time.Millisecond):
		}
	}
	return nil, fmt.Errorf("cell %s: no ack for %v: %w", cell.ID, republishWait, last)
}

// resolveDuplicate handles a cell whose publication the stream dropped as a
// duplicate of an earlier one. The checks run in the order the cell's
// messages disappear (a worker publishes the result before it acks the cell;
// the coordinator marks a result done before it acks it), so a cell found in
// none of the three places was run and collected by an earlier coordinator
// whose output no longer has it: it is queued again under a fresh id. A
// queued message or a waiting result of another form of the cell (an
// earlier coordinator with another data root) does not count: the message
// is replaced, and the cell queued again when only such a result waits
// (it will be refused).
func (c *coordinator) resolveDuplicate(ctx context.Context, cell runner.Cell, data []byte) error {
	old, err := c.conn.cellsSt.GetLastMsgForSubject(ctx, broker.CellSubject(cell.Experiment, cell.ID))
	switch {
	case err == nil && bytes.Equal(old.Data, data):
		return nil // queued
	case err == nil:
		// An earlier coordinator published another form of the cell (e.g.
		// from another data root); its result would be refused, so it is
		// replaced by this one.
		if err := c.conn.cellsSt.DeleteMsg(ctx, old.Sequence); err != nil && !errors.Is(err, jetstream.ErrMsgNotFound) {
			return fmt.Errorf("replace queued cell %s: %w", cell.ID, err)
		}
		return c.requeue(ctx, cell)
	case !errors.Is(err, jetstream.ErrMsgNotFound):
		return fmt.Errorf("look up %s: %w", broker.CellSubject(cell.Experiment, cell.ID), err)
	}
	switch res, err := c.conn.resSt.GetLastMsgForSubject(ctx, broker.ResultSubject(cell.Experiment, cell.ID)); {
	case err == nil:
		// A result waits. It counts only if it is for this very message
		// (a result of an earlier coordinator's other form of the cell is
		// refused): otherwise the cell is queued again below.
		var r struct {
			Digest string `json:"cell_digest"`
		}
		sum := cellDigest(data)
		if json.Unmarshal(res.Data, &r) == nil && r.Digest == hex.EncodeToString(sum[:]) {
			return nil
		}
	case !errors.Is(err, jetstream.ErrMsgNotFound):
		return fmt.Errorf("look up %s: %w", broker.ResultSubject(cell.Experiment, cell.ID), err)
	}
	c.mu.Lock()
	done := c.done[cell.ID]
	c.mu.Unlock()
	if done {
		return nil
	}
	return c.requeue(ctx, cell)
}

// resolveDuplicateParcel handles a parcel whose publication the stream
// dropped as a duplicate of an earlier one: nothing to do while that very
// parcel is queued; otherwise each of its cells that is not done is
// published again alone under a fresh message id. A cell whose result
// waits in the results stream then runs twice, and its second result is
// dropped as a duplicate.
func (c *coordinator) resolveDuplicateParcel(ctx context.Context, o sent) error {
	old, err := c.conn.cellsSt.GetLastMsgForSubject(ctx, o.subject())
	switch {
	case err == nil && bytes.Equal(old.Data, o.data):
		return nil // queued
	case err == nil:
		// Another form of the parcel (an earlier coordinator with another
		// data root): its results would be refused, so it goes, as a
		// single cell's other form does in resolveDuplicate.
		if err := c.conn.cellsSt.DeleteMsg(ctx, old.Sequence); err != nil && !errors.Is(err, jetstream.ErrMsgNotFound) {
			return fmt.Errorf("replace the queued parcel of %s: %w", o.cell.ID, err)
		}
	case !errors.Is(err, jetstream.ErrMsgNotFound):
		return fmt.Errorf("look up the parcel of %s: %w", o.cell.ID, err)
	}
	n := 0
	for _, cell := range o.cells {
		c.mu.Lock()
		done := c.done[cell.ID]
		c.mu.Unlock()
		if done {
			continue
		}
		if err := c.requeue(ctx, cell); err != nil {
			return fmt.Errorf("cell %s: %w", cell.ID, err)
		}
		n++
	}
	c.cfg.Logf("coordinator: the parcel of %s was published before and is no longer queued: %d of its %d cells without a result published again alone", o.cell.ID, n, len(o.cells))
	return nil
}

// requeue publishes a cell again under a fresh message id.
func (c *coordinator) requeue(ctx context.Context, cell runner.Cell) error {
	data, err := runner.EncodeCell(cell)
	if err != nil {
		return err
	}
	id := cell.ID + ":" + strconv.FormatInt(time.Now().UnixNano(), 36)
	_, err = c.js.Publish(ctx, broker.CellSubject(cell.Experiment, cell.ID), data, jetstream.WithMsgID(id))
	return err
}
