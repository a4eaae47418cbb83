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

// A holder caught between emptying its file and letting the lock go (what
// Release does, in that order) leaves the lock to the next Acquire rather
// than a refusal that names nobody: the second run of a spec started the
// moment the first one finishes (cmd/schedfarm's TestTwoRunsOfOneSpecAtOnce
// met it on a loaded machine). The holder here empties its file and lets the
// lock go only once Acquire has found the lock held and the file empty, so
// the interleaving is the same on any machine.
func TestAcquireAfterAHolderLetsGo(t *testing.T) {
	p := filepath.Join(t.TempDir(), "x.lock")
	l, err := Acquire(p, Owner{PID: 4242, Host: "h1"})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(p, 0); err != nil { // Release's first step
		t.Fatal(err)
	}
	released := 0
	afterNameless = func() {
		if released++; released == 1 {
			if err := l.Release(); err != nil {
				t.Error(err)
			}
		}
	}
	defer func() { afterNameless = nil }()
	l2, err := Acquire(p, Owner{PID: 4343, Host: "h2"})
	if err != nil {
		t.Fatalf("Acquire once the holder let go: %v; want the lock", err)
	}
	defer l2.Release()
	if released != 1 {
		t.Errorf("Acquire found the lock held with an empty file %d times; want 1 (then it was free)", released)
	}
	if b, _ := os.ReadFile(p); !strings.Contains(string(b), `"pid":4343`) {
		t.Errorf("lock file holds %q; want the new holder's name", b)
	}
}

// A holder that has taken the lock and not yet written its name is named
// once it has: Acquire waits for the name rather than refusing without one.
func TestAcquireWaitsForTheHoldersName(t *testing.T) {
	p := filepath.Join(t.TempDir(), "x.lock")
	l, err := Acquire(p, Owner{PID: 4242, Host: "h1"})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	if err := os.Truncate(p, 0); err != nil { // as between the lock and the name
		t.Fatal(err)
	}
	tries := 0
	afterNameless = func() {
		if tries++; tries == 3 {
			if err := os.WriteFile(p, []byte(`{"pid":4242,"host":"h1"}`+"\n"), 0o644); err != nil {
				t.Error(err)
			}
		}
	}
	defer func() { afterNameless = nil }()
	_, err = Acquire(p, Self("second"))
	var busy *BusyError
	if !errors.As(err, &busy) || busy.Holder.PID != 4242 || !strings.Contains(err.Error(), "process 4242 on host h1") {
		t.Fatalf("Acquire of a held lock whose name came late: %v; want a *BusyError naming process 4242 on host h1", err)
	}
	if tries != 3 {
		t.Errorf("%d empty reads before the name; want 3", tries)
	}
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
