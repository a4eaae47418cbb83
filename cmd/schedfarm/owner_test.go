package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/schedfarm/schedfarm/results"
)

// One experiment, one owner, proved on real processes: two `schedfarm run`
// of one spec started at the same moment, again and again. Each time one of
// them runs the sweep; the other either is refused at once (exit 4, naming
// the holder's process id and host) or, when it comes after the first has
// finished, finds every cell done. Every time the output is complete (every
// cell exactly once, all ok), the journal reads back whole and ends on a
// line boundary, and a third run afterwards has nothing to do and exits 0
// (no state left behind can stall it). SCHEDFARM_OWNER_ROUNDS sets the
// number of rounds (50 by default).
func TestTwoRunsOfOneSpecAtOnce(t *testing.T) {
	rounds := 50
	if v := os.Getenv("SCHEDFARM_OWNER_ROUNDS"); v != "" {
		rounds, _ = strconv.Atoi(v)
	}
	f := newFarmFixture(t, false)
	host, _ := os.Hostname()
	refused := 0
	for round := 0; round < rounds; round++ {
		for _, p := range []string{"out.parquet", results.JournalPath("out.parquet")} {
			os.Remove(filepath.Join(f.dir, p))
		}
		a := f.start(t, nil, "run", "--workers", "2", f.spec)
		b := f.start(t, nil, "run", "--workers", "2", f.spec)
		procs := []*farmProc{a, b}
		codes := []int{a.wait(t, 2*time.Minute), b.wait(t, 2*time.Minute)}
		ran := 0
		for i, code := range codes {
			other := procs[1-i]
			switch code {
			case exitOK:
				ran++
			case exitBusy:
				refused++
				out := procs[i].out.String()
				want := fmt.Sprintf("process %d on host %s", other.cmd.Process.Pid, host)
				if !strings.Contains(out, want) || !strings.Contains(out, "has an owner already") {
					t.Fatalf("round %d: the refused run does not name its holder (%q):\n%s", round, want, out)
				}
			default:
				t.Fatalf("round %d: exit codes %v; want 0 and 0 or 4:\n%s\n----\n%s", round, codes, a.out.String(), b.out.String())
			}
		}
		if ran == 0 {
			t.Fatalf("round %d: neither run ran: %v", round, codes)
		}
		checkAllOK(t, f.readExactlyOnce(t, f.dir))
		checkJournalWhole(t, filepath.Join(f.dir, results.JournalPath("out.parquet")))
		if round%10 == 9 || round == rounds-1 {
			again := f.start(t, nil, "run", "--workers", "2", f.spec)
			if code := again.wait(t, time.Minute); code != exitOK || !strings.Contains(again.out.String(), fmt.Sprintf("%d cells, %d done before, 0 ok", farmCells, farmCells)) {
				t.Fatalf("round %d: a later run: exit %d; want 0 with every cell done before:\n%s", round, code, again.out.String())
			}
		}
		if t.Failed() {
			t.Fatalf("round %d failed", round)
		}
	}
	t.Logf("%d rounds: %d second runs refused at once, %d came after the first had finished", rounds, refused, rounds-refused)
}

// checkJournalWhole reads a cell journal line by line: every line a whole
// JSON record with a cell id, the file ending on a newline.
func checkJournalWhole(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) == 0 || b[len(b)-1] != '\n' {
		t.Fatalf("journal %s does not end on a line boundary", path)
	}
	sc := bufio.NewScanner(strings.NewReader(string(b)))
	sc.Buffer(nil, 1<<24)
	for n := 1; sc.Scan(); n++ {
		var rec results.Record
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil || rec.Cell.ID == "" {
			t.Fatalf("%s:%d: not a whole record (%v): %.80q", path, n, err, sc.Text())
		}
	}
}
