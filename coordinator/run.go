package coordinator

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/schedfarm/schedfarm/broker"
	"github.com/schedfarm/schedfarm/runner"
)

// run publishes b's cells not yet done and collects results until each of
// them has one.
func (c *coordinator) run(ctx context.Context, b Batch) (Summary, error) {
	if c.closed {
		return Summary{}, errors.New("coordinator: run on a closed session")
	}
	c.clean = false
	c.sum, c.prog, c.started = Summary{Total: len(b.Cells)}, b.Progress, time.Now()
	c.left = make(map[string]bool, len(b.Cells))
	if err := CheckDataRoot(c.cfg.DataRoot, b.Cells); err != nil {
		return Summary{}, fmt.Errorf("coordinator: %w", err)
	}
	root, err := filepath.Abs(cmp.Or(c.cfg.DataRoot, "."))
	if err != nil {
		return Summary{}, fmt.Errorf("coordinator: data root: %w", err)
	}
	todo, err := c.prepare(root, b)
	if err != nil {
		return Summary{}, err
	}

	c.progress(false)
	if len(todo) == 0 {
		c.sum.Wall = time.Since(c.started)
		c.progress(true)
		c.clean = c.allDone()
		return c.sum, nil
	}
	if !c.conn.opened {
		if err := c.open(ctx); err != nil {
			return c.sum, err
		}
	}

	if err := c.readWaiting(ctx); err != nil {
		return c.finish(err)
	}
	todo = slices.DeleteFunc(todo, func(cell runner.Cell) bool { return !c.left[cell.ID] })
	var pubErr chan error
	pubCtx, cancelPub := context.WithCancel(ctx)
	if c.cfg.Dispatch == DispatchLongestFirst && len(todo) > c.cfg.Ahead {
		c.disp = newDispatcher(todo, c.cfg.Ahead)
	}
	if len(todo) > 0 {
		pubErr = make(chan error, 1)
		go func() { pubErr <- c.publish(pubCtx, todo) }()
	}
	// An early return stops the publisher and waits for it, so that the
	// next run of a session finds no goroutine of this one.
	defer func() {
		cancelPub()
		if pubErr != nil {
			<-pubErr
		}
		c.mu.Lock()
		c.disp = nil
		c.mu.Unlock()
	}()

	if err := c.collect(ctx, &pubErr, len(todo)); err != nil {
		return c.finish(err)
	}
	if pubErr != nil {
		// Every cell has its result, so every publication was acked; the
		// publisher is about to report.
		err := <-pubErr
		pubErr = nil
		if err != nil {
			return c.finish(fmt.Errorf("coordinator: publish cells: %w", err))
		}
		c.sum.Published = c.published(len(todo))
	}
	sum, err := c.finish(nil)
	if err == nil {
		c.clean = c.allDone()
		if c.session && c.clean {
			c.tidy(ctx, false)
		}
	}
	return sum, err
}

// prepare registers b's cells for the run: those done (in b.Done or
// earlier) are skipped; each of the others is made a wire cell (its
// directory relative to the data root root), its message digest kept, and
// returned to be published.
func (c *coordinator) prepare(root string, b Batch) ([]runner.Cell, error) {
	todo := make([]runner.Cell, 0, len(b.Cells))
	for _, cell := range b.Cells {
		c.cells[cell.ID] = cell
		if b.Done[cell.ID] {
			c.done[cell.ID] = true // no publisher is running: no lock needed
		}
		if c.done[cell.ID] {
			c.sum.Skipped++
			continue
		}
		w, err := wireCell(root, cell)
		if err != nil {
			return nil, fmt.Errorf("coordinator: cell %s: %w", cell.ID, err)
		}
		data, err := runner.EncodeCell(w)
		if err != nil {
			return nil, fmt.Errorf("coordinator: encode cell %s: %w", cell.ID, err)
		}
		c.digests[cell.ID] = cellDigest(data)
		todo = append(todo, w)
		c.left[cell.ID] = true
	}

	return todo, nil
}

