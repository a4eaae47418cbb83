package lublin99

import (
	"fmt"
	"io"
	"testing"
)

// goldenLine formats the fields the spec's golden vectors show.
func goldenRun(t *testing.T, seed int64, typed bool, n int) []string {
	t.Helper()
	p := Default()
	p.Jobs = n
	p.Typed = typed
	p.LegacyClock = true
	p.BitExact = true
	g, err := New(p, NewLegacyRand(seed))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for {
		j, err := g.Next()
		if err == io.EOF {
			return out
		}
		out = append(out, fmt.Sprintf("%d %d %d %d %d", j.ID, int64(j.Submit), int64(j.RunTime), j.AllocProcs, j.Queue))
	}
}

// TestGolden reproduces spec §3.9 (original C, srand48(seed), legacy clock).
func TestGolden(t *testing.T) {
	cases := []struct {
		seed  int64
		typed bool
		want  []string
	}{
		{1, true, []string{
			"1 273 8 8 0", "2 1579 5 8 0", "3 1601 7 4 0", "4 1729 2 6 0", "5 1785 61 8 0",
			"6 1809 13 4 0", "7 1840 12 4 0", "8 1967 82 4 0", "9 1999 34 4 0", "10 2034 59 1 0",
			"11 2051 96 1 0", "12 2187 43 37 0", "13 2258 12 1 0", "14 6368 7 4 0", "15 6599 4 8 0",
			"16 6781 56 4 0", "17 7026 374 4 0", "18 8644 116 3 0", "19 9327 99 8 0", "20 9359 23 1 0",
		}},
		{42, true, []string{
			"1 124 21 1 0", "2 252 28 1 0", "3 398 5 1 0", "4 558 8 32 0", "5 685 16 8 0",
			"6 855 652 8 1", "7 869 5 38 0", "8 1129 124 32 0", "9 1306 278 8 1", "10 1423 3670 1 1",
		}},
		{1, false, []string{
			"1 5362 6 4 0", "2 6406 18 8 0", "3 6556 10804 32 0", "4 6826 30605 32 0", "5 26725 1087 2 0",
			"6 26853 8946 16 0", "7 28236 7496 64 0", "8 32011 9672 64 0", "9 32080 6563 44 0", "10 32120 13461 32 0",
		}},
	}
	for _, c := range cases {
		got := goldenRun(t, c.seed, c.typed, len(c.want))
		for i := range c.want {
			if got[i] != c.want[i] {
				t.Errorf("seed %d typed %v job %d: got %q, want %q", c.seed, c.typed, i+1, got[i], c.want[i])
			}
		}
	}
}
