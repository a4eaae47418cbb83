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
	// Holder is the holder as its lock file names it; zero when it could
	// not be read (a holder that has just taken the lock and not yet
	// written its name).
	Holder Owner
}

func (e *BusyError) Error() string {
	if e.Holder.PID == 0 {
		return fmt.Sprintf("%s is locked by another process (it has not written its name yet)", e.Path)
	}
	return fmt.Sprintf("%s is locked by %s", e.Path, e.Holder)
}

// Acquire takes the lock file at path for self, creating it. It fails at
// once with a *BusyError when another process holds it.
func Acquire(path string, self Owner) (*Lock, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	if err := tryLock(f); err != nil {
		f.Close()
		if errors.Is(err, errLocked) {
			return nil, &BusyError{Path: path, Holder: readHolder(path)}
		}
		return nil, fmt.Errorf("lock %s: %w", path, err)
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

// readHolder reads the holder's name, retrying briefly while the file is
// still empty (a holder between taking the lock and writing its name).
func readHolder(path string) Owner {
	var o Owner
	for i := 0; i < 25; i++ {
		f, err := os.Open(path)
		if err != nil {
			return o
		}
		b, _ := io.ReadAll(io.LimitReader(f, 1<<16))
		f.Close()
		if json.Unmarshal(b, &o) == nil && o.PID != 0 {
			return o
		}
		time.Sleep(20 * time.Millisecond)
	}
	return o
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
