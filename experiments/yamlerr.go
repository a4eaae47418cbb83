package experiments

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/schedfarm/schedfarm/internal/lazyre"
)

// yamlParserProblems are the problems go.yaml.in/yaml/v3 reports from its
// parser (not its scanner). For those it prints the 0-based line of the
// construct it was in ("line 5" for a flow sequence opened on line 6), one
// less than the line a person counts; scanner errors are already 1-based.
var yamlParserProblems = []string{
	"did not find expected <stream-start>",
	"did not find expected <document start>",
	"did not find expected node content",
	"did not find expected '-' indicator",
	"did not find expected key",
	"did not find expected ',' or ']'",
	"did not find expected ',' or '}'",
	"found undefined tag handle",
	"found duplicate %YAML directive",
	"found incompatible YAML document",
	"found duplicate %TAG directive",
}

var yamlLineMsgRE = lazyre.MustCompile(`^(?:yaml: )?line (\d+): (.*)$`)

// YAMLErrorLine splits a YAML syntax error message into its 1-based line
// and problem (correcting the parser's 0-based lines); ok is false when the
// message names no line.
func YAMLErrorLine(msg string) (line int, problem string, ok bool) {
	m := yamlLineMsgRE.FindStringSubmatch(msg)
	if m == nil {
		return 0, strings.TrimPrefix(msg, "yaml: "), false
	}
	line, _ = strconv.Atoi(m[1])
	for _, p := range yamlParserProblems {
		if m[2] == p {
			line++
			break
		}
	}
	return line, m[2], true
}

// CheckUTF8 returns an error naming the line and column of the first byte
// of data that is not UTF-8 (nil when all of it is): YAML is UTF-8, and the
// YAML decoder's own message names no line.
func CheckUTF8(data []byte) *FieldError {
	if utf8.Valid(data) {
		return nil
	}
	line, col := 1, 1
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size <= 1 {
			return &FieldError{Line: line, Msg: fmt.Sprintf("not UTF-8: byte 0x%02x at column %d (a file saved as Latin-1 or another legacy encoding?); accepted: UTF-8 text", data[i], col)}
		}
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
		i += size
	}
	return nil
}

var decodeRE = lazyre.MustCompile("^cannot (?:unmarshal|decode) !!(\\w+)(?: (`[^`]*`|\\S+))? into (\\S+)$")

// FriendlyDecode rewrites the YAML decoder's "cannot unmarshal !!str `five`
// into int" as what was found and what is accepted: "`five` is a string;
// accepted: an integer". Other messages are returned unchanged (with
// "unmarshal" as "decode").
func FriendlyDecode(msg string) string {
	m := decodeRE.FindStringSubmatch(msg)
	if m == nil {
		return strings.ReplaceAll(msg, "cannot unmarshal", "cannot decode")
	}
	found := map[string]string{"str": "a string", "int": "an integer", "float": "a number", "bool": "true or false",
		"seq": "a list", "map": "a mapping", "null": "empty", "timestamp": "a timestamp", "binary": "binary data"}[m[1]]
	if found == "" {
		found = "!!" + m[1]
	}
	val := m[2]
	if val == "" || m[1] == "seq" || m[1] == "map" {
		val = "the value"
	}
	return fmt.Sprintf("%s is %s; accepted: %s", val, found, goTypeWords(m[3]))
}

// goTypeWords says in words what values a Go type accepts.
func goTypeWords(t string) string {
	switch {
	case strings.HasPrefix(t, "[]"):
		return "a list"
	case strings.HasPrefix(t, "map["):
		return "a mapping"
	}
	switch strings.TrimPrefix(t, "*") {
	case "int", "int64", "int32", "uint", "uint64", "uint32":
		return "an integer"
	case "float64", "float32":
		return "a number"
	case "bool":
		return "true or false"
	case "string":
		return "a string"
	}
	return "a value of type " + t
}
