package columns

import (
	"strconv"
	"strings"

	"canopy/api"
	"canopy/lazyregexp"
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
	p = AdvisoryIDOf(p)
	switch {
	case p == "":
		return "", false
	case api.AdvisoryID.Match(p):
		return "id = " + p, true
	default:
		return "text ~ " + strconv.Quote(p), false
	}
}

// AdvisoryIDOf is p as an advisory id is written (CGA- upper case, the
// rest lower case) when p is one typed in another case, else p trimmed.
func AdvisoryIDOf(p string) string {
	p = strings.TrimSpace(p)
	if len(p) > 4 && strings.EqualFold(p[:4], "CGA-") {
		return "CGA-" + strings.ToLower(p[4:])
	}
	return p
}

// vulnerabilityID is a CVE or GHSA id, which advisories name as aliases:
// found by the advisories' text search, not by their own id.
var vulnerabilityID = lazyregexp.New(`(?i)^(CVE-[0-9]{4}-[0-9]{4,}|GHSA(-[0-9a-z]{4}){3})$`)

// IsVulnerabilityID reports whether p is a CVE or GHSA id.
func IsVulnerabilityID(p string) bool { return vulnerabilityID.MatchString(strings.TrimSpace(p)) }
