package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/schedfarm/schedfarm/broker"
	"github.com/schedfarm/schedfarm/results"
	"github.com/schedfarm/schedfarm/runner"
)

// The chaos soak: a sweep of many small cells over real processes (`schedfarm
// broker` with a file store, `schedfarm coordinator`, several `schedfarm
// worker`s, all the test build of the binary) while a driver kill -9s one of
// them after a random (seeded) number of cell runs and starts it again: the
// kills follow the sweep's progress, not a clock, so a busy machine gets as
// many kills per cell as an idle one. The first kills are one of each kind,
// and the sweep cannot end before them, however fast the machine: the
// grid's last cell waits at a gate (SCHEDFARM_FAULT_GATE) that the driver
// opens once every kind has been killed, and while the gate is shut a
// driver that finds that cell waiting there (the sweep has run out of other
// cells to start, or is about to) kills at once instead of waiting for more
// runs. (A sweep of 3,000 cells once ended in 2.3 s on a fast VM, after one
// kill: the kills' pauses and the restarts let it run ahead.) At the end every
// cell must be in the output exactly once (and in the journal exactly once),
// every one ok. It runs only with SCHEDFARM_CHAOS=1; the knobs:
//
//	SCHEDFARM_CHAOS_CELLS    cells in the sweep (default 2000; the README's run: 10000)
//	SCHEDFARM_CHAOS_WORKERS  worker processes alive at a time (default 3)
//	SCHEDFARM_CHAOS_EVERY    mean number of cell runs between two kills (default 50)
//	SCHEDFARM_CHAOS_SEED     seed of the driver's choices (default 1)
//	SCHEDFARM_CHAOS_KINDS    what the driver kills, comma-separated (default worker,coordinator,broker)
//	SCHEDFARM_CHAOS_PARCEL   the coordinator's --parcel (default 16: the cells, a few hundred µs each,
//	                         travel in parcels once their point is found instant; 1 for a cell a message)
//	SCHEDFARM_CHAOS_REPORT   file to write the figures to (JSON), besides the test log
//
// Where the redelivery figures come from: re-runs are the runs of a cell
// beyond its first, from the run log the test build appends to before
// every run (SCHEDFARM_FAULT_RUNLOG): JetStream redeliveries of cells whose
// worker died mid-cell or lost its ack to a broker restart, and cells a
// restarted coordinator published again. Results redelivered are the
// coordinators' "dropping a duplicate result" log lines: results that a
// killed coordinator had journalled but not yet acked, redelivered by
// JetStream to its successor, which found them in the journal and dropped
// them (plus results of re-runs). JetStream redeliveries are the workers'
// "redelivered (delivery N)" log lines: deliveries whose message metadata
// counts more than one (a count a broker killed before writing its
// consumer state forgets, and which republished cells restart at one).

// chaosReport is what the soak measured.
type chaosReport struct {
	Cells          int            `json:"cells"`
	Workers        int            `json:"workers"`
	Seed           uint64         `json:"seed"`
	MeanKillEvery  int            `json:"mean_runs_between_kills"`
	Kills          map[string]int `json:"kills"`
	CoordExits     int            `json:"coordinator_error_exits"`
	Runs           int            `json:"cell_runs"`
	ReRuns         int            `json:"re_runs"`
	DupsDropped    int            `json:"results_redelivered_dropped"`
	JSRedelivered  int            `json:"jetstream_redeliveries"`
	Lost           int            `json:"lost"`
	Duplicated     int            `json:"duplicated"`
	Failed         int            `json:"failed"`
	WallSeconds    float64        `json:"wall_seconds"`
	Machine        string         `json:"machine"`
	BrokerRestarts int            `json:"broker_restarts"`
	// KillsAtGate counts the first kills made at once because the grid's
	// last cell was already waiting at the gate, not after a drawn number of
	// runs: a sweep that would have ended before them on its own.
	KillsAtGate int `json:"kills_at_gate"`
	// Parcels counts the parcels published (--parcel), as a plain NATS
	// subscription beside the stream saw them: a lower bound, since it
	// misses those published while it reconnects after a broker restart.
	Parcels int64 `json:"parcels_seen"`
}

func chaosEnvInt(t *testing.T, name string, def int) int {
	t.Helper()
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		t.Fatalf("%s %q: want a positive integer", name, v)
	}
	return n
}

