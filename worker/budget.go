package worker

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/schedfarm/schedfarm/runner"
)

// Budget bounds what one cell may use. A zero field is no bound. A cell
// over its budget becomes a failed cell whose error names the budget; the
// worker goes on with the next cell.
//
// Budgets are the worker's business, not the experiment's: they protect the
// machine that runs the cell, whose owner knows its memory, and a cell that
// exceeds one fails on a slow or small machine and not on a big one, which
// is no property of the cell. So they are worker flags (--cell-timeout,
// --cell-memory), not spec fields, and they change no cell id or seed.
type Budget struct {
	// Wall bounds the cell's wall-clock time, from the start of its process
	// to its result. Precise to a few milliseconds (the process is killed
	// when the timer fires).
	Wall time.Duration
	// Memory bounds the resident memory (RSS) of the process that runs the
	// cell, in bytes, including the Go runtime's own few megabytes. It is
	// sampled every ProcessRunner.Sample: an allocation burst between two
	// samples can overshoot it by what the process touches in that time
	// (tens of megabytes in 10 ms at most), and the kernel's OOM killer
	// stays the backstop. The child process gets GOMEMLIMIT at 90% of the
	// budget, so its collector works hard before garbage counts against it.
	Memory int64
}

// IsZero reports whether b bounds nothing.
func (b Budget) IsZero() bool { return b.Wall <= 0 && b.Memory <= 0 }

