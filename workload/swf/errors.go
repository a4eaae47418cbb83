package swf

import (
	"fmt"
	"strings"
)

// LineError is a problem with one line of an SWF file. Its message has the
// form
//
//	KTH.swf:1234: field 5 (allocated processors): "abc" is not a number
//
// naming the file, the line, the field when a single field is at fault, and
// what would have been accepted.
type LineError struct {
	File  string // file name given to the reader
	Line  int    // line number, from 1
	Field int    // SWF field number (1 to 18), or 0 for the line as a whole
	Msg   string // what is wrong, and what would be accepted
	Err   error  // underlying error (I/O, decompression), or nil
}

// Error formats the error as "file:line: [field N (name): ]message".
func (e *LineError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s:%d: ", e.File, e.Line)
	if e.Field > 0 {
		fmt.Fprintf(&b, "field %d (%s): ", e.Field, FieldName(e.Field))
	}
	b.WriteString(e.Msg)
	if e.Err != nil {
		if e.Msg != "" {
			b.WriteString(": ")
		}
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

// Unwrap returns the underlying error, if any.
func (e *LineError) Unwrap() error { return e.Err }
