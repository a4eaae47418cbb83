package coordinator

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// The byte checks of metric names and cell digests accept exactly what the
// regular expressions they replaced accept: hand-picked edge cases, then
// random strings over an alphabet of the accepted bytes and their
// neighbours ('`', '{', '/', ':', 'A', 'g'), of lengths around 64.
func TestNameChecksMatchTheExpressions(t *testing.T) {
	nameRE := regexp.MustCompile(`^[a-z][a-z0-9_]*$`)
	digestRE := regexp.MustCompile(`^[0-9a-f]{64}$`)
	cases := []string{"", "a", "z", "_", "0", "a_", "a0", "wait_mean", "Wait", "a-b", "a b", "é", "a\x00",
		strings.Repeat("0", 64), strings.Repeat("f", 64), strings.Repeat("f", 63), strings.Repeat("f", 65), strings.Repeat("F", 64), strings.Repeat("g", 64)}
	alphabet := "abcfgz019_`{/:AF-"
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		n := r.IntN(8)
		if r.IntN(2) == 0 {
			n = 62 + r.IntN(5)
		}
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		if r.IntN(3) == 0 && n > 0 {
			for i := range b { // mostly hex: the digests that nearly pass
				b[i] = "0123456789abcdef"[r.IntN(16)]
			}
			b[r.IntN(n)] = alphabet[r.IntN(len(alphabet))]
		}
		cases = append(cases, string(b))
	}
	for _, s := range cases {
		if got, want := metricName(s), nameRE.MatchString(s); got != want {
			t.Errorf("metricName(%q) = %v; the expression says %v", s, got, want)
		}
		if got, want := hexDigest(s), digestRE.MatchString(s); got != want {
			t.Errorf("hexDigest(%q) = %v; the expression says %v", s, got, want)
		}
	}
}
