package lockfile

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestSecondAcquireRefusedNamingHolder(t *testing.T) {
	p := filepath.Join(t.TempDir(), "x.lock")
	l, err := Acquire(p, Owner{PID: 4242, Host: "h1", Command: "schedfarm run a.yaml", What: "experiment a"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = Acquire(p, Self("experiment a"))
	var busy *BusyError
	if !errors.As(err, &busy) {
		t.Fatalf("second Acquire: %v; want a *BusyError", err)
	}
	if busy.Holder.PID != 4242 || busy.Holder.Host != "h1" || !strings.Contains(err.Error(), "process 4242 on host h1 (schedfarm run a.yaml)") {
		t.Errorf("error %q (holder %+v); want it to name process 4242 on host h1 and its command", err, busy.Holder)
	}
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); len(b) != 0 {
		t.Errorf("released lock file holds %q; want it empty", b)
	}
	l2, err := Acquire(p, Self("again"))
	if err != nil {
		t.Fatalf("Acquire after Release: %v", err)
	}
	l2.Release()
}

// A holder that dies (a child process killed -9 while it holds the lock)
// leaves no stale lock.
func TestLockDiesWithItsHolder(t *testing.T) {
	if p := os.Getenv("LOCKFILE_TEST_HOLD"); p != "" {
		if _, err := Acquire(p, Self("child")); err != nil {
			os.Exit(3)
		}
		os.Stdout.WriteString("held\n")
		select {}
	}
	p := filepath.Join(t.TempDir(), "x.lock")
	cmd := exec.Command(os.Args[0], "-test.run=^TestLockDiesWithItsHolder$")
	cmd.Env = append(os.Environ(), "LOCKFILE_TEST_HOLD="+p)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	buf := make([]byte, 5)
	if _, err := io.ReadFull(out, buf); err != nil || string(buf) != "held\n" {
		t.Fatalf("child: %q, %v", buf, err)
	}
	_, err = Acquire(p, Self("while held"))
	var busy *BusyError
	if !errors.As(err, &busy) || busy.Holder.PID != cmd.Process.Pid {
		t.Fatalf("Acquire while the child holds it: %v; want a BusyError naming pid %d", err, cmd.Process.Pid)
	}
	cmd.Process.Kill()
	cmd.Wait()
	l, err := Acquire(p, Self("after"))
	if err != nil {
		t.Fatalf("Acquire after the holder was killed: %v", err)
	}
	l.Release()
}