// String describes the budget for logs.
func (b Budget) String() string {
	var parts []string
	if b.Wall > 0 {
		parts = append(parts, "wall time "+b.Wall.String())
	}
	if b.Memory > 0 {
		parts = append(parts, "memory "+FormatBytes(b.Memory))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// ProcessRunner runs every cell in a child process of its own and enforces
// a Budget on it. Go cannot stop a goroutine or cap its memory, so a cell
// run in the worker's own process that loops or allocates without end
// would take the worker down with it; a child process can be killed, and
// its resident memory is the cell's alone. The cost is a process start per
// cell (a few milliseconds) and no trace cache shared between cells.
//
// The child reads one JSON runner.Cell on stdin and writes one JSON
// runner.CellResult on stdout (`schedfarm worker --run-cell`). A
// child that exits without a result (a crash, a panic that escaped) gives a
// failed cell with its exit status and the end of its stderr.
type ProcessRunner struct {
	// Command is the child's program and arguments; required.
	Command []string
	// Env is the child's environment; the worker's own when nil.
	Env []string
	// Budget bounds each cell.
	Budget Budget
	// Sample is the interval of the memory samples; 10ms when zero.
	Sample time.Duration
}

// Check reports a runner that cannot work: no command, or a memory budget
// where the resident set cannot be read (it is read from /proc, Linux
// only).
func (p *ProcessRunner) Check() error {
	if len(p.Command) == 0 {
		return errors.New("worker: process runner: no command; want the program that runs one cell")
	}
	if p.Budget.Memory > 0 {
		if _, err := rss(os.Getpid()); err != nil {
			return fmt.Errorf("worker: a memory budget needs the resident set size of the cell's process from /proc (Linux): %w", err)
		}
	}
	return nil
}

// Run runs cell c in a child process within the budget.
func (p *ProcessRunner) Run(ctx context.Context, c runner.Cell) runner.CellResult {
	failed := func(format string, args ...any) runner.CellResult {
		return runner.CellResult{CellID: c.ID, Status: runner.StatusFailed, Error: fmt.Sprintf(format, args...)}
	}
	if err := p.Check(); err != nil {
		return failed("%v", err)
	}
	in, err := json.Marshal(c)
	if err != nil {
		return failed("encode cell for its process: %v", err)
	}
	cmd := exec.Command(p.Command[0], p.Command[1:]...)
	cmd.Env = p.Env
	if cmd.Env == nil {
		cmd.Env = os.Environ()
	}
	if p.Budget.Memory > 0 && !hasEnv(cmd.Env, "GOMEMLIMIT") {
		cmd.Env = append(cmd.Env, "GOMEMLIMIT="+strconv.FormatInt(p.Budget.Memory/10*9, 10))
	}
	var stdout bytes.Buffer
	stderr := &tailBuffer{max: 4 << 10}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = bytes.NewReader(in), &stdout, stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return failed("start the cell's process %s: %v", p.Command[0], err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()

	var wall <-chan time.Time
	if p.Budget.Wall > 0 {
		t := time.NewTimer(p.Budget.Wall)
		defer t.Stop()
		wall = t.C
	}
	var sample <-chan time.Time
	if p.Budget.Memory > 0 {
		every := p.Sample
		if every <= 0 {
			every = 10 * time.Millisecond
		}
		t := time.NewTicker(every)
		defer t.Stop()
		sample = t.C
	}
	kill := func() {
		_ = cmd.Process.Kill()
		<-exited
	}
	for {
		select {
		case err := <-exited:
			return p.result(c, stdout.Bytes(), stderr.String(), err, time.Since(start))
		case <-wall:
			kill()
			return failed("exceeded its wall-time budget of %v (worker --cell-timeout): its process was killed after %.2fs",
				p.Budget.Wall, time.Since(start).Seconds())
		case <-sample:
			n, err := rss(cmd.Process.Pid)
			if err != nil {
				continue // exiting: the next select sees it
			}
			if n > p.Budget.Memory {
				kill()
				return failed("exceeded its memory budget of %s (worker --cell-memory): its process had a resident set of %s when it was killed after %.2fs",
					FormatBytes(p.Budget.Memory), FormatBytes(n), time.Since(start).Seconds())
			}
		case <-ctx.Done():
			kill()
			return failed("stopped: %v", ctx.Err())
		}
	}
}

// result reads the child's result, or reports why there is none.
func (p *ProcessRunner) result(c runner.Cell, out []byte, stderr string, exitErr error, took time.Duration) runner.CellResult {
	var res runner.CellResult
	decodeErr := json.Unmarshal(out, &res)
	if exitErr == nil && decodeErr == nil {
		res.CellID = c.ID
		if res.WallSeconds == 0 {
			res.WallSeconds = took.Seconds()
		}
		return res
	}
	why := "exited without a result"
	if exitErr != nil {
		why = "failed (" + exitErr.Error() + ")"
	} else if len(out) > 0 {
		why = fmt.Sprintf("wrote a result that does not decode (%v)", decodeErr)
	}
	msg := fmt.Sprintf("the cell's process %s", why)
	if s := strings.TrimSpace(stderr); s != "" {
		msg += "; the end of its stderr:\n" + s
	}
	return runner.CellResult{CellID: c.ID, Status: runner.StatusFailed, Error: msg, WallSeconds: took.Seconds()}
}

func hasEnv(env []string, name string) bool {
	for _, kv := range env {
		if strings.HasPrefix(kv, name+"=") {
			return true
		}
	}
	return false
}

// rss returns the resident set size of process pid, in bytes, from
// /proc/<pid>/statm (its second field, in pages).
func rss(pid int) (int64, error) {
	if runtime.GOOS != "linux" {
		return 0, fmt.Errorf("no /proc on %s", runtime.GOOS)
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/statm")
	if err != nil {
		return 0, err
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0, fmt.Errorf("/proc/%d/statm: %q: want at least two fields", pid, b)
	}
	pages, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("/proc/%d/statm: %w", pid, err)
	}
	return pages * int64(os.Getpagesize()), nil
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = append(t.b[:0], t.b[len(t.b)-t.max:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}

// ParseBytes reads a byte count: a plain number of bytes, or a number with
// one of the suffixes KB, MB, GB, TB (powers of 1000) or KiB, MiB, GiB, TiB
// (powers of 1024), e.g. "512MiB", "2GB", "1.5GiB".
func ParseBytes(s string) (int64, error) {
	t := strings.TrimSpace(s)
	units := []struct {
		suffix string
		mult   float64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40},
		{"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12}, {"B", 1}}
	mult := 1.0
	for _, u := range units {
		if strings.HasSuffix(t, u.suffix) {
			t, mult = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.mult
			break
		}
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || v < 0 || v*mult > 1<<62 {
		return 0, fmt.Errorf("%q is not a byte count; want e.g. 1073741824, 512MiB or 2GB", s)
	}
	return int64(v * mult), nil
}

// FormatBytes writes a byte count in binary units (e.g. "512 MiB").
func FormatBytes(n int64) string {
	if n < 1<<10 {
		return strconv.FormatInt(n, 10) + " B"
	}
	v, exp := float64(n)/(1<<10), 0
	for v >= 1<<10 && exp < 3 {
		v /= 1 << 10
		exp++
	}
	return fmt.Sprintf("%.4g %ciB", v, "KMGT"[exp])
}

// ServeOne is the child side of a ProcessRunner: it reads one JSON cell
// from in, runs it with r (a panic becomes a failed result) and writes the
// JSON result to out.
func ServeOne(ctx context.Context, r Runner, in io.Reader, out io.Writer) error {
	var c runner.Cell
	if err := json.NewDecoder(in).Decode(&c); err != nil {
		return fmt.Errorf("read the cell from stdin: %w; want one JSON runner.Cell", err)
	}
	res := func() (res runner.CellResult) {
		defer func() {
			if p := recover(); p != nil {
				res = runner.CellResult{CellID: c.ID, Status: runner.StatusFailed,
					Error: fmt.Sprintf("panic: %v\n%s", p, stackHead(debug.Stack(), 12))}
			}
		}()
		return r.Run(ctx, c)
	}()
	return json.NewEncoder(out).Encode(res)
}
