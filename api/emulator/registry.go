package emulator

import (
	"fmt"
	"net/http"
	"slices"
	"strings"

	"canopy/api"
)

var (
	repoFields    = []string{"uid", "name", "description", "catalogTier", "bundles", "aliases", "activeTags", "createTime", "updateTime"}
	repoUpdatable = []string{"name", "description", "catalogTier", "bundles", "aliases"}
)

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
		q, e := parseList(c.r, domainRegistry)
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
		writeJSON(c.w, api.RepoReadme{UID: uid, Content: r.Readme})
	case get && strings.Contains(rest, "/digests/"):
		i := strings.Index(rest, "/digests/")
		return c.image(rest[:i], rest[i+len("/digests/"):])
	case get:
		r, e := c.repo(rest)
		if e != nil {
			return e
		}
		writeJSON(c.w, &r.Repo)
	case c.r.Method == http.MethodPost:
		return c.createRepo(rest)
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

// image answers the architectures and size routes of a digest.
func (c *call) image(repoUID, rest string) *apiErr {
	digest, what, ok := strings.Cut(rest, "/")
	if !ok || (what != "architectures" && what != "size") {
		return newErr(api.CodeNotFound, domainRegistry, "no such path "+c.r.URL.Path)
	}
	if _, e := c.repo(repoUID); e != nil {
		return e
	}
	st := c.st
	name := repoUID + "@" + digest
	did, ok := st.digestID[digest]
	found := false
	if ok {
		for _, id := range st.tags.childIDs(repoUID) {
			if st.tags.items[id].Digest == did {
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

func (c *call) checkRepo(r *api.Repo, group, self string) *apiErr {
	if r.Name == "" {
		return badField(domainRegistry, "name", "is required")
	}
	if !repoNamePattern.MatchString(r.Name) {
		return badField(domainRegistry, "name", fmt.Sprintf("%q must be lower-case letters, digits, '.', '_', '-' or '/' (at most 128)", r.Name))
	}
	if e := checkDescription(domainRegistry, "description", r.Description); e != nil {
		return e
	}
	if r.CatalogTier != "" && !slices.Contains(catalogTiers, r.CatalogTier) {
		return badField(domainRegistry, "catalogTier", fmt.Sprintf("unknown tier %q; use one of %s", r.CatalogTier, strings.Join(catalogTiers, ", ")))
	}
	if siblingNamed(c.st.repos, group, r.Name, self) {
		return alreadyExists(domainRegistry, typeRepo, group, fmt.Sprintf("a repo named %q already exists in group %s", r.Name, group))
	}
	return nil
}

func (c *call) createRepo(group string) *apiErr {
	if _, e := c.parentGroup(domainRegistry, capRepoCreate, group, true); e != nil {
		return e
	}
	var r api.Repo
	if e := decodeBody(c, domainRegistry, &r); e != nil {
		return e
	}
	if e := c.checkRepo(&r, group, ""); e != nil {
		return e
	}
	now := c.now()
	out := repoRec{Repo: api.Repo{UID: c.st.childUID(group), Name: r.Name, Description: r.Description,
		CatalogTier: r.CatalogTier, Bundles: r.Bundles, Aliases: r.Aliases, CreateTime: now, UpdateTime: now},
		Readme: "# " + r.Name + "\n\n" + r.Description + "\n"}
	c.st.repos.insert(out)
	writeJSON(c.w, &out.Repo)
	return nil
}

func (c *call) patchRepo(uid string) *apiErr {
	if e := c.p.require(domainRegistry, capRepoUpdate, uid, true); e != nil {
		return e
	}
	id, ok := c.st.repos.find(uid)
	if !ok {
		return notFound(domainRegistry, typeRepo, uid)
	}
	var body api.Repo
	raw, e := decodePatch(c, domainRegistry, &body)
	if e != nil {
		return e
	}
	mask, e := patchMask(c, domainRegistry, raw, repoFields, repoUpdatable)
	if e != nil {
		return e
	}
	cur := c.st.repos.items[id]
	next := cur
	for _, f := range mask {
		switch f {
		case "name":
			next.Name = body.Name
		case "description":
			next.Description = body.Description
		case "catalogTier":
			next.CatalogTier = body.CatalogTier
		case "bundles":
			next.Bundles = body.Bundles
		case "aliases":
			next.Aliases = body.Aliases
		}
	}
	if e := c.checkRepo(&next.Repo, api.ParentUID(uid), uid); e != nil {
		return e
	}
	if next.Name != cur.Name || next.Description != cur.Description || next.CatalogTier != cur.CatalogTier ||
		!slices.Equal(next.Bundles, cur.Bundles) || !slices.Equal(next.Aliases, cur.Aliases) {
		next.UpdateTime = c.now()
		c.st.repos.update(id, next)
	}
	writeJSON(c.w, &next.Repo)
	return nil
}
