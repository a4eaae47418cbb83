package coordinator

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"
)

// Snapshot is the state of a sweep at one moment.
type Snapshot struct {
	// Total cells of the experiment; Done of them have a result (including
	// Skipped, done before this run, and Failed).
	Total, Done, Failed, Skipped int
	// Rejected counts the messages refused as not a result of this run's
	// cells (Summary.Rejected).
	Rejected int
	// Elapsed since the run started.
	Elapsed time.Duration
	// Rate in cells per second over this run, and ETA at that rate; zero
	// until the first result.
	Rate float64
	ETA  time.Duration
}

// String renders s as one plain line.
func (s Snapshot) String() string {
	pct := 100.0
	if s.Total > 0 {
		pct = 100 * float64(s.Done) / float64(s.Total)
	}
	eta := "?"
	if s.Rate > 0 {
		eta = s.ETA.Round(time.Second).String()
	}
	rejected := ""
	if s.Rejected > 0 {
		rejected = fmt.Sprintf(", %d messages rejected", s.Rejected)
	}
	return fmt.Sprintf("%d/%d cells (%.1f%%), %d failed, %d skipped%s, %.2f cells/s, elapsed %s, ETA %s",
		s.Done, s.Total, pct, s.Failed, s.Skipped, rejected, s.Rate, s.Elapsed.Round(time.Second), eta)
}

// Progress shows snapshots. Update may be called often; an implementation
// throttles its output. Finish is called once, last.
type Progress interface {
	Update(Snapshot)
	Finish(Snapshot)
}

// NewProgress returns a bar when w is a terminal and plain lines every
// interval otherwise (10s when interval is zero).
func NewProgress(w io.Writer, interval time.Duration) Progress {
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			return &barProgress{w: w}
		}
	}
	if interval <= 0 {
		interval = 10 * time.Second
	}
	return &lineProgress{w: w, every: interval}
}

// lineProgress prints a line at most every interval, and a final line.
type lineProgress struct {
	w     io.Writer
	every time.Duration
	last  time.Time
}

func (p *lineProgress) Update(s Snapshot) {
	if time.Since(p.last) < p.every {
		return
	}
	p.last = time.Now()
	fmt.Fprintln(p.w, "progress:", s)
}

func (p *lineProgress) Finish(s Snapshot) { fmt.Fprintln(p.w, "done:", s) }

// barProgress draws an mpb bar with done/total, failures, rate and ETA.
type barProgress struct {
	w   io.Writer
	p   *mpb.Progress
	bar *mpb.Bar

	mu   sync.Mutex
	last Snapshot
}

func (b *barProgress) snapshot() Snapshot {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.last
}

func (b *barProgress) Update(s Snapshot) {
	b.mu.Lock()
	b.last = s
	b.mu.Unlock()
	if b.p == nil {
		b.p = mpb.New(mpb.WithOutput(b.w), mpb.WithWidth(40), mpb.WithRefreshRate(200*time.Millisecond))
		b.bar = b.p.AddBar(int64(s.Total),
			mpb.PrependDecorators(decor.CountersNoUnit("%d/%d cells "), decor.Percentage()),
			mpb.AppendDecorators(decor.Any(func(decor.Statistics) string {
				l := b.snapshot()
				eta := "?"
				if l.Rate > 0 {
					eta = l.ETA.Round(time.Second).String()
				}
				return fmt.Sprintf(" %d failed  %.2f cells/s  ETA %s", l.Failed, l.Rate, eta)
			})))
	}
	b.bar.SetCurrent(int64(s.Done))
}

func (b *barProgress) Finish(s Snapshot) {
	b.Update(s)
	if s.Done < s.Total {
		b.bar.Abort(false)
	}
	b.p.Wait()
	fmt.Fprintln(b.w, "done:", s)
}
