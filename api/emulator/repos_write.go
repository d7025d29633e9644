package emulator

import (
	"fmt"
	"slices"
	"strings"

	"canopy/api"
)

func (c *call) checkRepo(r *api.Repo, group, self string) *apiErr {
	if r.Name == "" {
		return badField(domainRegistry, "name", "is required")
	}
	if !api.RepoName.Match(r.Name) {
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

// syncSource checks a sync config's source, a repo uid (the service also
// takes catalog names and image references, and stores the uid they name;
// the emulator takes the uid only), and returns that repo.
func (c *call) syncSource(sc *api.SyncConfig, self string) (*repoRec, *apiErr) {
	if sc.Source == "" {
		return nil, badField(domainRegistry, "sync_config.source", "is required: the uid of the repo to sync from")
	}
	if sc.Source == self {
		return nil, badField(domainRegistry, "sync_config.source", "a repo cannot sync from itself")
	}
	src, ok := c.st.repos.get(sc.Source)
	if !ok {
		return nil, badField(domainRegistry, "sync_config.source", fmt.Sprintf("no repo has uid %q", sc.Source))
	}
	if src.SyncConfig != nil {
		return nil, badField(domainRegistry, "sync_config.source", fmt.Sprintf("repo %q syncs from another repo itself", src.Name))
	}
	return src, nil
}

// inherit gives a syncing repo what it takes from its source: tier,
// bundles, aliases and active tags, and a description when it has none.
func inherit(r *api.Repo, src *repoRec) {
	r.CatalogTier, r.Bundles, r.Aliases = src.CatalogTier, slices.Clone(src.Bundles), slices.Clone(src.Aliases)
	r.ActiveTags = slices.Clone(src.ActiveTags)
	if r.Description == "" {
		r.Description = src.Description
	}
}

func (c *call) createRepo(group string) *apiErr {
	if _, e := c.parentGroup(domainRegistry, capRepoCreate, group, true); e != nil {
		return e
	}
	var r api.Repo
	if e := decodeBody(c, domainRegistry, &r); e != nil {
		return e
	}
	out := api.Repo{Name: r.Name, Description: r.Description, CatalogTier: r.CatalogTier, Bundles: r.Bundles,
		Aliases: r.Aliases, ActiveTags: r.ActiveTags}
	if r.SyncConfig != nil {
		src, e := c.syncSource(r.SyncConfig, "")
		if e != nil {
			return e
		}
		out.SyncConfig = &api.SyncConfig{Source: src.UID, Google: r.SyncConfig.Google, Amazon: r.SyncConfig.Amazon,
			Azure: r.SyncConfig.Azure, ExpirationTime: api.TimeOf(c.srv.now().Add(14 * day))}
		inherit(&out, src)
	}
	if e := c.checkRepo(&out, group, ""); e != nil {
		return e
	}
	now := c.now()
	out.UID, out.CreateTime, out.UpdateTime = c.st.childUID(group), now, now
	rec := repoRec{Repo: out, Readme: "# " + r.Name + "\n\n" + out.Description + "\n"}
	c.st.repos.insert(rec)
	writeJSON(c.w, &rec.Repo)
	return nil
}

// synced are the repo fields a repo that syncs takes from its source, by
// JSON name, with how to tell whether a PATCH changed them.
var synced = []struct {
	field string
	same  func(a, b *api.Repo) bool
}{
	{"catalogTier", func(a, b *api.Repo) bool { return a.CatalogTier == b.CatalogTier }},
	{"bundles", func(a, b *api.Repo) bool { return slices.Equal(a.Bundles, b.Bundles) }},
	{"aliases", func(a, b *api.Repo) bool { return slices.Equal(a.Aliases, b.Aliases) }},
	{"activeTags", func(a, b *api.Repo) bool { return slices.Equal(a.ActiveTags, b.ActiveTags) }},
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
	cur := c.st.repos.items[id]
	var next api.Repo
	if e := patched(c, domainRegistry, &cur.Repo, raw, repoSpec(), &next); e != nil {
		return e
	}
	switch {
	case next.SyncConfig != nil && cur.SyncConfig != nil && next.SyncConfig.Source == cur.SyncConfig.Source:
		// Still syncing from the same repo: what comes from it stays, and
		// so do the output-only parts of the sync config.
		sc, was := *next.SyncConfig, cur.SyncConfig
		sc.UniqueTags, sc.GracePeriod, sc.ExpirationTime = was.UniqueTags, was.GracePeriod, was.ExpirationTime
		next.SyncConfig = &sc
		for _, f := range synced {
			if !f.same(&next, &cur.Repo) {
				return badField(domainRegistry, f.field, fmt.Sprintf("this repo syncs from %s, which its %s comes from: it cannot be changed here", cur.SyncConfig.Source, f.field))
			}
		}
	case next.SyncConfig != nil:
		src, e := c.syncSource(next.SyncConfig, uid)
		if e != nil {
			return e
		}
		// Output-only parts are the server's, whatever the body said.
		sc := *next.SyncConfig
		sc.UniqueTags, sc.GracePeriod, sc.ExpirationTime = false, false, api.TimeOf(c.srv.now().Add(14*day))
		next.SyncConfig = &sc
		inherit(&next, src)
	}
	if e := c.checkRepo(&next, api.ParentUID(uid), uid); e != nil {
		return e
	}
	if !sameJSON(next, cur.Repo) {
		next.UpdateTime = c.now()
		c.st.repos.update(id, repoRec{Repo: next, Readme: cur.Readme, seeded: cur.seeded})
	}
	writeJSON(c.w, &next)
	return nil
}
