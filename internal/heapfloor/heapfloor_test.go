package heapfloor

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestPercent checks the percentage by hand against the runtime's goal,
// live + (live + roots)·p/100 and at least 4 MB·p/100.
func TestPercent(t *testing.T) {
	const mb = 1 << 20
	for _, c := range []struct {
		live, roots, floor int64
		base, want         int
	}{
		{4 * mb, 0, 64 * mb, 100, 1500},      // 4 + 4·15 = 64
		{2 * mb, 2 * mb, 64 * mb, 100, 1550}, // 2 + 4·15.5 = 64
		{30 * mb, 0, 64 * mb, 100, 114},      // 34·100/30 = 113.3 → 114 (30 + 30·1.14 = 64.2)
		{32 * mb, 0, 64 * mb, 100, 100},      // 32 + 32 = 64: the base reaches the floor
		{40 * mb, 0, 64 * mb, 100, 100},      // 80 ≥ 64
		{50 * mb, 0, 64 * mb, 50, 50},        // 75 ≥ 64: a base of 50 kept
		{40 * mb, 0, 64 * mb, 50, 60},        // 40 + 20 = 60 < 64: 24·100/40 = 60
		{mb / 4, 0, 64 * mb, 100, 1600},      // tiny: the minimum, 4 MB·16 = 64 MB, bounds it
		{0, 0, 64 * mb, 100, 1600},           // empty: likewise
		{1 << 40, 0, 64 * mb, 100, 100},      // a huge heap
		{8 * mb, 0, 64 * mb, 800, 800},       // 8 + 64 ≥ 64: the base wins
		{mb, 0, 2 * mb, 100, 100},            // the minimum at the base (4 MB) is above the floor
	} {
		if got := Percent(c.live, c.roots, c.floor, c.base); got != c.want {
			t.Errorf("Percent(%d, %d, %d, %d) = %d; want %d", c.live, c.roots, c.floor, c.base, got, c.want)
		}
	}
}

// helperEnv selects the helper process's mode (see TestHelperProcess).
const helperEnv = "HEAPFLOOR_HELPER"

// runHelper runs this test binary as a helper in the given mode, with
// GOGC and GOMEMLIMIT unset, and returns its last line of output.
func runHelper(t *testing.T, mode string, extraEnv ...string) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$", "-test.count=1")
	env := []string{helperEnv + "=" + mode}
	for _, e := range os.Environ() {
		if !strings.HasPrefix(e, "GOGC=") && !strings.HasPrefix(e, "GOMEMLIMIT=") && !strings.HasPrefix(e, helperEnv+"=") {
			env = append(env, e)
		}
	}
	cmd.Env = append(env, extraEnv...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("helper %s: %v\n%s", mode, err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if strings.HasPrefix(lines[i], "result ") {
			return strings.TrimPrefix(lines[i], "result ")
		}
	}
	t.Fatalf("helper %s printed no result:\n%s", mode, out)
	return ""
}

// countByBytes is the environment under which a helper's collections
// follow the bytes it allocates and not the clock: with the collector's
// concurrent mark, a helper on a loaded machine keeps allocating while its
// mark worker waits for a core, so a cycle overshoots its goal and the count
// falls (a CI run on 2 cores counted 37 plain collections against 10 with
// the floor, where an idle machine counts 200–227 against 8).
// gcstoptheworld=1 marks with the world stopped, so every cycle begins at
// the pacer's trigger and ends before the next byte: 231 and 8, loaded or
// not. Keep's rule (a goal, set after each collection) is the same in
// both modes.
func countByBytes() string {
	if d := os.Getenv("GODEBUG"); d != "" {
		return "GODEBUG=" + d + ",gcstoptheworld=1"
	}
	return "GODEBUG=gcstoptheworld=1"
}

