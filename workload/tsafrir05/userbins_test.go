package tsafrir05

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// The default head at Tmax = 64800 (spec §4.4 example), ttr 0..19:
//
//	64800 | 300 600 900 1200 1800 3600 7200 10800 14400 18000 21600 28800
//	        36000 43200 46800 50400 54000 57600 61200
//
// JOINT (in EST_JOINT): 300 … 43200 and 64800; ROUND: 46800 50400 54000
// 57600 61200.
const head64800 = "64800 300 600 900 1200 1800 3600 7200 10800 14400 18000 21600 28800 36000 43200 46800 50400 54000 57600 61200"

// Spec §4.4 gen_head_bintim_merge, worked by hand.
func TestMergeHeadTimesByHand(t *testing.T) {
	cases := []struct {
		name  string
		user  []int
		want  string
		notes string
	}{
		{"3600 and 5000", []int{3600, 5000},
			// New = {5000} (3600 is a default); need = 1. ROUND first:
			// |5000−46800| = 41800 < |5000−50400| = 45400 < … → 5000
			// replaces 46800 (the much closer JOINT 3600/7200 are only
			// considered once ROUND is exhausted).
			"64800 300 600 900 1200 1800 3600 5000 7200 10800 14400 18000 21600 28800 36000 43200 50400 54000 57600 61200", ""},
		{"user time is Tmax", []int{64800, 5000},
			// 64800 is default ttr 0 → not new; New = {5000}, need 1,
			// as above 5000 replaces 46800; Tmax stays at index 0.
			"64800 300 600 900 1200 1800 3600 5000 7200 10800 14400 18000 21600 28800 36000 43200 50400 54000 57600 61200", ""},
		{"user times already defaults", []int{7200, 54000},
			// New = ∅, need 0: the head is the default one.
			head64800, ""},
		{"a default that is a user time is kept", []int{54000, 55000},
			// New = {55000}, need 1. ROUND pairs: (55000, 54000) = 1000 is
			// the nearest, but 54000 is itself a user time and is kept
			// (see the package doc: the C++ would drop user bin 54000
			// here); next (55000, 57600) = 2600 → 57600 := 55000.
			"64800 300 600 900 1200 1800 3600 7200 10800 14400 18000 21600 28800 36000 43200 46800 50400 54000 55000 61200", ""},
		{"distance ties", []int{48600, 52200},
			// need 2. Pairs at distance 1800, in tie order (smaller user
			// time, then smaller default): (48600, 46800) accepted,
			// (48600, 50400) user already placed, (52200, 50400)
			// accepted, (52200, 54000) user already placed.
			"64800 300 600 900 1200 1800 3600 7200 10800 14400 18000 21600 28800 36000 43200 48600 52200 54000 57600 61200", ""},
		{"ROUND exhausted, then JOINT", []int{120, 240, 2400, 40000, 45000, 60000},
			// need 6. ROUND pairs by distance: (60000,61200) 1200 ✓,
			// (45000,46800) 1800 ✓, (60000,57600) 2400 user placed, …,
			// (45000,50400) 5400 placed, (40000,46800) 6800 default
			// replaced, (40000,50400) 10400 ✓, …, (2400,54000) 51600 ✓,
			// (240,54000) 53760 replaced, (120,54000) 53880 replaced,
			// (2400,57600) 55200 placed, (240,57600) 57360 ✓ — ROUND is
			// used up with 5 of 6. JOINT pairs: (120,300) 180 ✓ (Tmax
			// 64800 is never replaced).
			"64800 120 240 600 900 1200 1800 2400 3600 7200 10800 14400 18000 21600 28800 36000 40000 43200 45000 60000", ""},
	}
	for _, c := range cases {
		var ub []UserBin
		for _, x := range c.user {
			ub = append(ub, UserBin{Time: x, Jobs: 1})
		}
		got := mergeHeadTimes(HeadTimes(64800), ub)
		if !slices.Equal(got, ints(c.want)) {
			t.Errorf("%s:\n got %v\nwant %s", c.name, got, c.want)
		}
	}
	if got := HeadTimes(64800); !slices.Equal(got, ints(head64800)) {
		t.Errorf("default head %v", got)
	}
}

