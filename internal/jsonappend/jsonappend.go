package jsonappend

import (
	"math"
	"strconv"
)

// plain reports whether c is written as itself inside a JSON string by
// encoding/json.Marshal: ASCII from the space on, other than the quote, the
// backslash and the HTML-sensitive <, > and &, which Marshal escapes.
// (Marshal writes valid multi-byte UTF-8 as itself too, except U+2028 and
// U+2029; those strings are left to it.)
func plain(c byte) bool {
	return c >= 0x20 && c < 0x80 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
}

// Plain reports whether every byte of s is plain: String can write it.
func Plain(s string) bool {
	for i := 0; i < len(s); i++ {
		if !plain(s[i]) {
			return false
		}
	}
	return true
}

// String appends s as a JSON string and reports true when s is plain;
// otherwise it returns dst unchanged and false.
func String(dst []byte, s string) ([]byte, bool) {
	if !Plain(s) {
		return dst, false
	}
	dst = append(dst, '"')
	dst = append(dst, s...)
	return append(dst, '"'), true
}

// Int appends i as encoding/json writes an integer.
func Int(dst []byte, i int64) []byte { return strconv.AppendInt(dst, i, 10) }

// Uint appends u as encoding/json writes an unsigned integer.
func Uint(dst []byte, u uint64) []byte { return strconv.AppendUint(dst, u, 10) }

// Float appends f as encoding/json writes a float64 and reports true, or
// returns dst unchanged and false for NaN and ±Inf, which Marshal refuses.
func Float(dst []byte, f float64) ([]byte, bool) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return dst, false
	}
	form := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		form = 'e'
	}
	dst = strconv.AppendFloat(dst, f, form, -1, 64)
	if form == 'e' {
		// A one-digit negative exponent without its leading zero: 1e-07
		// is written 1e-7.
		if n := len(dst); n >= 4 && dst[n-4] == 'e' && dst[n-3] == '-' && dst[n-2] == '0' {
			dst[n-2] = dst[n-1]
			dst = dst[:n-1]
		}
	}
	return dst, true
}

// Bool appends b as encoding/json writes a boolean.
func Bool(dst []byte, b bool) []byte { return strconv.AppendBool(dst, b) }
