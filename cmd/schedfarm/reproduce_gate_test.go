package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/schedfarm/schedfarm/results"
	"github.com/schedfarm/schedfarm/runner"
)

// TestSpecGateOrder: with its one place taken, waiters of priorities 5, 1,
// 3 and 1 again get it in the order 1, 1 (arrival), 3, 5.
func TestSpecGateOrder(t *testing.T) {
	g := newSpecGate(1)
	g.acquire(0)
	var mu sync.Mutex
	var got []string
	var wg sync.WaitGroup
	for k, prio := range []int{5, 1, 3, 1} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			g.acquire(prio)
			mu.Lock()
			got = append(got, fmt.Sprintf("%d/%d", prio, k))
			mu.Unlock()
			g.release()
		}()
		// The next waiter comes once this one waits (progress, not time).
		for {
			g.mu.Lock()
			n := len(g.waiting)
			g.mu.Unlock()
			if n == k+1 {
				break
			}
			time.Sleep(time.Millisecond)
		}
	}
	g.release()
	wg.Wait()
	if want := "[1/1 1/3 3/2 5/0]"; fmt.Sprint(got) != want {
		t.Fatalf("places granted in the order %v, want %s", got, want)
	}
	if g.free != 1 {
		t.Fatalf("%d places free at the end, want 1", g.free)
	}
}

// Papers run side by side: a reproduce run of two papers, one spec each,
// where one cell of the first paper waits until a cell of the second paper
// has started. Run in turn, the first paper would never finish (the test's
// deadline); side by side both finish, with the cells and verdicts each
// paper has when reproduced alone.
func TestReproducePapersSideBySide(t *testing.T) {
	mini, err := os.ReadFile("testdata/reproduce/mini.yaml")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("a.yaml", string(mini))
	write("b.yaml", strings.NewReplacer("name: mini-repro", "name: mini-b", "output: mini-repro.parquet", "output: mini-b.parquet", "seed: 3", "seed: 5").Replace(string(mini)))
	claimsFile := func(paper, spec, exp string) string {
		return write(paper+".claims.yaml", "paper: \""+paper+"\"\nspecs:\n  - path: "+spec+`
    quick:
      - {set: replications, value: 3}
      - {set: workload.generator.jobs, value: 400}
      - {set: axes.workload.load, value: [0.9]}
claims:
  - {id: w, says: EASY waits less, why: backfilling, experiment: `+exp+`, metric: wait_mean, kind: diff, a: {scheduler: easy}, b: {scheduler: fcfs}, at: {workload.load: [0.9]}, expect: below}
`)
	}
	first, second := claimsFile("first", "a.yaml", "mini-repro"), claimsFile("second", "b.yaml", "mini-b")
	run := func(files ...string) (string, map[string]string) {
		out := t.TempDir()
		var stdout, stderr bytes.Buffer
		args := append([]string{"--quick", "-o", out, "--workers", "2", "--specs-at-once", "2"}, files...)
		if code := runReproduce(args, &stdout, &stderr); code != 0 {
			t.Fatalf("%v: exit %d\nstdout:\n%s\nstderr:\n%s", files, code, stdout.String(), stderr.String())
		}
		return reproducedVerdicts(t, out), reproducedCells(t, out, "mini-repro", "mini-b")
	}
	vA, cA := run(first)
	vB, cB := run(second)

	old := simulateCell
	defer func() { simulateCell = old }()
	secondStarted := make(chan struct{})
	var once, waitOne sync.Once
	expired := make(chan struct{})
	defer time.AfterFunc(2*time.Minute, func() { close(expired) }).Stop()
	simulateCell = func(ctx context.Context, c runner.Cell) (runner.CellResult, error) {
		switch c.Experiment {
		case "mini-b":
			once.Do(func() { close(secondStarted) })
		case "mini-repro":
			// One cell of the first paper waits (holding one of the two
			// cell slots, the other free for the second paper's cells).
			waits := false
			waitOne.Do(func() { waits = true })
			if waits {
				select {
				case <-secondStarted:
				case <-expired:
					return runner.CellResult{}, fmt.Errorf("no cell of the second paper started while the first paper's cell %s waited", c.ID)
				}
			}
		}
		return old(ctx, c)
	}
	vBoth, cBoth := run(first, second)
	if want := vA + vB; vBoth != want {
		t.Errorf("verdicts side by side:\n%s\nwant (each paper alone):\n%s", vBoth, want)
	}
	for k, v := range cB {
		cA[k] = v
	}
	if len(cA) == 0 || fmt.Sprint(cBoth) != fmt.Sprint(cA) {
		t.Errorf("cells side by side differ from each paper's alone:\nside by side: %v\nalone: %v", cBoth, cA)
	}
}

// reproducedCells returns the status and metrics of every cell in the
// outputs of the named specs in a reproduce output directory (a spec not
// run there has none), keyed by spec name and cell ID.
func reproducedCells(t *testing.T, out string, names ...string) map[string]string {
	t.Helper()
	cells := map[string]string{}
	for _, name := range names {
		recs, err := results.ReadFile(filepath.Join(out, name+".parquet"))
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			cells[name+" "+r.Cell.ID] = fmt.Sprint(r.Result.Status, r.Result.Metrics)
		}
	}
	return cells
}

// reproducedVerdicts returns a reproduce output directory's verdicts, a
// line per claim and reading: paper, claim, reading, verdict, replications.
func reproducedVerdicts(t *testing.T, out string) string {
	t.Helper()
	vs, err := readVerdicts(filepath.Join(out, verdictsFile))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, v := range vs {
		for _, c := range v.Claims {
			for _, r := range c.Readings {
				fmt.Fprintf(&b, "%s %s %s %s %d\n", v.Paper, c.ID, r.Reading, r.Verdict, r.MaxReps)
			}
		}
	}
	return b.String()
}
