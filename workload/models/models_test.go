package models

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/workload"
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
	if got := Names(); !slices.Equal(got, []string{"fwload", "jwload", "lublin99", "seed004"}) {
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
