package emulator

import (
	"fmt"
	"hash/fnv"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"canopy/api"
)

// The security advisory service: advisory documents and vulnerability
// metadata, read without a token, and the vulnerabilities resolved in an
// image (resolved.go). None of it is stored: it is what the seeded
// advisory feed says, put as that service puts it, so that a document's
// advisories, the metadata of a CVE and an image's resolved
// vulnerabilities are the feed's own advisories.

// Routes of the security advisory service.
const (
	documentsRoute = "/advisory/v2/documents"
	metadataRoute  = "/advisory/v2/metadata"
	resolvedRoute  = "/advisory/v2/images/resolvedVulns"
)

// openRoute reports whether a path is one of the calls that need no token
// (the service's definitions turn authentication off for them).
func openRoute(path string) bool { return path == documentsRoute || path == metadataRoute }

// maxMetadataIDs is the most ids a metadata request may name.
const maxMetadataIDs = 1000

// enterprisePackages are the origin packages whose advisories the
// emulator files under the chainguard namespace; every other is wolfi's.
var enterprisePackages = []string{"jenkins", "keycloak", "kafka", "grafana", "argocd", "trivy", "vllm", "jupyter"}

// documentKinds are the event kinds a document carries: an advisory's,
// but for patched, which documents do not have.
func documentKinds() []string {
	return slices.DeleteFunc(api.EventKinds(), func(k string) bool { return k == api.EventPatched })
}

// documents answers ListDocuments: the feed's package advisories by origin
// package, each package's in the order they were made; id keeps one
// package, cves the advisories going by any of those ids (and the
// documents holding one).
func (c *call) documents(rest string) *apiErr {
	if rest != "" {
		return noRoute()
	}
	if c.r.Method != http.MethodGet {
		return methodNotAllowed(domainVulns, c.r)
	}
	p := params{c.r.URL.Query()}
	pkg, cves := p.get("id"), p.all("cves")
	byPkg := map[string]*api.Document{}
	var order []string
	for i := range c.st.advs.items {
		a := &c.st.advs.items[i]
		if c.st.advs.dead[i] || a.ArtifactType == "image" {
			continue
		}
		origin := originOf(a.ArtifactName)
		if (pkg != "" && origin != pkg) || (len(cves) > 0 && !slices.ContainsFunc(a.Aliases, func(s string) bool { return slices.Contains(cves, s) })) {
			continue
		}
		d := byPkg[origin]
		if d == nil {
			d = &api.Document{ID: origin}
			byPkg[origin] = d
			order = append(order, origin)
		}
		d.Advisories = append(d.Advisories, documentAdvisory(a, origin))
	}
	slices.Sort(order)
	out := struct {
		Documents []api.Document `json:"documents"`
	}{Documents: []api.Document{}}
	for _, id := range order {
		out.Documents = append(out.Documents, *byPkg[id])
	}
	writeJSON(c.w, out)
	return nil
}

// documentAdvisory is an advisory of the feed as a document holds it.
func documentAdvisory(a *api.Advisory, origin string) api.DocumentAdvisory {
	ns := "wolfi"
	if slices.Contains(enterprisePackages, origin) {
		ns = "chainguard"
	}
	out := api.DocumentAdvisory{ID: a.AdvisoryID, Aliases: a.Aliases, PackageNamespace: ns}
	for _, e := range a.Events {
		if slices.Contains(documentKinds(), e.Kind) {
			d := e.Details
			if e.Kind == api.EventFixed {
				d.Note = "" // a document's Fixed (advisory/v2) has no note, unlike an advisory's
			}
			out.Events = append(out.Events, api.DocumentEvent{Timestamp: e.CreateTime, Kind: e.Kind, Details: d})
		}
	}
	return out
}

