package util

import (
	"regexp"
	"sync"
)

// A LazyRegexp is a regular expression compiled when first used instead
// of at its package's init (canopy's change to goldmark: every start of a
// program that links goldmark paid for compiling its patterns, most of
// which a short document never uses).
type LazyRegexp struct {
	compiled func() *regexp.Regexp
}

// NewLazyRegexp is expr, compiled on first use; a bad expr panics then.
func NewLazyRegexp(expr string) *LazyRegexp {
	return &LazyRegexp{compiled: sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })}
}

// Regexp is the compiled pattern.
func (l *LazyRegexp) Regexp() *regexp.Regexp { return l.compiled() }

// Match is regexp.Regexp.Match.
func (l *LazyRegexp) Match(b []byte) bool { return l.compiled().Match(b) }

// FindSubmatchIndex is regexp.Regexp.FindSubmatchIndex.
func (l *LazyRegexp) FindSubmatchIndex(b []byte) []int { return l.compiled().FindSubmatchIndex(b) }