// Spec §4.4 gen_head_binsiz / gen_head_binsiz_merge / gen_head_user_constraint
// worked by hand for N = 1000, Tmax = 64800. Default sizes of ranks 1..20
// (§4.4): 21.7329 10.3128 8.7105 7.3688 6.2454 5.3047 4.5171 3.8575 3.3053
// 2.8429 2.4557 2.1314 1.8600 1.6327 1.4423 1.2829 1.1495 1.0377 0.9442
// 0.8658 (sum 89).
func TestMergeHeadSizesByHand(t *testing.T) {
	cases := []struct {
		name       string
		user       []UserBin
		wantSizes  []float64
		wantSlot   []int
		constraint map[int]int // ttr → popularity rank
	}{
		{
			// 3600 = 30% → 300 jobs, 5000 = 10% → 100 jobs; no bin at
			// Tmax, so the default sizes stand. By njobs: 3600 (30%)
			// may not take slot 0; nearest of slots 1.. is slot 1
			// (10.3128). 5000 (10%): slot 2 (8.7105, |Δ| 1.2895) beats
			// slot 3 (7.3688). Σuser = 40 < 89: the other 18 slots
			// (sum 89 − 10.3128 − 8.7105 = 69.9767) are scaled by
			// 49/69.9767 = 0.700233: slot 0 21.7329 → 15.2181, slot 3
			// 7.3688 → 5.1599, …, slot 19 0.8658 → 0.6063. Slots 1..19
			// are already descending (30, 10, 5.16, …): no swaps.
			// Ranks: 3600 → 2, 5000 → 3; in the merged head (first case
			// above) 3600 is ttr 6 and 5000 ttr 7.
			"3600=30%,5000=10%",
			[]UserBin{{3600, 300}, {5000, 100}},
			[]float64{15.2181, 30, 10, 5.1599, 4.3732, 3.7145, 3.1630, 2.7012, 2.3145, 1.9907, 1.7195, 1.4925, 1.3024, 1.1432, 1.0100, 0.8984, 0.8049, 0.7267, 0.6611, 0.6063},
			[]int{1, 2},
			map[int]int{6: 2, 7: 3},
		},
		{
			// 64800 = 5% → 50 jobs (a user bin at Tmax), 3600 = 30% → 300.
			// gen_head_binsiz step 3: s_1 = 5; ranks 2..20 scaled by
			// (89 − 5)/67.2671 = 1.248754: 12.8781 10.8772 9.2018 7.7990
			// 6.6243 5.6407 4.8171 …; sorted descending, 5.0 lands at
			// index 6. Merge by njobs: 3600 (30%) → slot 1 (10.8772;
			// slot 0 is barred); 64800 (5%) → slot 6 (exactly 5.0; slot 0
			// is allowed for Tmax but 12.8781 is farther). Σuser = 35:
			// others (sum 89 − 10.8772 − 5 = 73.1228) × 54/73.1228 =
			// 0.738484: slot 0 → 9.5103, slot 2 9.2018 → 6.7954, slot 3
			// → 5.7594, slot 4 → 4.8919, slot 5 → 4.1656, slot 7 →
			// 3.5574 … Selection sort of slots 1..19 descending: at i = 4
			// the 5.0 of slot 6 is the largest left, so it swaps with slot
			// 4 (4.8919), and at i = 5 4.8919 (now slot 6) swaps with
			// 4.1656: the Tmax bin ends in slot 4 → rank 5. Constraint:
			// ttr 0 (64800) → 5, ttr 6 (3600) → 2.
			"64800=5%,3600=30%",
			[]UserBin{{64800, 50}, {3600, 300}},
			[]float64{9.5103, 30, 6.7954, 5.7594, 5, 4.8919, 4.1656, 3.5574, 3.0481, 2.6216, 2.2646, 1.9656, 1.7152, 1.5056, 1.3301, 1.1831, 1.0600, 0.9570, 0.8707, 0.7984},
			[]int{4, 1},
			map[int]int{0: 5, 6: 2},
		},
		{
			// 64800 = 30% → 300 jobs, 5000 = 10% → 100. s_1 = 30, ranks
			// 2..20 × (89 − 30)/67.2671 = 0.877103 (10.3128 → 9.0454,
			// 8.7105 → 7.6400, …). 64800 (30%) takes slot 0 (exactly 30);
			// 5000 (10%) → slot 1 (9.0454). Σuser = 40: others (sum
			// 59 − 9.0454 = 49.9546) × 49/49.9546: 7.6400 → 7.4939, …
			// Already sorted. Ranks: 64800 → 1, 5000 (ttr 7) → 2.
			"64800=30%,5000=10%",
			[]UserBin{{64800, 300}, {5000, 100}},
			[]float64{30, 10, 7.4939, 6.3397, 5.3732, 4.5639, 3.8862, 3.3188, 2.8437, 2.4458, 2.1127, 1.8338, 1.6002, 1.4046, 1.2409, 1.1038, 0.9889, 0.8928, 0.8123, 0.7449},
			[]int{0, 1},
			map[int]int{0: 1, 7: 2},
		},
	}
	for _, c := range cases {
		p := Default(1000, 64800)
		p.UserBins = c.user
		if err := p.Validate(); err != nil {
			t.Fatal(err)
		}
		sizes, slot := p.mergeHeadSizes(p.HeadSizes())
		for i, w := range c.wantSizes {
			if math.Abs(sizes[i]-w) > 1e-4 {
				t.Errorf("%s: slot %d size %.5f, want %.4f", c.name, i, sizes[i], w)
			}
		}
		if sum := sumF(sizes); math.Abs(sum-HeadShare) > 1e-9 {
			t.Errorf("%s: head sums to %.12f", c.name, sum)
		}
		if !slices.Equal(slot, c.wantSlot) {
			t.Errorf("%s: slots %v, want %v", c.name, slot, c.wantSlot)
		}
		head := mergeHeadTimes(HeadTimes(64800), c.user)
		con := p.userConstraint(head, slot)
		for ttr, r := range con {
			if r != c.constraint[ttr] {
				t.Errorf("%s: constraint[%d] = %d, want %d (all %v)", c.name, ttr, r, c.constraint[ttr], con)
			}
		}
	}
}

