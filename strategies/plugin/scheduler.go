package plugin

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"sync/atomic"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/schedfarm/schedfarm/param"
	"github.com/schedfarm/schedfarm/sim"
	pb "github.com/schedfarm/schedfarm/strategies/plugin/schedulerpb"
)

var nan = math.NaN()

// Scheduler runs one simulation's scheduling passes in a plugin process: a
// sim.Scheduler (and sim.Reserver, for the reservations the plugin shows)
// that sends each pass's changes over the run stream, checks every decision
// the plugin answers against the simulation and applies it. The first
// failure (a bad decision, a crash, a timeout) aborts the simulation with
// an *Error. Close ends the process.
type Scheduler struct {
	name    string
	proc    *process
	desc    *pb.Description
	timeout time.Duration

	stream   pb.Scheduler_RunClient
	cancel   context.CancelFunc
	timer    *time.Timer
	timedOut atomic.Bool

	jobs     []*sim.Job          // by the id the plugin knows them by
	ids      map[*sim.Job]uint64 // running and waiting jobs' ids
	pendArr  []*sim.Job          // arrivals not yet told (skipped passes)
	pendEnd  []ended             // ends not yet told
	waitList []*sim.Job          // WHEN_STARTABLE: jobs that may be waiting, in arrival order
	owner    []uint64            // places_processors: processor → id+1 of its job (0: idle)
	procsOf  map[uint64][]uint32 // places_processors: a running job's processors
	res      []sim.Reservation   // the reservations the plugin shows
	resSeen  map[uint64]bool     // scratch: duplicate reservations
	failed   bool
	closed   bool
	passes   int         // passes sent to the plugin
	skipped  int         // passes not sent (WHEN_STARTABLE)
	msgJobs  []*pb.Job   // reused message parts
	msgEnds  []*pb.Ended // reused message parts
	out      pb.HostMessage
	pass     pb.Pass
	in       pb.PluginMessage
	rtt      time.Duration // summed round trips
}

type ended struct {
	id     uint64
	at     float64
	killed bool
}

// newScheduler starts a run of the plugin on platform plat.
func (p *Plugin) newScheduler(name string, plat sim.Platform, ps param.Values, seed uint64) (*Scheduler, error) {
	if plat.Tiered() {
		return nil, fmt.Errorf("plugin %s: platforms with VM tiers are not supported; accepted: dedicated processors or resource pools", name)
	}
	if p.desc.GetPlacesProcessors() && len(plat.Pools) != 1 {
		return nil, fmt.Errorf("plugin %s places processors, which needs a platform of one pool; this one has %d", name, len(plat.Pools))
	}
	proc, err := p.process()
	if err != nil {
		return nil, named(err, name)
	}
	s := &Scheduler{
		name: name, proc: proc, desc: p.desc, timeout: p.opts.PassTimeout,
		ids: map[*sim.Job]uint64{}, resSeen: map[uint64]bool{},
	}
	if p.desc.GetPlacesProcessors() {
		s.owner = make([]uint64, plat.Pools[0].Capacity)
		s.procsOf = map[uint64][]uint32{}
	}
	ctx, cancel := context.WithCancel(context.Background())
	s.cancel = cancel
	s.timer = time.AfterFunc(time.Hour, func() { s.timedOut.Store(true); cancel() })
	s.timer.Stop()
	s.pass.Free = make([]int64, len(plat.Pools))
	s.out.Msg = &pb.HostMessage_Pass{Pass: &s.pass}

	start := &pb.Start{Platform: &pb.Platform{}, Params: paramValues(ps), Seed: seed}
	for _, pool := range plat.Pools {
		start.Platform.Pools = append(start.Platform.Pools, &pb.Pool{Name: pool.Name, Capacity: int64(pool.Capacity)})
	}
	stream, err := proc.sched.Run(ctx)
	if err != nil {
		s.Close()
		return nil, named(proc.errorf(nan, "", "cannot open the run stream: %v", rpcError(err)), name)
	}
	s.stream = stream
	reply, err := s.roundTrip(&pb.HostMessage{Msg: &pb.HostMessage_Start{Start: start}})
	if err != nil {
		return nil, s.streamError(nan, "start", err)
	}
	if reply.GetReady() == nil {
		s.proc.kill()
		return nil, named(proc.errorf(nan, "start", "answered %s; accepted: ready", kindOf(reply)), name)
	}
	return s, nil
}

