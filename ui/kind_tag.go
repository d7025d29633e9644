package ui

import (
	"context"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/census"
	"canopy/keymap"
	"canopy/plugin"
	"canopy/resource"
	"canopy/safe"
	"canopy/text"
	"canopy/views"
	"canopy/views/columns"
	"canopy/views/detail"
	"canopy/views/dialog"
	"canopy/views/paging"
	"canopy/views/table"
	"canopy/views/tree"
)

// tagKind: a name in a repo pointing at an image by digest.
type tagKind struct{ is[api.Tag] }

func (tagKind) of() string   { return resource.Tag }
func (tagKind) shape() shape { return shape{list: colTags, byName: true, node: true} }

// page: a tag's page reads its image with e's client, its relations from
// e's tag sets (what they hold at once, then a search), and makes its
// pull reference in e's organization.
func (tagKind) page(e *env) detail.Page {
	return detail.TagPage(detail.TagSources{
		Image: func(ctx context.Context, repo, digest string) ([]detail.ArchSize, error) {
			return architectures(ctx, e.client, repo, digest)
		},
		Related: func(ctx context.Context, t *api.Tag, reply func(detail.Related, error) tea.Msg) tea.Cmd {
			return e.tags.ask(e.client, relatedAsk{ctx: ctx, tag: t, reply: reply})
		},
		Known: func(t *api.Tag) *detail.Related { return e.tags.known(t, e.repoName(api.ParentUID(t.UID))) },
		PullRef: func(repo string, t *api.Tag) (string, string) {
			if e.org == nil || t.Digest == "" {
				return "", ""
			}
			return pullRef(e.org.Name, repo, t)
		},
		Resolved: e.resolvedSources(),
	})
}

// architectures are the architectures of an image and the size of each.
func architectures(ctx context.Context, c *api.Client, repo, digest string) ([]detail.ArchSize, error) {
	archs, err := c.GetArchitectures(ctx, repo, digest)
	if err != nil {
		return nil, fetchError("architectures", err)
	}
	out := make([]detail.ArchSize, len(archs.Architectures))
	for i, a := range archs.Architectures {
		out[i].Arch = a
		size, err := c.GetImageSize(ctx, repo, digest, a)
		if err != nil {
			out[i].Err = err
			continue
		}
		out[i].Size = int64(size.Size)
	}
	return out, nil
}
func (tagKind) vars(e *env, t *api.Tag, parent any) plugin.Vars {
	repo := e.tagRepo(t, parent)
	v := plugin.Vars{"Repo": repo, "Tag": t.Name, "Digest": t.Digest}
	if repo != "" {
		v["Image"] = registryHost + "/" + e.org.Name + "/" + repo
		v["Ref"], _ = pullRef(e.org.Name, repo, t)
	}
	return v
}

// forget: r on a tag's page reads its repo's tags again.
func (tagKind) forget(e *env, t *api.Tag)        { e.tags.forget(api.ParentUID(t.UID)) }
func (tagKind) copy(t *api.Tag) (string, string) { return t.Digest, "digest" }

// made and gone: a tag made or deleted here joins or leaves its repo's
// counts at once (the overview's deprecated tags, a repo's activity, the
// tree's count), without a refresh.
func (tagKind) made(e *env, t *api.Tag) {
	e.recount(api.ParentUID(t.UID), func(s *census.Scan, now time.Time) { s.Add([]api.Tag{*t}, now) })
}
func (tagKind) gone(e *env, t *api.Tag) {
	e.recount(api.ParentUID(t.UID), func(s *census.Scan, now time.Time) { s.Remove(*t, now) })
}

// related: a tag deleted changes its repo's tags, which load again where
// they show (the tree's count of them, the repo's page), one loaded or not.
func (tagKind) related(_ *registry, t *api.Tag) []views.Change {
	return []views.Change{views.Changed(api.ParentUID(t.UID))}
}
func (tagKind) ref(e *env, t *api.Tag, parent any) (string, string) {
	if repo := e.tagRepo(t, parent); repo != "" && t.Digest != "" {
		return pullRef(e.org.Name, repo, t)
	}
	return "", ""
}
func (tagKind) folder(t *api.Tag) string { return api.ParentUID(api.ParentUID(t.UID)) }
func (tagKind) whole(e *env) (safe.Text, api.ListOptions) {
	return "tags of " + safe.Of(e.org.Name), api.ListOptions{DescendantsOf: e.org.UID}
}
func (tagKind) table(e *env, ctx context.Context, title safe.Text, o api.ListOptions) views.Screen {
	return tagsTable(e, ctx, title, o, "")
}

