package swf

import (
	"fmt"
	"strconv"
	"strings"
)

// The header keywords of SWF 2.2, spelled as in the format definition.
const (
	KeyVersion        = "Version"        // format version, e.g. "2.2"
	KeyComputer       = "Computer"       // brand and model
	KeyInstallation   = "Installation"   // site and machine name
	KeyAcknowledge    = "Acknowledge"    // people to credit; may repeat
	KeyInformation    = "Information"    // web site or e-mail
	KeyConversion     = "Conversion"     // who converted the log
	KeyMaxJobs        = "MaxJobs"        // total number of jobs (integer)
	KeyMaxRecords     = "MaxRecords"     // total number of records (integer)
	KeyPreemption     = "Preemption"     // No, Yes, Double or TS
	KeyUnixStartTime  = "UnixStartTime"  // epoch seconds of time 0 (integer)
	KeyTimeZone       = "TimeZone"       // deprecated offset in seconds (integer)
	KeyTimeZoneString = "TimeZoneString" // e.g. "US/Eastern"
	KeyStartTime      = "StartTime"      // date-style start of the log
	KeyEndTime        = "EndTime"        // date-style end of the log
	KeyMaxNodes       = "MaxNodes"       // number of nodes (integer)
	KeyMaxProcs       = "MaxProcs"       // number of processors (integer)
	KeyMaxRuntime     = "MaxRuntime"     // longest allowed run time, seconds (integer)
	KeyMaxMemory      = "MaxMemory"      // memory per processor, KB (integer)
	KeyAllowOveruse   = "AllowOveruse"   // Yes or No
	KeyMaxQueues      = "MaxQueues"      // number of queues (integer)
	KeyQueues         = "Queues"         // verbal description of the queues
	KeyQueue          = "Queue"          // one queue; may repeat
	KeyMaxPartitions  = "MaxPartitions"  // number of partitions (integer)
	KeyPartitions     = "Partitions"     // verbal description of the partitions
	KeyPartition      = "Partition"      // one partition; may repeat
	KeyNote           = "Note"           // free text; may repeat
)

// Keywords returns the SWF 2.2 header keywords in the order of the format
// definition. The slice is new on every call.
func Keywords() []string {
	return []string{
		KeyVersion, KeyComputer, KeyInstallation, KeyAcknowledge, KeyInformation,
		KeyConversion, KeyMaxJobs, KeyMaxRecords, KeyPreemption, KeyUnixStartTime,
		KeyTimeZone, KeyTimeZoneString, KeyStartTime, KeyEndTime, KeyMaxNodes,
		KeyMaxProcs, KeyMaxRuntime, KeyMaxMemory, KeyAllowOveruse, KeyMaxQueues,
		KeyQueues, KeyQueue, KeyMaxPartitions, KeyPartitions, KeyPartition, KeyNote,
	}
}

// StandardKeyword returns the SWF 2.2 spelling of kw, compared without regard
// to case, and whether kw is one of the standard keywords at all.
func StandardKeyword(kw string) (string, bool) {
	for _, k := range Keywords() {
		if strings.EqualFold(k, kw) {
			return k, true
		}
	}
	return "", false
}

// IsIntegerKeyword reports whether the value of the standard keyword kw is an
// integer (MaxJobs, MaxProcs, UnixStartTime, ...).
func IsIntegerKeyword(kw string) bool {
	switch kw {
	case KeyMaxJobs, KeyMaxRecords, KeyUnixStartTime, KeyTimeZone, KeyMaxNodes,
		KeyMaxProcs, KeyMaxRuntime, KeyMaxMemory, KeyMaxQueues, KeyMaxPartitions:
		return true
	}
	return false
}

// Entry is one header comment, in file order.
//
// A keyword entry comes from a line "; Keyword: value". Standard keywords are
// stored in their SWF 2.2 spelling whatever their case in the file; other
// words followed by ": " (for example "Copyright:") are kept as keyword
// entries too. Value is the text after the colon with surrounding blanks
// removed.
//
// A free comment (Keyword == "") is any other comment line; Value is the text
// after the ';' with trailing blanks removed and leading blanks kept.
//
// More holds the continuation lines of a keyword entry: comment lines that
// follow it, are indented by at least two blanks (or a tab) after the ';' and
// do not start with a standard keyword, as in
//
//	; Information: http://www.pdc.kth.se/
//	;              http://www.cs.huji.ac.il/labs/parallel/workload/
//
// Each continuation is stored like a free comment: the text after the ';',
// indentation kept.
type Entry struct {
	Keyword string
	Value   string
	More    []string
}