// garbage allocates n bytes of short-lived objects of 4 KB over a live heap
// of about live bytes and returns the collections it took.
func garbage(n, live int) uint32 {
	keep := make([][]byte, live/4096)
	for i := range keep {
		keep[i] = make([]byte, 4096)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	var sink []byte
	for done := 0; done < n; done += 4096 {
		sink = make([]byte, 4096)
		sink[0] = byte(done)
	}
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(keep)
	runtime.KeepAlive(sink)
	return after.NumGC - before.NumGC
}

// TestHelperProcess is not a test: it is the helper runHelper starts.
func TestHelperProcess(t *testing.T) {
	mode := os.Getenv(helperEnv)
	if mode == "" {
		t.Skip("run by the other tests as a helper process")
	}
	const mb = 1 << 20
	switch mode {
	case "plain", "floor":
		if mode == "floor" && !Keep(64*mb) {
			fmt.Println("result refused")
			return
		}
		runtime.GC() // the keeper's first adjustment
		fmt.Printf("result %d\n", garbage(512*mb, 2*mb))
	case "large":
		observed = make(chan int, 64)
		if !Keep(64 * mb) {
			fmt.Println("result refused")
			return
		}
		keep := make([][]byte, 100*mb/4096)
		for i := range keep {
			keep[i] = make([]byte, 4096)
		}
		runtime.GC()
		p := waitObserved()
		runtime.KeepAlive(keep)
		keep = nil
		runtime.GC()
		runtime.GC()
		q := waitObserved()
		fmt.Printf("result %d %d\n", p, q)
	case "stop":
		observed = make(chan int, 64)
		if !Keep(64 * mb) {
			fmt.Println("result refused")
			return
		}
		runtime.GC()
		raised := waitObserved()
		Stop()
		after := gogcPercent()
		n := garbage(512*mb, 2*mb)
		fmt.Printf("result %d %d %d %d %v\n", raised, after, gogcPercent(), n, Keep(64*mb))
	case "env":
		fmt.Printf("result %v\n", Keep(64*mb))
	case "twice":
		fmt.Printf("result %v %v\n", Keep(64*mb), Keep(64*mb))
	}
}

// gogcPercent returns GOGC's percentage as the runtime has it now.
func gogcPercent() int {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	return int(s[0].Value.Uint64())
}

// waitObserved returns the percentage the keeper set after the latest
// collection it has handled (the finalizer runs a little after the
// collection that queued it).
func waitObserved() int {
	last := -1
	for {
		select {
		case p := <-observed:
			last = p
		case <-time.After(200 * time.Millisecond):
			if last >= 0 {
				return last
			}
		}
	}
}

// TestKeepCollectsLessOften: 512 MB of 4 KB garbage over a 2 MB live heap
// takes many collections with GOGC=100 alone (a goal of a few megabytes)
// and few with a 64 MB floor (a goal of 64 MB: about 8). Both helpers run
// under countByBytes, so the counts follow the bytes allocated, not the
// clock, and a loaded machine gives the same.
func TestKeepCollectsLessOften(t *testing.T) {
	plain, err := strconv.Atoi(runHelper(t, "plain", countByBytes()))
	if err != nil {
		t.Fatal(err)
	}
	floor, err := strconv.Atoi(runHelper(t, "floor", countByBytes()))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("collections for 512 MB of garbage: %d plain, %d with a 64 MB floor", plain, floor)
	if floor < 4 || floor > 16 {
		t.Errorf("%d collections with a 64 MB floor; want 4 to 16 (about 512/64 = 8: the floor is a goal, not a switch)", floor)
	}
	if plain < 4*floor {
		t.Errorf("%d collections plain against %d with the floor; want at least four times as many", plain, floor)
	}
}

// TestKeepLeavesLargeHeapsAlone: with 100 MB live, a 64 MB floor changes
// nothing (GOGC's 100 already sets a 200 MB goal); once the heap is small
// again the percentage rises so that the goal reaches the floor.
func TestKeepLeavesLargeHeapsAlone(t *testing.T) {
	var p, q int
	if _, err := fmt.Sscanf(runHelper(t, "large"), "%d %d", &p, &q); err != nil {
		t.Fatal(err)
	}
	if p != 100 {
		t.Errorf("percentage with 100 MB live: %d; want GOGC's 100, unchanged", p)
	}
	if q <= 100 {
		t.Errorf("percentage with the 100 MB gone: %d; want above 100, the goal raised to the floor", q)
	}
}

// TestStop: after Stop the percentage is GOGC's 100 again and stays so
// through the collections that follow (the keeper's pending finalizer does
// nothing), 512 MB of garbage over 2 MB live takes as many collections as
// without a floor (TestKeepCollectsLessOften: 8 with it), and Keep can
// start a floor again. The helper runs under countByBytes.
func TestStop(t *testing.T) {
	var raised, after, later, n int
	var again bool
	if _, err := fmt.Sscanf(runHelper(t, "stop", countByBytes()), "%d %d %d %d %t", &raised, &after, &later, &n, &again); err != nil {
		t.Fatal(err)
	}
	t.Logf("percentage kept %d, after Stop %d, after 512 MB more %d; %d collections", raised, after, later, n)
	if raised <= 100 {
		t.Errorf("percentage while kept: %d; want above 100 (a 2 MB heap raised to the floor)", raised)
	}
	if after != 100 || later != 100 {
		t.Errorf("percentage after Stop: %d, then %d after more collections; want 100 both times", after, later)
	}
	if n < 32 {
		t.Errorf("%d collections for 512 MB of garbage after Stop; want at least 32 (GOGC=100 on a 2 MB heap: a goal of 4 MB)", n)
	}
	if !again {
		t.Error("Keep after Stop refused; want a new floor")
	}
}

// TestKeepYieldsToTheEnvironment: GOGC or GOMEMLIMIT in the environment
// wins, and a second Keep does nothing.
func TestKeepYieldsToTheEnvironment(t *testing.T) {
	if got := runHelper(t, "env", "GOGC=200"); got != "false" {
		t.Errorf("Keep with GOGC=200 set: %s; want false", got)
	}
	if got := runHelper(t, "env", "GOMEMLIMIT=1GiB"); got != "false" {
		t.Errorf("Keep with GOMEMLIMIT set: %s; want false", got)
	}
	if got := runHelper(t, "twice"); got != "true false" {
		t.Errorf("Keep twice: %s; want true false", got)
	}
}
