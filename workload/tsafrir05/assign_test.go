package tsafrir05

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"
)

// assignReference is est_assign written the plain way (spec §4.7): flatten
// the histogram descending, cap, rng.Perm, stable sort by runtime
// (longest first), then the draws. Assign must give the same estimates
// and leave rng in the same state.
func assignReference(runtimes []float64, hist []Bin, rng *rand.Rand) ([]float64, int) {
	n := len(runtimes)
	var est []float64
	for _, b := range hist {
		for range b.Jobs {
			est = append(est, float64(b.Time))
		}
	}
	slices.SortFunc(est, func(a, b float64) int { return -cmp.Compare(a, b) })
	capped := 0
	for i, r := range runtimes {
		if r > est[0] {
			runtimes[i] = est[0]
			capped++
		}
	}
	order := rng.Perm(n)
	slices.SortStableFunc(order, func(a, b int) int { return -cmp.Compare(runtimes[a], runtimes[b]) })
	out := make([]float64, n)
	hi := 0
	for j := 0; j < n; j++ {
		r := runtimes[order[j]]
		hi = max(hi, j)
		for hi < n-1 && r <= est[hi+1] {
			hi++
		}
		k := j + rng.IntN(hi-j+1)
		out[order[j]] = est[k]
		est[k], est[j] = est[j], est[k]
	}
	return out, capped
}

// TestAssignMatchesReference: Assign's faster sort (a radix sort on the
// runtime bits; the stable comparison sort when a runtime is negative)
// yields exactly the reference's estimates, including many ties,
// fractional runtimes, zeros, −0, capped runtimes and histograms in any bin
// order.
func TestAssignMatchesReference(t *testing.T) {
	src := rand.New(rand.NewPCG(5, 6))
	for trial := range 60 {
		n := []int{227, 1000, 4000}[trial%3]
		tmax := []int{7200, 36000, 64800}[trial%3]
		hist, err := Default(n, tmax).Histogram(rand.New(rand.NewPCG(uint64(trial), 1)))
		if err != nil {
			t.Fatal(err)
		}
		// Runtimes below a random pairing of the estimates: feasible.
		var est []float64
		for _, b := range hist {
			for range b.Jobs {
				est = append(est, float64(b.Time))
			}
		}
		src.Shuffle(len(est), func(i, j int) { est[i], est[j] = est[j], est[i] })
		rts := make([]float64, n)
		for i := range rts {
			switch trial % 5 {
			case 0: // few distinct values: many ties
				rts[i] = float64(src.IntN(4)) * 60
			case 1: // whole seconds
				rts[i] = math.Floor(src.Float64() * est[i])
			case 2: // fractional
				rts[i] = src.Float64() * est[i]
			case 3: // zeros, −0 and a capped runtime
				rts[i] = []float64{0, math.Copysign(0, -1), 1.5, est[i]}[src.IntN(4)]
				if i == 0 {
					rts[i] = float64(tmax) * 3
				}
			case 4: // one negative runtime: the comparison sort
				rts[i] = math.Floor(src.Float64() * est[i])
				if i == n/2 {
					rts[i] = -1
				}
			}
		}
		if trial%2 == 1 { // bins in another order
			slices.Reverse(hist)
		}
		a, b := slices.Clone(rts), slices.Clone(rts)
		ra, rb := rand.New(rand.NewPCG(uint64(trial), 9)), rand.New(rand.NewPCG(uint64(trial), 9))
		got, gotCap, err := Assign(a, hist, ra)
		if err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		want, wantCap := assignReference(b, hist, rb)
		if !slices.Equal(got, want) || gotCap != wantCap || !slices.Equal(a, b) {
			t.Fatalf("trial %d (n %d): Assign differs from the reference (capped %d vs %d)", trial, n, gotCap, wantCap)
		}
		if ra.Uint64() != rb.Uint64() {
			t.Fatalf("trial %d: Assign drew a different number of random values", trial)
		}
	}
}

// TestFitsMatchesFeasible: the unsorted O(n log K) check agrees with the
// sorted one on feasible and infeasible workloads alike.
func TestFitsMatchesFeasible(t *testing.T) {
	src := rand.New(rand.NewPCG(7, 8))
	seen := map[bool]int{}
	for trial := range 400 {
		k := 1 + src.IntN(8)
		var hist []Bin
		total := 0
		for i := range k {
			jobs := src.IntN(5) // 0-job bins too
			hist = append(hist, Bin{Time: (i + 1) * 100, Jobs: jobs})
			total += jobs
		}
		src.Shuffle(len(hist), func(i, j int) { hist[i], hist[j] = hist[j], hist[i] })
		n := max(0, total-1+src.IntN(3)) // sometimes one runtime too many
		rts := make([]float64, n)
		for i := range rts {
			rts[i] = float64(src.IntN(k*100 + 150)) // some above the largest bin
		}
		sorted := slices.Clone(rts)
		sort.Sort(sort.Reverse(sort.Float64Slice(sorted)))
		want := Feasible(sorted, hist)
		if got := Fits(rts, hist); got != want {
			t.Fatalf("trial %d: Fits %v, Feasible %v; runtimes %v, hist %v", trial, got, want, rts, hist)
		}
		seen[want]++
	}
	if seen[true] < 20 || seen[false] < 20 {
		t.Fatalf("too few cases of one kind: %v", seen)
	}
}
