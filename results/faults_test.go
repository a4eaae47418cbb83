package results

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// mountTmpfs mounts a tmpfs with the given options on a new directory and
// unmounts it when the test ends. It skips the test, saying why, when the
// test does not run as root or the mount fails (no CAP_SYS_ADMIN).
func mountTmpfs(t *testing.T, opts string) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root to mount a small tmpfs (mount -t tmpfs -o " + opts + "); run the results tests as root to cover it")
	}
	dir := filepath.Join(t.TempDir(), "mnt")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", opts, "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("mount -t tmpfs -o %s: %v %s (no privilege to mount here)", opts, err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v %s", dir, err, out)
		}
	})
	return dir
}

// fillDisk writes a file in dir until the file system is full and returns
// its path.
func fillDisk(t *testing.T, dir string) string {
	t.Helper()
	p := filepath.Join(dir, "filler")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	buf := make([]byte, 4096)
	for {
		if _, err := f.Write(buf); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatalf("filling %s: %v; want ENOSPC", dir, err)
			}
			break
		}
	}
	// Byte by byte: what is left of the last page.
	for {
		if _, err := f.Write(buf[:1]); err != nil {
			break
		}
	}
	return p
}

func writeCells(t *testing.T, w *Writer, from, to int) {
	t.Helper()
	for i := from; i < to; i++ {
		c := testCell(i)
		if err := w.Write(c, testResult(c, i)); err != nil {
			t.Fatalf("write cell %d: %v", i, err)
		}
	}
}

// An output directory that cannot be written fails Open, naming it, before
// any cell would run. As root (who ignores permission bits) the directory
// is a read-only tmpfs; otherwise a directory without write permission.
func TestOpenUnwritableDirectory(t *testing.T) {
	var dir string
	if os.Geteuid() == 0 {
		dir = mountTmpfs(t, "ro,size=64k")
	} else {
		dir = filepath.Join(t.TempDir(), "ro")
		if err := os.Mkdir(dir, 0o555); err != nil {
			t.Fatal(err)
		}
	}
	_, err := Open(Options{Path: filepath.Join(dir, "out.parquet")})
	if err == nil {
		t.Fatal("Open in an unwritable directory succeeded")
	}
	if want := "output directory " + dir + " is not writable"; !strings.Contains(err.Error(), want) {
		t.Errorf("error %q does not contain %q", err, want)
	}
	// A path below a regular file cannot even be created.
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o644)
	if _, err := Open(Options{Path: filepath.Join(file, "sub", "out.parquet")}); err == nil || !strings.Contains(err.Error(), "cannot be created") {
		t.Errorf("output below a file: %v; want an error saying the directory cannot be created", err)
	}
}

