package broker_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/broker"
)

func TestParcelRoundTrip(t *testing.T) {
	cells := []broker.ParcelEntry{
		{ID: "c0001", Msg: []byte(`{"experiment":"e.x","id":"c0001"}`)},
		{ID: "c0002", Msg: []byte(`{"experiment":"e.x","id":"c0002","params":[]}`)},
		{ID: "a_b.c", Msg: []byte(`{}`)},
	}
	var data []byte
	for _, c := range cells {
		data = broker.AppendParcel(data, c.ID, c.Msg)
	}
	got, err := broker.SplitParcel(data)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.EqualFunc(got, cells, func(a, b broker.ParcelEntry) bool { return a.ID == b.ID && string(a.Msg) == string(b.Msg) }) {
		t.Fatalf("split %q into %q; want %q", data, got, cells)
	}
	// A message's slice cannot grow into the next entry.
	if cap(got[0].Msg) != len(got[0].Msg) {
		t.Errorf("entry 0's message has capacity %d beyond its length %d", cap(got[0].Msg), len(got[0].Msg))
	}
}

func TestSplitParcelRefusesMalformed(t *testing.T) {
	full := func(n int) []byte {
		var d []byte
		for i := range n {
			d = broker.AppendParcel(d, "c"+strings.Repeat("x", i+1), []byte("{}"))
		}
		return d
	}
	for _, tc := range []struct {
		name, data, want string
	}{
		{"empty", "", "empty"},
		{"id without newline", "c1", "byte 0: the parcel ends here"},
		{"empty id", "\n{}\n", "byte 0: an empty line"},
		{"no message", "c1\n", "byte 3, cell c1: the parcel ends here"},
		{"empty message", "c1\n\nc2\n{}\n", "byte 3, cell c1: an empty line"},
		{"message without newline", "c1\n{}", "byte 3, cell c1: the parcel ends here"},
		{"cell twice", "c1\n{}\nc1\n{}\n", "byte 6: cell c1 a second time"},
		{"too many", string(full(broker.MaxParcel + 1)), "more than 64 cells"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := broker.SplitParcel([]byte(tc.data))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("SplitParcel(%q) = %v; want an error containing %q", tc.data, err, tc.want)
			}
		})
	}
	if got, err := broker.SplitParcel(full(broker.MaxParcel)); err != nil || len(got) != broker.MaxParcel {
		t.Fatalf("a parcel of %d cells: %d entries, %v", broker.MaxParcel, len(got), err)
	}
}

func TestParcelSubjects(t *testing.T) {
	p := broker.ParcelSubject("exp.1", "c0001")
	if !broker.IsParcel(p) {
		t.Errorf("IsParcel(%q) = false", p)
	}
	cell := broker.CellSubject("exp.1", "c0001")
	if broker.IsParcel(cell) {
		t.Errorf("IsParcel(%q) = true for a cell's subject", cell)
	}
	// A cell whose id is "parcel" is not a parcel.
	if s := broker.CellSubject("exp", "parcel"); broker.IsParcel(s) {
		t.Errorf("IsParcel(%q) = true for the cell named parcel", s)
	}
	if r := broker.ResultSubjectFor(p); !broker.IsParcel(r) {
		t.Errorf("IsParcel(%q) = false for the parcel's results", r)
	}
	if r := broker.ResultSubject("exp.1", "c0001"); broker.IsParcel(r) {
		t.Errorf("IsParcel(%q) = true for a cell's result", r)
	}
	if broker.IsParcel("other.prefix.exp.c0001.parcel") {
		t.Error("a subject outside the farm's taken for a parcel")
	}
	if got, want := broker.ParcelCellSubject(p, "c.2"), broker.CellSubject("exp.1", "c.2"); got != want {
		t.Errorf("ParcelCellSubject = %q; want %q", got, want)
	}
}

func TestParcelResults(t *testing.T) {
	var data []byte
	want := []string{`{"cell_id":"a"}`, `{"cell_id":"b"}`}
	for _, r := range want {
		data = broker.AppendParcelResult(data, []byte(r))
	}
	got, err := broker.SplitParcelResults(data)
	if err != nil || len(got) != 2 || string(got[0]) != want[0] || string(got[1]) != want[1] {
		t.Fatalf("SplitParcelResults(%q) = %q, %v; want %q", data, got, err, want)
	}
	for _, tc := range []struct{ data, want string }{
		{"", "empty"},
		{"{}", "byte 0: the parcel ends here"},
		{"{}\n\n", "byte 3: an empty line"},
		{strings.Repeat("{}\n", broker.MaxParcel+1), "more than 64 results"},
	} {
		if _, err := broker.SplitParcelResults([]byte(tc.data)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("SplitParcelResults(%q) = %v; want an error containing %q", tc.data, err, tc.want)
		}
	}
}