// collect handles the run's messages until every cell of it has a result:
// the publisher's end (*pubErr, set to nil once it reported; published
// cells counted), results, advisories, and on every tick a due flush, the
// look for lost cells after StallCheck without progress, and the progress
// display. An error ends the run.
func (c *coordinator) collect(ctx context.Context, pubErr *chan error, published int) error {
	tick := time.NewTicker(min(c.cfg.FlushInterval, 250*time.Millisecond))
	defer tick.Stop()
	reopened := 0
	lastProgress, lastLeft := time.Now(), len(c.left)
	for len(c.left) > 0 {
		if n := len(c.left); n != lastLeft {
			lastProgress, lastLeft = time.Now(), n
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("coordinator: interrupted with %d of %d cells to go: %w", len(c.left), c.sum.Total, ctx.Err())
		case err := <-*pubErr:
			*pubErr = nil
			if err != nil {
				return fmt.Errorf("coordinator: publish cells: %w", err)
			}
			c.sum.Published = c.published(published)
		case msg, ok := <-c.conn.resCh:
			if !ok {
				if err := c.reopen(ctx, &reopened, "results"); err != nil {
					return err
				}
				continue
			}
			if err := c.onResult(msg); err != nil {
				return err
			}
		case msg, ok := <-c.conn.advCh:
			if !ok {
				if err := c.reopen(ctx, &reopened, "advisories"); err != nil {
					return err
				}
				continue
			}
			if err := c.onAdvisory(ctx, msg); err != nil {
				return err
			}
		case <-tick.C:
			if len(c.unflushed.msgs) > 0 && time.Since(c.unflushed.first) >= c.cfg.FlushInterval {
				if err := c.flush(); err != nil {
					return err
				}
			}
			if c.disp != nil && *pubErr != nil {
				c.widenIfStarved(ctx)
			}
			if (*pubErr == nil || c.disp != nil) && time.Since(lastProgress) >= c.cfg.StallCheck {
				lastProgress = time.Now() // look again a StallCheck later
				if err := c.requeueLost(ctx); err != nil {
					c.cfg.Logf("coordinator: looking for lost cells: %v", err)
				}
			}
			c.progress(false)
		}
	}
	return nil
}

// requeueLost publishes again, under fresh message ids, the cells of this
// run that are nowhere: no message of the experiment is left in the cells
// stream (queued or held by a worker), and no result waits for this
// coordinator or is being handled by it. Such cells would keep a run
// waiting for ever (a broker that lost part of its store, a stream purged
// by hand); with them published again it ends. A result of one that turns
// up after all is dropped as a duplicate.
func (c *coordinator) requeueLost(ctx context.Context) error {
	if len(c.left) == 0 || c.conn.resCons == nil {
		return nil
	}
	info, err := c.conn.cellsSt.Info(ctx, jetstream.WithSubjectFilter(broker.CellFilter(c.cfg.Experiment)))
	if err != nil {
		return err
	}
	queued := uint64(0)
	for _, n := range info.State.Subjects {
		queued += n
	}
	if queued > 0 {
		return nil // still in the work queue, or held by a worker
	}
	ci, err := c.conn.resCons.Info(ctx)
	if err != nil {
		return err
	}
	if ci.NumPending > 0 || ci.NumAckPending > 0 || len(c.unflushed.msgs) > 0 {
		return nil // results on their way
	}
	var lost []runner.Cell
	c.mu.Lock()
	for id := range c.left {
		// Under DispatchLongestFirst only the cells whose publication
		// the broker acked can be lost; the others are held back or on
		// their way.
		if c.disp == nil || c.disp.acked[id] {
			lost = append(lost, c.cells[id])
		}
	}
	c.mu.Unlock()
	if len(lost) == 0 {
		return nil
	}
	slices.SortFunc(lost, func(a, b runner.Cell) int { return cmp.Compare(a.Index, b.Index) })
	root, err := filepath.Abs(cmp.Or(c.cfg.DataRoot, "."))
	if err != nil {
		return err
	}
	for _, cell := range lost {
		w, err := wireCell(root, cell)
		if err != nil {
			return err
		}
		if err := c.requeue(ctx, w); err != nil {
			return fmt.Errorf("cell %s: %w", cell.ID, err)
		}
	}
	c.sum.Requeued += len(lost)
	c.cfg.Logf("coordinator: %d cells without a result were neither queued nor being run, and no result of theirs was on its way (a broker that lost messages?): published again", len(lost))
	return nil
}