// named sets the scheduler name of an *Error.
func named(err error, name string) error {
	var pe *Error
	if errors.As(err, &pe) {
		pe.Name = name
	}
	return err
}

func kindOf(m *pb.PluginMessage) string {
	switch m.GetMsg().(type) {
	case *pb.PluginMessage_Ready:
		return "ready"
	case *pb.PluginMessage_Decisions:
		return "decisions"
	}
	return "an empty message"
}

// Pass implements sim.Scheduler.
func (s *Scheduler) Pass(c *sim.Cluster, ch sim.Changes) {
	if s.failed {
		return
	}
	for _, j := range ch.Ended {
		id, ok := s.ids[j]
		if !ok {
			s.abort(c, s.proc.errorf(c.Now(), "", "internal error: job %d ended without being started by the plugin", j.ID))
			return
		}
		delete(s.ids, j)
		s.pendEnd = append(s.pendEnd, ended{id: id, at: j.End(), killed: j.State() == sim.Killed})
		if s.owner != nil {
			for _, p := range s.procsOf[id] {
				s.owner[p] = 0
			}
			delete(s.procsOf, id)
		}
	}
	s.pendArr = append(s.pendArr, ch.Arrived...)
	if s.desc.GetPassMode() == pb.PassMode_PASS_MODE_WHEN_STARTABLE {
		s.waitList = append(s.waitList, ch.Arrived...)
		if !s.startable(c) {
			s.skipped++
			return
		}
	}
	s.exchange(c)
}

// startable reports whether some waiting job fits in the free units now;
// it drops jobs that stopped waiting from waitList as it goes.
func (s *Scheduler) startable(c *sim.Cluster) bool {
	free := c.FreeAll()
	none := true
	for _, f := range free {
		if f > 0 {
			none = false
			break
		}
	}
	k := 0
	found := false
	for i, j := range s.waitList {
		if j.State() != sim.Queued {
			continue
		}
		if !none && !found && c.Fits(j) {
			// Keep the rest as it is; compaction resumes at the next scan.
			found = true
			k += copy(s.waitList[k:], s.waitList[i:])
			break
		}
		s.waitList[k] = j
		k++
	}
	clear(s.waitList[k:])
	s.waitList = s.waitList[:k]
	return found
}

// exchange sends the pending changes and applies the plugin's decisions.
func (s *Scheduler) exchange(c *sim.Cluster) {
	now := c.Now()
	p := &s.pass
	p.Now = now
	p.Arrived = p.Arrived[:0]
	for i, j := range s.pendArr {
		id := uint64(len(s.jobs))
		s.jobs = append(s.jobs, j)
		s.ids[j] = id
		if i == len(s.msgJobs) {
			s.msgJobs = append(s.msgJobs, &pb.Job{})
		}
		m := s.msgJobs[i]
		m.Id, m.WorkloadId, m.Submit, m.Estimate = id, j.ID, j.Submit, j.Estimate
		m.Demand = m.Demand[:0]
		for _, d := range j.Demand {
			m.Demand = append(m.Demand, int64(d))
		}
		p.Arrived = append(p.Arrived, m)
	}
	p.Ended = p.Ended[:0]
	for i, e := range s.pendEnd {
		if i == len(s.msgEnds) {
			s.msgEnds = append(s.msgEnds, &pb.Ended{})
		}
		m := s.msgEnds[i]
		m.Id, m.At, m.Killed = e.id, e.at, e.killed
		p.Ended = append(p.Ended, m)
	}
	clear(s.pendArr)
	s.pendArr, s.pendEnd = s.pendArr[:0], s.pendEnd[:0]
	for i, f := range c.FreeAll() {
		p.Free[i] = int64(f)
	}
	p.Running, p.Waiting = uint32(len(c.Running())), uint32(c.Waiting())
	s.passes++
	t0 := time.Now()
	reply, err := s.roundTrip(&s.out)
	s.rtt += time.Since(t0)
	if err != nil {
		s.abort(c, s.streamError(now, "", err))
		return
	}
	d := reply.GetDecisions()
	if d == nil {
		s.abort(c, s.fatalf(now, "", "answered a pass with %s; accepted: decisions", kindOf(reply)))
		return
	}
	if err := s.apply(c, d); err != nil {
		s.abort(c, err)
	}
}

