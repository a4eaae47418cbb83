package swf

import (
	"fmt"
	"math"
	"strconv"

	"github.com/schedfarm/schedfarm/workload"
)

// NumFields is the number of fields of an SWF job line.
const NumFields = 18

// FieldName returns the name of SWF field n (1 to 18) as used in error
// messages, for example "allocated processors" for field 5.
func FieldName(n int) string {
	switch n {
	case 1:
		return "job number"
	case 2:
		return "submit time"
	case 3:
		return "wait time"
	case 4:
		return "run time"
	case 5:
		return "allocated processors"
	case 6:
		return "average CPU time"
	case 7:
		return "used memory"
	case 8:
		return "requested processors"
	case 9:
		return "requested time"
	case 10:
		return "requested memory"
	case 11:
		return "status"
	case 12:
		return "user ID"
	case 13:
		return "group ID"
	case 14:
		return "executable number"
	case 15:
		return "queue number"
	case 16:
		return "partition number"
	case 17:
		return "preceding job number"
	case 18:
		return "think time"
	}
	return fmt.Sprintf("field %d", n)
}

// isIntField reports whether SWF field n (1 to 18) holds an integer.
func isIntField(n int) bool {
	switch n {
	case 1, 5, 8, 11, 12, 13, 14, 15, 16, 17:
		return true
	}
	return false
}

// intField returns a pointer to the integer field n of j (n must be an
// integer field).
func intField(j *workload.Job, n int) *int64 {
	switch n {
	case 1:
		return &j.ID
	case 5:
		return &j.AllocProcs
	case 8:
		return &j.ReqProcs
	case 11:
		return &j.Status
	case 12:
		return &j.UserID
	case 13:
		return &j.GroupID
	case 14:
		return &j.Executable
	case 15:
		return &j.Queue
	case 16:
		return &j.Partition
	}
	return &j.PrecedingJob
}

// floatField returns a pointer to the float field n of j (n must be a float
// field).
func floatField(j *workload.Job, n int) *float64 {
	switch n {
	case 2:
		return &j.Submit
	case 3:
		return &j.Wait
	case 4:
		return &j.RunTime
	case 6:
		return &j.AvgCPUTime
	case 7:
		return &j.UsedMemory
	case 9:
		return &j.ReqTime
	case 10:
		return &j.ReqMemory
	}
	return &j.ThinkTime
}

// Complaints about a single field; the reader prefixes the quoted field.
const (
	msgNotNumber = "is not a number"
	msgNotFinite = "is not a finite number"
	msgNotWhole  = "is not an integer (this field holds whole numbers)"
	msgIntRange  = "is out of range (want an integer below 2^63)"
	msgRange     = "is out of the range of 64-bit floats"
	msgNegative  = "is negative (want -1 for unknown, or a number >= 0)"
)

// parseInt parses an integer field: plain digits with an optional sign, or a
// decimal number that is whole ("5.0", "1e3"). On failure it returns the
// complaint instead of an error, to keep the fast path free of allocations.
func parseInt(tok []byte) (int64, string) {
	if n, ok := fastInt(tok); ok {
		return n, ""
	}
	if isDigits(tok) {
		n, err := strconv.ParseInt(string(tok), 10, 64)
		if err != nil {
			return 0, msgIntRange
		}
		return n, ""
	}
	f, msg := slowFloat(tok)
	if msg == msgRange {
		return 0, msgIntRange
	}
	if msg != "" {
		return 0, msg
	}
	if f != math.Trunc(f) {
		return 0, msgNotWhole
	}
	if f < -(1<<63) || f >= 1<<63 {
		return 0, msgIntRange
	}
	return int64(f), ""
}

// parseFloat parses a float field: a finite decimal number. An integer is
// converted directly: float64(n) rounds exactly as parsing its digits would.
func parseFloat(tok []byte) (float64, string) {
	if n, ok := fastInt(tok); ok {
		return float64(n), ""
	}
	return slowFloat(tok)
}

// fastInt parses an optional '-' and at most 18 decimal digits.
func fastInt(tok []byte) (int64, bool) {
	neg := len(tok) > 0 && tok[0] == '-'
	digits := tok
	if neg {
		digits = tok[1:]
	}
	if len(digits) == 0 || len(digits) > 18 {
		return 0, false
	}
	var n int64
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}

// slowFloat parses any decimal number strconv accepts, refusing the
// hexadecimal, underscore, NaN and infinity forms.
func slowFloat(tok []byte) (float64, string) {
	decimal := len(tok) > 0
	for _, c := range tok {
		if !(c >= '0' && c <= '9' || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-') {
			decimal = false
			break
		}
	}
	f, err := strconv.ParseFloat(string(tok), 64)
	switch {
	case err == nil && decimal:
		return f, ""
	case err != nil && decimal && isRangeErr(err):
		return 0, msgRange
	case err == nil && (math.IsNaN(f) || math.IsInf(f, 0)):
		return 0, msgNotFinite
	}
	return 0, msgNotNumber
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

func isDigits(tok []byte) bool {
	if len(tok) > 0 && (tok[0] == '-' || tok[0] == '+') {
		tok = tok[1:]
	}
	for _, c := range tok {
		if c < '0' || c > '9' {
			return false
		}
	}
	return len(tok) > 0
}

// validValue reports whether v is an acceptable field value: −1 or >= 0.
func validValue(v float64) bool {
	return v == workload.Unknown || v >= 0
}
