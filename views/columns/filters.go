package columns

import (
	"strconv"
	"strings"

	"canopy/api"
)

// The service's name rules (api.Rule) tell whether a typed pattern can be
// asked of the server as an exact filter.

// RepoNameChip is the chip of a server name filter on repos, "" when the
// pattern is not a repo name.
func RepoNameChip(p string) string {
	if !api.RepoName.Match(p) {
		return ""
	}
	return "name = " + strconv.Quote(p)
}

// TagNameChip is the chip of a server name filter on tags.
func TagNameChip(p string) string {
	if !api.TagName.Match(p) {
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
	case api.AdvisoryID.Match(p):
		return "id = " + p, true
	default:
		return "text ~ " + strconv.Quote(p), false
	}
}
