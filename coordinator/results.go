package coordinator

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/schedfarm/schedfarm/broker"
	"github.com/schedfarm/schedfarm/internal/buildinfo"
	"github.com/schedfarm/schedfarm/runner"
)

// reject counts and logs a refused result message and acks it; nothing of
// it is written.
func (c *coordinator) reject(msg jetstream.Msg, cellID, reason string) error {
	c.rejectRaw(msg.Subject(), cellID, reason)
	return msg.Ack()
}

func (c *coordinator) rejectRaw(subject, cellID, reason string) {
	c.sum.Rejected++
	if len(c.sum.Rejections) < maxRejections {
		c.sum.Rejections = append(c.sum.Rejections, Rejection{Subject: subject, CellID: cellID, Reason: reason})
	}
	c.cfg.Logf("coordinator: rejected the message on %s: %s", subject, reason)
}

// onResult writes a result unless its cell is unknown or already done.
func (c *coordinator) onResult(msg jetstream.Msg) error {
	if broker.IsParcel(msg.Subject()) {
		return c.onResultParcel(msg)
	}
	res, err := DecodeResult(msg.Data(), c.cfg.MaxResultBytes)
	if err == nil {
		err = CheckResult(res, c.cfg.Experiment, msg.Subject())
	}
	if err != nil {
		return c.reject(msg, res.CellID, err.Error())
	}
	cell, duplicate, reason := c.judge(res)
	switch {
	case reason != "":
		return c.reject(msg, res.CellID, reason)
	case duplicate:
		c.reaper.add(c.conn.jobs, res.JobsObject)
		return msg.Ack()
	}
	if name := res.JobsObject; name != "" {
		data, err := c.conn.jobs.GetBytes(context.Background(), name)
		switch {
		case errors.Is(err, jetstream.ErrObjectNotFound):
			res = failedResult(res.CellID, &res, "the per-job records of this result (object %s in %s) are gone: expired or deleted before the coordinator read them", name, broker.JobsBucket)
		case err != nil:
			c.cfg.Logf("coordinator: read per-job records of cell %s (%s): %v; retrying", res.CellID, name, err)
			return msg.NakWithDelay(time.Second)
		default:
			if err := json.Unmarshal(data, &res.Jobs); err != nil {
				res = failedResult(res.CellID, &res, "the per-job records of this result (object %s in %s) do not decode: %v", name, broker.JobsBucket, err)
			} else if err := checkJobs(res.Jobs); err != nil {
				res = failedResult(res.CellID, &res, "the per-job records of this result (object %s in %s): %v", name, broker.JobsBucket, err)
			}
			c.unflushed.objects = append(c.unflushed.objects, name)
		}
		res.JobsObject = ""
	}
	if err := c.write(cell, res); err != nil {
		return err
	}
	return c.written(msg, 1)
}

// judge says what becomes of a well-formed result on its own subject:
// written to its cell (cell), dropped as a duplicate (the cell has its
// result; counted and logged), or refused for the reason given (an
// unknown cell, or a result of a cell message this coordinator did not
// publish).
func (c *coordinator) judge(res runner.CellResult) (cell runner.Cell, duplicate bool, reason string) {
	cell, known := c.cells[res.CellID]
	if !known {
		return cell, false, fmt.Sprintf("cell %s is not in experiment %s as specified now", res.CellID, c.cfg.Experiment)
	}
	c.mu.Lock()
	done := c.done[res.CellID]
	c.mu.Unlock()
	if want, published := c.digests[res.CellID]; published && hex.EncodeToString(want[:]) != res.CellDigest || !published && !done {
		return cell, false, fmt.Sprintf("result of a cell message this coordinator did not publish (cell_digest %s; the cell's message has another); the cell's own message runs as usual", res.CellDigest)
	}
	if done {
		c.sum.Duplicates++
		c.cfg.Logf("coordinator: dropping a duplicate result of cell %s from %s: the cell already has its result", res.CellID, res.Worker)
		return cell, true, ""
	}
	return cell, false, ""
}

// written records that msg's results (n of them) are written: msg is
// acked with the next flush, which comes once FlushEvery results wait.
func (c *coordinator) written(msg jetstream.Msg, n int) error {
	c.unflushed.msgs = append(c.unflushed.msgs, msg)
	c.unflushed.results += n
	if c.unflushed.results >= c.cfg.FlushEvery {
		return c.flush()
	}
	return nil
}

