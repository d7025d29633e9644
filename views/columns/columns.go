// Package columns declares the table columns of every resource, in one
// place, the way k9s gives each resource a renderer. Every cell passes
// through safe: server strings never reach the terminal raw.
package columns

import (
	"strconv"
	"strings"

	"canopy/api"
	"canopy/safe"
	"canopy/text"
	"canopy/views"
	"canopy/views/advisory"
	"canopy/views/identity"
	"canopy/views/table"
)

// Orders is the `s` cycle every collection supports.
func Orders() []table.Order {
	return []table.Order{
		{Label: "name ↑", OrderBy: api.OrderName},
		{Label: "name ↓", OrderBy: api.OrderNameDesc},
		{Label: "newest first", OrderBy: api.OrderCreatedDesc},
		{Label: "recently updated", OrderBy: api.OrderUpdatedDesc},
		{Label: "least recently updated", OrderBy: api.OrderUpdated},
	}
}

// TagOrders is the `s` cycle of tags: a tag has no creation time, so the
// newest are the recently updated; the last is canopy's own (see
// ByVersion, the table's Sort).
func TagOrders() []table.Order {
	return []table.Order{
		{Label: "name ↑", OrderBy: api.OrderName},
		{Label: "name ↓", OrderBy: api.OrderNameDesc},
		{Label: "recently updated", OrderBy: api.OrderUpdatedDesc},
		{Label: "least recently updated", OrderBy: api.OrderUpdated},
		// Versions as people read them (ByVersion): the server has no such
		// order, so every tag loads (by name) and canopy sorts them.
		{Label: "version", OrderBy: api.OrderName, Local: true},
	}
}

// VersionOrders is the `s` cycle of an artifact's versions: the server's
// own order (newest version first), the other way (canopy's own, by
// version as people read them: ByVersion, the table's Sort), then by
// publication.
func VersionOrders() []table.Order {
	return []table.Order{
		{Label: "newest version first"},
		{Label: "oldest version first", Local: true},
		{Label: "newest published", OrderBy: api.OrderCreatedDesc},
		{Label: "oldest published", OrderBy: api.OrderCreated},
	}
}

// Names gives a resolver of the display names known now (e.g. a repo uid
// to its name), which returns "" for a uid it does not know yet. The
// resolver reads only what it took when made: the filter's snapshot makes
// one in Update and searches with it off the UI loop (Column.Snap).
type Names func() func(uid string) string

func age(c views.Common, t api.Time) safe.Text { return safe.Of(text.Age(t.Time(), c.Clock())) }

// Folders gives the path of the folder a resource lives in
// ("platform/base-images"; the organization's name for itself), the way k9s
// shows a NAMESPACE; "" while the folder names are not known. Like Names,
// it gives a resolver that reads only what it took when made.
type Folders Names

// resolved is the column text of a resource under the parent its uid
// names: the parent's name as resolve knows it, else a short uid.
func resolved[T any](resolve func(string) string, uid func(*T) string) func(*T) safe.Text {
	return func(it *T) safe.Text {
		parent := api.ParentUID(uid(it))
		if parent == "" {
			return "—" // lives in no folder: a built-in role
		}
		if n := resolve(parent); n != "" {
			return safe.Of(n)
		}
		return safe.Of(text.Short(parent[strings.LastIndexByte(parent, '/')+1:], 8))
	}
}

// byParent is a searched column (FOLDER, REPO) naming each row's parent:
// drawn with the names known at each frame, searched with those known when
// the filter took its snapshot.
func byParent[T any](title string, names Names, uid func(*T) string) table.Column[T] {
	return table.Column[T]{Title: title, Search: true,
		Cell: func(it *T) safe.Text { return resolved(names(), uid)(it) },
		Snap: func() func(*T) safe.Text { return resolved(names(), uid) }}
}

// folder is the FOLDER column for resources whose parent uid is a group.
func folder[T any](folders Folders, uid func(*T) string, drop int) table.Column[T] {
	c := byParent("FOLDER", Names(folders), uid)
	c.Flex, c.Min, c.Max, c.Drop = 2, 12, 30, drop
	return c
}

// withFolder puts a FOLDER column second when folders is given.
func withFolder[T any](cols []table.Column[T], folders Folders, uid func(*T) string, drop int) []table.Column[T] {
	if folders == nil {
		return cols
	}
	return append(cols[:1:1], append([]table.Column[T]{folder(folders, uid, drop)}, cols[1:]...)...)
}

// Groups are the columns of a group (folder) table.
func Groups(c views.Common) []table.Column[api.Group] { return GroupsIn(c, nil) }

