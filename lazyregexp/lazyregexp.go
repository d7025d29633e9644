// Package lazyregexp holds regular expressions compiled when first used
// instead of at a package's init. Every start of canopy runs every
// package's init, --version and --help included, and compiling a
// pattern costs far more than matching a short string with it: issue 39
// measured canopy's package-level patterns at about a fifth of its own
// init. The shape follows the Go command's own internal/lazyregexp.
package lazyregexp

import (
	"os"
	"regexp"
	"strings"
	"sync"
)

// inTest is whether this is a test binary, which compiles every pattern
// as it is made, so that each package's tests find a bad one at once
// whether or not a test matches it (as the Go command's lazyregexp does).
var inTest = len(os.Args) > 0 && strings.HasSuffix(strings.TrimSuffix(os.Args[0], ".exe"), ".test")

// Regexp is a pattern compiled on its first use; it is safe for
// concurrent use, as a *regexp.Regexp is.
type Regexp struct {
	expr     string
	compiled func() *regexp.Regexp
}

// New is expr, to be compiled when first used. A bad expr panics then, as
// regexp.MustCompile would at init; in a test binary it panics here.
func New(expr string) *Regexp {
	r := &Regexp{expr: expr, compiled: sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })}
	if inTest {
		r.compiled()
	}
	return r
}

// Regexp is the compiled pattern, compiling it if this is its first use.
func (r *Regexp) Regexp() *regexp.Regexp { return r.compiled() }

// String is the pattern's source text; it compiles nothing.
func (r *Regexp) String() string { return r.expr }

// MatchString reports whether s contains a match of the pattern.
func (r *Regexp) MatchString(s string) bool { return r.compiled().MatchString(s) }

// FindIndex is regexp.Regexp.FindIndex.
func (r *Regexp) FindIndex(b []byte) []int { return r.compiled().FindIndex(b) }

// FindStringSubmatch is regexp.Regexp.FindStringSubmatch.
func (r *Regexp) FindStringSubmatch(s string) []string { return r.compiled().FindStringSubmatch(s) }

// FindStringSubmatchIndex is regexp.Regexp.FindStringSubmatchIndex.
func (r *Regexp) FindStringSubmatchIndex(s string) []int {
	return r.compiled().FindStringSubmatchIndex(s)
}

// ReplaceAllString is regexp.Regexp.ReplaceAllString.
func (r *Regexp) ReplaceAllString(src, repl string) string {
	return r.compiled().ReplaceAllString(src, repl)
}

// ReplaceAllStringFunc is regexp.Regexp.ReplaceAllStringFunc.
func (r *Regexp) ReplaceAllStringFunc(src string, repl func(string) string) string {
	return r.compiled().ReplaceAllStringFunc(src, repl)
}
