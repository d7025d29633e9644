package columns

import (
	"slices"
	"strconv"
	"strings"

	"canopy/api"
	"canopy/safe"
	"canopy/text"
	"canopy/views"
	"canopy/views/advisory"
	"canopy/views/table"
)

// The security advisory service's tables: advisory documents (one per
// package), vulnerability metadata (one per CVE or GHSA id) and what an
// image had resolved (one row per vulnerability and day).

// Documents are the columns of an advisory document table.
func Documents(c views.Common) []table.Column[api.Document] {
	return []table.Column[api.Document]{
		{Title: "PACKAGE", Flex: 2, Min: 12, Max: 40, Cell: func(d *api.Document) safe.Text { return safe.Of(d.ID) }},
		{Title: "NAMESPACE", Width: 10, Drop: 3, Search: true, Cell: func(d *api.Document) safe.Text {
			var spaces []string
			for _, a := range d.Advisories {
				if !slices.Contains(spaces, a.PackageNamespace) {
					spaces = append(spaces, a.PackageNamespace)
				}
			}
			return safe.Join(sanitized(spaces), ",")
		}},
		{Title: "ADVISORIES", Width: 10, Right: true, Cell: func(d *api.Document) safe.Text {
			return safe.Of(text.Count(len(d.Advisories)))
		}},
		{Title: "OPEN", Width: 5, Right: true, Drop: 1, Cell: func(d *api.Document) safe.Text {
			return safe.Of(text.Count(advisory.CountDocument(d).Open))
		}},
		{Title: "ALIASES", Flex: 3, Min: 14, Drop: 2, Search: true, Cell: func(d *api.Document) safe.Text {
			var ids []string
			for _, a := range d.Advisories {
				ids = append(ids, a.Aliases...)
			}
			return safe.Join(sanitized(ids), " ")
		}},
		{Title: "UPDATED", Width: 7, Right: true, Cell: func(d *api.Document) safe.Text { return age(c, advisory.CountDocument(d).Latest) }},
	}
}

// DocumentFilter says how the documents filter a pattern on the server:
// a CVE or GHSA id keeps the documents of advisories going by it, any
// other word one package's.
func DocumentFilter(p string) (chip string, f api.DocumentFilter) {
	p = strings.TrimSpace(p)
	switch {
	case p == "":
		return "", f
	case IsVulnerabilityID(p):
		id := VulnerabilityIDOf(p)
		return "alias = " + id, api.DocumentFilter{CVEs: []string{id}}
	}
	return "package = " + strconv.Quote(p), api.DocumentFilter{Package: p}
}

// VulnerabilityIDOf is a CVE or GHSA id as the databases write it: CVE-
// and GHSA- upper case, a GHSA's parts lower case.
func VulnerabilityIDOf(p string) string {
	p = strings.TrimSpace(p)
	if len(p) > 5 && strings.EqualFold(p[:5], "GHSA-") {
		return "GHSA-" + strings.ToLower(p[5:])
	}
	return strings.ToUpper(p)
}

// Vulnerabilities are the columns of a vulnerability metadata table.
func Vulnerabilities(views.Common) []table.Column[api.VulnerabilityMetadata] {
	return []table.Column[api.VulnerabilityMetadata]{
		{Title: "ID", Width: 20, Order: "id", Cell: func(v *api.VulnerabilityMetadata) safe.Text { return safe.Of(v.ID) }},
		{Title: "SCORE", Width: 5, Right: true, Drop: 2, Cell: func(v *api.VulnerabilityMetadata) safe.Text {
			sc, _ := advisory.Top(v.Severities)
			return safe.Of(sc.Short())
		}},
		{Title: "RATING", Width: 8, Drop: 1, Search: true, Cell: func(v *api.VulnerabilityMetadata) safe.Text {
			sc, _ := advisory.Top(v.Severities)
			return safe.Of(sc.Rating())
		}},
		{Title: "SUMMARY", Flex: 1, Min: 20, Search: true, Cell: func(v *api.VulnerabilityMetadata) safe.Text { return safe.Of(v.Summary) }},
		{Title: "REFS", Width: 4, Right: true, Drop: 3, Cell: func(v *api.VulnerabilityMetadata) safe.Text {
			return safe.Of(text.Count(len(v.References)))
		}},
	}
}

// DocumentOrders: the service answers every document at once, by package.
func DocumentOrders() []table.Order { return []table.Order{{Label: "by package"}} }

// VulnerabilityOrders is the `s` cycle of vulnerabilities: by id, either
// way.
func VulnerabilityOrders() []table.Order {
	return []table.Order{{Label: "by id"}, {Label: "by id, last first", OrderBy: api.OrderIDDesc}}
}

// VulnerabilityChip is the chip of a server filter on vulnerabilities:
// an id exactly; "" for a pattern that is none.
func VulnerabilityChip(p string) string {
	if !IsVulnerabilityID(p) {
		return ""
	}
	return "id = " + VulnerabilityIDOf(p)
}

// ResolvedRow is one vulnerability resolved in an image, on its day.
type ResolvedRow struct {
	Date api.Time
	api.ResolvedVuln
}

// ResolvedKey tells rows apart: a vulnerability may be resolved on two
// days (in two of the image's tags).
func ResolvedKey(r *ResolvedRow) string { return r.Date.Time().Format("2006-01-02") + " " + r.ID }

// ResolvedRows are the rows of reports, newest day first, each day's in
// the order the service gave.
func ResolvedRows(reports []api.ResolvedVulnsReport) []ResolvedRow {
	var out []ResolvedRow
	for _, r := range reports {
		for _, v := range r.ResolvedVulns {
			out = append(out, ResolvedRow{Date: r.Date, ResolvedVuln: v})
		}
	}
	slices.SortStableFunc(out, func(a, b ResolvedRow) int { return b.Date.Compare(a.Date) })
	return out
}

// Resolved are the columns of the vulnerabilities resolved in an image.
func Resolved(c views.Common) []table.Column[ResolvedRow] {
	return []table.Column[ResolvedRow]{
		{Title: "DATE", Width: 10, Cell: func(r *ResolvedRow) safe.Text { return safe.Of(r.Date.Time().Format("2006-01-02")) }},
		{Title: "ADVISORY", Width: 18, Cell: func(r *ResolvedRow) safe.Text { return safe.Of(r.ID) }},
		{Title: "ALIASES", Flex: 1, Min: 14, Search: true, Cell: func(r *ResolvedRow) safe.Text { return safe.Join(sanitized(r.Aliases), " ") }},
		{Title: "SCORE", Width: 5, Right: true, Drop: 2, Cell: func(r *ResolvedRow) safe.Text {
			sc, _ := advisory.Top(r.CVSSSeverities)
			return safe.Of(sc.Short())
		}},
		{Title: "RATING", Width: 8, Drop: 1, Search: true, Cell: func(r *ResolvedRow) safe.Text {
			sc, _ := advisory.Top(r.CVSSSeverities)
			return safe.Of(sc.Rating())
		}},
		{Title: "AGO", Width: 7, Right: true, Drop: 3, Cell: func(r *ResolvedRow) safe.Text { return age(c, r.Date) }},
	}
}