// onResultParcel writes the results of a parcel's cells, one a line
// (broker.SplitParcelResults), each judged as a result of its own on its
// cell's own subject: a line refused is counted as rejected and the others
// are written. A result naming a jobs object is refused in a parcel: a
// worker sends such a result alone.
func (c *coordinator) onResultParcel(msg jetstream.Msg) error {
	lines, err := broker.SplitParcelResults(msg.Data())
	if err != nil {
		return c.reject(msg, "", err.Error())
	}
	n := 0
	for _, line := range lines {
		res, err := DecodeResult(line, c.cfg.MaxResultBytes)
		if err == nil {
			// No subject to check a line against: the parcel's subject
			// is the experiment's (the consumer's filter), and judge
			// holds the result to its cell's own message.
			err = CheckResult(res, c.cfg.Experiment, "")
		}
		if err == nil && res.JobsObject != "" {
			err = fmt.Errorf("jobs_object %s in a parcel of results; accepted: per-job records only in a result of its own", res.JobsObject)
		}
		if err != nil {
			c.rejectRaw(msg.Subject(), res.CellID, err.Error())
			continue
		}
		cell, duplicate, reason := c.judge(res)
		switch {
		case reason != "":
			c.rejectRaw(msg.Subject(), res.CellID, reason)
			continue
		case duplicate:
			continue
		}
		if err := c.write(cell, res); err != nil {
			return err
		}
		n++
	}
	if n == 0 {
		return msg.Ack() // nothing of it to make durable
	}
	return c.written(msg, n)
}

func (c *coordinator) write(cell runner.Cell, res runner.CellResult) error {
	if err := c.cfg.Sink.Write(cell, res); err != nil {
		return fmt.Errorf("coordinator: write result of cell %s: %w", cell.ID, err)
	}
	c.mu.Lock()
	c.done[cell.ID] = true
	if c.disp != nil {
		c.disp.resulted(cell.ID, res.WallSeconds)
	}
	c.mu.Unlock()
	delete(c.left, cell.ID)
	if res.Status == runner.StatusOK {
		c.sum.OK++
	} else {
		c.sum.Failed++
		c.sum.Failures = append(c.sum.Failures, Failure{Cell: cell, Error: res.Error})
		c.cfg.Logf("coordinator: cell %s (%s, replication %d) failed: %s", cell.ID, cell.Scheduler, cell.Replication, strings.SplitN(res.Error, "\n", 2)[0])
	}
	if len(c.unflushed.msgs) == 0 {
		c.unflushed.first = time.Now()
	}
	return nil
}

// flush makes the sink durable and acks the results written since the last
// flush, if there are any.
func (c *coordinator) flush() error {
	if len(c.unflushed.msgs) == 0 {
		return nil
	}
	return c.sync()
}

// sync makes the sink durable and acks the pending results.
func (c *coordinator) sync() error {
	if err := c.cfg.Sink.Flush(); err != nil {
		return fmt.Errorf("coordinator: flush results: %w", err)
	}
	for _, m := range c.unflushed.msgs {
		_ = m.Ack() // a lost ack means a redelivery, dropped as already done
	}
	c.unflushed.msgs = c.unflushed.msgs[:0]
	c.unflushed.results = 0
	// The results are durable: their objects go, off this loop.
	c.reaper.add(c.conn.jobs, c.unflushed.objects...)
	c.unflushed.objects = c.unflushed.objects[:0]
	return nil
}

// failedResult is the one way the coordinator records a cell as failed
// itself: a failed result saying why (format, args), with the provenance
// of the worker's result it replaces (worker, wall time, version, Go
// version, build) — or, when no worker's result came (from nil), this
// coordinator's build, whose row it is.
func failedResult(cellID string, from *runner.CellResult, format string, args ...any) runner.CellResult {
	r := runner.CellResult{CellID: cellID, Status: runner.StatusFailed, Error: fmt.Sprintf(format, args...)}
	if from == nil {
		r.Version, r.GoVersion, r.Commit = buildinfo.Version, buildinfo.GoVersion(), buildinfo.Commit()
		return r
	}
	r.Worker, r.WallSeconds = from.Worker, from.WallSeconds
	r.Version, r.GoVersion, r.Commit = from.Version, from.GoVersion, from.Commit
	return r
}