// Text returns the value with its continuation lines, one per line, with
// their indentation removed.
func (e Entry) Text() string {
	if len(e.More) == 0 {
		return e.Value
	}
	var b strings.Builder
	b.WriteString(e.Value)
	for _, m := range e.More {
		b.WriteByte('\n')
		b.WriteString(trimBlanks(m))
	}
	return b.String()
}

// Header is the comment block of an SWF file: every comment line, in file
// order, as keyword entries (with their continuation lines) and free
// comments. The zero Header is empty and ready to use.
type Header struct {
	Entries []Entry
}

// Clone returns a deep copy of h.
func (h Header) Clone() Header {
	if h.Entries == nil {
		return Header{}
	}
	c := Header{Entries: make([]Entry, len(h.Entries))}
	for i, e := range h.Entries {
		if e.More != nil {
			e.More = append([]string(nil), e.More...)
		}
		c.Entries[i] = e
	}
	return c
}

// Add appends a keyword entry. A standard keyword is stored in its SWF 2.2
// spelling.
func (h *Header) Add(keyword, value string) {
	if k, ok := StandardKeyword(keyword); ok {
		keyword = k
	}
	h.Entries = append(h.Entries, Entry{Keyword: keyword, Value: value})
}

// Set replaces the value of the last entry with this keyword (dropping its
// continuation lines), or appends an entry when there is none.
func (h *Header) Set(keyword, value string) {
	if i := h.last(keyword); i >= 0 {
		h.Entries[i].Value = value
		h.Entries[i].More = nil
		return
	}
	h.Add(keyword, value)
}

// AddComment appends a free comment; text is written after the ';' as is.
func (h *Header) AddComment(text string) {
	h.Entries = append(h.Entries, Entry{Value: text})
}

// Get returns the value of the last entry with this keyword (compared without
// regard to case): a later line overrides an earlier one.
func (h Header) Get(keyword string) (string, bool) {
	if i := h.last(keyword); i >= 0 {
		return h.Entries[i].Value, true
	}
	return "", false
}

// All returns the values of every entry with this keyword, in file order,
// for the repeating keywords (Acknowledge, Queue, Partition, Note).
func (h Header) All(keyword string) []string {
	var vals []string
	for _, e := range h.Entries {
		if e.Keyword != "" && strings.EqualFold(e.Keyword, keyword) {
			vals = append(vals, e.Value)
		}
	}
	return vals
}

// Comments returns the free comments, in file order.
func (h Header) Comments() []string {
	var c []string
	for _, e := range h.Entries {
		if e.Keyword == "" {
			c = append(c, e.Value)
		}
	}
	return c
}

// Int returns the integer value of a keyword: the leading integer of the
// value of its last entry, so that "128 (in 16 nodes)" gives 128. It returns
// 0 when the keyword is absent, empty, or its value does not start with an
// integer.
func (h Header) Int(keyword string) int64 {
	v, ok := h.Get(keyword)
	if !ok {
		return 0
	}
	n, err := headerInt(v)
	if err != nil {
		return 0
	}
	return n
}

// MaxJobs returns the MaxJobs header value, 0 when unknown.
func (h Header) MaxJobs() int64 { return h.Int(KeyMaxJobs) }

// MaxRecords returns the MaxRecords header value, 0 when unknown.
func (h Header) MaxRecords() int64 { return h.Int(KeyMaxRecords) }

// UnixStartTime returns the epoch seconds of time 0, 0 when unknown.
func (h Header) UnixStartTime() int64 { return h.Int(KeyUnixStartTime) }

// TimeZone returns the (deprecated) TimeZone offset in seconds, 0 when unknown.
func (h Header) TimeZone() int64 { return h.Int(KeyTimeZone) }

// MaxNodes returns the MaxNodes header value, 0 when unknown.
func (h Header) MaxNodes() int64 { return h.Int(KeyMaxNodes) }

// MaxProcs returns the MaxProcs header value, 0 when unknown.
func (h Header) MaxProcs() int64 { return h.Int(KeyMaxProcs) }