// GroupsIn are the columns of a folder table spanning folders: FOLDER is
// the path of each one's parent ("platform" for platform/ci).
func GroupsIn(c views.Common, folders Folders) []table.Column[api.Group] {
	return withFolder([]table.Column[api.Group]{
		{Title: "NAME", Flex: 2, Min: 12, Max: 32, Order: "name", Cell: func(g *api.Group) safe.Text { return safe.Of(g.Name) }},
		{Title: "DESCRIPTION", Flex: 3, Min: 12, Drop: 2, Search: true, Cell: func(g *api.Group) safe.Text { return safe.Of(g.Description) }},
		{Title: "DEPTH", Width: 5, Right: true, Drop: 3, Cell: func(g *api.Group) safe.Text { return safe.Of(strconv.Itoa(strings.Count(g.UID, "/"))) }},
		{Title: "UPDATED", Width: 7, Right: true, Order: "update_time", Cell: func(g *api.Group) safe.Text { return age(c, g.UpdateTime) }},
		{Title: "CREATED", Width: 7, Right: true, Drop: 1, Order: "created_at", Cell: func(g *api.Group) safe.Text { return age(c, g.CreateTime) }},
	}, folders, api.GroupKey, 1)
}

// Repos are the columns of a repo table.
func Repos(c views.Common) []table.Column[api.Repo] { return ReposIn(c, nil) }

// ReposIn are the columns of a repo table spanning folders: FOLDER says
// where each lives.
func ReposIn(c views.Common, folders Folders) []table.Column[api.Repo] {
	return withFolder([]table.Column[api.Repo]{
		{Title: "NAME", Flex: 2, Min: 16, Max: 36, Order: "name", Cell: func(r *api.Repo) safe.Text { return safe.Of(r.Name) }},
		{Title: "TIER", Width: 11, Drop: 4, Search: true, Cell: func(r *api.Repo) safe.Text {
			return safe.Of(api.TierWord(r.CatalogTier))
		}},
		{Title: "DESCRIPTION", Flex: 2, Min: 14, Drop: 3, Search: true, Cell: func(r *api.Repo) safe.Text { return safe.Of(r.Description) }},
		{Title: "UPDATED", Width: 7, Right: true, Order: "update_time", Cell: func(r *api.Repo) safe.Text { return age(c, r.UpdateTime) }},
		{Title: "CREATED", Width: 7, Right: true, Drop: 2, Order: "created_at", Cell: func(r *api.Repo) safe.Text { return age(c, r.CreateTime) }},
	}, folders, api.RepoKey, 1)
}

// Tags are the columns of a tag table; repoNames (may be nil) adds the
// repo column for tables that span repos.
func Tags(c views.Common, repoNames Names) []table.Column[api.Tag] {
	cols := []table.Column[api.Tag]{
		{Title: "TAG", Flex: 2, Min: 14, Max: 40, Order: "name", Middle: true, Cell: func(t *api.Tag) safe.Text { return safe.Of(t.Name) }},
	}
	if repoNames != nil {
		// Before STATUS in the dropping order: without it, rows of many
		// repos cannot be told apart.
		c := byParent("REPO", repoNames, api.TagKey)
		c.Flex, c.Min, c.Max, c.Drop = 1, 10, 30, 2
		cols = append(cols, c)
	}
	return append(cols,
		table.Column[api.Tag]{Title: "DIGEST", Width: 19, Drop: 5, Search: true, Cell: func(t *api.Tag) safe.Text { return safe.Of(text.Short(t.Digest, 12)) }},
		table.Column[api.Tag]{Title: "STATUS", Flex: 2, Min: 10, Max: 24, Drop: 3, Search: true, Cell: func(t *api.Tag) safe.Text {
			return TagStatus(c, t)
		}, Shorter: func(t *api.Tag) []safe.Text {
			if !t.Deprecated {
				return nil
			}
			return []safe.Text{"deprecated " + age(c, t.UpdateTime), "deprecated"}
		}},
		// A tag has no creation time: UPDATED (when it last moved) is its age.
		table.Column[api.Tag]{Title: "UPDATED", Width: 7, Right: true, Order: "update_time", Cell: func(t *api.Tag) safe.Text { return age(c, t.UpdateTime) }},
	)
}

// TagStatus is "deprecated, 143 days old" for a deprecated tag (its age
// since its last update), "" for the others.
func TagStatus(c views.Common, t *api.Tag) safe.Text {
	if !t.Deprecated {
		return ""
	}
	if t.UpdateTime.IsZero() {
		return "deprecated"
	}
	days := int(c.Clock().Sub(t.UpdateTime.Time()).Hours() / 24)
	if days == 1 {
		return "deprecated, 1 day old"
	}
	return "deprecated, " + safe.Of(text.Count(max(days, 0))) + " days old"
}

