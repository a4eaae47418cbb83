package stats

import (
	"fmt"
	"io"
	"math"

	"github.com/schedfarm/schedfarm/workload"
)

// BinLabels name seed 000's Table 1 size bins.
var BinLabels = [9]string{"=1", "=2", "(2,4]", "(4,8]", "(8,16]", "(16,32]", "(32,64]", "(64,128]", ">128"}

// binUpper are the inclusive upper bounds of the bins but the last.
var binUpper = [8]int64{1, 2, 4, 8, 16, 32, 64, 128}

// Bin returns the Table 1 bin index of a job size (≥ 1).
func Bin(size int64) int {
	for i, hi := range binUpper {
		if size <= hi {
			return i
		}
	}
	return len(binUpper)
}

// Accumulator gathers statistics job by job. The zero value is ready.
type Accumulator struct {
	jobs      int64
	sized     int64 // jobs with a known size
	timed     int64 // jobs with a known runtime
	bins      [9]int64
	sumSize   float64
	sumRT     float64
	maxSize   int64
	maxRT     float64
	serial    int64
	pow2      int64 // powers of two > 1
	meter     workload.LoadMeter
	estimated int64 // jobs with estimate > 0 and known runtime
	sumAcc    float64
	under     int64 // runtime > estimate
	maxEst    float64
	atMaxEst  int64
}

// Add records one job.
func (a *Accumulator) Add(j *workload.Job) {
	a.jobs++
	a.meter.Add(j)
	if n := j.Procs(); n > 0 {
		a.sized++
		a.bins[Bin(n)]++
		a.sumSize += float64(n)
		a.maxSize = max(a.maxSize, n)
		if n == 1 {
			a.serial++
		} else if n&(n-1) == 0 {
			a.pow2++
		}
	}
	if j.RunTime >= 0 {
		a.timed++
		a.sumRT += j.RunTime
		a.maxRT = math.Max(a.maxRT, j.RunTime)
	}
	if j.ReqTime > 0 && j.RunTime >= 0 {
		a.estimated++
		a.sumAcc += j.RunTime / j.ReqTime
		if j.RunTime > j.ReqTime {
			a.under++
		}
		switch {
		case j.ReqTime > a.maxEst:
			a.maxEst, a.atMaxEst = j.ReqTime, 1
		case j.ReqTime == a.maxEst:
			a.atMaxEst++
		}
	}
}

// Summary is the result of a pass.
type Summary struct {
	Jobs             int64
	SizeBins         [9]int64 // counts per BinLabels bin (jobs with a known size)
	SizedJobs        int64
	MeanSize         float64
	MaxSize          int64
	SerialFraction   float64 // of sized jobs
	Pow2Fraction     float64 // powers of two including 1, of sized jobs
	Pow2Gt1Fraction  float64 // powers of two larger than 1
	TimedJobs        int64
	MeanRuntime      float64
	MaxRuntime       float64
	MeanInterarrival float64 // span / (jobs − 1)
	Span             float64 // last − first submit, seconds
	Procs            int     // machine size the load refers to
	Load             float64 // offered load on Procs (workload.LoadMeter)
	// Estimates (field 9) of jobs with a known runtime.
	EstimatedJobs         int64
	MeanAccuracy          float64 // mean of runtime/estimate
	UnderestimateFraction float64 // runtime > estimate
	MaxEstimate           float64
	AtMaxEstimateFraction float64
}

// Summary returns the statistics; procs is the machine size for the load (0:
// the largest job size).
func (a *Accumulator) Summary(procs int) Summary {
	s := Summary{Jobs: a.jobs, SizeBins: a.bins, SizedJobs: a.sized, MaxSize: a.maxSize,
		TimedJobs: a.timed, MaxRuntime: a.maxRT, Span: a.meter.Span(), EstimatedJobs: a.estimated, MaxEstimate: a.maxEst}
	if procs <= 0 {
		procs = int(a.maxSize)
	}
	s.Procs = procs
	s.Load = a.meter.Load(procs)
	if a.sized > 0 {
		f := float64(a.sized)
		s.MeanSize = a.sumSize / f
		s.SerialFraction = float64(a.serial) / f
		s.Pow2Gt1Fraction = float64(a.pow2) / f
		s.Pow2Fraction = float64(a.serial+a.pow2) / f
	}
	if a.timed > 0 {
		s.MeanRuntime = a.sumRT / float64(a.timed)
	}
	if a.meter.Jobs() > 1 {
		s.MeanInterarrival = a.meter.Span() / float64(a.meter.Jobs()-1)
	}
	if a.estimated > 0 {
		f := float64(a.estimated)
		s.MeanAccuracy = a.sumAcc / f
		s.UnderestimateFraction = float64(a.under) / f
		s.AtMaxEstimateFraction = float64(a.atMaxEst) / f
	}
	return s
}

// Collect drains src into a Summary.
func Collect(src workload.Source, procs int) (Summary, error) {
	var a Accumulator
	for {
		j, err := src.Next()
		if err == io.EOF {
			return a.Summary(procs), nil
		}
		if err != nil {
			return a.Summary(procs), err
		}
		a.Add(&j)
	}
}

// WriteText prints the summary as aligned text.
func (s Summary) WriteText(w io.Writer) error {
	p := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }
	p("jobs                 %d\n", s.Jobs)
	p("size histogram       (seed 000 Table 1 bins, %% of %d jobs with a known size)\n", s.SizedJobs)
	for i, l := range BinLabels {
		pct := 0.0
		if s.SizedJobs > 0 {
			pct = 100 * float64(s.SizeBins[i]) / float64(s.SizedJobs)
		}
		p("  %-9s %10d  %6.2f%%\n", l, s.SizeBins[i], pct)
	}
	p("mean size            %.3f (max %d)\n", s.MeanSize, s.MaxSize)
	p("serial fraction      %.4f\n", s.SerialFraction)
	p("power-of-two         %.4f including 1, %.4f larger than 1\n", s.Pow2Fraction, s.Pow2Gt1Fraction)
	p("mean runtime         %.1f s (max %.0f s, %d jobs with a known runtime)\n", s.MeanRuntime, s.MaxRuntime, s.TimedJobs)
	p("mean interarrival    %.2f s (span %.0f s)\n", s.MeanInterarrival, s.Span)
	p("offered load         %.4f on %d processors\n", s.Load, s.Procs)
	if s.EstimatedJobs > 0 {
		p("estimates            %d jobs; mean accuracy (runtime/estimate) %.4f; underestimated %.4f; at max estimate %.0f s: %.4f\n",
			s.EstimatedJobs, s.MeanAccuracy, s.UnderestimateFraction, s.MaxEstimate, s.AtMaxEstimateFraction)
	} else {
		p("estimates            none (field 9 unknown)\n")
	}
	return nil
}
