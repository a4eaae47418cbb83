package sim

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestQueueIsTheSortedOrder pushes, pops, cancels and reschedules events
// at random — many on the same instant and class — and requires every pop
// to be the least of the events still queued by (At, Class, push order;
// a rescheduled event counts as pushed anew), every cancel or reschedule
// of a queued event to succeed and of a popped or cancelled one to fail,
// and every queued event to know its place (Queued). It fails if the
// class and the push order trade places in the key, if a sift leaves an
// event's index stale, if a removal or a reschedule in the middle sifts
// the wrong way, or if a reschedule keeps its old push order.
func TestQueueIsTheSortedOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 9))
	for trial := range 300 {
		var q Queue
		var queued []*Event        // in push order
		pushed := map[*Event]int{} // each event's push number
		pushes := 0
		order := func(a, b *Event) int { // the reference order
			switch {
			case a.At != b.At:
				return cmpTime(a.At, b.At)
			case a.Class != b.Class:
				return int(a.Class) - int(b.Class)
			}
			return pushed[a] - pushed[b]
		}
		for step := range 400 {
			switch r := rng.IntN(10); {
			case r < 5 || len(queued) == 0:
				e := &Event{At: float64(rng.IntN(6)), Class: Class(rng.IntN(int(ClassPass) + 1))}
				q.Push(e)
				pushed[e] = pushes
				pushes++
				queued = append(queued, e)
			case r < 8:
				want := slices.MinFunc(queued, order)
				got := q.Pop()
				if got != want {
					t.Fatalf("trial %d step %d: popped %v@%g (push %d), want %v@%g (push %d)", trial, step, got.Class, got.At, pushed[got], want.Class, want.At, pushed[want])
				}
				if got.Queued() {
					t.Fatalf("trial %d step %d: a popped event says it is queued", trial, step)
				}
				queued = slices.DeleteFunc(queued, func(e *Event) bool { return e == got })
				if q.Cancel(got) || q.Reschedule(got, 1) {
					t.Fatalf("trial %d step %d: a popped event was cancelled or rescheduled", trial, step)
				}
			case r == 8:
				e := queued[rng.IntN(len(queued))]
				at := float64(rng.IntN(6))
				if !q.Reschedule(e, at) || e.At != at {
					t.Fatalf("trial %d step %d: rescheduling a queued event failed", trial, step)
				}
				pushed[e] = pushes
				pushes++
			default:
				i := rng.IntN(len(queued))
				e := queued[i]
				if !q.Cancel(e) {
					t.Fatalf("trial %d step %d: cancelling a queued event failed", trial, step)
				}
				queued = slices.Delete(queued, i, i+1)
				if q.Cancel(e) || q.Reschedule(e, 1) || e.Queued() {
					t.Fatalf("trial %d step %d: a cancelled event is still queued", trial, step)
				}
			}
			if q.Len() != len(queued) {
				t.Fatalf("trial %d step %d: %d queued, want %d", trial, step, q.Len(), len(queued))
			}
			for _, e := range queued {
				if !e.Queued() || q.heap[e.index].ev != e {
					t.Fatalf("trial %d step %d: an event's index does not point at it", trial, step)
				}
			}
		}
	}
}

func cmpTime(a, b Time) int {
	if a < b {
		return -1
	}
	return 1
}