// TagRow draws deprecated tags struck through.
func TagRow(t *api.Tag) table.RowKind {
	if t.Deprecated {
		return table.RowDeprecated
	}
	return table.RowNormal
}

// Identities are the columns of an identity table.
func Identities(c views.Common) []table.Column[api.Identity] { return IdentitiesIn(c, nil) }

// IdentitiesIn are the columns of an identity table spanning folders.
func IdentitiesIn(c views.Common, folders Folders) []table.Column[api.Identity] {
	return withFolder([]table.Column[api.Identity]{
		{Title: "NAME", Flex: 2, Min: 12, Max: 32, Order: "name", Cell: func(id *api.Identity) safe.Text { return safe.Of(id.Name) }},
		// Prose, which the detail pane shows whole: it goes first when the
		// width is short, before what tells how the identity is assumed.
		{Title: "DESCRIPTION", Flex: 2, Min: 12, Drop: 5, Search: true, Cell: func(id *api.Identity) safe.Text { return safe.Of(id.Description) }},
		// Whichever way the identity is assumed: a claim match (a pattern
		// marked "~"), static keys, an AWS account, a service.
		{Title: "ISSUER", Flex: 2, Min: 12, Drop: 3, Search: true, Cell: identity.Issuer},
		{Title: "SUBJECT", Flex: 2, Min: 12, Drop: 4, Search: true, Cell: identity.Subject},
		{Title: "SEEN", Width: 7, Right: true, Drop: 2, Cell: func(id *api.Identity) safe.Text { return age(c, id.LastSeenTime) }},
		{Title: "CREATED", Width: 7, Right: true, Order: "created_at", Cell: func(id *api.Identity) safe.Text { return age(c, id.CreateTime) }},
	}, folders, api.IdentityKey, 1)
}

// Bindings are the columns of a role binding table.
func Bindings(c views.Common) []table.Column[api.RoleBinding] { return BindingsIn(c, nil) }

// BindingsIn are the columns of a role binding table spanning folders:
// FOLDER is the path of the bound group, not only its name.
func BindingsIn(c views.Common, folders Folders) []table.Column[api.RoleBinding] {
	ref := func(r *api.Ref) safe.Text {
		if r == nil {
			return "?"
		}
		return safe.Of(r.Name)
	}
	cols := []table.Column[api.RoleBinding]{
		{Title: "IDENTITY", Flex: 2, Min: 12, Max: 36, Cell: func(b *api.RoleBinding) safe.Text {
			if b.Identity == nil {
				return "?"
			}
			return safe.Of(b.Identity.Name)
		}},
		{Title: "ROLE", Flex: 1, Min: 10, Max: 28, Search: true, Cell: func(b *api.RoleBinding) safe.Text { return ref(b.Role) }},
		{Title: "FOLDER", Flex: 1, Min: 10, Drop: 2, Search: true, Cell: func(b *api.RoleBinding) safe.Text { return ref(b.Group) }},
		{Title: "CREATED", Width: 7, Right: true, Order: "created_at", Cell: func(b *api.RoleBinding) safe.Text { return age(c, b.CreateTime) }},
	}
	if folders != nil {
		f := folder(folders, api.RoleBindingKey, 2)
		f.Flex, f.Min = 1, 10
		cols[2] = f
	}
	return cols
}

// Roles are the columns of a role table.
func Roles(c views.Common) []table.Column[api.Role] { return RolesIn(c, nil) }

// RolesIn are the columns of a role table spanning folders: FOLDER is
// where a custom role was made, — for a built-in one.
func RolesIn(c views.Common, folders Folders) []table.Column[api.Role] {
	return withFolder([]table.Column[api.Role]{
		{Title: "NAME", Flex: 1, Min: 14, Max: 30, Order: "name", Cell: func(r *api.Role) safe.Text { return safe.Of(r.Name) }},
		{Title: "KIND", Width: 8, Cell: func(r *api.Role) safe.Text {
			if strings.Contains(r.UID, "/") {
				return "custom"
			}
			return "built-in"
		}},
		{Title: "CAPS", Width: 4, Right: true, Cell: func(r *api.Role) safe.Text { return safe.Of(strconv.Itoa(len(r.Capabilities))) }},
		{Title: "DESCRIPTION", Flex: 3, Min: 12, Drop: 1, Search: true, Cell: func(r *api.Role) safe.Text { return safe.Of(r.Description) }},
	}, folders, api.RoleKey, 1)
}