// chaosSpec is a sweep of tiny cells: a 40-job trace on 8 processors, two
// schedulers, 50 loads, and as many replications as make the cell count.
func chaosSpec(reps int) string {
	var loads []string
	for i := range 50 {
		loads = append(loads, strconv.FormatFloat(0.5+0.01*float64(i), 'f', 2, 64))
	}
	return fmt.Sprintf(`name: chaos
platform:
  procs: 8
workload:
  trace: trace.swf
schedulers: [fcfs, easy]
axes:
  - param: workload.load
    values: [%s]
replications: %d
seed: 11
output: out.parquet
`, strings.Join(loads, ", "), reps)
}

func writeChaosTrace(t *testing.T, path string) {
	t.Helper()
	var b strings.Builder
	b.WriteString("; Version: 2.2\n; MaxProcs: 8\n")
	for i := 1; i <= 40; i++ {
		run, procs := 30+(i*37)%200, 1+(i*5)%8
		fmt.Fprintf(&b, "%d %d -1 %d %d -1 -1 %d %d -1 1 1 1 1 1 -1 -1 -1\n", i, i*20, run, procs, procs, run*2)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func TestChaosSoak(t *testing.T) {
	if os.Getenv("SCHEDFARM_CHAOS") != "1" {
		t.Skip("the chaos soak runs with SCHEDFARM_CHAOS=1 (size: SCHEDFARM_CHAOS_CELLS)")
	}
	f := newFarmFixture(t, false)
	wantCells := chaosEnvInt(t, "SCHEDFARM_CHAOS_CELLS", 2000)
	nWorkers := chaosEnvInt(t, "SCHEDFARM_CHAOS_WORKERS", 3)
	seed := uint64(chaosEnvInt(t, "SCHEDFARM_CHAOS_SEED", 1))
	every := chaosEnvInt(t, "SCHEDFARM_CHAOS_EVERY", 50)
	parcel := chaosEnvInt(t, "SCHEDFARM_CHAOS_PARCEL", 16)
	reps := (wantCells + 99) / 100 // 2 schedulers × 50 loads per replication
	writeChaosTrace(t, filepath.Join(f.dir, "trace.swf"))
	specPath := f.writeSpec(t, "chaos.yaml", chaosSpec(reps))
	spec, err := farmLoadSpec(specPath)
	if err != nil {
		t.Fatal(err)
	}
	cells := spec.Cells()
	runLog := filepath.Join(f.dir, "runs.log")
	// The gate holding the grid's last cell until every kind has been killed,
	// and the directory where a worker marks that it waits there.
	gate, gateMarks := filepath.Join(f.dir, "chaos-gate"), filepath.Join(f.dir, "chaos-gate-marks")
	if err := os.Mkdir(gateMarks, 0o755); err != nil {
		t.Fatal(err)
	}
	lastCell := 0
	for _, c := range cells {
		lastCell = max(lastCell, c.Index)
	}
	gateHeld := func() bool {
		m, _ := filepath.Glob(filepath.Join(gateMarks, "gated-*"))
		return len(m) > 0
	}
	url := fmt.Sprintf("nats://127.0.0.1:%d", freePort(t))
	store := filepath.Join(f.dir, "broker-store")
	rng := rand.New(rand.NewPCG(seed, 0x6368616f73)) // "chaos"
	rep := chaosReport{Cells: len(cells), Workers: nWorkers, Seed: seed, MeanKillEvery: every, Kills: map[string]int{},
		Machine: fmt.Sprintf("%s/%s, %d CPUs", runtime.GOOS, runtime.GOARCH, runtime.NumCPU())}
	t.Logf("chaos soak: %d cells, %d workers, a kill every %d cell runs on average, seed %d", len(cells), nWorkers, every, seed)
	// runs is the number of cell runs so far: lines of the run log, each a
	// 16-hex-digit cell id and a newline.
	runsSoFar := func() int64 {
		st, err := os.Stat(runLog)
		if err != nil {
			return 0
		}
		return st.Size() / 17
	}

	startBroker := func() *farmProc {
		p := f.start(t, nil, "broker", "--listen", strings.TrimPrefix(url, "nats://"), "--store", store)
		poll(t, time.Minute, "the broker to listen", func() bool {
			c, err := net.DialTimeout("tcp", strings.TrimPrefix(url, "nats://"), 100*time.Millisecond)
			if err == nil {
				c.Close()
			}
			return err == nil
		})
		return p
	}
	startCoord := func() *farmProc {
		return f.start(t, nil, "coordinator", "--nats", url, "--ack-wait", "2s", "--max-deliver", "1000", "--progress-every", "5s",
			"--parcel", strconv.Itoa(parcel), specPath)
	}
	incarnation := 0
	startWorker := func() *farmProc {
		incarnation++
		env := []string{"SCHEDFARM_FAULT_RUNLOG=" + runLog, "SCHEDFARM_FAULT_GATE=" + gate,
			"SCHEDFARM_FAULT_GATE_FROM=" + strconv.Itoa(lastCell), "SCHEDFARM_FAULT_GATE_MARK=" + gateMarks}
		return f.start(t, env, "worker", "--nats", url, "--slots", "1", "--id", fmt.Sprintf("w%d", incarnation), "-q")
	}
	var coordOuts []*farmProc
	brokerProc := startBroker()
	var parcels atomic.Int64
	if parcel > 1 {
		watch, err := nats.Connect(url, nats.MaxReconnects(-1), nats.ReconnectWait(100*time.Millisecond))
		if err != nil {
			t.Fatal(err)
		}
		defer watch.Close()
		one := broker.CellSubject(spec.Name, "x")
		if _, err := watch.Subscribe(one[:len(one)-1]+"*.parcel", func(*nats.Msg) { parcels.Add(1) }); err != nil {
			t.Fatal(err)
		}
	}
	coord := startCoord()
	coordOuts = append(coordOuts, coord)
	var allWorkers []*farmProc // every incarnation, for their logs
	startWorker0 := startWorker
	startWorker = func() *farmProc {
		p := startWorker0()
		allWorkers = append(allWorkers, p)
		return p
	}
	workers := make([]*farmProc, nWorkers)
	for i := range workers {
		workers[i] = startWorker()
	}
	kill := func(p *farmProc) {
		_ = p.cmd.Process.Signal(syscall.SIGKILL)
		<-p.done
	}
	// The first kills are one of each kind, in random order, so that even a
	// short soak survives each (the gate above holds its end until then);
	// then kinds are drawn 3:1:1 (worker, coordinator, broker) among those
	// enabled.
	enabled := map[string]bool{"worker": true, "coordinator": true, "broker": true}
	if v := os.Getenv("SCHEDFARM_CHAOS_KINDS"); v != "" {
		enabled = map[string]bool{}
		for _, k := range strings.Split(v, ",") {
			switch k = strings.TrimSpace(k); k {
			case "worker", "coordinator", "broker":
				enabled[k] = true
			default:
				t.Fatalf("SCHEDFARM_CHAOS_KINDS: %q; want worker, coordinator or broker", k)
			}
		}
	}
	var kinds, draw []string
	for _, k := range []string{"worker", "coordinator", "broker"} {
		if enabled[k] {
			kinds = append(kinds, k)
		}
	}
	for _, k := range []string{"worker", "worker", "worker", "coordinator", "broker"} {
		if enabled[k] {
			draw = append(draw, k)
		}
	}
	rng.Shuffle(len(kinds), func(i, j int) { kinds[i], kinds[j] = kinds[j], kinds[i] })
	start := time.Now()
	deadline := start.Add(30 * time.Minute)
	// firstKill is the kind of the next of the first kills, "" once each
	// kind has been killed (counted by kills, not by turns of the loop: a
	// turn that restarts a coordinator that exited kills nothing).
	firstKill := func() string {
		for _, k := range kinds {
			if rep.Kills[k] == 0 {
				return k
			}
		}
		return ""
	}
	for {
		target := runsSoFar() + 1 + int64(rng.ExpFloat64()*float64(every))
		for runsSoFar() < target && !(firstKill() != "" && gateHeld()) && !exited(coord) && time.Now().Before(deadline) {
			select {
			case <-coord.done:
			case <-time.After(10 * time.Millisecond): // polls the run log
			}
		}
		if exited(coord) {
			if coord.cmd.ProcessState.ExitCode() == 0 {
				break
			}
			// An error exit (e.g. the broker gone longer than it waits):
			// what a supervisor would do, start it again.
			rep.CoordExits++
			coord = startCoord()
			coordOuts = append(coordOuts, coord)
			continue
		}
		if time.Now().After(deadline) {
			t.Fatalf("the sweep did not finish within %v", deadline.Sub(start))
		}
		kind := firstKill()
		first := kind != ""
		if first && runsSoFar() < target {
			rep.KillsAtGate++
		}
		if !first {
			kind = draw[rng.IntN(len(draw))]
		}
		pause := time.Duration(rng.IntN(500)) * time.Millisecond
		switch kind {
		case "worker":
			i := rng.IntN(len(workers))
			kill(workers[i])
			time.Sleep(pause)
			workers[i] = startWorker()
		case "coordinator":
			kill(coord)
			time.Sleep(pause)
			coord = startCoord()
			coordOuts = append(coordOuts, coord)
		case "broker":
			kill(brokerProc)
			time.Sleep(pause)
			brokerProc = startBroker()
			rep.BrokerRestarts++
		}
		rep.Kills[kind]++
		if first && firstKill() == "" { // the last of the first kills opens the gate
			if err := os.WriteFile(gate, nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	rep.WallSeconds = time.Since(start).Seconds()
	for _, w := range workers {
		_ = w.cmd.Process.Signal(syscall.SIGTERM)
	}

	// Every cell exactly once in the output, all ok.
	recs, err := results.ReadFile(filepath.Join(f.dir, "out.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{}
	for _, c := range cells {
		want[c.ID] = true
	}
	seen := map[string]int{}
	for _, r := range recs {
		seen[r.Cell.ID]++
		if !want[r.Cell.ID] {
			t.Errorf("output has cell %s, which is not in the spec", r.Cell.ID)
		}
		if r.Result.Status != runner.StatusOK {
			rep.Failed++
			if rep.Failed <= 5 {
				t.Errorf("cell %s failed: %s", r.Cell.ID, r.Result.Error)
			}
		}
	}
	for id := range want {
		switch n := seen[id]; {
		case n == 0:
			rep.Lost++
		case n > 1:
			rep.Duplicated++
		}
	}
	// And exactly once in the journal: no result was written twice.
	journalIDs := map[string]int{}
	jf, err := os.Open(results.JournalPath(filepath.Join(f.dir, "out.parquet")))
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(jf)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var rec results.Record
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatalf("journal line: %v", err)
		}
		journalIDs[rec.Cell.ID]++
	}
	jf.Close()
	journalDups := 0
	for _, n := range journalIDs {
		if n > 1 {
			journalDups++
		}
	}
	// Runs per cell from the run log.
	data, err := os.ReadFile(runLog)
	if err != nil {
		t.Fatal(err)
	}
	runs := map[string]int{}
	for _, id := range bytes.Fields(data) {
		runs[string(id)]++
		rep.Runs++
	}
	rep.ReRuns = rep.Runs - len(runs)
	dup := regexp.MustCompile(`dropping a duplicate result`)
	for _, c := range coordOuts {
		rep.DupsDropped += len(dup.FindAllStringIndex(c.out.String(), -1))
	}
	redelivered := regexp.MustCompile(`redelivered \(delivery \d+\)`)
	for _, w := range allWorkers {
		rep.JSRedelivered += len(redelivered.FindAllStringIndex(w.out.String(), -1))
	}
	rep.Parcels = parcels.Load()
	out, _ := json.MarshalIndent(rep, "", "  ")
	t.Logf("chaos soak figures:\n%s", out)
	if p := os.Getenv("SCHEDFARM_CHAOS_REPORT"); p != "" {
		if err := os.WriteFile(p, out, 0o644); err != nil {
			t.Error(err)
		}
	}
	if rep.Lost != 0 || rep.Duplicated != 0 || len(recs) != len(cells) {
		t.Errorf("%d rows for %d cells: %d lost, %d duplicated; want every cell exactly once", len(recs), len(cells), rep.Lost, rep.Duplicated)
	}
	if journalDups != 0 || len(journalIDs) != len(cells) {
		t.Errorf("journal: %d cells, %d of them more than once; want %d, each once", len(journalIDs), journalDups, len(cells))
	}
	if parcel > 1 && rep.Parcels == 0 {
		t.Errorf("no parcel seen with --parcel %d: the soak did not exercise parcels", parcel)
	}
	for _, k := range kinds {
		if rep.Kills[k] == 0 {
			t.Errorf("no %s was killed: the sweep ended before the driver got to it", k)
		}
	}
	if len(runs) != len(cells) {
		t.Errorf("%d cells in the run log; want %d", len(runs), len(cells))
	}
}

// exited reports whether the process has exited.
func exited(p *farmProc) bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}