// nodeName: a tag is known by its repo's name too, "repo:tag".
func (tagKind) nodeName(n *tree.Node) string {
	t := n.Item.(*api.Tag)
	if n.Parent != nil {
		if r, ok := n.Parent.Item.(*api.Repo); ok {
			return r.Name + ":" + t.Name
		}
	}
	return t.Name
}
func (tagKind) create(e *env, parent, parentName string) tea.Cmd {
	return tagForm(e, parent, parentName)
}
func (tagKind) del(c *api.Client, ctx context.Context, uid string) error {
	return c.DeleteTag(ctx, uid)
}
func (tagKind) get(c *api.Client, ctx context.Context, uid string) (*api.Tag, error) {
	return c.GetTag(ctx, uid)
}
func (tagKind) lost(_ *env, cfg *dialog.Config, tags []*api.Tag) {
	if len(tags) > 1 {
		cfg.Lines = append(cfg.Lines, "Pulls by these tag names stop working; the images stay, reachable by digest or by other tags.")
		return
	}
	t := tags[0]
	cfg.Lines = append(cfg.Lines, "Pulls by the name "+safe.Of(t.Name)+" stop working; the image "+
		safe.Of(text.Short(t.Digest, 19))+" stays, reachable by digest or by other tags.")
}

// tagRepo is the name of a tag's repo, "" while it is not known: its
// parent's in the tree (the node above it), else the name the shell has
// learned. Every screen makes a tag's pull reference from this one answer
// (Y, plugins' {{.Ref}} and {{.Image}}, the advisories of its repo).
func (e *env) tagRepo(t *api.Tag, parent any) string {
	if r, ok := parent.(*api.Repo); ok && r.UID == api.ParentUID(t.UID) {
		return r.Name
	}
	return e.repoName(api.ParentUID(t.UID))
}

// tagsTable lists the tags of one repo (repoName set) or of many.
func tagsTable(e *env, ctx context.Context, title safe.Text, opts api.ListOptions, repoName string) views.Screen {
	return tagsTableOf(e, ctx, title, opts, repoName, false)
}

