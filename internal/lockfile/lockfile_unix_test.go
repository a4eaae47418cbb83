//go:build unix

package lockfile

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A lock whose holder's name cannot be written (here: the file size limit
// of the process, RLIMIT_FSIZE, below the name's length, so the write
// fails with EFBIG) is not taken: Acquire reports the write and lets the
// lock go, instead of holding a lock that names nobody.
func TestAcquireFailsWhenItsNameCannotBeWritten(t *testing.T) {
	if p := os.Getenv("LOCKFILE_TEST_FSIZE"); p != "" {
		var lim syscall.Rlimit
		if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
			os.Exit(5)
		}
		lim.Cur = 8
		if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
			os.Exit(5)
		}
		l, err := Acquire(p, Self("child"))
		if err == nil {
			l.Release()
			os.Stdout.WriteString("acquired\n")
			os.Exit(4)
		}
		os.Stdout.WriteString("refused: " + err.Error() + "\n")
		os.Exit(0)
	}
	p := filepath.Join(t.TempDir(), "x.lock")
	cmd := exec.Command(os.Args[0], "-test.run=^TestAcquireFailsWhenItsNameCannotBeWritten$")
	cmd.Env = append(os.Environ(), "LOCKFILE_TEST_FSIZE="+p)
	out, err := cmd.Output()
	if err != nil || !strings.HasPrefix(string(out), "refused: lock "+p+": ") || !strings.Contains(string(out), "file too large") {
		t.Fatalf("child with an 8-byte file size limit: %q, %v; want Acquire to refuse with the write's error (file too large)", out, err)
	}
	l, err := Acquire(p, Self("after"))
	if err != nil {
		t.Fatalf("Acquire after the child's refused Acquire: %v", err)
	}
	l.Release()
}