func sumF(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s
}

// Whole histograms for the three cases above (N = 1000, Tmax = 64800, K =
// 35), for several seeds. Tail times: K − 20 = 15, a = 1 + 12.1039·35^−0.6026,
// as Vector A, but where Vector A's head has 46800 the first and third
// cases have 5000 instead (46800 is not a tail time either way). Counts:
// user bins exactly their njobs; head slots round(size·10); tail sizes
// 795.6·(21+i)^−2.267 scaled to 11%, ×10, rounded; then adjust_njobs on the
// non-user bins only.
//
//   - 3600=30%,5000=10%: Tmax holds rank 1 = 15.2181% → 152 jobs; the counts
//     already sum to 1000, nothing to adjust.
//   - 64800=5%,3600=30%: rank 1 (9.5103%) is not reserved and is due at ttr 1
//     (bound[1] = 1), so time 300 gets it: 95 jobs; the counts sum to 1002,
//     adjust (J = 1002 − 350 = 652 non-user jobs) takes ⌈2/652·95⌉ = 1
//     from 300 (95 → 94) and 1 from the next largest (68 → 67).
//   - 64800=30%,5000=10%: sum 998, adjust adds 1 to the two largest non-user
//     bins (75 → 76, 63 → 64).
func TestUserBinsHistogramByHand(t *testing.T) {
	cases := []struct {
		name   string
		user   []UserBin
		times  string
		counts string
		fixed  map[int]int // time → count in every seed
	}{
		{"3600=30%,5000=10%", []UserBin{{3600, 300}, {5000, 100}},
			"300 600 900 1200 1800 2580 3600 5000 5340 7200 8280 10800 11400 14400 14700 18000 18240 21600 21960 26040 28800 30360 34980 36000 40020 43200 45420 50400 51360 54000 57600 57780 61200 64770 64800",
			"300 152 100 52 44 37 32 27 23 20 17 15 13 13 12 11 10 10 9 9 9 8 8 7 7 7 7 6 6 6 5 5 5 4 4",
			map[int]int{3600: 300, 5000: 100, 64800: 152}},
		{"64800=5%,3600=30%", []UserBin{{64800, 50}, {3600, 300}},
			"300 600 900 1200 1800 2580 3600 5340 7200 8280 10800 11400 14400 14700 18000 18240 21600 21960 26040 28800 30360 34980 36000 40020 43200 45420 46800 50400 51360 54000 57600 57780 61200 64770 64800",
			"300 94 67 58 50 49 42 36 30 26 23 20 17 15 13 13 12 12 11 10 10 9 9 9 8 8 7 7 6 6 5 5 5 4 4",
			map[int]int{64800: 50, 3600: 300, 300: 94}},
		{"64800=30%,5000=10%", []UserBin{{64800, 300}, {5000, 100}},
			"300 600 900 1200 1800 2580 3600 5000 5340 7200 8280 10800 11400 14400 14700 18000 18240 21600 21960 26040 28800 30360 34980 36000 40020 43200 45420 50400 51360 54000 57600 57780 61200 64770 64800",
			"300 100 76 64 54 46 39 33 28 24 21 18 16 14 13 12 12 11 10 10 9 9 9 8 8 7 7 7 6 6 5 5 5 4 4",
			map[int]int{64800: 300, 5000: 100}},
	}
	for _, c := range cases {
		p := Default(1000, 64800)
		p.UserBins = c.user
		for seed := uint64(0); seed < 8; seed++ {
			h, err := p.Histogram(rand.New(rand.NewPCG(seed, 7)))
			if err != nil {
				t.Fatal(err)
			}
			var times, counts []int
			byTime := map[int]int{}
			for _, b := range h {
				times = append(times, b.Time)
				counts = append(counts, b.Jobs)
				byTime[b.Time] = b.Jobs
			}
			slices.Sort(counts)
			slices.Reverse(counts)
			if !slices.Equal(times, ints(c.times)) || !slices.Equal(counts, ints(c.counts)) {
				t.Errorf("%s seed %d:\ntimes  %v\ncounts %v", c.name, seed, times, counts)
			}
			for tm, n := range c.fixed {
				if byTime[tm] != n {
					t.Errorf("%s seed %d: time %d holds %d jobs, want %d", c.name, seed, tm, byTime[tm], n)
				}
			}
		}
	}
}

