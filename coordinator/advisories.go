package coordinator

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/schedfarm/schedfarm/broker"
	"github.com/schedfarm/schedfarm/runner"
)

// onAdvisory records a cell that exhausted its deliveries as failed, or
// each cell of a parcel that did, and removes the message from the work
// queue.
func (c *coordinator) onAdvisory(ctx context.Context, msg jetstream.Msg) error {
	var adv broker.MaxDeliveriesAdvisory
	if err := json.Unmarshal(msg.Data(), &adv); err != nil || adv.StreamSeq == 0 {
		c.cfg.Logf("coordinator: dropping undecodable advisory: %v", err)
		return msg.Ack()
	}
	raw, err := c.conn.cellsSt.GetMsg(ctx, adv.StreamSeq)
	if errors.Is(err, jetstream.ErrMsgNotFound) {
		return msg.Ack() // handled before, or acked at last
	}
	if err != nil {
		return fmt.Errorf("coordinator: look up cell message %d: %w", adv.StreamSeq, err)
	}
	entries := []broker.ParcelEntry{{Msg: raw.Data}}
	subject := func(broker.ParcelEntry) string { return raw.Subject }
	if broker.IsParcel(raw.Subject) {
		if entries, err = broker.SplitParcel(raw.Data); err != nil {
			return msg.Ack() // not a parcel this coordinator made
		}
		subject = func(e broker.ParcelEntry) string { return broker.ParcelCellSubject(raw.Subject, e.ID) }
	}
	for i, e := range entries {
		ours, err := c.exhausted(subject(e), e.Msg, adv)
		if err != nil {
			return err
		}
		if !ours && i == 0 {
			return msg.Ack() // another experiment's message: its coordinator handles it
		}
	}
	if err := c.sync(); err != nil {
		return err
	}
	if err := c.conn.cellsSt.DeleteMsg(ctx, adv.StreamSeq); err != nil && !errors.Is(err, jetstream.ErrMsgNotFound) {
		return fmt.Errorf("coordinator: delete exhausted cell message %d: %w", adv.StreamSeq, err)
	}
	return msg.Ack()
}

// exhausted records as failed the cell of a message (subject, data: a
// cell's own message, or one cell of a parcel) that exhausted its
// deliveries, when the cell has no result and the message is the one this
// coordinator published (another is counted as rejected). ours is false
// for another experiment's cell (or bytes that are no cell), which its
// coordinator handles.
func (c *coordinator) exhausted(subject string, data []byte, adv broker.MaxDeliveriesAdvisory) (ours bool, err error) {
	var cell runner.Cell
	if err := json.Unmarshal(data, &cell); err != nil || cell.Experiment != c.cfg.Experiment {
		return false, nil
	}
	known := c.cells[cell.ID].ID != ""
	c.mu.Lock()
	done := c.done[cell.ID]
	c.mu.Unlock()
	if want, ok := c.digests[cell.ID]; known && !done && (!ok || want != cellDigest(data)) {
		// Not the message this coordinator published: a forged or stale
		// one exhausted its deliveries; the cell's own message is not
		// affected.
		c.rejectRaw(subject, cell.ID, fmt.Sprintf("cell message (stream sequence %d) exhausted its deliveries, but it is not the message this coordinator published for the cell; deleted", adv.StreamSeq))
		known = false
	}
	if known && !done {
		res := failedResult(cell.ID, nil, "no result after %d deliveries: every worker that took the cell crashed or let its ack wait expire", adv.Deliveries)
		if err := c.write(c.cells[cell.ID], res); err != nil {
			return true, err
		}
	}
	return true, nil
}