// The disk fills up: a journal append cut short is undone and reported; a
// Parquet rebuild fails, leaving the old file and no temporary one; once
// space is freed, reopening loses nothing.
func TestDiskFull(t *testing.T) {
	dir := mountTmpfs(t, "size=512k")
	path := filepath.Join(dir, "out.parquet")
	w, err := Open(Options{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	writeCells(t, w, 0, 200)
	if err := w.Flush(); err != nil { // the first Flush rebuilds the Parquet file
		t.Fatal(err)
	}
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	writeCells(t, w, 200, 300)
	filler := fillDisk(t, dir)

	// A journal append on a full disk fails and leaves the journal intact.
	jsize := fileSize(t, JournalPath(path))
	c := testCell(300)
	err = w.Write(c, testResult(c, 300))
	if err == nil || !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "the journal is as it was") {
		t.Fatalf("write on a full disk: %v; want ENOSPC and the journal intact", err)
	}
	if got := fileSize(t, JournalPath(path)); got != jsize {
		t.Errorf("journal is %d bytes after the failed append; want %d as before", got, jsize)
	}

	// The rebuild at Close fails; the old file stays and no temporary is left.
	err = w.Close()
	if err == nil || !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "left as it was") || !strings.Contains(err.Error(), JournalPath(path)) {
		t.Fatalf("Close on a full disk: %v; want ENOSPC naming the journal as the recovery", err)
	}
	after, err := os.ReadFile(path)
	if err != nil || !bytes.Equal(before, after) {
		t.Errorf("the Parquet file changed after a failed rebuild (err %v)", err)
	}
	if tmps, _ := filepath.Glob(filepath.Join(dir, ".out.parquet.tmp*")); len(tmps) > 0 {
		t.Errorf("temporary files left behind: %v", tmps)
	}

	// Free space and rerun: every result written before the disk filled is
	// there, and the cell refused then can be written now.
	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	w, err = Open(Options{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(w.Status()); n != 300 {
		t.Errorf("%d cells after reopening; want 300", n)
	}
	writeCells(t, w, 300, 301)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	recs, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 301 {
		t.Errorf("%d rows; want 301", len(recs))
	}
}

func fileSize(t *testing.T, p string) int64 {
	t.Helper()
	st, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return st.Size()
}

// A journal truncated in the middle of a line (a crash, a copy cut short)
// loses that line only: Open cuts it off and says so, the cell counts as
// not done, and writing it again completes the output.
func TestJournalTruncatedMidLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.parquet")
	w, err := Open(Options{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	writeCells(t, w, 0, 3)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	jp := JournalPath(path)
	data, err := os.ReadFile(jp)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	keep := len(lines[0]) + len(lines[1]) + len(lines[2])/2
	if err := os.Truncate(jp, int64(keep)); err != nil {
		t.Fatal(err)
	}
	os.Remove(path) // the journal alone is what a crash mid-sweep leaves
	var logged []string
	w, err = Open(Options{Path: path, Logf: func(f string, a ...any) { logged = append(logged, fmt.Sprintf(f, a...)) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(logged) != 1 || !strings.Contains(logged[0], jp) || !strings.Contains(logged[0], fmt.Sprintf("%d bytes at offset %d", keep-len(lines[0])-len(lines[1]), len(lines[0])+len(lines[1]))) {
		t.Errorf("log %q; want one line naming the journal, the bytes cut and the offset", logged)
	}
	st := w.Status()
	if len(st) != 2 || st[testCell(2).ID] != "" {
		t.Errorf("status after the cut: %v; want cells 0 and 1 only", st)
	}
	writeCells(t, w, 2, 3)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if recs, err := ReadFile(path); err != nil || len(recs) != 3 {
		t.Errorf("%d rows, %v; want 3", len(recs), err)
	}
}

// A Parquet file or journal of another experiment at the output path is
// refused, naming both, and left untouched; without Options.Experiment
// (outputs that hold several experiments on purpose) it is resumed.
func TestOtherExperimentAtOutput(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.parquet")
	w, err := Open(Options{Path: path, Experiment: "t"}) // testCell's experiment
	if err != nil {
		t.Fatal(err)
	}
	writeCells(t, w, 0, 5)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	parquetBytes, _ := os.ReadFile(path)
	journalBytes, _ := os.ReadFile(JournalPath(path))

	_, err = Open(Options{Path: path, Experiment: "other"})
	if err == nil || !strings.Contains(err.Error(), `experiment "t", not "other"`) || !strings.Contains(err.Error(), path) {
		t.Errorf("Parquet file of another experiment: %v; want an error naming the file and both experiments", err)
	}
	// The journal alone (no Parquet file yet) is refused the same way.
	os.Rename(path, path+".bak")
	_, err = Open(Options{Path: path, Experiment: "other"})
	if err == nil || !strings.Contains(err.Error(), JournalPath(path)+":1:") || !strings.Contains(err.Error(), `experiment "t", not "other"`) {
		t.Errorf("journal of another experiment: %v; want an error naming the journal's line and both experiments", err)
	}
	os.Rename(path+".bak", path)
	// Neither file was touched.
	if b, _ := os.ReadFile(path); !bytes.Equal(b, parquetBytes) {
		t.Error("the other experiment's Parquet file changed")
	}
	if b, _ := os.ReadFile(JournalPath(path)); !bytes.Equal(b, journalBytes) {
		t.Error("the other experiment's journal changed")
	}
	// A file that is not Parquet at all.
	junk := filepath.Join(dir, "junk.parquet")
	os.WriteFile(junk, []byte("a,b\n1,2\n"), 0o644)
	if _, err := Open(Options{Path: junk, Experiment: "t"}); err == nil || !strings.Contains(err.Error(), "not a schedfarm results file") {
		t.Errorf("a CSV at the output path: %v; want it refused", err)
	}
	// Without Experiment the same outputs resume as before.
	w, err = Open(Options{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(w.Status()); n != 5 {
		t.Errorf("resumed %d cells; want 5", n)
	}
	w.Close()
}