// roundTrip sends m and waits for the answer, at most the pass timeout.
func (s *Scheduler) roundTrip(m *pb.HostMessage) (*pb.PluginMessage, error) {
	s.timer.Reset(s.timeout)
	err := s.stream.Send(m)
	if err == nil || errors.Is(err, io.EOF) {
		// On io.EOF the stream has ended; RecvMsg returns why.
		err = s.stream.RecvMsg(&s.in)
	}
	if !s.timer.Stop() {
		s.timedOut.Store(true)
	}
	if err != nil {
		return nil, err
	}
	if s.timedOut.Load() {
		return nil, context.DeadlineExceeded
	}
	return &s.in, nil
}

// streamError kills the process and explains a failed exchange: a
// timeout, a crash, or an error the plugin returned.
func (s *Scheduler) streamError(at float64, what string, err error) error {
	code := status.Code(err)
	var msg string
	switch {
	case s.timedOut.Load():
		msg = fmt.Sprintf("did not answer within %v (the per-pass timeout); killed", s.timeout)
	case errors.Is(err, io.EOF):
		msg = "ended the run stream without answering"
	case code == codes.Unavailable || code == codes.Canceled:
		msg = fmt.Sprintf("the process died or broke the connection (%s)", rpcError(err))
	default:
		msg = "failed: " + rpcError(err)
	}
	return s.fatalf(at, what, "%s", msg)
}

// fatalf kills the process (so that its stderr is read to the end) and
// returns an *Error.
func (s *Scheduler) fatalf(at float64, decision, format string, args ...any) error {
	s.failed = true
	s.proc.kill()
	e := s.proc.errorf(at, decision, format, args...)
	e.Name = s.name
	return e
}

func (s *Scheduler) abort(c *sim.Cluster, err error) {
	s.failed = true
	c.Abort(err)
}

// describe names a job for messages.
func (s *Scheduler) describe(verb string, id uint64) string {
	if id < uint64(len(s.jobs)) {
		return fmt.Sprintf("%s job %d (workload id %d)", verb, id, s.jobs[id].ID)
	}
	return fmt.Sprintf("%s job %d", verb, id)
}

// waiting returns the waiting job the plugin calls id, or why it is not
// one.
func (s *Scheduler) waiting(id uint64, now float64) (*sim.Job, string) {
	if id >= uint64(len(s.jobs)) {
		return nil, fmt.Sprintf("unknown job: no job %d has been submitted by t=%g (the plugin was told of %d jobs, ids 0–%d); "+
			"a job can start only after its submission", id, now, len(s.jobs), max(len(s.jobs)-1, 0))
	}
	j := s.jobs[id]
	switch j.State() {
	case sim.Queued:
		return j, ""
	case sim.Running:
		return nil, fmt.Sprintf("the job is already running (started at t=%g)", j.Start())
	case sim.Rejected:
		return nil, fmt.Sprintf("the job was rejected at t=%g", j.End())
	}
	return nil, fmt.Sprintf("the job already ended (%s at t=%g)", j.State(), j.End())
}