// MaxRuntime returns the MaxRuntime header value in seconds, 0 when unknown.
func (h Header) MaxRuntime() int64 { return h.Int(KeyMaxRuntime) }

// MaxMemory returns the MaxMemory header value in KB, 0 when unknown.
func (h Header) MaxMemory() int64 { return h.Int(KeyMaxMemory) }

// MaxQueues returns the MaxQueues header value, 0 when unknown.
func (h Header) MaxQueues() int64 { return h.Int(KeyMaxQueues) }

// MaxPartitions returns the MaxPartitions header value, 0 when unknown.
func (h Header) MaxPartitions() int64 { return h.Int(KeyMaxPartitions) }

// Version returns the Version header value, "" when absent.
func (h Header) Version() string { v, _ := h.Get(KeyVersion); return v }

// MachineSize returns the number of processors a simulation of this workload
// should use, and which information it came from: the MaxProcs header when
// positive ("MaxProcs"), else the MaxNodes header ("MaxNodes"), else
// largestJob, the largest processor count of any job ("largest job"). When
// none of them is positive it returns 0 and "unknown".
func MachineSize(h Header, largestJob int64) (size int64, source string) {
	if n := h.MaxProcs(); n > 0 {
		return n, KeyMaxProcs
	}
	if n := h.MaxNodes(); n > 0 {
		return n, KeyMaxNodes
	}
	if largestJob > 0 {
		return largestJob, "largest job"
	}
	return 0, "unknown"
}

func (h Header) last(keyword string) int {
	for i := len(h.Entries) - 1; i >= 0; i-- {
		k := h.Entries[i].Keyword
		if k != "" && strings.EqualFold(k, keyword) {
			return i
		}
	}
	return -1
}

// headerInt parses the leading integer of a numeric header value. A whole
// number written with a fraction ("100.0") is accepted; an empty value means
// unknown and gives 0.
func headerInt(v string) (int64, error) {
	if v == "" {
		return 0, nil
	}
	tok := v
	if i := strings.IndexAny(v, " \t\v\f\r"); i >= 0 {
		tok = v[:i]
	}
	if n, err := strconv.ParseInt(tok, 10, 64); err == nil {
		return n, nil
	}
	n, msg := parseInt([]byte(tok))
	if msg != "" {
		return 0, fmt.Errorf("%q %s", v, msg)
	}
	return n, nil
}

// Comment line classification, shared by the reader and the writer so that
// what the writer emits is read back as the same entry.
const (
	lineFree = iota
	lineKeyword
	lineContinuation
)

// classify tells what a comment line is. text is the line after its ';' with
// trailing blanks removed; afterKeyword says whether the previous header entry
// is a keyword entry (so that an indented line continues it). For a keyword
// line it returns the keyword and the trimmed value.
func classify(text string, afterKeyword bool) (kind int, keyword, value string) {
	body := trimLeftBlanks(text)
	word, rest, found := strings.Cut(body, ":")
	if found && isWord(word) {
		if k, ok := StandardKeyword(word); ok {
			return lineKeyword, k, trimBlanks(rest)
		}
	}
	if afterKeyword && isIndented(text) && body != "" {
		return lineContinuation, "", ""
	}
	if found && isWord(word) && (rest == "" || isBlank(rest[0])) {
		return lineKeyword, word, trimBlanks(rest)
	}
	return lineFree, "", ""
}

// isIndented reports whether a comment text starts with two blanks or a tab.
func isIndented(text string) bool {
	if text == "" {
		return false
	}
	if text[0] == '\t' {
		return true
	}
	return len(text) >= 2 && isBlank(text[0]) && isBlank(text[1])
}

// isWord reports whether s can be a header keyword: a letter followed by
// letters, digits or underscores.
func isWord(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !letter && (i == 0 || !(c >= '0' && c <= '9' || c == '_')) {
			return false
		}
	}
	return true
}

// isBlank reports whether c is ASCII white space other than a newline.
func isBlank(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'
}

func trimLeftBlanks(s string) string {
	for len(s) > 0 && isBlank(s[0]) {
		s = s[1:]
	}
	return s
}

func trimRightBlanks(s string) string {
	for len(s) > 0 && isBlank(s[len(s)-1]) {
		s = s[:len(s)-1]
	}
	return s
}

func trimBlanks(s string) string { return trimRightBlanks(trimLeftBlanks(s)) }
