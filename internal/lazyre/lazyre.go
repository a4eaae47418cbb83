// Package lazyre is a regular expression compiled on first use.
//
// A package-level regexp.MustCompile runs at program start in every
// command of the binary, whether or not the command ever matches it; the
// validators of specs, plugins and cells hold about twenty, a few tenths of
// a millisecond of every start-up (`GODEBUG=inittrace=1`). MustCompile
// compiles the expression once, when a method is first called, and panics
// then on an invalid one (the packages' tests call every expression).
package lazyre

import (
	"regexp"
	"sync"
)

// Regexp is a regexp.Regexp compiled when first used. It is safe for
// concurrent use.
type Regexp struct {
	re func() *regexp.Regexp
}

// MustCompile returns expr, to be compiled by regexp.MustCompile on first use.
func MustCompile(expr string) *Regexp {
	return &Regexp{re: sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })}
}

// MatchString is regexp.Regexp.MatchString.
func (r *Regexp) MatchString(s string) bool { return r.re().MatchString(s) }

// FindStringSubmatch is regexp.Regexp.FindStringSubmatch.
func (r *Regexp) FindStringSubmatch(s string) []string { return r.re().FindStringSubmatch(s) }

// FindSubmatch is regexp.Regexp.FindSubmatch.
func (r *Regexp) FindSubmatch(b []byte) [][]byte { return r.re().FindSubmatch(b) }

// ReplaceAllString is regexp.Regexp.ReplaceAllString.
func (r *Regexp) ReplaceAllString(src, repl string) string { return r.re().ReplaceAllString(src, repl) }
