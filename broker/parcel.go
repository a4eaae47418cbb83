package broker

import (
	"bytes"
	"fmt"
	"strings"
)

// A parcel is one message on the cells stream that carries several cells:
// for each cell its id on a line of its own, then the cell's message (the
// bytes a single cell message would carry: runner.EncodeCell's compact
// JSON, one line) and a newline. It is published on ParcelSubject, taken by
// a worker like a cell message and acked once its cells' results are in
// the results stream: as a parcel of results on the parcel's result
// subject (ResultSubjectFor(ParcelSubject(…))), each result's message
// (runner.EncodeResult's compact JSON) on a line of its own, or, where a
// result carries per-job records or the parcel of results would be too
// large, each result on its cell's own result subject, as for a cell sent
// alone.
//
// Parcels exist for cells that run in microseconds, where the broker's
// exchanges for a cell (its publication and publish ack, its delivery and
// ack) cost more than the cell: sixteen cells a message cost the broker
// about an eighth of sixteen messages (BenchmarkFarmPrimitives,
// cell-bundle-16). A worker of a build without parcels refuses them, so a
// coordinator sends them only where every worker is of its own build
// (coordinator.Config.Parcel).

// MaxParcel is the most cells a parcel may carry.
const MaxParcel = 64

// parcelSuffix ends a parcel's subject: after the cells prefix, a cell's
// subject has two tokens (experiment, cell), a parcel's three.
const parcelSuffix = ".parcel"

// ParcelSubject is the subject of a parcel whose first cell is firstCellID.
func ParcelSubject(experiment, firstCellID string) string {
	return CellSubject(experiment, firstCellID) + parcelSuffix
}

// IsParcel reports whether subject is a parcel's (ParcelSubject) or a
// parcel of results' (its ResultSubjectFor).
func IsParcel(subject string) bool {
	for _, prefix := range []string{cellsPrefix, resultsPrefix} {
		if strings.HasPrefix(subject, prefix) {
			return strings.HasSuffix(subject, parcelSuffix) && strings.Count(subject[len(prefix):], ".") == 2
		}
	}
	return false
}

// ParcelCellSubject is the subject a cell of the parcel on parcelSubject
// would have had, sent alone: the cell's result goes on the matching
// result subject (ResultSubjectFor).
func ParcelCellSubject(parcelSubject, cellID string) string {
	s := strings.TrimSuffix(parcelSubject, parcelSuffix)
	return s[:strings.LastIndexByte(s, '.')+1] + Token(cellID)
}

// AppendParcel appends one cell, its id and its message, to the parcel
// being built in dst.
func AppendParcel(dst []byte, cellID string, cellMsg []byte) []byte {
	dst = append(dst, cellID...)
	dst = append(dst, '\n')
	dst = append(dst, cellMsg...)
	return append(dst, '\n')
}

// ParcelEntry is one cell of a parcel: its id and its message, a slice of
// the parcel's bytes.
type ParcelEntry struct {
	ID  string
	Msg []byte
}

// SplitParcel returns the cells of a parcel in their order. It refuses a
// parcel that is empty, holds more than MaxParcel cells, an empty id or
// message, an id twice, or ends inside an entry; the error names the byte
// offset and what was expected there.
func SplitParcel(data []byte) ([]ParcelEntry, error) {
	if len(data) == 0 {
		return nil, fmt.Errorf("parcel: empty; accepted: 1 to %d cells, each its id and its message on two lines", MaxParcel)
	}
	var out []ParcelEntry
	seen := make(map[string]bool)
	for off := 0; off < len(data); {
		if len(out) == MaxParcel {
			return nil, fmt.Errorf("parcel: more than %d cells (byte %d); accepted: at most %d", MaxParcel, off, MaxParcel)
		}
		i := bytes.IndexByte(data[off:], '\n')
		if i <= 0 {
			return nil, fmt.Errorf("parcel: byte %d: %s; accepted: a cell id ending with a newline", off, missing(i))
		}
		id := string(data[off : off+i])
		if seen[id] {
			return nil, fmt.Errorf("parcel: byte %d: cell %s a second time; accepted: each cell once", off, id)
		}
		seen[id] = true
		off += i + 1
		j := bytes.IndexByte(data[off:], '\n')
		if j <= 0 {
			return nil, fmt.Errorf("parcel: byte %d, cell %s: %s; accepted: the cell's message on one line ending with a newline", off, id, missing(j))
		}
		out = append(out, ParcelEntry{ID: id, Msg: data[off : off+j : off+j]})
		off += j + 1
	}
	return out, nil
}

// AppendParcelResult appends one result's message to the parcel of
// results being built in dst.
func AppendParcelResult(dst []byte, resultMsg []byte) []byte {
	return append(append(dst, resultMsg...), '\n')
}

// SplitParcelResults returns the result messages of a parcel of results
// in their order. It refuses one that is empty, holds more than MaxParcel
// results or an empty line, or does not end with a newline; the error
// names the byte offset.
func SplitParcelResults(data []byte) ([][]byte, error) {
	if len(data) == 0 {
		return nil, fmt.Errorf("parcel of results: empty; accepted: 1 to %d results, one a line", MaxParcel)
	}
	var out [][]byte
	for off := 0; off < len(data); {
		if len(out) == MaxParcel {
			return nil, fmt.Errorf("parcel of results: more than %d results (byte %d); accepted: at most %d", MaxParcel, off, MaxParcel)
		}
		i := bytes.IndexByte(data[off:], '\n')
		if i <= 0 {
			return nil, fmt.Errorf("parcel of results: byte %d: %s; accepted: a result's message on one line ending with a newline", off, missing(i))
		}
		out = append(out, data[off:off+i:off+i])
		off += i + 1
	}
	return out, nil
}

// missing says what SplitParcel found instead of a line: nothing before
// the end (i < 0) or an empty line.
func missing(i int) string {
	if i < 0 {
		return "the parcel ends here"
	}
	return "an empty line"
}