// The driver's percent form: njobs = int(N·percent/100).
func TestUserBinsFromPercents(t *testing.T) {
	got := UserBinsFromPercents(1000, []UserPercent{{3600, 30}, {5000, 10}, {7200, 0.05}, {600, 12.99}})
	want := []UserBin{{3600, 300}, {5000, 100}, {7200, 0}, {600, 129}}
	if !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if UserBinsFromPercents(1000, nil) != nil {
		t.Error("no percents should give no bins")
	}
}

func TestParseUserPercents(t *testing.T) {
	got, err := ParseUserPercents(" 3600=30, 14400=10.5 ")
	if err != nil || !slices.Equal(got, []UserPercent{{3600, 30}, {14400, 10.5}}) {
		t.Fatalf("got %v, %v", got, err)
	}
	if s := FormatUserPercents(got); s != "3600=30,14400=10.5" {
		t.Errorf("format %q", s)
	}
	if got, err := ParseUserPercents(""); got != nil || err != nil {
		t.Errorf("empty: %v %v", got, err)
	}
	many := strings.Repeat("60=1,", 20) + "60=1"
	for in, wants := range map[string][]string{
		"3600":                  {`bin 1 "3600": want sec=percent`},
		"x=3,0=2,-5=1,7=abc":    {`bin 1 "x=3": time "x"`, `bin 2 "0=2": time "0"`, `bin 3 "-5=1": time "-5"`, `bin 4 "7=abc": percent "abc"`},
		"60=0,120=101,180=NaN":  {`bin 1 "60=0": percent "0": want a number in (0, 100]`, `bin 2 "120=101"`, `bin 3 "180=NaN"`},
		"3600=30,3600=20":       {`bin 2 "3600=20": time 3600 s repeats bin 1`},
		"3600=60,7200=50":       {`percents sum to 110; want at most 100`},
		many:                    {`21 bins; want at most 20`},
		"3600=30,,7200=1":       {`bin 2 "": want sec=percent`},
		"3600=30;7200=10":       {`bin 1 "3600=30;7200=10": percent "30;7200=10"`},
		"3600=30, 7200 = 10 ,x": {`bin 3 "x": want sec=percent`},
	} {
		_, err := ParseUserPercents(in)
		if err == nil {
			t.Errorf("%q: no error", in)
			continue
		}
		for _, w := range wants {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%q: error\n%v\nlacks %q", in, err, w)
			}
		}
	}
}

