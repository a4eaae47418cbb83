package models

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/workload"
	"github.com/schedfarm/schedfarm/workload/tsafrir05"
)

func rng(s uint64) *rand.Rand { return rand.New(rand.NewPCG(s, s+1)) }

// swfNames lists the models whose output is SWF.
func swfNames() []string {
	var out []string
	for _, n := range Names() {
		if o, _ := OutputOf(n); o == SWF {
			out = append(out, n)
		}
	}
	return out
}

func TestNamesAndDocs(t *testing.T) {
	if got := Names(); !slices.Equal(got, []string{"fwload", "jwload", "lublin99"}) {
		t.Errorf("Names() = %v", got)
	}
	for _, n := range Names() {
		out, _ := OutputOf(n)
		if Summary(n) == "" || (out == SWF) != strings.Contains(Describe(n), "max_estimate") {
			t.Errorf("%s: missing summary or docs", n)
		}
		for _, s := range Specs(n) {
			if s.Doc == "" {
				t.Errorf("%s.%s undocumented", n, s.Name)
			}
		}
	}
}

func TestBadParamsListed(t *testing.T) {
	_, _, err := New("lublin99", map[string]any{
		"jobs": 0, "procs": 2.5, "typed": "maybe", "estimates": "x", "bogus": 1, "max_estimate": 100,
	}, rng(1))
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{"jobs", "procs", "typed", "estimates", "bogus", "max_estimate", "[1, 1000000000]", "one of none, tsafrir05", "0 or int in [5701"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error does not mention %q:\n%v", want, err)
		}
	}
	if _, _, err := New("nope", nil, rng(1)); err == nil || !strings.Contains(err.Error(), "lublin99") {
		t.Errorf("unknown model: %v", err)
	}
}

func TestNumberKinds(t *testing.T) {
	for _, jobs := range []any{int(500), int64(500), float64(500), "500"} {
		src, info, err := New("lublin99", map[string]any{"jobs": jobs, "procs": int64(64), "arrival_scale": 2}, rng(2))
		if err != nil {
			t.Fatalf("jobs %T: %v", jobs, err)
		}
		all, err := workload.ReadAll(src)
		if err != nil || len(all) != 500 || info.Jobs != 500 || info.Procs != 64 {
			t.Fatalf("jobs %T: %d jobs, info %+v, %v", jobs, len(all), info, err)
		}
	}
}

// Same seed → identical output; estimates ≥ runtimes; measured load exact.
func TestGenerateAll(t *testing.T) {
	for _, name := range swfNames() {
		params := map[string]any{"jobs": 5000, "estimates": "tsafrir05", "load": 0.6, "load_method": "measured"}
		a, ia, err := New(name, params, rng(3))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		b, _, _ := New(name, params, rng(3))
		ja, _ := workload.ReadAll(a)
		jb, _ := workload.ReadAll(b)
		if len(ja) != 5000 || !slices.Equal(ja, jb) {
			t.Fatalf("%s: %d jobs, identical %v", name, len(ja), slices.Equal(ja, jb))
		}
		var m workload.LoadMeter
		for i := range ja {
			if ja[i].ReqTime < ja[i].RunTime || ja[i].ReqTime > float64(ia.MaxEstimate) {
				t.Fatalf("%s job %d: estimate %g runtime %g", name, i+1, ja[i].ReqTime, ja[i].RunTime)
			}
			m.Add(&ja[i])
		}
		if l := m.Load(ia.Procs); math.Abs(l-0.6) > 1e-6 || math.Abs(ia.AchievedLoad-0.6) > 1e-6 {
			t.Errorf("%s: measured load %g, info %g", name, l, ia.AchievedLoad)
		}
		h := ia.Header()
		if !slices.ContainsFunc(h, func(e HeaderEntry) bool { return e.Keyword == "MaxProcs" }) || len(ia.Params) != len(Specs(name)) {
			t.Errorf("%s: header %v", name, h)
		}
	}
}

// Model-native load targeting (analytic): achieved within sampling error.
func TestModelLoad(t *testing.T) {
	for _, name := range swfNames() {
		_, info, err := New(name, map[string]any{"jobs": 20000, "procs": 256, "load": 0.5}, rng(4))
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(info.AchievedLoad-0.5) > 0.1 {
			t.Errorf("%s: achieved %.3f for target 0.5", name, info.AchievedLoad)
		} else {
			t.Logf("%s: achieved %.3f for target 0.5 (analytic rate)", name, info.AchievedLoad)
		}
	}
}

// bit_exact reproduces the C program's first job (spec §3.9, seed 1).
func TestBitExactThroughRegistry(t *testing.T) {
	src, _, err := New("lublin99", map[string]any{"jobs": 3, "bit_exact": true, "legacy_clock": true, "legacy_seed": 1}, rng(9))
	if err != nil {
		t.Fatal(err)
	}
	j, _ := src.Next()
	if j.Submit != 273 || j.RunTime != 8 || j.AllocProcs != 8 {
		t.Errorf("first job %+v", j)
	}
}

