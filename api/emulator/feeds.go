package emulator

import (
	"net/http"
	"slices"
	"strings"

	"canopy/api"
)

// The advisory and library feeds are global: any authenticated caller reads them.

func (c *call) advisories(rest string) *apiErr {
	st := c.st
	if c.r.Method != http.MethodGet {
		return methodNotAllowed(domainVulns, c.r)
	}
	if rest != "" {
		a, ok := st.advs.get(rest)
		if !ok {
			return notFound(domainVulns, typeAdvisory, rest)
		}
		writeJSON(c.w, a)
		return nil
	}
	q, e := parseList(c.r, domainVulns)
	if e != nil {
		return e
	}
	names, ids := q.p.all("artifact_names"), q.p.all("advisory_ids")
	query := strings.ToLower(q.p.get("query"))
	ls := listSpec[api.Advisory]{c: st.advs, plural: "advisories", mask: maskAll,
		extra: []string{strings.Join(names, ","), strings.Join(ids, ","), query},
		out:   func(a *api.Advisory) any { return a }}
	if len(names) > 0 || len(ids) > 0 || query != "" {
		ls.keep = func(a *api.Advisory) bool {
			return (len(names) == 0 || slices.Contains(names, a.ArtifactName)) &&
				(len(ids) == 0 || slices.Contains(ids, a.AdvisoryID)) &&
				(query == "" || advisoryMatches(a, query))
		}
	}
	runList(c.srv, c.w, c.r, q, ls)
	return nil
}

// advisoryMatches is the `query` substring filter, case-insensitive, over the
// advisory id, artifact, component and aliases.
func advisoryMatches(a *api.Advisory, q string) bool {
	for _, s := range append([]string{a.AdvisoryID, a.ArtifactName, a.ComponentName}, a.Aliases...) {
		if strings.Contains(strings.ToLower(s), q) {
			return true
		}
	}
	return false
}

func (c *call) artifactsRoute(rest string) *apiErr {
	st := c.st
	if c.r.Method != http.MethodGet {
		return methodNotAllowed(domainLibraries, c.r)
	}
	p := params{c.r.URL.Query()}
	ecos := p.all("ecosystems")
	switch {
	case rest == "count":
		counts := api.ArtifactCounts{}
		if len(ecos) == 0 {
			ecos = api.Ecosystems()
		}
		for _, eco := range ecos {
			n := 0
			for i := range st.artifacts.items {
				if !st.artifacts.dead[i] && st.artifacts.items[i].Ecosystem == eco {
					n++
				}
			}
			counts.Counts = append(counts.Counts, api.EcosystemCount{Ecosystem: eco, TotalCount: api.Int64(n)})
		}
		writeJSON(c.w, counts)
	case strings.HasSuffix(rest, "/versions"):
		art := strings.TrimSuffix(rest, "/versions")
		if _, ok := st.artifacts.get(art); !ok {
			return notFound(domainLibraries, typeArtifact, art)
		}
		q, e := parseList(c.r, domainLibraries)
		if e != nil {
			return e
		}
		q.childrenOf, q.descendantsOf, q.inRoot = art, "", false
		runList(c.srv, c.w, c.r, q, listSpec[api.ArtifactVersion]{c: st.versions, plural: "artifactVersions", mask: maskAll,
			out: func(v *api.ArtifactVersion) any { return v }})
	case rest != "":
		a, ok := st.artifacts.get(rest)
		if !ok {
			return notFound(domainLibraries, typeArtifact, rest)
		}
		writeJSON(c.w, a)
	default:
		q, e := parseList(c.r, domainLibraries)
		if e != nil {
			return e
		}
		query := strings.ToLower(q.p.get("query"))
		ls := listSpec[api.Artifact]{c: st.artifacts, plural: "artifacts", mask: maskAll,
			extra: []string{strings.Join(ecos, ","), query},
			out:   func(a *api.Artifact) any { return a }}
		if len(ecos) > 0 || query != "" {
			ls.keep = func(a *api.Artifact) bool {
				return (len(ecos) == 0 || slices.Contains(ecos, a.Ecosystem)) &&
					(query == "" || strings.Contains(strings.ToLower(a.Name), query) ||
						strings.Contains(strings.ToLower(a.Description), query))
			}
		}
		runList(c.srv, c.w, c.r, q, ls)
	}
	return nil
}

func (c *call) subscriptions(rest string) *apiErr {
	st := c.st
	switch {
	case rest == "" && c.r.Method == http.MethodGet:
		q, e := parseList(c.r, domainEvents)
		if e != nil {
			return e
		}
		runList(c.srv, c.w, c.r, q, listSpec[api.Subscription]{c: st.subs, plural: "subscriptions", mask: maskAll,
			keep: scopedKeep(c.p, capSubsList, false, func(s *api.Subscription) string { return s.UID }),
			out:  func(s *api.Subscription) any { return s }})
	case rest == "":
		return methodNotAllowed(domainEvents, c.r)
	case c.r.Method == http.MethodGet:
		if e := c.p.require(domainEvents, capSubsList, rest, false); e != nil {
			return e
		}
		s, ok := st.subs.get(rest)
		if !ok {
			return notFound(domainEvents, typeSubscription, rest)
		}
		writeJSON(c.w, s)
	case c.r.Method == http.MethodPost:
		if _, e := c.parentGroup(domainEvents, capSubsCreate, rest, false); e != nil {
			return e
		}
		var body api.Subscription
		if e := decodeBody(c, domainEvents, &body); e != nil {
			return e
		}
		if e := checkHTTPSURL(domainEvents, "sink", body.Sink); e != nil {
			return e
		}
		out := api.Subscription{UID: st.childUID(rest), Sink: body.Sink}
		st.subs.insert(out)
		writeJSON(c.w, out)
	case c.r.Method == http.MethodDelete:
		if e := c.p.require(domainEvents, capSubsDelete, rest, false); e != nil {
			return e
		}
		id, ok := st.subs.find(rest)
		if !ok {
			return notFound(domainEvents, typeSubscription, rest)
		}
		st.subs.remove(id)
		writeJSON(c.w, struct{}{})
	default:
		return methodNotAllowed(domainEvents, c.r)
	}
	return nil
}