// Params.Validate rejects each bad user-bin input, naming the field.
func TestValidateUserBins(t *testing.T) {
	twenty := make([]UserBin, 20)
	for i := range twenty {
		twenty[i] = UserBin{Time: 60 * (i + 1), Jobs: 1}
	}
	twentyTmax := slices.Clone(twenty)
	twentyTmax[19].Time = 64800
	twentyOne := append(slices.Clone(twentyTmax), UserBin{Time: 5000, Jobs: 1})
	cases := []struct {
		name  string
		bins  []UserBin
		k     int
		wants []string
	}{
		{"time 0", []UserBin{{0, 10}}, 0, []string{"UserBins[0].Time = 0 s, want 0 < Time ≤ MaxEstimate = 64800 s"}},
		{"time above Tmax", []UserBin{{3600, 10}, {70000, 10}}, 0, []string{"UserBins[1].Time = 70000 s"}},
		{"repeated time", []UserBin{{3600, 10}, {3600, 20}}, 0, []string{"UserBins[1].Time = 3600 s repeats UserBins[0].Time, want distinct times"}},
		{"zero jobs", []UserBin{{3600, 0}}, 0, []string{"UserBins[0].Jobs = 0 (time 3600 s), want ≥ 1"}},
		{"negative jobs", []UserBin{{3600, -3}}, 0, []string{"UserBins[0].Jobs = -3"}},
		{"more jobs than N", []UserBin{{3600, 600}, {7200, 500}}, 0, []string{"UserBins hold 1100 jobs in total, want at most Jobs = 1000"}},
		{"21 bins", twentyOne, 0, []string{"UserBins has 21 bins, want at most 20"}},
		{"20 bins without Tmax", twenty, 0, []string{"UserBins has 20 bins and none at MaxEstimate = 64800 s, want at most 19"}},
		{"K below user jobs", []UserBin{{3600, 300}}, 40, []string{"Bins = 40, want 0 (automatic) or ≥ 300, the total jobs of UserBins"}},
		{"everything at once", []UserBin{{0, 0}, {0, 2000}}, 0, []string{"UserBins[0].Time", "UserBins[0].Jobs", "UserBins[1].Time = 0 s repeats", "UserBins hold 2000 jobs"}},
	}
	for _, c := range cases {
		p := Default(1000, 64800)
		p.UserBins, p.Bins = c.bins, c.k
		err := p.Validate()
		if err == nil {
			t.Errorf("%s: no error", c.name)
			continue
		}
		for _, w := range c.wants {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error\n%v\nlacks %q", c.name, err, w)
			}
		}
		if _, herr := p.Histogram(rand.New(rand.NewPCG(1, 1))); herr == nil {
			t.Errorf("%s: Histogram accepted invalid params", c.name)
		}
	}
	for _, ok := range [][]UserBin{twentyTmax, {{64800, 1000}}, {{1, 1}}} {
		p := Default(1000, 64800)
		p.UserBins = ok
		if err := p.Validate(); err != nil {
			t.Errorf("%v: %v", ok, err)
		}
	}
	p := Default(1000, 64800)
	p.UserBins, p.Bins = []UserBin{{3600, 300}}, 300
	if err := p.Validate(); err != nil {
		t.Errorf("K = Σ user jobs must be accepted: %v", err)
	}
}