// est_bins: user-supplied Tsafrir bins reach the histogram with exactly
// int(N·percent/100) jobs and are recorded in the header.
func TestEstBins(t *testing.T) {
	params := map[string]any{"jobs": 2000, "estimates": "tsafrir05", "max_estimate": 36000, "est_bins": "3600=30,14400=10"}
	src, info, err := New("lublin99", params, rng(5))
	if err != nil {
		t.Fatal(err)
	}
	jobs, err := workload.ReadAll(src)
	if err != nil {
		t.Fatal(err)
	}
	count := map[float64]int{}
	for _, j := range jobs {
		if j.ReqTime < j.RunTime {
			t.Fatalf("job %d: estimate %g < runtime %g", j.ID, j.ReqTime, j.RunTime)
		}
		count[j.ReqTime]++
	}
	if count[3600] != 600 || count[14400] != 200 {
		t.Errorf("3600 s × %d jobs (want 600), 14400 s × %d (want 200)", count[3600], count[14400])
	}
	if !slices.Equal(info.UserBins, []tsafrir05.UserBin{{Time: 3600, Jobs: 600}, {Time: 14400, Jobs: 200}}) {
		t.Errorf("info.UserBins = %v", info.UserBins)
	}
	note := ""
	for _, e := range info.Header() {
		if strings.HasPrefix(e.Value, "Requested time") {
			note = e.Value
		}
	}
	if !strings.Contains(note, "Tmax 36000 s") || !strings.HasSuffix(note, "; user bins (est_bins): 3600 s × 600 jobs, 14400 s × 200 jobs") {
		t.Errorf("estimates note %q", note)
	}
	if err := Check("lublin99", params); err != nil {
		t.Errorf("Check: %v", err)
	}

	// Automatic Tmax reaches the largest user time (rounded up to hours).
	_, info, err = New("lublin99", map[string]any{"jobs": 1000, "estimates": "tsafrir05", "est_bins": "200000=5"}, rng(6))
	if err != nil {
		t.Fatal(err)
	}
	if info.MaxEstimate < 201600 || info.UserBins[0] != (tsafrir05.UserBin{Time: 200000, Jobs: 50}) {
		t.Errorf("auto Tmax %d, user bins %v", info.MaxEstimate, info.UserBins)
	}

	// Without est_bins nothing changes in the header.
	_, info, _ = New("lublin99", map[string]any{"jobs": 1000, "estimates": "tsafrir05"}, rng(6))
	if info.UserBins != nil {
		t.Errorf("user bins %v without est_bins", info.UserBins)
	}
}

func TestEstBinsErrors(t *testing.T) {
	for _, c := range []struct {
		params map[string]any
		wants  []string
	}{
		{map[string]any{"est_bins": "3600=30"},
			[]string{`lublin99: parameter est_bins = "3600=30" needs estimates tsafrir05 (estimates is none)`}},
		{map[string]any{"estimates": "tsafrir05", "est_bins": "3600=abc,0=5,3600=2"},
			[]string{`lublin99: parameter est_bins = "3600=abc,0=5,3600=2": bin 1 "3600=abc": percent "abc": want a number in (0, 100]; bin 2 "0=5": time "0"`, `accepted: "" or sec=percent[,sec=percent…]`}},
		{map[string]any{"estimates": "tsafrir05", "est_bins": "3600=70,7200=40"},
			[]string{`percents sum to 110; want at most 100`}},
		{map[string]any{"estimates": "tsafrir05", "max_estimate": 36000, "est_bins": "40000=10,3600=0.01"},
			[]string{`parameter est_bins bin 40000=10: time 40000 s exceeds max_estimate = 36000 s`, `parameter est_bins bin 3600=0.01 gives int(jobs·percent/100) = 0 jobs of jobs = 1000; want percent ≥ 0.1`}},
		{map[string]any{"estimates": "tsafrir05", "jobs": 100},
			[]string{`lublin99: parameter jobs = 100: tsafrir05 estimates need more than 226 jobs`}},
	} {
		_, _, err := New("lublin99", c.params, rng(1))
		cerr := Check("lublin99", c.params)
		for _, e := range []error{err, cerr} {
			if e == nil {
				t.Errorf("%v: no error", c.params)
				continue
			}
			for _, w := range c.wants {
				if !strings.Contains(e.Error(), w) {
					t.Errorf("%v: error\n%v\nlacks\n%s", c.params, e, w)
				}
			}
		}
	}
	var pe *ParamError
	if err := Check("lublin99", map[string]any{"est_bins": "3600=30"}); !errors.As(err, &pe) || pe.Param != "est_bins" {
		t.Errorf("want a *ParamError for est_bins, got %v", err)
	}
}

// TestSourceSaysItsLength: every model's source tells how many jobs it has
// left (Len), exactly, before each job and at the end, so that a reader
// allocates the records once (runner.readRecords); with and without
// estimates and load targeting, the wrappers of New included.
func TestSourceSaysItsLength(t *testing.T) {
	for _, name := range swfNames() {
		for _, params := range []map[string]any{
			{"jobs": 700},
			{"jobs": 700, "estimates": "tsafrir05", "load": 0.6, "load_method": "measured"},
		} {
			src, info, err := New(name, params, rng(5))
			if err != nil {
				t.Fatalf("%s %v: %v", name, params, err)
			}
			n, ok := src.(interface{ Len() int })
			if !ok {
				t.Fatalf("%s %v: the source (%T) does not tell its length", name, params, src)
			}
			got := 0
			for {
				if left := n.Len(); left != info.Jobs-got {
					t.Fatalf("%s %v: Len %d after %d of %d jobs", name, params, left, got, info.Jobs)
				}
				if _, err := src.Next(); err != nil {
					break
				}
				got++
			}
			if got != 700 || info.Jobs != 700 {
				t.Fatalf("%s %v: %d jobs read, info says %d, want 700", name, params, got, info.Jobs)
			}
		}
	}
}