// tagsTableOf is a tag table; deprecatedOnly starts it showing only
// deprecated tags (scanning every page; the title then says so). A table of
// many repos (repoName "") has a REPO column, whose names are looked up as
// rows arrive. H reloads it with the kinds of tags the API hides.
func tagsTableOf(e *env, ctx context.Context, title safe.Text, opts api.ListOptions, repoName string, deprecatedOnly bool) views.Screen {
	var names columns.Names
	var loaded func([]*api.Tag) tea.Cmd
	if repoName == "" {
		// Rows of one repo (`:tags python`) need no REPO column, but
		// their pull references need its name.
		if opts.ChildrenOf == "" {
			names = e.repoResolver
		}
		loaded = func(ts []*api.Tag) tea.Cmd {
			uids := make([]string, len(ts))
			for i, t := range ts {
				uids[i] = api.ParentUID(t.UID)
			}
			return e.need(repoNames, uids...)
		}
	}
	// withHidden is opts asking for the hidden kinds of tags too when the
	// table shows them (H); the server filter follows it.
	showHidden := false
	withHidden := func(o api.ListOptions) api.ListOptions {
		o.IncludeDates, o.IncludeEpochs, o.IncludeReferrers = showHidden, showHidden, showHidden
		return o
	}
	tags := e.client.ListTags
	// The plain pages of one repo's tags are what its tag set learns from.
	watched := func(l *paging.List[api.Tag], o api.ListOptions) *paging.List[api.Tag] {
		return watchTags(e.tags, l, o, func(t *api.Tag) *api.Tag { return t })
	}
	var counted func(int, int) tea.Cmd
	if repoName != "" {
		repoUID := opts.ChildrenOf
		// What its rows make of their repo's name (tagRepo) is the name
		// this table was opened with.
		e.repoNamer.learn(map[string]string{repoUID: repoName})
		counted = func(n, total int) tea.Cmd {
			return func() tea.Msg { return views.CountedMsg{ID: repoUID, Count: n, Total: total} }
		}
	}
	known := func(t *api.Tag) string { return e.tagRepo(t, nil) }
	repo := func(t *api.Tag) string {
		if n := known(t); n != "" {
			return n
		}
		return api.ParentUID(t.UID)
	}
	var create func() tea.Cmd
	var watch func(views.Change) bool
	if repoName != "" {
		repoUID := opts.ChildrenOf
		create = func() tea.Cmd { return tagForm(e, repoUID, repoName) }
		watch = func(c views.Change) bool { return c.UID == repoUID }
	}
	return table.New(e.common, table.Config[api.Tag]{Title: title, Columns: columns.Tags(e.common, names), New: create, Watch: watch, Refused: e.orders.of(colTags),
		List: watched(paging.New(ctx, source(tags, opts), api.TagKey), opts), Key: api.TagKey, Loaded: loaded,
		Hidden: &table.Hidden[api.Tag]{Noun: "hidden tags",
			List: func(on bool) *paging.List[api.Tag] {
				showHidden = on
				return watched(paging.New(ctx, source(tags, withHidden(opts)), api.TagKey), withHidden(opts))
			},
			Count: func() (int, error) {
				o := opts
				o.IncludeDates, o.IncludeEpochs, o.IncludeReferrers, o.PageSize = true, true, true, 1
				p, err := e.client.ListTags(ctx, o)
				if err != nil {
					return 0, fmt.Errorf("count hidden tags: %w", err)
				}
				// Without a total (it is optional) the count is unknown: -1.
				return int(p.TotalOr(-1)), nil
			}},
		Orders: columns.TagOrders(), Sort: columns.ByVersion(func(t *api.Tag) string { return t.Name }), RowKind: columns.TagRow, Open: pageOf[api.Tag](e),
		Copy: func(t *api.Tag) (string, string) { return t.Digest, "digest" },
		CopyRef: func(t *api.Tag) (string, string) {
			// No reference is made of a repo's uid: nothing is copied
			// until its name is known.
			if n := known(t); n != "" {
				return pullRef(e.org.Name, n, t)
			}
			return "", ""
		},
		CopyMany: func(ts []*api.Tag) (string, string) {
			lines := make([]string, len(ts))
			for i, t := range ts {
				lines[i] = repo(t) + ":" + t.Name + "@" + t.Digest
			}
			return strings.Join(lines, "\n") + "\n", fmt.Sprintf("%d repo:tag@digest lines", len(ts))
		},
		Advisories: func(t *api.Tag) tea.Cmd {
			name := known(t)
			if name == "" {
				return views.Flash("the name of this tag's repo is not known yet: try again in a moment")
			}
			return e.repoAdvisories(name)
		},
		Flag:         &table.Flag[api.Tag]{Name: "deprecated", Noun: "tags", Is: func(t *api.Tag) bool { return t.Deprecated }, Counted: counted},
		FlaggedFirst: deprecatedOnly,
		Delete:       rowDeleteNamed(e, func(t *api.Tag) string { return repo(t) + ":" + t.Name }),
		Server: &table.ServerFilter[api.Tag]{Chip: columns.TagNameChip, List: func(p string) *paging.List[api.Tag] {
			o := withHidden(opts)
			o.Name = p
			return paging.New(ctx, source(tags, o), api.TagKey)
		}, Empty: noTagNamed(e, repoName == "" && opts.ChildrenOf == "")}})
}

// noTagNamed says, in a table of many repos' tags, that the server
// filter names tags, not repos, and how to list a repo's tags.
func noTagNamed(e *env, manyRepos bool) func(pattern string) string {
	if !manyRepos {
		return nil
	}
	return func(p string) string {
		name := safe.String(p)
		return fmt.Sprintf("no tag is named %s (the server filter names tags; %stags %s lists the tags of a repo named so)",
			name, e.common.Key(keymap.Command), name)
	}
}
