package jsonappend

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"testing"
)

func marshal(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestStringIsMarshals checks every one- and two-byte string and a set of
// longer ones: a plain string is written as json.Marshal writes it, any
// other is refused with dst unchanged.
func TestStringIsMarshals(t *testing.T) {
	check := func(s string) {
		got, ok := String([]byte("x"), s)
		want := marshal(t, s)
		switch {
		case ok && string(got) != "x"+want:
			t.Fatalf("String(%q) = %s; json.Marshal writes %s", s, got[1:], want)
		case !ok && string(got) != "x":
			t.Fatalf("String(%q) refused but changed dst to %q", s, got)
		case !ok && want == `"`+s+`"` && isASCII(s):
			t.Fatalf("String(%q) refused an ASCII string json.Marshal writes as itself", s)
		}
	}
	for a := range 256 {
		check(string([]byte{byte(a)}))
		for b := range 256 {
			check(string([]byte{byte(a), byte(b)}))
		}
	}
	for _, s := range []string{"", "workload.load", "lublin99", "a<b", "x&y", "é", "\u2028", "tab\there", `q"`, `back\slash`, "../traces/KTH-SP2.swf"} {
		check(s)
	}
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// TestFloatIsMarshals compares Float with json.Marshal on the format's
// edges and on random values of every magnitude.
func TestFloatIsMarshals(t *testing.T) {
	check := func(f float64) {
		got, ok := Float([]byte("x"), f)
		if math.IsNaN(f) || math.IsInf(f, 0) {
			if ok || string(got) != "x" {
				t.Fatalf("Float(%v) = %q, %v; want dst unchanged, false", f, got, ok)
			}
			return
		}
		if want := marshal(t, f); !ok || string(got[1:]) != want {
			t.Fatalf("Float(%v) = %q, %v; json.Marshal writes %s", f, got[1:], ok, want)
		}
	}
	for _, f := range []float64{0, math.Copysign(0, -1), 1, -1, 0.5, 0.57, 1e-6, 9.999999999999999e-7, 1e-7, 1.5e-7, 1e21, 9.999999999999998e20,
		1e22, 1e100, 1e-100, 5e-324, math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64, 123456789, 1.0 / 3, math.NaN(), math.Inf(1), math.Inf(-1)} {
		check(f)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 200000 {
		check(math.Float64frombits(r.Uint64()))
		check(r.NormFloat64() * math.Pow(10, float64(r.IntN(60)-30)))
	}
}

// TestIntsAndBoolsAreMarshals compares Int, Uint and Bool with json.Marshal.
func TestIntsAndBoolsAreMarshals(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, i := range []int64{0, 1, -1, math.MaxInt64, math.MinInt64} {
		if got, want := string(Int(nil, i)), marshal(t, i); got != want {
			t.Fatalf("Int(%d) = %s; want %s", i, got, want)
		}
	}
	for range 10000 {
		i := int64(r.Uint64())
		if got, want := string(Int(nil, i)), marshal(t, i); got != want {
			t.Fatalf("Int(%d) = %s; want %s", i, got, want)
		}
		u := r.Uint64()
		if got, want := string(Uint(nil, u)), marshal(t, u); got != want {
			t.Fatalf("Uint(%d) = %s; want %s", u, got, want)
		}
	}
	for _, b := range []bool{true, false} {
		if got, want := string(Bool(nil, b)), marshal(t, b); got != want {
			t.Fatalf("Bool(%v) = %s; want %s", b, got, want)
		}
	}
}
