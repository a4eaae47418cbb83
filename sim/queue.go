package sim

// Time is simulated time in seconds.
type Time = float64

// Class orders events that fall on the same instant; lower classes run first.
type Class uint8

// Event classes in the order they run at one instant (see the package doc).
const (
	ClassEnd Class = iota
	ClassFailure
	ClassArrival
	// ClassLateEnd holds completions under Options.PerEvent: after the
	// arrivals of their instant, as pyss orders them.
	ClassLateEnd
	ClassTimer
	ClassPass
)

// String names the class.
func (c Class) String() string {
	switch c {
	case ClassEnd:
		return "end"
	case ClassFailure:
		return "failure"
	case ClassArrival:
		return "arrival"
	case ClassLateEnd:
		return "late end"
	case ClassTimer:
		return "timer"
	case ClassPass:
		return "pass"
	}
	return "unknown"
}

// Event is one entry of the event queue. Job is the job the event concerns,
// if any.
type Event struct {
	At    Time
	Class Class
	Job   *Job
	index int // position in the heap; -1 when not queued
}

// Queued reports whether the event is still waiting in a queue.
func (e *Event) Queued() bool { return e.index >= 0 }

// Queue is a binary min-heap of events ordered by (At, Class, insertion
// sequence). Ties on time and class pop in insertion order, so a simulation
// is deterministic. The heap holds each event's order key beside it, so
// that sifting compares without reading the events themselves.
type Queue struct {
	heap []slotOf
	seq  uint64
}

// slotOf is a heap entry: the event and its order key (At; then Class in
// the top byte of key and the insertion sequence below it).
type slotOf struct {
	at  Time
	key uint64
	ev  *Event
}

// seqBits is the room for the insertion sequence below the class in a
// slot's key: 2^56 pushes, far beyond any run.
const seqBits = 56

// before reports whether a pops before b.
func (a *slotOf) before(b *slotOf) bool {
	return a.at < b.at || a.at == b.at && a.key < b.key
}

// Len returns the number of queued events.
func (q *Queue) Len() int { return len(q.heap) }

// Push queues e. An event must not be pushed twice while queued.
func (q *Queue) Push(e *Event) {
	q.seq++
	e.index = len(q.heap)
	q.heap = append(q.heap, slotOf{at: e.At, key: uint64(e.Class)<<seqBits | q.seq, ev: e})
	q.up(e.index)
}

// Peek returns the next event without removing it, or nil.
func (q *Queue) Peek() *Event {
	if len(q.heap) == 0 {
		return nil
	}
	return q.heap[0].ev
}

// Pop removes and returns the next event, or nil when the queue is empty.
func (q *Queue) Pop() *Event {
	if len(q.heap) == 0 {
		return nil
	}
	e := q.heap[0].ev
	q.removeAt(0)
	return e
}

// Cancel removes e from the queue. It returns false if e was not queued.
func (q *Queue) Cancel(e *Event) bool {
	if e == nil || e.index < 0 || e.index >= len(q.heap) || q.heap[e.index].ev != e {
		return false
	}
	q.removeAt(e.index)
	return true
}

// Reschedule moves the queued e to time at, as Cancel and a Push of e
// with At set would: it takes a new insertion sequence (it pops after the
// events queued before at the same time and class), in one sift instead
// of two. It returns false, changing nothing, if e was not queued.
func (q *Queue) Reschedule(e *Event, at Time) bool {
	if e == nil || e.index < 0 || e.index >= len(q.heap) || q.heap[e.index].ev != e {
		return false
	}
	q.seq++
	e.At = at
	i := e.index
	q.heap[i] = slotOf{at: at, key: uint64(e.Class)<<seqBits | q.seq, ev: e}
	if !q.down(i) {
		q.up(i)
	}
	return true
}

func (q *Queue) removeAt(i int) {
	last := len(q.heap) - 1
	e := q.heap[i].ev
	if i != last {
		q.heap[i] = q.heap[last]
		q.heap[i].ev.index = i
	}
	q.heap[last] = slotOf{}
	q.heap = q.heap[:last]
	if i != last {
		if !q.down(i) {
			q.up(i)
		}
	}
	e.index = -1
}

// up moves the entry at i towards the root to its place.
func (q *Queue) up(i int) {
	h := q.heap
	x := h[i]
	for i > 0 {
		p := (i - 1) / 2
		if !x.before(&h[p]) {
			break
		}
		h[i] = h[p]
		h[i].ev.index = i
		i = p
	}
	h[i] = x
	x.ev.index = i
}

// down sifts the entry at i down to its place and reports whether it moved.
func (q *Queue) down(i int) bool {
	h := q.heap
	start := i
	n := len(h)
	x := h[i]
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		m := l
		if r := l + 1; r < n && h[r].before(&h[l]) {
			m = r
		}
		if !h[m].before(&x) {
			break
		}
		h[i] = h[m]
		h[i].ev.index = i
		i = m
	}
	h[i] = x
	x.ev.index = i
	return i > start
}
