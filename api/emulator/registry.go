package emulator

import (
	"net/http"
	"slices"
	"strings"
	"sync"

	"canopy/api"
)

// repoSpec is how a repo is updated. Its sync_config keeps its proto name
// as JSON key (json_name), and a custom overlay needs custom assembly,
// which no emulated repo has.
var repoSpec = sync.OnceValue(func() *maskSpec {
	fields := jsonNames("uid", "name", "description", "catalog_tier", "bundles", "aliases", "active_tags",
		"custom_overlay", "create_time", "update_time")
	fields["sync_config"] = "sync_config"
	return &maskSpec{
		fields:    fields,
		updatable: []string{"name", "description", "catalog_tier", "bundles", "aliases", "active_tags", "sync_config"},
		members:   map[string][]string{"sync_config": {"source", "google", "amazon", "azure"}},
		fixed:     map[string]string{"custom_overlay": "custom assembly is not enabled on this repository"},
	}
})

// registryAccess refuses registry lists to a caller with no binding on any
// organization: an identity bound only on a subgroup cannot list the registry.
func (c *call) registryAccess(cap, scope string) *apiErr {
	if c.p.admin {
		return nil
	}
	if scope != "" {
		if !c.p.can(cap, scope, true) {
			return c.p.denied(domainRegistry, cap, scope)
		}
		return nil
	}
	for _, org := range c.st.orgs {
		if c.p.can(cap, org, true) {
			return nil
		}
	}
	return c.p.denied(domainRegistry, cap, "registry")
}

// registryScope is how a registry list without a uidp filter is narrowed
// to what the caller may see. Registry access is granted per organization,
// so a caller who sees every organization needs nothing, one who sees one
// is served from that organization's index (within), and only one who sees
// several but not all (none of the seeded identities) needs a scan (keep).
func registryScope[T any](c *call, cap string, uid func(*T) string) (within string, keep func(*T) bool) {
	if c.p.admin {
		return "", nil
	}
	var seen []string
	for _, org := range c.st.orgs {
		if c.p.can(cap, org, true) {
			seen = append(seen, org)
		}
	}
	switch len(seen) {
	case len(c.st.orgs):
		return "", nil
	case 1:
		return seen[0], nil
	}
	return "", scopedKeep(c.p, cap, true, uid)
}

func (c *call) reposRoute(rest string) *apiErr {
	st := c.st
	get := c.r.Method == http.MethodGet
	switch {
	case rest == "" && get:
		q, e := c.parseList(domainRegistry, sortNamed)
		if e != nil {
			return e
		}
		scope := q.descendantsOf + q.childrenOf
		if e := c.registryAccess(capRepoList, scope); e != nil {
			return e
		}
		ls := listSpec[repoRec]{c: st.repos, plural: "repos", mask: maskAll,
			out: func(r *repoRec) any { return &r.Repo }}
		if scope == "" {
			// Registry access is per organization: a scoped list already passed the check.
			ls.within, ls.keep = registryScope(c, capRepoList, func(r *repoRec) string { return r.UID })
		}
		if ids := q.p.all("uidp.ids"); len(ids) > 0 {
			// The repos of these exact uids, within the scope asked, each
			// found by its uid, as a service's index would (ofUIDs); the
			// uids are part of the query a page token continues.
			ls.ids = slices.Compact(slices.Sorted(slices.Values(ids)))
			ls.extra = append(slices.Clone(ls.ids), "uidp.ids")
		}
		runList(c.srv, c.w, c.r, q, ls)
		return nil
	case rest == "":
		return methodNotAllowed(domainRegistry, c.r)
	case get && strings.HasSuffix(rest, "/readme"):
		uid := strings.TrimSuffix(rest, "/readme")
		r, e := c.repo(uid)
		if e != nil {
			return e
		}
		writeJSON(c.w, api.RepoReadme{UID: uid, Content: r.readme()})
	case get && imageRoute(rest):
		i := strings.LastIndex(rest, "/digests/")
		return c.image(rest[:i], rest[i+len("/digests/"):])
	case get:
		// Any other path is a repo uid ({uid=**} takes slashes), as at the
		// gateway: an unknown suffix is a repo that does not exist.
		r, e := c.repo(rest)
		if e != nil {
			return e
		}
		writeJSON(c.w, &r.Repo)
	case c.r.Method == http.MethodPost:
		return c.createRepo(rest)
	case c.r.Method == http.MethodPatch && strings.HasSuffix(rest, "/readme"):
		return c.patchReadme(strings.TrimSuffix(rest, "/readme"))
	case c.r.Method == http.MethodPatch:
		return c.patchRepo(rest)
	case c.r.Method == http.MethodDelete:
		if e := c.p.require(domainRegistry, capRepoDelete, rest, true); e != nil {
			return e
		}
		id, ok := st.repos.find(rest)
		if !ok {
			return notFound(domainRegistry, typeRepo, rest)
		}
		if e := c.needTags(rest, true); e != nil {
			return e
		}
		// As the real registry does, deleting a repo deletes its tags: in
		// one batch, each index rebuilt once.
		st.tags.removeAll(st.tags.childIDs(rest))
		st.repos.remove(id)
		writeJSON(c.w, struct{}{})
	default:
		return methodNotAllowed(domainRegistry, c.r)
	}
	return nil
}

// repo finds a repo the caller may read.
func (c *call) repo(uid string) (*repoRec, *apiErr) {
	if e := c.p.require(domainRegistry, capRepoList, uid, true); e != nil {
		return nil, e
	}
	r, ok := c.st.repos.get(uid)
	if !ok {
		return nil, notFound(domainRegistry, typeRepo, uid)
	}
	return r, nil
}

// imageRoute reports whether a path below /registry/v2/repos/ is one of a
// digest's routes: {repo_uid=**}/digests/{digest}/architectures or /size.
func imageRoute(rest string) bool {
	i := strings.LastIndex(rest, "/digests/")
	if i <= 0 {
		return false
	}
	digest, what, ok := strings.Cut(rest[i+len("/digests/"):], "/")
	return ok && digest != "" && (what == "architectures" || what == "size")
}

// image answers the architectures and size routes of a digest.
func (c *call) image(repoUID, rest string) *apiErr {
	digest, what, _ := strings.Cut(rest, "/")
	if _, e := c.repo(repoUID); e != nil {
		return e
	}
	if e := c.needTags(repoUID, true); e != nil {
		return e
	}
	st := c.st
	name := repoUID + "@" + digest
	d, ok := parseDigest(digest)
	found := false
	if ok {
		for _, id := range st.tags.childIDs(repoUID) {
			if st.tags.items[id].Digest == d {
				found = true
				break
			}
		}
	}
	if !found {
		return notFound(domainRegistry, typeImage, name)
	}
	archs := archsOf(digest)
	if what == "architectures" {
		writeJSON(c.w, api.Architectures{Architectures: archs})
		return nil
	}
	arch := params{c.r.URL.Query()}.get("architecture")
	if arch == "" {
		return badField(domainRegistry, "architecture", "is required; this image has "+strings.Join(archs, ", "))
	}
	if !slices.Contains(archs, arch) {
		return notFound(domainRegistry, typeImage, name+" ("+arch+")")
	}
	writeJSON(c.w, api.ImageSize{Size: api.Int64(sizeOf(digest, arch)), Architecture: arch})
	return nil
}
