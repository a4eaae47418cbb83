package workload

import "io"

// Unknown is the SWF value of a field that is irrelevant or not known.
const Unknown = -1

// Job is one SWF job record. Field numbers in the comments are the SWF 2.2
// column numbers; every field holds Unknown (−1) when the value is not known.
type Job struct {
	ID           int64   // 1: job number, counting from 1 in submit order
	Submit       float64 // 2: submit time, seconds from the start of the log
	Wait         float64 // 3: wait time, seconds from submit to start
	RunTime      float64 // 4: wall-clock run time, seconds
	AllocProcs   int64   // 5: number of allocated processors
	AvgCPUTime   float64 // 6: average CPU time used per processor, seconds
	UsedMemory   float64 // 7: used memory per processor, KB
	ReqProcs     int64   // 8: requested number of processors
	ReqTime      float64 // 9: requested time (the user runtime estimate), seconds
	ReqMemory    float64 // 10: requested memory per processor, KB
	Status       int64   // 11: 1 completed, 0 failed, 5 cancelled, 2–4 partial records
	UserID       int64   // 12: user number
	GroupID      int64   // 13: group number
	Executable   int64   // 14: application number
	Queue        int64   // 15: queue number; 0 marks interactive jobs
	Partition    int64   // 16: partition number
	PrecedingJob int64   // 17: job this one depends on
	ThinkTime    float64 // 18: seconds from the preceding job's end to this submit
}

// NewJob returns a Job with every field Unknown.
func NewJob() Job {
	return Job{
		ID: Unknown, Submit: Unknown, Wait: Unknown, RunTime: Unknown,
		AllocProcs: Unknown, AvgCPUTime: Unknown, UsedMemory: Unknown,
		ReqProcs: Unknown, ReqTime: Unknown, ReqMemory: Unknown, Status: Unknown,
		UserID: Unknown, GroupID: Unknown, Executable: Unknown, Queue: Unknown,
		Partition: Unknown, PrecedingJob: Unknown, ThinkTime: Unknown,
	}
}

// Procs returns the processor count a simulator should use: the requested
// processors (field 8), or the allocated ones (field 5) when no request is
// recorded. It returns Unknown when neither is known.
func (j *Job) Procs() int64 {
	if j.ReqProcs > 0 {
		return j.ReqProcs
	}
	if j.AllocProcs > 0 {
		return j.AllocProcs
	}
	return Unknown
}

// Source streams jobs in submit order. Next returns io.EOF after the last job.
type Source interface {
	Next() (Job, error)
}

// Sink consumes jobs, for example an SWF writer.
type Sink interface {
	Write(j *Job) error
}

// ReadAll drains a source into a slice, allocated once when the source says
// how many jobs it has left (a Len method, as SliceSource and the models'
// sources have). It is meant for workloads that fit in memory (traces,
// tests, a process's cache of generated workloads).
func ReadAll(src Source) ([]Job, error) {
	var jobs []Job
	if n, ok := src.(interface{ Len() int }); ok {
		jobs = make([]Job, 0, n.Len())
	}
	for {
		j, err := src.Next()
		if err == io.EOF {
			return jobs, nil
		}
		if err != nil {
			return jobs, err
		}
		jobs = append(jobs, j)
	}
}

// SliceSource streams a slice of jobs; it implements Source.
type SliceSource struct {
	jobs []Job
	i    int
}

// NewSliceSource returns a Source over jobs (not copied).
func NewSliceSource(jobs []Job) *SliceSource { return &SliceSource{jobs: jobs} }

// Len returns the number of jobs not yet returned.
func (s *SliceSource) Len() int { return len(s.jobs) - s.i }

// Next returns the next job, or io.EOF after the last.
func (s *SliceSource) Next() (Job, error) {
	if s.i >= len(s.jobs) {
		return Job{}, io.EOF
	}
	s.i++
	return s.jobs[s.i-1], nil
}
