package results

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/internal/lockfile"
)

// One output, one owner: a second Open while the first holds the output is
// refused at once, naming the holder; after Close the output opens again.
func TestSecondOpenRefusedNamingTheOwner(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.parquet")
	w, err := Open(Options{Path: path, Owner: "schedfarm run of experiment t"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = Open(Options{Path: path})
	var busy *lockfile.BusyError
	if !errors.As(err, &busy) {
		t.Fatalf("second Open: %v; want a lock refusal", err)
	}
	host, _ := os.Hostname()
	for _, want := range []string{"has an owner already", "process " + itoa(os.Getpid()) + " on host " + host, "experiment t", "kill " + itoa(os.Getpid())} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("refusal %q does not say %q", err, want)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	w, err = Open(Options{Path: path})
	if err != nil {
		t.Fatalf("Open after Close: %v", err)
	}
	w.Close()
}

func itoa(i int) string { return strconv.Itoa(i) }

// A damaged complete line in the middle of a journal is refused, naming
// file and line; Repair sets it aside and keeps every good record.
func TestDamagedJournalRefusedThenRepaired(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.parquet")
	w, err := Open(Options{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 6; i++ {
		c := testCell(i)
		if err := w.Write(c, testResult(c, i)); err != nil {
			t.Fatal(err)
		}
		if i == 2 {
			w.journal.Write([]byte("dd\"garbage\n"))
		}
	}
	w.journal.Close()
	w.lock.Release()
	_, err = Open(Options{Path: path})
	var dmg *DamagedJournalError
	if !errors.As(err, &dmg) || dmg.Line != 4 || !strings.Contains(err.Error(), JournalPath(path)+":4:") {
		t.Fatalf("Open of a damaged journal: %v; want a DamagedJournalError at line 4", err)
	}
	w, err = Open(Options{Path: path, Repair: true})
	if err != nil {
		t.Fatalf("Open with Repair: %v", err)
	}
	if n := len(w.Status()); n != 6 {
		t.Errorf("after repair %d cells known; want 6", n)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	side, err := os.ReadFile(JournalPath(path) + ".damaged")
	if err != nil || string(side) != "dd\"garbage\n" {
		t.Errorf("damaged lines file: %q, %v; want the garbage line", side, err)
	}
	recs, err := ReadFile(path)
	if err != nil || len(recs) != 6 {
		t.Fatalf("after repair: %d records, %v; want 6", len(recs), err)
	}
	if _, err := Open(Options{Path: path}); err != nil {
		t.Errorf("Open after the repair: %v", err)
	}
}

// Rows of another build are refused on resume unless accepted.
func TestOtherBuildRefusedUnlessAccepted(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.parquet")
	w, err := Open(Options{Path: path, Build: "abc"})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		c := testCell(i)
		if err := w.Write(c, testResult(c, i)); err != nil { // testResult's Commit is "abc"
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if w, err = Open(Options{Path: path, Build: "abc"}); err != nil {
		t.Fatalf("same build: %v", err)
	}
	w.Close()
	_, err = Open(Options{Path: path, Build: "sha256:feed"})
	var ob *OtherBuildError
	if !errors.As(err, &ob) || !strings.Contains(err.Error(), "3 rows of build abc") || !strings.Contains(err.Error(), "this is build sha256:feed") {
		t.Fatalf("another build: %v; want an OtherBuildError naming both builds", err)
	}
	w, err = Open(Options{Path: path, Build: "sha256:feed", AcceptBuilds: true})
	if err != nil {
		t.Fatalf("another build, accepted: %v", err)
	}
	if b := w.Builds(); b["abc"] != 3 {
		t.Errorf("Builds() = %v; want abc: 3", b)
	}
	w.Close()
}

func TestOutputThatIsADirectory(t *testing.T) {
	dir := t.TempDir()
	_, err := Open(Options{Path: dir})
	if err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Fatalf("Open of a directory: %v; want it named as a directory", err)
	}
}

// A run that stops before it starts leaves the output as it was: no
// Parquet file, no journal, and the output free again.
func TestAbandonLeavesNothing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.parquet")
	w, err := Open(Options{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Abandon(); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{path, JournalPath(path)} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s exists after Abandon", p)
		}
	}
	w, err = Open(Options{Path: path})
	if err != nil {
		t.Fatalf("Open after Abandon: %v", err)
	}
	w.Close()
}
