package sim

import (
	"math/rand/v2"
	"testing"
)

// TestWaitOrderIsTheMinimumQueuedSeq drives waitOrder through random
// arrivals, starts, suspensions and ends and checks every answer against
// the definition: some job still queued arrived before the one starting.
func TestWaitOrderIsTheMinimumQueuedSeq(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 200 {
		var w waitOrder
		var jobs []*Job
		for step := range 400 {
			switch op := rng.IntN(10); {
			case op < 4: // arrival
				j := &Job{seq: len(jobs), state: Queued}
				jobs = append(jobs, j)
				w.arrive(j)
			case op < 8: // a queued job starts
				var queued []*Job
				for _, j := range jobs {
					if j.state == Queued {
						queued = append(queued, j)
					}
				}
				if len(queued) == 0 {
					continue
				}
				j := queued[rng.IntN(len(queued))]
				j.state = Running
				want := false
				for _, o := range jobs {
					want = want || (o.state == Queued && o.seq < j.seq)
				}
				if got := w.earlierWaiting(j); got != want {
					t.Fatalf("trial %d step %d: job %d starts: earlierWaiting %v, want %v", trial, step, j.seq, got, want)
				}
			case op < 9: // a running job is suspended back into the queue
				for _, j := range jobs {
					if j.state == Running && rng.IntN(3) == 0 {
						j.state = Queued
						w.requeue(j)
						break
					}
				}
			default: // a running job ends
				for _, j := range jobs {
					if j.state == Running && rng.IntN(2) == 0 {
						j.state = Finished
						break
					}
				}
			}
		}
	}
}
