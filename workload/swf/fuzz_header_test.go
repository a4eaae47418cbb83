package swf

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// FuzzHeader: the header keywords. Every input line is made a comment, so
// the fuzzer works on the header alone. A strict read either fails with a
// *LineError naming a line, or gives a header in which standard keywords
// have their SWF 2.2 spelling, Get and All agree with the entries in file
// order, Int gives the leading integer of the last value, the lenient
// reader gives the same header, and the writer's output reads back as the
// same header.
func FuzzHeader(f *testing.F) {
	fuzzSeeds(f)
	f.Add([]byte("; MaxProcs: 128 (in 16 nodes)\n; maxprocs: 64\n; Note: a\n;   continued\n; Note: b\n; free text\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var in bytes.Buffer
		for _, l := range bytes.Split(data, []byte("\n")) {
			if !bytes.HasPrefix(bytes.TrimLeft(l, " \t"), []byte(";")) {
				in.WriteString(";")
			}
			in.Write(l)
			in.WriteByte('\n')
		}
		h, err := readHeader(in.Bytes(), Options{})
		if err != nil {
			var le *LineError
			if !errors.As(err, &le) || le.File != "h.swf" || !strings.HasPrefix(err.Error(), "h.swf:") {
				t.Fatalf("header error does not name the file and a line: %#v", err)
			}
			return
		}
		lenient, err := readHeader(in.Bytes(), Options{Lenient: true})
		if err != nil || !reflect.DeepEqual(lenient, h) {
			t.Fatalf("strict read succeeded but lenient differs (%v):\n%#v\n%#v", err, h, lenient)
		}
		checkHeader(t, h)
		var out bytes.Buffer
		w, err := NewWriter(&out, h)
		if err != nil {
			t.Fatalf("NewWriter refused a header the reader produced: %v\n%#v", err, h)
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		again, err := readHeader(out.Bytes(), Options{})
		if err != nil {
			t.Fatalf("reading the writer's header: %v\n%q", err, out.Bytes())
		}
		if !reflect.DeepEqual(again, h) {
			t.Fatalf("header changed through the writer:\n%#v\n%#v\noutput:\n%q", h, again, out.Bytes())
		}
	})
}

func readHeader(data []byte, opts Options) (Header, error) {
	r, err := NewReader(bytes.NewReader(data), "h.swf", opts)
	if err != nil {
		return Header{}, err
	}
	switch _, err := r.Next(); {
	case err == nil:
		return Header{}, errors.New("a job in a header-only input")
	case err != io.EOF:
		return Header{}, err
	}
	return r.Header(), nil
}

// checkHeader derives Get, All and Int from the entries independently.
func checkHeader(t *testing.T, h Header) {
	last := map[string]string{}
	all := map[string][]string{}
	var comments []string
	for _, e := range h.Entries {
		if e.Keyword == "" {
			comments = append(comments, e.Value)
			continue
		}
		if k, ok := StandardKeyword(e.Keyword); ok && k != e.Keyword {
			t.Fatalf("standard keyword stored as %q; want %q", e.Keyword, k)
		}
		key := strings.ToLower(e.Keyword)
		last[key] = e.Value
		all[key] = append(all[key], e.Value)
	}
	if got := h.Comments(); !reflect.DeepEqual(got, comments) {
		t.Fatalf("Comments %q; want %q", got, comments)
	}
	for key, v := range last {
		if got, ok := h.Get(strings.ToUpper(key)); !ok || got != v {
			t.Fatalf("Get(%q) = %q, %v; want %q (the last entry)", key, got, ok, v)
		}
		if got := h.All(key); !reflect.DeepEqual(got, all[key]) {
			t.Fatalf("All(%q) = %q; want %q", key, got, all[key])
		}
	}
	for _, k := range Keywords() {
		v, ok := last[strings.ToLower(k)]
		if !IsIntegerKeyword(k) || !ok {
			continue
		}
		tok, _, _ := strings.Cut(strings.Map(func(r rune) rune {
			if r == '\t' || r == '\v' || r == '\f' || r == '\r' {
				return ' '
			}
			return r
		}, v), " ")
		if n, err := strconv.ParseInt(tok, 10, 64); err == nil && h.Int(k) != n {
			t.Fatalf("Int(%s) = %d for value %q; want %d", k, h.Int(k), v, n)
		}
	}
}
