package swf

import (
	"bytes"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/schedfarm/schedfarm/workload"
)

// TestWriteFuncIsWriteInALoop writes random job lists, some with jobs Write
// refuses (a negative or infinite field, a submit time before an earlier
// one) at random places, through WriteFunc in small chunks on several
// goroutines and through Write in a loop, and requires the same bytes and
// the same error.
func TestWriteFuncIsWriteInALoop(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	defer func(c int) { writeChunk = c }(writeChunk)
	rng := rand.New(rand.NewPCG(5, 8))
	for trial := range 2000 {
		writeChunk = 1 + rng.IntN(5)
		n := rng.IntN(40)
		jobs := make([]workload.Job, n)
		submit := 0.0
		for i := range jobs {
			submit += float64(rng.IntN(3))
			j := workload.Job{ID: int64(i + 1), Submit: submit, Wait: 0, RunTime: float64(rng.IntN(100)) + 0.25*float64(rng.IntN(4)),
				AllocProcs: int64(rng.IntN(64)), AvgCPUTime: -1, UsedMemory: -1, ReqProcs: -1, ReqTime: 100, ReqMemory: -1,
				Status: 1, UserID: -1, GroupID: -1, Executable: -1, Queue: -1, Partition: -1, PrecedingJob: -1, ThinkTime: -1}
			if rng.IntN(8) == 0 {
				j.Submit = workload.Unknown
			}
			if trial%2 == 1 && rng.IntN(30) == 0 {
				switch rng.IntN(4) {
				case 0:
					j.RunTime = -3
				case 1:
					j.ReqTime = math.Inf(1)
				case 2:
					j.AllocProcs = -2
				default:
					if submit > 0 {
						j.Submit = submit - 1 // before the previous job
					}
				}
			}
			jobs[i] = j
		}
		var seq, par bytes.Buffer
		ws, err := NewWriter(&seq, Header{})
		if err != nil {
			t.Fatal(err)
		}
		var seqErr error
		for i := range jobs {
			if seqErr = ws.Write(&jobs[i]); seqErr != nil {
				break
			}
		}
		ws.Flush()
		wp, _ := NewWriter(&par, Header{})
		parErr := wp.WriteFunc(len(jobs), func(i int) workload.Job { return jobs[i] })
		wp.Flush()
		if !bytes.Equal(seq.Bytes(), par.Bytes()) || (seqErr == nil) != (parErr == nil) || (seqErr != nil && seqErr.Error() != parErr.Error()) {
			t.Fatalf("trial %d (chunk %d, %d jobs): Write in a loop wrote %d bytes, error %v; WriteFunc %d bytes, error %v",
				trial, writeChunk, n, seq.Len(), seqErr, par.Len(), parErr)
		}
		if seqErr == nil {
			// The writer goes on from where the jobs left it: a job
			// before the last submit time is refused by both.
			late := workload.Job{ID: 999, Submit: 0, RunTime: 1, AllocProcs: 1, ReqTime: 1, Status: 1}
			e1, e2 := ws.Write(&late), wp.Write(&late)
			if (e1 == nil) != (e2 == nil) {
				t.Fatalf("trial %d: a later job at submit 0: Write after the loop %v, after WriteFunc %v", trial, e1, e2)
			}
		}
	}
}
