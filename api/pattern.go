package api

import (
	"regexp"
	"sync"
)

// onFirstUse is expr compiled when it is first used, not at the package's
// init, which every canopy's start pays (issue 39); a bad expr panics
// then, as regexp.MustCompile would at init (the tests use every one).
func onFirstUse(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
