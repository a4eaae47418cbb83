package experiments

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/runner"
)

// refCellID and refCellSeed are CellID and CellSeed as they were written
// before hashInput: json.Marshal of the array.
func refCellID(experiment string, baseSeed uint64, scheduler string, params []runner.Param, replication int) string {
	data, _ := json.Marshal([]any{idVersion, experiment, baseSeed, scheduler, replication, canonParams(params, nil)})
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:8])
}

func refCellSeed(experiment string, baseSeed uint64, params []runner.Param, replication int) uint64 {
	data, _ := json.Marshal([]any{seedVersion, experiment, baseSeed, replication, canonParams(params, notScheduler)})
	sum := sha256.Sum256(data)
	return binary.BigEndian.Uint64(sum[:8])
}

// TestHashInputIsMarshals checks, on random cells, that hashInput writes
// json.Marshal's bytes whenever it answers, and that CellID and CellSeed
// are what they were: strings plain or not, parameters sorted or not (a
// name twice included), scheduler parameters, values of every kind (NaN,
// ±Inf, integral floats, a value of no kind).
func TestHashInputIsMarshals(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	strs := []string{"quickstart", "seed004-fig10", "", "x<y", "a&b", `q"`, "é", "\x7f", "../t.swf", "lublin99"}
	names := []string{"platform.procs", "scheduler.k", "scheduler.sf", "workload.load", "workload.generator.model", "a&b", "é"}
	pick := func(s []string) string { return s[r.IntN(len(s))] }
	fast := 0
	for range 50000 {
		var ps []runner.Param
		for range r.IntN(6) {
			var v any
			switch r.IntN(6) {
			case 0:
				v = int64(r.Uint64()) >> r.IntN(64)
			case 1:
				v = r.NormFloat64() * math.Pow(10, float64(r.IntN(40)-20))
			case 2:
				v = []float64{0, math.Copysign(0, -1), 2, 1 << 53, 1e21, math.NaN(), math.Inf(1), 0.57}[r.IntN(8)]
			case 3:
				v = pick(strs)
			case 4:
				v = r.IntN(2) == 0
			case 5:
				v = 3 // an int: of no kind
			}
			ps = append(ps, runner.Param{Name: pick(names), Value: v})
		}
		if r.IntN(4) > 0 {
			slices.SortStableFunc(ps, func(a, b runner.Param) int { return strings.Compare(a.Name, b.Name) })
		}
		exp, sched := pick(strs), pick(strs)
		seed, rep := r.Uint64()>>r.IntN(64), r.IntN(1000)-1
		for _, withSched := range []bool{true, false} {
			var got, want []byte
			var ok bool
			if withSched {
				got, ok = hashInput(nil, idVersion, exp, seed, &sched, rep, ps, nil)
				want, _ = json.Marshal([]any{idVersion, exp, seed, sched, rep, canonParams(ps, nil)})
			} else {
				got, ok = hashInput(nil, seedVersion, exp, seed, nil, rep, ps, notScheduler)
				want, _ = json.Marshal([]any{seedVersion, exp, seed, rep, canonParams(ps, notScheduler)})
			}
			if ok {
				fast++
				if string(got) != string(want) {
					t.Fatalf("hashInput(%q, %q, %d, %v, %v) = %s; json.Marshal writes %s", exp, sched, rep, withSched, ps, got, want)
				}
			}
		}
		if got, want := CellID(exp, seed, sched, ps, rep), refCellID(exp, seed, sched, ps, rep); got != want {
			t.Fatalf("CellID(%q, %q, %v) = %s; was %s", exp, sched, ps, got, want)
		}
		if got, want := CellSeed(exp, seed, ps, rep), refCellSeed(exp, seed, ps, rep); got != want {
			t.Fatalf("CellSeed(%q, %v) = %d; was %d", exp, ps, got, want)
		}
	}
	if fast < 10000 {
		t.Fatalf("only %d of 100,000 arrays took the fast path", fast)
	}
}