// Empty (non-nil) user bins are the published model.
func TestEmptyUserBinsUnchanged(t *testing.T) {
	for seed := uint64(0); seed < 4; seed++ {
		a, _ := Default(1000, 64800).Histogram(rand.New(rand.NewPCG(seed, 1)))
		p := Default(1000, 64800)
		p.UserBins = []UserBin{}
		b, _ := p.Histogram(rand.New(rand.NewPCG(seed, 1)))
		if !slices.Equal(a, b) {
			t.Fatalf("seed %d: empty UserBins changed the histogram", seed)
		}
	}
}

// randomUserParams draws a valid parameter set with 1..20 user bins: a mix of
// default head times, Tmax and arbitrary times, job shares from tiny to the
// whole workload (so that Σuser ≥ 89% occurs).
func randomUserParams(rng *rand.Rand) Params {
	tmaxes := []int{5701, 7200, 14400, 36000, 64800, 129600}
	tmax := tmaxes[rng.IntN(len(tmaxes))]
	if rng.IntN(3) == 0 {
		tmax = 5701 + rng.IntN(300000)
	}
	n := 227 + rng.IntN(20000)
	p := Default(n, tmax)
	nb := 1 + rng.IntN(MaxUserBins)
	defaults := HeadTimes(tmax)
	seen := map[int]bool{}
	for len(p.UserBins) < nb {
		var tm int
		switch rng.IntN(4) {
		case 0:
			tm = defaults[rng.IntN(len(defaults))]
		case 1:
			tm = tmax
		default:
			tm = 1 + rng.IntN(tmax)
		}
		if seen[tm] {
			continue
		}
		seen[tm] = true
		p.UserBins = append(p.UserBins, UserBin{Time: tm})
	}
	if nb == MaxUserBins && !seen[tmax] {
		p.UserBins[0].Time = tmax
	}
	// Shares: a budget of 1%..100% of N split at random, each bin ≥ 1 job.
	budget := max(nb, int(float64(n)*(0.01+0.99*rng.Float64())))
	left := budget - nb
	for i := range p.UserBins {
		extra := 0
		if left > 0 {
			extra = rng.IntN(left + 1)
			if i == nb-1 {
				extra = left
			}
		}
		left -= extra
		p.UserBins[i].Jobs = 1 + extra
	}
	return p
}

