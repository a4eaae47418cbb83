package swf

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// TestAppendIntIsStrconv compares appendInt with strconv.AppendInt at every
// length boundary, on both sides of each, and on random values.
func TestAppendIntIsStrconv(t *testing.T) {
	vals := []int64{0, 1, -1, -2, 9, 10, 11, 99, 100, 101, math.MaxInt64, math.MinInt64, math.MinInt64 + 1}
	for p := int64(10); p > 0 && p <= math.MaxInt64/10; p *= 10 {
		vals = append(vals, p-1, p, p+1, -p, 2*p-1)
	}
	rng := rand.New(rand.NewPCG(3, 5))
	for range 100000 {
		vals = append(vals, rng.Int64()>>rng.IntN(63), -rng.Int64N(1000))
	}
	for _, v := range vals {
		prefix := []byte("x ")
		got := string(appendInt(prefix, v))
		if want := "x " + strconv.FormatInt(v, 10); got != want {
			t.Fatalf("appendInt(%d) = %q, want %q", v, got, want)
		}
	}
}

// FuzzAppendInt: appendInt agrees with strconv.AppendInt.
func FuzzAppendInt(f *testing.F) {
	f.Add(int64(0))
	f.Add(int64(-1))
	f.Add(int64(math.MaxInt64))
	f.Fuzz(func(t *testing.T, v int64) {
		if got, want := string(appendInt(nil, v)), strconv.FormatInt(v, 10); got != want {
			t.Fatalf("appendInt(%d) = %q, want %q", v, got, want)
		}
	})
}