// apply checks and applies one pass's decisions: rejects, starts,
// reservations, wake-up.
func (s *Scheduler) apply(c *sim.Cluster, d *pb.Decisions) error {
	now := c.Now()
	for _, r := range d.GetReject() {
		j, why := s.waiting(r.GetId(), now)
		if j == nil {
			return s.fatalf(now, s.describe("reject", r.GetId()), "%s", why)
		}
		reason := strings.TrimSpace(r.GetReason())
		if len(reason) > 200 {
			reason = reason[:200] + "…"
		}
		if err := c.Reject(j, fmt.Sprintf("rejected by plugin %s: %s", s.name, reason)); err != nil {
			return s.fatalf(now, s.describe("reject", r.GetId()), "%v", err)
		}
		delete(s.ids, j)
	}
	for _, st := range d.GetStart() {
		id := st.GetId()
		j, why := s.waiting(id, now)
		if j == nil {
			return s.fatalf(now, s.describe("start", id), "%s", why)
		}
		if why := s.place(j, id, st.GetProcessors()); why != "" {
			return s.fatalf(now, s.describe("start", id), "%s", why)
		}
		if !c.Fits(j) {
			return s.fatalf(now, s.describe("start", id), "needs %s with only %s free: oversubscription",
				units(c, j.Demand), units(c, c.FreeAll()))
		}
		if err := c.Start(j); err != nil {
			return s.fatalf(now, s.describe("start", id), "%v", err)
		}
	}
	if rs := d.GetReservations(); rs != nil {
		s.res = s.res[:0]
		clear(s.resSeen)
		for _, r := range rs.GetItems() {
			id := r.GetId()
			what := s.describe("reserve", id) + fmt.Sprintf(" at t=%g", r.GetStart())
			j, why := s.waiting(id, now)
			switch {
			case j == nil:
				return s.fatalf(now, what, "%s", why)
			case math.IsNaN(r.GetStart()) || math.IsInf(r.GetStart(), 0) || r.GetStart() < now:
				return s.fatalf(now, what, "a reservation must be finite and not before the pass")
			case s.resSeen[id]:
				return s.fatalf(now, what, "a second reservation for the same job")
			}
			s.resSeen[id] = true
			s.res = append(s.res, sim.Reservation{Job: j, Start: r.GetStart()})
		}
	} else {
		k := 0
		for _, r := range s.res {
			if r.Job.State() == sim.Queued {
				s.res[k] = r
				k++
			}
		}
		s.res = s.res[:k]
	}
	if w := d.GetWakeAt(); w != 0 {
		if math.IsNaN(w) || math.IsInf(w, 0) || w <= now {
			return s.fatalf(now, fmt.Sprintf("wake up at t=%g", w), "a wake-up must be finite and after the pass")
		}
		c.WakeAt(w)
	}
	return nil
}

// place checks the processors a start names and records them.
func (s *Scheduler) place(j *sim.Job, id uint64, procs []uint32) string {
	if s.owner == nil {
		if len(procs) > 0 {
			return "names processors, but the plugin did not declare places_processors"
		}
		return ""
	}
	if len(procs) != j.Demand[0] {
		return fmt.Sprintf("names %d processors for a job of %d", len(procs), j.Demand[0])
	}
	for _, p := range procs {
		switch {
		case int(p) >= len(s.owner):
			return fmt.Sprintf("processor %d does not exist (the platform has processors 0–%d)", p, len(s.owner)-1)
		case s.owner[p] == id+1:
			return fmt.Sprintf("processor %d is named twice", p)
		case s.owner[p] != 0:
			return fmt.Sprintf("processor %d is in use by %s: oversubscription", p, s.describe("", s.owner[p]-1)[1:])
		}
		s.owner[p] = id + 1
	}
	s.procsOf[id] = append([]uint32(nil), procs...)
	return ""
}

// units formats per-pool amounts, "64 procs" or "[8 cpu, 3 gpu]".
func units(c *sim.Cluster, v []int) string {
	pools := c.Platform().Pools
	if len(v) == 1 {
		return fmt.Sprintf("%d %s", v[0], pools[0].Name)
	}
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = fmt.Sprintf("%d %s", x, pools[i].Name)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// Reservations implements sim.Reserver: the reservations the plugin shows.
func (s *Scheduler) Reservations() []sim.Reservation { return s.res }

// Stats reports how many passes were sent to the plugin, how many were
// skipped (PASS_MODE_WHEN_STARTABLE), and the summed wall time of the
// round trips.
func (s *Scheduler) Stats() (sent, skipped int, roundTrips time.Duration) {
	return s.passes, s.skipped, s.rtt
}

// Close ends the run and the plugin process (killed, after it was told the
// run is over). It is safe to call more than once.
func (s *Scheduler) Close() error {
	if s.closed {
		return nil
	}
	s.closed = true
	if s.stream != nil && !s.failed {
		_ = s.stream.CloseSend()
	}
	s.timer.Stop()
	s.cancel()
	s.proc.kill()
	return nil
}
