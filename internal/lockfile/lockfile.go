package lockfile

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// Owner describes the holder of a lock.
type Owner struct {
	PID     int       `json:"pid"`
	Host    string    `json:"host"`
	Command string    `json:"command"`
	Since   time.Time `json:"since"`
	// What is what the holder does with the object, e.g. "experiment
	// quickstart".
	What string `json:"what,omitempty"`
}

// Self returns the Owner that describes this process, doing what.
func Self(what string) Owner {
	host, _ := os.Hostname()
	return Owner{PID: os.Getpid(), Host: host, Command: strings.Join(os.Args, " "), Since: time.Now().UTC().Truncate(time.Second), What: what}
}

func (o Owner) String() string {
	s := fmt.Sprintf("process %d on host %s", o.PID, o.Host)
	if o.Command != "" {
		s += fmt.Sprintf(" (%s)", o.Command)
	}
	if !o.Since.IsZero() {
		s += ", since " + o.Since.Format(time.RFC3339)
	}
	if o.What != "" {
		s += ", " + o.What
	}
	return s
}

// Lock is a held lock; Release lets it go.
type Lock struct {
	f    *os.File
	path string
}

// BusyError is Acquire's error when another process holds the lock.
type BusyError struct {
	// Path is the lock file.
	Path string
	// Holder is the holder as its lock file names it; zero when the file
	// named no holder for all of Acquire's tries (a holder that took the
	// lock and has not written its name).
	Holder Owner
}

func (e *BusyError) Error() string {
	if e.Holder.PID == 0 {
		return fmt.Sprintf("%s is locked by another process that has not written its name (the file stayed empty for %v)", e.Path, namelessTries*namelessWait)
	}
	return fmt.Sprintf("%s is locked by %s", e.Path, e.Holder)
}

// Acquire takes the lock file at path for self, creating it. It fails at
// once with a *BusyError naming the holder when another process holds it
// and has written its name. A lock file that is locked but empty belongs
// to a holder between taking the lock and writing its name, or between
// emptying the file and letting the lock go (Release): Acquire then tries
// the lock again, and again while the file stays empty, so that a holder
// that has just finished leaves the lock to it rather than a refusal that
// names nobody; it gives up with a *BusyError without a name after
// namelessTries tries namelessWait apart (5 s) of an empty, locked file.
func Acquire(path string, self Owner) (*Lock, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	for attempt := 1; ; attempt++ {
		err := tryLock(f)
		if err == nil {
			break
		}
		if !errors.Is(err, errLocked) {
			f.Close()
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		if holder, ok := readHolder(path); ok {
			f.Close()
			return nil, &BusyError{Path: path, Holder: holder}
		}
		if attempt == namelessTries {
			f.Close()
			return nil, &BusyError{Path: path}
		}
		if afterNameless != nil {
			afterNameless()
		}
		time.Sleep(namelessWait)
	}
	b, _ := json.Marshal(self)
	err = f.Truncate(0)
	if err == nil {
		_, err = f.WriteAt(append(b, '\n'), 0)
	}
	if err != nil {
		unlock(f)
		f.Close()
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	return &Lock{f: f, path: path}, nil
}

// namelessTries bounds Acquire's tries of a lock whose file stays empty,
// namelessWait apart.
const (
	namelessTries = 250
	namelessWait  = 20 * time.Millisecond
)

// afterNameless, set by tests, runs after a try that found the lock held
// and its file empty, before the next try.
var afterNameless func()

// readHolder reads the holder's name; ok is false when the file is empty
// or holds no name.
func readHolder(path string) (o Owner, ok bool) {
	f, err := os.Open(path)
	if err != nil {
		return o, false
	}
	defer f.Close()
	b, _ := io.ReadAll(io.LimitReader(f, 1<<16))
	if json.Unmarshal(b, &o) == nil && o.PID != 0 {
		return o, true
	}
	return Owner{}, false
}

// Path returns the lock file's path.
func (l *Lock) Path() string { return l.path }

// Release empties the lock file and lets the lock go. It is idempotent.
func (l *Lock) Release() error {
	if l == nil || l.f == nil {
		return nil
	}
	err := l.f.Truncate(0)
	if uerr := unlock(l.f); err == nil {
		err = uerr
	}
	if cerr := l.f.Close(); err == nil {
		err = cerr
	}
	l.f = nil
	return err
}
