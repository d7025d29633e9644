package emulator

import (
	"fmt"
	"net/http"
	"slices"
	"strings"

	"canopy/api"
)

// The advisory and library feeds are global: any authenticated caller reads them.

// eventTypeFilters maps the EventTypeFilter values of the event_types and
// latest_event_type filters to the event kinds (JSON keys) they select:
// the client's own names of them, read backwards.
func eventTypeFilters() map[string]string {
	out := map[string]string{}
	for _, k := range api.EventKinds() {
		out[api.EventFilter(k)] = k
	}
	return out
}

// eventKinds reads an EventTypeFilter parameter as event kinds; the
// UNSPECIFIED value filters nothing.
func eventKinds(field string, values []string) ([]string, *apiErr) {
	var out []string
	for _, v := range values {
		if v == "EVENT_TYPE_FILTER_UNSPECIFIED" {
			continue
		}
		k, ok := eventTypeFilters()[v]
		if !ok {
			return nil, badField(domainVulns, field, fmt.Sprintf("unknown event type %q; use EVENT_TYPE_FILTER_DETECTION, EVENT_TYPE_FILTER_FIXED, …", v))
		}
		out = append(out, k)
	}
	return out, nil
}

// advisoryFilter is the filters of an advisory list; keep is nil when
// there are none.
type advisoryFilter struct {
	names, ids, kinds, latest []string
	query, origin             string
}

func (f advisoryFilter) keep() func(*api.Advisory) bool {
	if len(f.names)+len(f.ids)+len(f.kinds)+len(f.latest) == 0 && f.query == "" && f.origin == "" {
		return nil
	}
	// An origin stands for its package and subpackages, and replaces the
	// artifact names (as the service resolves subpackages itself).
	names := f.names
	if f.origin != "" {
		names = nil
	}
	return func(a *api.Advisory) bool {
		if (len(names) > 0 && !slices.Contains(names, a.ArtifactName)) ||
			(f.origin != "" && originOf(a.ArtifactName) != f.origin) ||
			(len(f.ids) > 0 && !slices.Contains(f.ids, a.AdvisoryID)) ||
			(f.query != "" && !advisoryMatches(a, f.query)) {
			return false
		}
		if len(f.kinds) > 0 && !slices.ContainsFunc(a.Events, func(e api.AdvisoryEvent) bool { return slices.Contains(f.kinds, e.Kind) }) {
			return false
		}
		if len(f.latest) > 0 {
			last := a.LatestApproved()
			return last != nil && slices.Contains(f.latest, last.Kind)
		}
		return true
	}
}

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
	q, e := c.parseList(domainVulns, sortUnnamed)
	if e != nil {
		return e
	}
	f := advisoryFilter{names: q.p.all("artifact_names"), ids: q.p.all("advisory_ids"), query: strings.ToLower(q.p.get("query")),
		origin: q.p.get("origin")}
	if f.kinds, e = eventKinds("event_types", q.p.all("event_types")); e != nil {
		return e
	}
	if f.latest, e = eventKinds("latest_event_type", q.p.all("latest_event_type")); e != nil {
		return e
	}
	ls := listSpec[api.Advisory]{c: st.advs, plural: "advisories", mask: maskAll, keep: f.keep(),
		extra: []string{strings.Join(f.names, ","), strings.Join(f.ids, ","), f.query, strings.Join(f.kinds, ","), strings.Join(f.latest, ","), f.origin},
		out:   func(a *api.Advisory) any { return a }}
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

// subpackageSuffixes end the names of the subpackages the emulator knows
// (python-3.12-dev is a subpackage of python-3.12).
var subpackageSuffixes = []string{"-dev", "-doc", "-libs", "-config", "-compat", "-bin"}

// originOf is the origin package of an artifact: its name without a
// subpackage's suffix.
func originOf(artifact string) string {
	for _, s := range subpackageSuffixes {
		if o, ok := strings.CutSuffix(artifact, s); ok && o != "" {
			return o
		}
	}
	return artifact
}
