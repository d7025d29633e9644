package columns

import (
	"regexp"
	"strconv"
	"strings"
)

// Patterns of API.md, used to tell whether a typed pattern can be asked of
// the server as an exact filter.
var (
	repoName   = regexp.MustCompile(`^[a-z0-9][a-z0-9._/-]{0,127}$`)
	tagName    = regexp.MustCompile(`^[a-zA-Z0-9_][a-zA-Z0-9._-]{0,127}$`)
	advisoryID = regexp.MustCompile(`^CGA-[a-z0-9]{4}-[a-z0-9]{4}-[a-z0-9]{4}$`)
)

// RepoNameChip is the chip of a server name filter on repos, "" when the
// pattern is not a repo name.
func RepoNameChip(p string) string {
	if !repoName.MatchString(p) {
		return ""
	}
	return "name = " + strconv.Quote(p)
}

// TagNameChip is the chip of a server name filter on tags.
func TagNameChip(p string) string {
	if !tagName.MatchString(p) {
		return ""
	}
	return "name = " + strconv.Quote(p)
}

// AdvisoryFilter says how the advisory feed filters a pattern: an advisory
// id exactly, else the server's substring `query`.
func AdvisoryFilter(p string) (chip string, isID bool) {
	p = strings.TrimSpace(p)
	switch {
	case p == "":
		return "", false
	case advisoryID.MatchString(p):
		return "id = " + p, true
	default:
		return "text ~ " + strconv.Quote(p), false
	}
}