// Property test over many seeds (spec §4.4, §4.6): every user bin appears
// with exactly its njobs, Σ = N, the head has 20 distinct times ≤ Tmax
// including Tmax and every user time, the user constraint pins each user
// time's popularity rank to a slot holding its percent, a non-Tmax bin never
// takes slot 0, and the pool mapping stays a permutation that obeys the due
// rule for the non-reserved ranks.
func TestUserBinsProperties(t *testing.T) {
	seeds := 3000
	if testing.Short() {
		seeds = 300
	}
	first, bound := rankSpan()
	for s := 0; s < seeds; s++ {
		rng := rand.New(rand.NewPCG(uint64(s), 99))
		p := randomUserParams(rng)
		if err := p.Validate(); err != nil {
			t.Fatalf("seed %d: generated invalid params: %v", s, err)
		}
		head := mergeHeadTimes(HeadTimes(p.MaxEstimate), p.UserBins)
		if len(head) != Top || head[0] != p.MaxEstimate {
			t.Fatalf("seed %d %+v: head %v", s, p.UserBins, head)
		}
		sorted := slices.Clone(head[1:])
		slices.Sort(sorted)
		if !slices.Equal(sorted, head[1:]) || slices.ContainsFunc(head[1:], func(x int) bool { return x >= p.MaxEstimate || x <= 0 }) {
			t.Fatalf("seed %d: head %v not Tmax then ascending below Tmax", s, head)
		}
		if len(slices.Compact(slices.Clone(sorted))) != Top-1 {
			t.Fatalf("seed %d: head %v has repeats", s, head)
		}
		sizes, slot := p.mergeHeadSizes(p.HeadSizes())
		con := p.userConstraint(head, slot)
		for u, b := range p.UserBins {
			ttr := slices.Index(head, b.Time)
			if ttr < 0 {
				t.Fatalf("seed %d: user time %d missing from head %v", s, b.Time, head)
			}
			if slot[u] == 0 && b.Time != p.MaxEstimate {
				t.Fatalf("seed %d: non-Tmax user bin %v took slot 0", s, b)
			}
			if con[ttr] != slot[u]+1 || sizes[slot[u]] != 100*float64(b.Jobs)/float64(p.Jobs) {
				t.Fatalf("seed %d: user bin %v: constraint %d, slot %d size %g", s, b, con[ttr], slot[u], sizes[slot[u]])
			}
		}
		for i := 2; i < Top; i++ {
			if sizes[i] > sizes[i-1] {
				t.Fatalf("seed %d: sizes %v not descending from slot 1", s, sizes)
			}
		}
		ranks := popRanksUser(rng, con)
		var seen, reserved [Top + 1]bool
		for _, r := range con {
			reserved[r] = r > 0
		}
		for ttr, r := range ranks {
			if r < 1 || r > Top || seen[r] {
				t.Fatalf("seed %d: mapping %v not a permutation", s, ranks)
			}
			if con[ttr] > 0 && r != con[ttr] {
				t.Fatalf("seed %d: ttr %d took %d, constraint %d", s, ttr, r, con[ttr])
			}
			if con[ttr] == 0 {
				if reserved[r] {
					t.Fatalf("seed %d: free ttr %d took reserved rank %d", s, ttr, r)
				}
				smallestDue, appeared := 0, false
				for q := 1; q <= Top; q++ {
					if !seen[q] && !reserved[q] && bound[q] <= ttr && smallestDue == 0 {
						smallestDue = q
					}
					appeared = appeared || (!seen[q] && !reserved[q] && first[q] <= ttr)
				}
				switch {
				case ttr == 0 && !reserved[1]:
					if r != 1 {
						t.Fatalf("seed %d: ttr 0 took %d", s, r)
					}
				case smallestDue != 0 && r != smallestDue:
					t.Fatalf("seed %d: ttr %d took %d while %d was due (%v)", s, ttr, r, smallestDue, ranks)
				case appeared && r != smallestDue && ttr < first[r]:
					t.Fatalf("seed %d: ttr %d took rank %d before its first row %d", s, ttr, r, first[r])
				}
			}
			seen[r] = true
		}

		h, err := p.Histogram(rand.New(rand.NewPCG(uint64(s), 5)))
		if err != nil {
			t.Fatalf("seed %d %+v: %v", s, p, err)
		}
		sum := 0
		byTime := map[int]int{}
		for i, b := range h {
			if i > 0 && b.Time <= h[i-1].Time {
				t.Fatalf("seed %d: times not strictly ascending", s)
			}
			if b.Jobs < 0 {
				t.Fatalf("seed %d: negative bin %v", s, b)
			}
			sum += b.Jobs
			byTime[b.Time] = b.Jobs
		}
		if sum != p.Jobs || len(h) > p.NumBins() || h[len(h)-1].Time != p.MaxEstimate {
			t.Fatalf("seed %d: Σ %d (N %d), %d bins (K %d), last %v", s, sum, p.Jobs, len(h), p.NumBins(), h[len(h)-1])
		}
		for _, b := range p.UserBins {
			if byTime[b.Time] != b.Jobs {
				t.Fatalf("seed %d: user bin %v holds %d jobs", s, b, byTime[b.Time])
			}
		}
		for _, x := range head {
			if _, ok := byTime[x]; !ok {
				t.Fatalf("seed %d: head time %d missing from the histogram", s, x)
			}
		}
	}
}
