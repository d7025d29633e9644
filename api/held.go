package api

import (
	"slices"
	"strings"
	"sync"
)

// A page asked with filters is held to them here: each item must be one
// the filters allow, as the API documents them. An item one excludes
// shows that the server ignored that filter (a server of another version,
// a proxy): the item is dropped, as the filter would have, the page's
// total no longer counts what was asked, and the client remembers the
// filter as ignored for the collection, for the rest of the session, so
// that a count read later from a total is not believed either. What canopy
// then shows of that collection it filtered and counted itself.

// ignoredFilters remembers which filters of which collections the server
// was seen to ignore. Lists run in commands, hence the lock.
type ignoredFilters struct {
	mu sync.Mutex
	by map[string][]string // collection → query names, in the order seen
}

// note records a filter ignored and reports whether it is news.
func (f *ignoredFilters) note(collection, filter string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if slices.Contains(f.by[collection], filter) {
		return false
	}
	if f.by == nil {
		f.by = map[string][]string{}
	}
	f.by[collection] = append(f.by[collection], filter)
	return true
}

func (f *ignoredFilters) of(collection string) []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.by[collection])
}

// IgnoredFilters are the query names of the filters the server was seen
// to ignore on a collection (its list path's last segment: "advisories")
// this session, in the order seen; nil for none.
func (c *Client) IgnoredFilters(collection string) []string { return c.ignored.of(collection) }

// held drops the items of p that the filters of o exclude, notes each
// filter that excluded one as ignored on collection, and, when any filter
// of o is known ignored there, clears the page's total.
func held[T any](c *Client, collection string, o ListOptions, p *Page[T]) {
	var ignored []string
	read := len(p.Items)
	p.Items = slices.DeleteFunc(p.Items, func(it T) bool {
		f := excludedBy(o, &it)
		if f != "" && !slices.Contains(ignored, f) {
			ignored = append(ignored, f)
		}
		return f != ""
	})
	p.Dropped = read - len(p.Items)
	for _, f := range ignored {
		c.ignored.note(collection, f)
	}
	p.Ignored = ignored
	for _, f := range c.ignored.of(collection) {
		if o.asks(f) {
			p.Total, p.HasTotal = 0, false
			if !slices.Contains(p.Ignored, f) {
				p.Ignored = append(p.Ignored, f)
			}
		}
	}
}

// Allows reports whether item (a pointer to a listed resource) is one the
// filters of o let through, as far as they can be checked: a table asked
// with them keeps a new version of a row only while it is.
func Allows(o ListOptions, item any) bool { return excludedBy(o, item) == "" }

// asks reports whether o applies the filter of that query name: one it
// sends, or a kind of tag it leaves out by not asking for it.
func (o ListOptions) asks(filter string) bool {
	if strings.HasPrefix(filter, "include_") {
		return !o.includes(filter)
	}
	return o.values().Get(filter) != ""
}

// includes reports whether o asks for the tags a hidden kind's query name
// (include_referrers, include_dates, include_epochs) shows.
func (o ListOptions) includes(filter string) bool {
	switch filter {
	case "include_referrers":
		return o.IncludeReferrers
	case "include_dates":
		return o.IncludeDates
	case "include_epochs":
		return o.IncludeEpochs
	}
	return true
}

// TagShownBy is the query name of the filter that lists a tag of a
// hidden kind, by the forms the API gives them: "sha256-…" a referrer
// (a signature, an attestation), "…-20yymmdd" a dated tag, "…-r<N>" an
// epoch rebuild; "" for a tag every listing shows.
func TagShownBy(name string) string {
	if strings.HasPrefix(name, "sha256-") {
		return "include_referrers"
	}
	i := strings.LastIndexByte(name, '-')
	if i < 0 {
		return ""
	}
	suffix := name[i+1:]
	switch {
	case len(suffix) == 8 && strings.HasPrefix(suffix, "20") && digits(suffix):
		return "include_dates"
	case len(suffix) > 1 && suffix[0] == 'r' && digits(suffix[1:]):
		return "include_epochs"
	}
	return ""
}

func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// excludedBy is the query name of the first filter of o that excludes
// item (a pointer to a listed resource), "" when none does or none can
// be checked. A uid without a slash (a built-in role) is in no folder and
// left to the server, whether it lists those under a scope or not; an
// account association's uid is its folder's, which it may list as its own.
func excludedBy(o ListOptions, item any) string {
	if r, ok := item.(interface{ GetUID() string }); ok {
		uid := r.GetUID()
		flat := !strings.Contains(uid, "/")
		switch {
		case len(o.IDs) > 0 && !slices.Contains(o.IDs, uid):
			return "uidp.ids"
		case flat:
		case o.DescendantsOf != "" && uid != o.DescendantsOf && !strings.HasPrefix(uid, o.DescendantsOf+"/"):
			return "uidp.descendants_of"
		case o.ChildrenOf != "" && uid != o.ChildrenOf && ParentUID(uid) != o.ChildrenOf:
			return "uidp.children_of"
		}
	}
	if t, ok := item.(*Tag); ok {
		if f := TagShownBy(t.Name); f != "" && !o.includes(f) {
			return f
		}
	}
	switch it := item.(type) {
	case *Group, *Repo, *Tag, *Identity, *Role, *IdentityProvider:
		if n := it.(interface{ GetName() string }).GetName(); o.Name != "" && n != "" && n != o.Name {
			return "name"
		}
	case *Advisory:
		switch {
		case len(o.ArtifactNames) > 0 && o.Origin == "" && !slices.Contains(o.ArtifactNames, it.ArtifactName):
			return "artifact_names"
		case len(o.AdvisoryIDs) > 0 && !slices.Contains(o.AdvisoryIDs, it.AdvisoryID):
			return "advisory_ids"
		case o.LatestEventType != "" && EventFilter(o.LatestEventType) != "":
			if last := it.LatestApproved(); last == nil || last.Kind != o.LatestEventType {
				return "latest_event_type"
			}
		}
	case *RoleBinding:
		if o.Role != "" && it.Role != nil && it.Role.UID != "" && it.Role.UID != o.Role {
			return "role"
		}
	case *Artifact:
		if len(o.Ecosystems) > 0 && it.Ecosystem != "" && !slices.Contains(o.Ecosystems, it.Ecosystem) {
			return "ecosystems"
		}
	}
	return ""
}
