package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"
)

// DecodeStrict decodes data into a T: at most maxBytes, valid UTF-8, one
// JSON object with T's fields and no others, nothing after it. what names
// the message in errors ("cell", "result") and typeName what is accepted
// ("runner.Cell").
func DecodeStrict[T any](data []byte, maxBytes int, what, typeName string) (T, error) {
	var v, zero T
	if len(data) > maxBytes {
		return zero, fmt.Errorf("%s message is %d bytes; accepted: at most %d", what, len(data), maxBytes)
	}
	if !utf8.Valid(data) {
		return zero, fmt.Errorf("%s message is not UTF-8; accepted: a JSON %s", what, typeName)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		return zero, fmt.Errorf("%s message does not decode: %v; accepted: a JSON %s", what, err, typeName)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return zero, fmt.Errorf("%s message has data after the %s; accepted: one JSON object", what, what)
	}
	return v, nil
}
