package plugin

import (
	"regexp"
	"sync"
)

// pattern is a regular expression compiled when it is first matched, not
// at the package's init: compiling this package's took about a
// millisecond and 865 allocations of every canopy's start (issue 39),
// and most starts run no plugin.
type pattern func() *regexp.Regexp

// lazily is expr as a pattern; a bad expr panics on first use, as
// regexp.MustCompile would at init (the tests use every one).
func lazily(expr string) pattern {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

func (p pattern) MatchString(s string) bool { return p().MatchString(s) }
