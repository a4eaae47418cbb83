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

// publish sends the cells with Nats-Msg-Id = cell id. A cell the stream
// reports as a duplicate is published again under a fresh id unless it is
// still queued, its result is waiting, or it is done (see resolveDuplicate).
// A publication that gets no ack (a broker restarting, a cluster electing a
// new stream leader) is sent again with the same id, which the stream
// de-duplicates, for up to republishWait.
func (c *coordinator) publish(ctx context.Context, cells []runner.Cell) error {
	type sent struct {
		cell runner.Cell
		data []byte
		ack  jetstream.PubAckFuture
	}
	const window = 256
	var inflight []sent
	settle := func(s sent) error {
		var ack *jetstream.PubAck
		select {
		case <-ctx.Done():
			return ctx.Err()
		case err := <-s.ack.Err():
			if ack, err = c.republish(ctx, s.cell, s.data, err); err != nil {
				return err
			}
		case ack = <-s.ack.Ok():
		}
		if ack.Duplicate {
			return c.resolveDuplicate(ctx, s.cell, s.data)
		}
		return nil
	}
	for _, cell := range cells {
		data, err := runner.EncodeCell(cell)
		if err != nil {
			return fmt.Errorf("encode cell %s: %w", cell.ID, err)
		}
		f, err := c.js.PublishAsync(broker.CellSubject(cell.Experiment, cell.ID), data, jetstream.WithMsgID(cell.ID))
		if err != nil {
			return fmt.Errorf("cell %s: %w", cell.ID, err)
		}
		inflight = append(inflight, sent{cell, data, f})
		if len(inflight) >= window {
			if err := settle(inflight[0]); err != nil {
				return err
			}
			inflight = inflight[1:]
		}
	}
	for _, s := range inflight {
		if err := settle(s); err != nil {
			return err
		}
	}
	return nil
}

// republish publishes a cell again, with the same message id, after its
// asynchronous publication failed with first, until the stream acks it or
// republishWait has passed.
func (c *coordinator) republish(ctx context.Context, cell runner.Cell, data []byte, first error) (*jetstream.PubAck, error) {
	c.cfg.Logf("coordinator: cell %s: publish: %v; publishing again", cell.ID, first)
	deadline := time.Now().Add(republishWait)
	last := first
	for time.Now().Before(deadline) {
		pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		ack, err := c.js.Publish(pctx, broker.CellSubject(cell.Experiment, cell.ID), data, jetstream.WithMsgID(cell.ID))
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

func hasSubject(ctx context.Context, st jetstream.Stream, subject string) (bool, error) {
	_, err := st.GetLastMsgForSubject(ctx, subject)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, jetstream.ErrMsgNotFound):
		return false, nil
	default:
		return false, fmt.Errorf("look up %s: %w", subject, err)
	}
}