// Advisories are the columns of an advisory table.
func Advisories(c views.Common) []table.Column[api.Advisory] {
	return []table.Column[api.Advisory]{
		{Title: "ID", Width: 18, Order: "name", Cell: func(a *api.Advisory) safe.Text { return safe.Of(a.AdvisoryID) }},
		{Title: "ARTIFACT", Flex: 1, Min: 10, Max: 30, Search: true, Cell: func(a *api.Advisory) safe.Text { return safe.Of(a.ArtifactName) }},
		{Title: "COMPONENT", Flex: 1, Min: 10, Drop: 4, Search: true, Cell: func(a *api.Advisory) safe.Text { return safe.Of(a.ComponentName) }},
		{Title: "ALIASES", Flex: 1, Min: 14, Max: 34, Drop: 3, Search: true, Cell: func(a *api.Advisory) safe.Text { return safe.Join(sanitized(a.Aliases), " ") }},
		// As wide as its scores: "9.8", "v4.0" (a version 4 vector, not
		// computed), up to a few more cells for what else a server sends.
		{Title: "SCORE", Width: 8, Right: true, Drop: 2, Cell: func(a *api.Advisory) safe.Text {
			sc, _ := advisory.TopScore(a)
			return safe.Of(sc.Short())
		}},
		// Every status in words ("analysis not planned") at the least, and
		// room to grow for a newer event in review beside it.
		{Title: "STATUS", Flex: 1, Min: 30, Max: 64, Drop: 1, Search: true, Cell: func(a *api.Advisory) safe.Text { return safe.Of(advisory.Status(a)) }},
		{Title: "UPDATED", Width: 7, Right: true, Order: "update_time", Cell: func(a *api.Advisory) safe.Text { return age(c, a.UpdateTime) }},
	}
}

func sanitized(ss []string) []safe.Text {
	out := make([]safe.Text, len(ss))
	for i, s := range ss {
		out[i] = safe.Of(s)
	}
	return out
}

// Subscriptions are the columns of a subscription table.
func Subscriptions(c views.Common) []table.Column[api.Subscription] { return SubscriptionsIn(c, nil) }

// SubscriptionsIn are the columns of a subscription table spanning
// folders: FOLDER replaces the uid, whose long shared prefix told nothing.
func SubscriptionsIn(c views.Common, folders Folders) []table.Column[api.Subscription] {
	cols := []table.Column[api.Subscription]{
		{Title: "SINK", Flex: 3, Min: 20, Max: 72, Cell: func(s *api.Subscription) safe.Text { return safe.Of(s.Sink) }},
		{Title: "UID", Flex: 1, Min: 16, Drop: 1, Search: true, Cell: func(s *api.Subscription) safe.Text { return safe.Of(s.UID) }},
	}
	if folders != nil {
		cols[1] = folder(folders, api.SubscriptionKey, 1)
	}
	return cols
}

// Artifacts are the columns of a library artifact table.
func Artifacts(c views.Common) []table.Column[api.Artifact] {
	return []table.Column[api.Artifact]{
		// Maven coordinates ("group:artifact") run long: the name takes
		// what it needs, up to 72 cells.
		{Title: "NAME", Flex: 2, Min: 16, Max: 72, Order: "name", Cell: func(a *api.Artifact) safe.Text { return safe.Of(a.Name) }},
		{Title: "ECOSYSTEM", Width: 10, Search: true, Cell: func(a *api.Artifact) safe.Text {
			return safe.Of(strings.ToLower(strings.TrimPrefix(a.Ecosystem, "ECOSYSTEM_")))
		}},
		{Title: "LATEST", Width: 12, Drop: 2, Cell: func(a *api.Artifact) safe.Text { return safe.Of(a.LatestVersion) }},
		{Title: "VERSIONS", Width: 8, Right: true, Drop: 3, Cell: func(a *api.Artifact) safe.Text { return safe.Of(text.Count(int(a.VersionCount))) }},
		{Title: "DESCRIPTION", Flex: 3, Min: 12, Drop: 1, Search: true, Cell: func(a *api.Artifact) safe.Text { return safe.Of(a.Description) }},
	}
}

// Versions are the columns of an artifact's version table.
func Versions(c views.Common) []table.Column[api.ArtifactVersion] {
	return []table.Column[api.ArtifactVersion]{
		{Title: "VERSION", Flex: 1, Min: 12, Max: 40, Cell: func(v *api.ArtifactVersion) safe.Text { return safe.Of(v.Version) }},
		{Title: "SIZE", Width: 10, Right: true, Drop: 2, Cell: func(v *api.ArtifactVersion) safe.Text {
			if v.SizeBytes <= 0 {
				return ""
			}
			return safe.Of(text.Bytes(int64(v.SizeBytes)))
		}},
		{Title: "CREATED", Width: 7, Right: true, Order: "created_at", Cell: func(v *api.ArtifactVersion) safe.Text { return age(c, v.CreateTime) }},
		{Title: "UPDATED", Width: 7, Right: true, Drop: 1, Order: "update_time", Cell: func(v *api.ArtifactVersion) safe.Text { return age(c, v.UpdateTime) }},
	}
}
