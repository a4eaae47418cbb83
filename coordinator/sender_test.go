package coordinator

import (
	"bytes"
	"context"
	"testing"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/schedfarm/schedfarm/broker"
	"github.com/schedfarm/schedfarm/broker/brokertest"
	"github.com/schedfarm/schedfarm/runner"
)

// TestParcelOfOneTravelsAsItsCell publishes through a sender, on a real
// embedded broker, a parcel flushed with one cell in it and one flushed
// with two. The first must go as that cell's own message, as send
// publishes it: on the cell's subject, with its id as message id and the
// bytes runner.EncodeCell makes of it (the encoding pack made, kept for
// the purpose, not the parcel's); the second as one parcel of both cells.
func TestParcelOfOneTravelsAsItsCell(t *testing.T) {
	_, js := brokertest.Start(t)
	ctx := context.Background()
	if err := broker.Ensure(ctx, js, broker.Topology{}); err != nil {
		t.Fatal(err)
	}
	c := newCoordinator(js, Config{Experiment: "x", Parcel: DefaultParcel})
	s := sender{c: c}
	one := testCell("0000000000000001", 0, "easy", 0, 1, 0.5)
	two := []runner.Cell{testCell("0000000000000002", 1, "easy", 0, 2, 0.6), testCell("0000000000000003", 2, "easy", 0, 3, 0.7)}
	if err := s.pack(ctx, one); err != nil {
		t.Fatal(err)
	}
	if err := s.flush(ctx); err != nil {
		t.Fatal(err)
	}
	for _, cell := range two {
		if err := s.pack(ctx, cell); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.settleAll(ctx); err != nil {
		t.Fatal(err)
	}
	st, err := js.Stream(ctx, broker.CellsStream)
	if err != nil {
		t.Fatal(err)
	}
	msg, err := st.GetLastMsgForSubject(ctx, broker.CellSubject("x", one.ID))
	if err != nil {
		t.Fatalf("the parcel of one is not on its cell's subject: %v", err)
	}
	want, err := runner.EncodeCell(one)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(msg.Data, want) {
		t.Errorf("the parcel of one went as %q, want the cell's encoding %q", msg.Data, want)
	}
	if id := msg.Header.Get(jetstream.MsgIDHeader); id != one.ID {
		t.Errorf("its message id is %q, want the cell's id %q", id, one.ID)
	}
	msg, err = st.GetLastMsgForSubject(ctx, broker.ParcelSubject("x", two[0].ID))
	if err != nil {
		t.Fatalf("the parcel of two is not on its parcel subject: %v", err)
	}
	entries, err := broker.SplitParcel(msg.Data)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 2 || entries[0].ID != two[0].ID || entries[1].ID != two[1].ID {
		t.Fatalf("the parcel of two holds %d cells, want %s and %s", len(entries), two[0].ID, two[1].ID)
	}
	for i, e := range entries {
		if want, _ := runner.EncodeCell(two[i]); !bytes.Equal(e.Msg, want) {
			t.Errorf("cell %s of the parcel is %q, want %q", e.ID, e.Msg, want)
		}
	}
}
