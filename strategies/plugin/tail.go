package plugin

import (
	"strings"
	"sync"
)

// tail keeps the last lines written to it: a plugin's stderr, quoted in
// the error of a run that fails.
type tail struct {
	mu    sync.Mutex
	lines []string
	cur   strings.Builder
	max   int
}

// tailLines is how many lines of a plugin's stderr an error quotes.
const tailLines = 20

// tailLineBytes bounds one quoted line.
const tailLineBytes = 400

func newTail() *tail { return &tail{max: tailLines} }

// Write implements io.Writer; it never fails.
func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, b := range p {
		if b == '\n' {
			t.push()
			continue
		}
		if t.cur.Len() < tailLineBytes {
			t.cur.WriteByte(b)
		}
	}
	return len(p), nil
}

func (t *tail) push() {
	line := strings.TrimRight(t.cur.String(), "\r")
	t.cur.Reset()
	if len(t.lines) == t.max {
		copy(t.lines, t.lines[1:])
		t.lines = t.lines[:t.max-1]
	}
	t.lines = append(t.lines, line)
}

// String returns the kept lines, the unfinished one included.
func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := t.lines
	if t.cur.Len() > 0 {
		lines = append(append([]string(nil), lines...), t.cur.String())
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}