// vulnerabilityMetadata answers ListVulnerabilityMetadata: every id the
// feed's advisories go by, in id order, paged; id and ids keep those.
func (c *call) vulnerabilityMetadata(rest string) *apiErr {
	if rest != "" {
		return noRoute()
	}
	if c.r.Method != http.MethodGet {
		return methodNotAllowed(domainVulns, c.r)
	}
	p := params{c.r.URL.Query()}
	var ids []string
	for _, id := range append(p.all("ids"), p.get("id")) {
		if id != "" && !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	if len(ids) > maxMetadataIDs {
		return badField(domainVulns, "ids", fmt.Sprintf("%d ids: at most %d unique ids a request", len(ids), maxMetadataIDs))
	}
	desc, e := metadataOrder(p.get("order_by"))
	if e != nil {
		return e
	}
	size, skip, e := pageParams(p)
	if e != nil {
		return e
	}
	all := c.st.metadata(ids)
	if desc {
		slices.Reverse(all)
	}
	qh := (&listQuery{desc: desc}).hash(metadataRoute, strings.Join(ids, ","))
	start, skipped := 0, 0
	if after := decodeToken(p.get("page_token"), qh, c.srv.now(), c.srv.tokenLifetime); after != nil {
		start = slices.IndexFunc(all, func(m api.VulnerabilityMetadata) bool {
			return desc && m.ID < after.S || !desc && m.ID > after.S
		})
		if start < 0 {
			start = len(all)
		}
		skipped = int(after.N)
	}
	n := min(skip, len(all)-start)
	start, skipped = start+n, skipped+n
	end := min(start+size, len(all))
	body := map[string]any{"vulnerabilityMetadata": all[start:end], "skipped": skipped}
	if !c.srv.strict {
		body["totalCount"] = api.Int64(len(all))
	}
	if end < len(all) {
		body["nextPageToken"] = encodeToken(pageToken{Query: qh, After: posKey{S: all[end-1].ID, N: int64(skipped)},
			Issued: c.srv.now().UnixMilli()})
	}
	writeJSON(c.w, body)
	return nil
}

// metadataOrder reads order_by: the id, ascending unless asked otherwise.
func metadataOrder(v string) (desc bool, e *apiErr) {
	words := strings.Fields(v)
	switch {
	case len(words) == 0:
		return false, nil
	case words[0] != "id" || len(words) > 2:
		return false, badField(domainVulns, "order_by", fmt.Sprintf("unknown order %q; use id, optionally followed by asc or desc", v))
	case len(words) == 1 || strings.EqualFold(words[1], "asc"):
		return false, nil
	case strings.EqualFold(words[1], "desc"):
		return true, nil
	}
	return false, badField(domainVulns, "order_by", "unknown sort direction "+strconv.Quote(words[1])+"; use asc or desc")
}

// pageParams reads page_size (the default when 0, clamped to the most)
// and skip.
func pageParams(p params) (size, skip int, e *apiErr) {
	size = defaultPageSize
	for _, f := range []struct {
		name string
		dst  *int
	}{{"page_size", &size}, {"skip", &skip}} {
		v := p.get(f.name)
		if v == "" {
			continue
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return 0, 0, badField(domainVulns, f.name, "must be a non-negative integer, got "+strconv.Quote(v))
		}
		*f.dst = n
	}
	if size == 0 {
		size = defaultPageSize
	}
	return min(size, maxPageSize), skip, nil
}

// metadata is the metadata of every id the live advisories go by (of ids
// only, when some are named), in id order: each made from the first
// advisory naming it, its scores that advisory's.
func (s *store) metadata(ids []string) []api.VulnerabilityMetadata {
	seen := map[string]bool{}
	var out []api.VulnerabilityMetadata
	for i := range s.advs.items {
		a := &s.advs.items[i]
		if s.advs.dead[i] {
			continue
		}
		for _, id := range a.Aliases {
			if seen[id] || (len(ids) > 0 && !slices.Contains(ids, id)) {
				continue
			}
			seen[id] = true
			out = append(out, metadataOf(id, a))
		}
	}
	slices.SortFunc(out, func(x, y api.VulnerabilityMetadata) int { return strings.Compare(x.ID, y.ID) })
	return out
}

// weaknesses are what the seeded vulnerabilities are, by a hash of their
// id: the same id says the same whenever it is asked.
var weaknesses = []struct{ summary, details string }{
	{"heap buffer overflow when parsing crafted input",
		"A length is not checked before a copy into a heap buffer, so crafted input can write past it: a crash at least, code execution at worst."},
	{"denial of service through unbounded recursion",
		"Deeply nested input makes the parser recurse without limit and exhaust the stack."},
	{"use after free in connection teardown",
		"A connection closed while a request is in flight frees a buffer that a callback then reads."},
	{"improper certificate validation",
		"A certificate whose name does not match the host is accepted in one code path, which lets a man in the middle impersonate the server."},
	{"path traversal in archive extraction",
		"Entries of an archive naming ../ are written outside the destination directory."},
	{"HTTP request smuggling",
		"Conflicting Content-Length and Transfer-Encoding headers are read differently than a proxy in front reads them."},
	{"excessive memory use with many small frames",
		"Each frame is buffered whole before its size is checked, so a peer can make the process hold gigabytes."},
	{"integer overflow in size computation",
		"A size multiplied from two input values wraps around, and the smaller allocation is then overrun."},
}

// metadataOf is the metadata of id, an alias of a: a summary and details
// of a weakness in a's component, a's scores, and references.
func metadataOf(id string, a *api.Advisory) api.VulnerabilityMetadata {
	h := fnv.New64a()
	h.Write([]byte(id))
	sum := h.Sum64()
	w := weaknesses[sum%uint64(len(weaknesses))]
	in := ""
	if a.ArtifactName != a.ComponentName {
		in = " as shipped in " + a.ArtifactName
	}
	m := api.VulnerabilityMetadata{ID: id, Summary: a.ComponentName + ": " + w.summary,
		Details:    w.details + " It affects " + a.ComponentName + in + "; the advisory " + a.AdvisoryID + " says which versions are fixed.",
		Severities: a.Severities}
	switch {
	case strings.HasPrefix(id, "GHSA-"):
		m.References = append(m.References, api.Reference{Type: api.RefAdvisory, URL: "https://github.com/advisories/" + id})
	default:
		m.References = append(m.References, api.Reference{Type: api.RefAdvisory, URL: "https://nvd.nist.gov/vuln/detail/" + id},
			api.Reference{Type: api.RefWeb, URL: "https://www.cve.org/CVERecord?id=" + id})
	}
	project := strings.NewReplacer(":", "/", ".", "-").Replace(a.ComponentName)
	m.References = append(m.References, api.Reference{Type: api.RefFix,
		URL: fmt.Sprintf("https://github.com/%s/%s/commit/%016x", project, project, sum)})
	if sum%3 == 0 {
		m.References = append(m.References, api.Reference{Type: api.RefReport,
			URL: fmt.Sprintf("https://bugs.example.org/%s/%d", project, sum%100000)})
	}
	return m
}