// readWaiting handles, before anything is published, the results that
// already waited in the experiment's consumer when it was created: those of
// cells that finished while no coordinator ran. Their cells are then not
// published again: after a broker restart the cells stream no longer knows
// the message ids of consumed cells, so such a publication would not be
// de-duplicated and a worker would run the cell a second time (its result
// dropped as a duplicate, the work wasted). It reads at most that many
// results and stops early when none arrives for waitingIdle. (Results a
// stopped coordinator had pulled but not acked come back only after
// resultAckWait; their cells are handled by the publication's
// de-duplication as before.)
func (c *coordinator) readWaiting(ctx context.Context) error {
	n := c.conn.waitingAtOpen
	c.conn.waitingAtOpen = 0 // once per consumer
	if n == 0 {
		return nil
	}
	idle := time.NewTimer(waitingIdle)
	defer idle.Stop()
	for ; n > 0 && len(c.left) > 0; n-- {
		select {
		case <-ctx.Done():
			return fmt.Errorf("coordinator: interrupted while reading the waiting results: %w", ctx.Err())
		case msg, ok := <-c.conn.resCh:
			if !ok {
				return nil // the main loop opens the consumer again
			}
			before := c.sum.OK + c.sum.Failed + c.sum.Duplicates + c.sum.Rejected
			if err := c.onResult(msg); err != nil {
				return err
			}
			// A message may be a parcel of results: each counts.
			c.sum.Waiting += c.sum.OK + c.sum.Failed + c.sum.Duplicates + c.sum.Rejected - before
			idle.Reset(waitingIdle)
		case <-idle.C:
			return nil
		}
	}
	return nil
}

// allDone reports whether every cell the coordinator knows has its result.
func (c *coordinator) allDone() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for id := range c.cells {
		if !c.done[id] {
			return false
		}
	}
	return true
}

// finish flushes and acks what was written, then reports.
func (c *coordinator) finish(err error) (Summary, error) {
	if ferr := c.flush(); ferr != nil {
		err = errors.Join(err, ferr)
	}
	c.sum.Wall = time.Since(c.started)
	c.progress(true)
	return c.sum, err
}

// published is the number of cells this run sent to the work queue: all
// of its n under DispatchGrid, those handed out under
// DispatchLongestFirst (cells done meanwhile are not sent).
func (c *coordinator) published(n int) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.disp != nil {
		return c.disp.sent
	}
	return n
}

// widenIfStarved grows DispatchLongestFirst's window by the workers'
// pull requests waiting while the work queue has nothing for them and
// cells are held back: the farm has more slots than the window, or than
// the window less the quarter it waits for before refilling (resulted),
// so the window settles at about 4/3 of the farm's slots.
func (c *coordinator) widenIfStarved(ctx context.Context) {
	c.mu.Lock()
	held := c.disp.queue.len() > 0
	c.mu.Unlock()
	if !held {
		return
	}
	ictx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	if c.conn.workers == nil {
		cons, err := c.js.Consumer(ictx, broker.CellsStream, broker.WorkersConsumer)
		if err != nil {
			c.cfg.Logf("coordinator: look up the workers consumer: %v", err)
			return
		}
		c.conn.workers = cons
	}
	info, err := c.conn.workers.Info(ictx)
	if err != nil {
		c.cfg.Logf("coordinator: workers consumer info: %v", err)
		return
	}
	if info.NumPending == 0 && info.NumWaiting > 0 {
		c.growWindow(info.NumWaiting)
	}
}
