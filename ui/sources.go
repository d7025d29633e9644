package ui

import (
	"context"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/views"
	"canopy/views/detail"
	"canopy/views/identity"
	"canopy/views/paging"
	"canopy/views/safe"
	"canopy/views/text"
	"canopy/views/tree"
)

// source turns a List method of the client into a paging source with base
// options (scope, filters); the page asks for token, skip, size and order.
func source[T any](list api.Lister[T], base api.ListOptions) paging.Source[T] {
	return func(ctx context.Context, req paging.Request) (paging.Result[T], error) {
		o := base
		o.PageToken, o.Skip, o.PageSize, o.OrderBy = req.Token, req.Skip, req.Size, req.OrderBy
		p, err := list(ctx, o)
		if err != nil {
			return paging.Result[T]{}, listError(err, req)
		}
		return paging.Result[T]{Items: p.Items, Next: p.NextPageToken, Total: p.Total, NoTotal: !p.HasTotal, Skipped: p.Skipped}, nil
	}
}

// listError says what a failed page means to the screens: an order the
// server refuses (the list falls back to the default order), a list the
// server does not have (shown as such, not as a failure), or the error.
func listError(err error, req paging.Request) error {
	switch {
	case req.OrderBy != "" && api.RefusedOrder(err):
		return &paging.OrderRefused{Collection: api.CollectionOf(err), Order: req.OrderBy, Err: err}
	case api.NotOnServer(err):
		return &views.Unavailable{Err: err}
	}
	return err
}

// fetchError wraps the error of a detail's lazy part (what: "readme"): one
// the server does not offer shows as such.
func fetchError(what string, err error) error {
	if api.NotOnServer(err) {
		return &views.Unavailable{Err: fmt.Errorf("%s: %w", what, err)}
	}
	return fmt.Errorf("%s: %w", what, err)
}

// nodes maps a source of resources to a source of tree nodes.
func nodes[T any](src paging.Source[T], mk func(*T) *tree.Node) paging.Source[*tree.Node] {
	return func(ctx context.Context, req paging.Request) (paging.Result[*tree.Node], error) {
		res, err := src(ctx, req)
		if err != nil {
			return paging.Result[*tree.Node]{}, err
		}
		out := paging.Result[*tree.Node]{Next: res.Next, Total: res.Total, NoTotal: res.NoTotal, Skipped: res.Skipped,
			Items: make([]*tree.Node, len(res.Items))}
		for i := range res.Items {
			out.Items[i] = mk(&res.Items[i])
		}
		return out, nil
	}
}

// builder makes tree nodes whose lists run under one context.
type builder struct {
	ctx    context.Context
	client *api.Client
	tags   *tagSets
	orders *refusedOrders
}

// list is a tree list of a collection: by name where its resources have
// names, unless the server refused that order for the collection; else
// in the server's default order (role bindings, subscriptions and
// advisories have no name; libraries come by name, versions newest first
// by default).
func (b builder) list(collection string, src paging.Source[*tree.Node]) *paging.List[*tree.Node] {
	l := paging.New(b.ctx, src, tree.NodeKey)
	switch collection {
	case colGroups, colRepos, colTags, colIdentities:
		l.SetOrder(api.OrderName)
		if b.orders != nil && b.orders.of(collection)(api.OrderName) {
			l.Refuse(api.OrderName)
		}
	}
	return l
}

func child(parent *tree.Node, n *tree.Node) *tree.Node {
	n.Parent = parent
	if parent != nil {
		n.Depth = parent.Depth + 1
	}
	return n
}

// group is an organization or folder node: its subfolders (paged), then its
// collections.
func (b builder) group(g *api.Group, parent *tree.Node) *tree.Node {
	kind := tree.KindFolder
	if api.ParentUID(g.UID) == "" {
		kind = tree.KindOrg
	}
	gc := *g
	n := child(parent, &tree.Node{ID: g.UID, Kind: kind, Label: safe.String(g.Name), Item: &gc})
	n.Children = b.list(colGroups, nodes(source(b.client.ListGroups, api.ListOptions{ChildrenOf: g.UID}),
		func(c *api.Group) *tree.Node { return b.group(c, n) }))
	n.Static = []*tree.Node{b.repos(n, g.UID), b.identities(n, g.UID), b.bindings(n, g.UID), b.subscriptions(n, g.UID)}
	return n
}

func collection(parent *tree.Node, kind tree.Kind, scope string) *tree.Node {
	return child(parent, &tree.Node{ID: fmt.Sprintf("%s:%s", tree.KindName(kind), scope), Kind: kind, Label: tree.KindName(kind)})
}

func (b builder) repos(parent *tree.Node, group string) *tree.Node {
	n := collection(parent, tree.KindRepos, group)
	n.Children = b.list(colRepos, nodes(source(b.client.ListRepos, api.ListOptions{ChildrenOf: group}),
		func(r *api.Repo) *tree.Node { return b.repo(r, n) }))
	return n
}

func (b builder) repo(r *api.Repo, parent *tree.Node) *tree.Node {
	rc := *r
	n := child(parent, &tree.Node{ID: r.UID, Kind: tree.KindRepo, Label: safe.String(r.Name), Item: &rc})
	o := api.ListOptions{ChildrenOf: r.UID}
	n.Children = watchTags(b.tags, b.list(colTags, nodes(source(b.client.ListTags, o),
		func(t *api.Tag) *tree.Node {
			tc := *t
			return child(n, &tree.Node{ID: t.UID, Kind: tree.KindTag, Label: safe.String(t.Name),
				Note: safe.String(text.Short(t.Digest, 12)), Item: &tc, Deprecated: t.Deprecated})
		})), o, func(c **tree.Node) *api.Tag {
		t, _ := (*c).Item.(*api.Tag)
		return t
	})
	return n
}

func (b builder) identities(parent *tree.Node, group string) *tree.Node {
	n := collection(parent, tree.KindIdentities, group)
	n.Children = b.list(colIdentities, nodes(source(b.client.ListIdentities, api.ListOptions{ChildrenOf: group}),
		func(id *api.Identity) *tree.Node {
			ic := *id
			note := identity.Subject(id)
			return child(n, &tree.Node{ID: id.UID, Kind: tree.KindIdentity, Label: safe.String(id.Name), Note: note, Item: &ic})
		}))
	return n
}

func (b builder) bindings(parent *tree.Node, group string) *tree.Node {
	n := collection(parent, tree.KindBindings, group)
	n.Children = b.list(colBindings, nodes(source(b.client.ListRoleBindings, api.ListOptions{ChildrenOf: group}),
		func(rb *api.RoleBinding) *tree.Node {
			bc := *rb
			who, role := "?", "?"
			if rb.Identity != nil {
				who = rb.Identity.Name
			}
			if rb.Role != nil {
				role = rb.Role.Name
			}
			return child(n, &tree.Node{ID: rb.UID, Kind: tree.KindBinding, Label: safe.String(who), Note: safe.String(role), Item: &bc})
		}))
	return n
}

func (b builder) subscriptions(parent *tree.Node, group string) *tree.Node {
	n := collection(parent, tree.KindSubscriptions, group)
	n.Children = b.list(colSubscriptions, nodes(source(b.client.ListSubscriptions, api.ListOptions{ChildrenOf: group}),
		func(s *api.Subscription) *tree.Node {
			sc := *s
			return child(n, &tree.Node{ID: s.UID, Kind: tree.KindSubscription, Label: safe.String(s.Sink), Item: &sc})
		}))
	return n
}

// advisories is the global advisory feed.
func (b builder) advisories() *tree.Node {
	n := &tree.Node{ID: "advisories:", Kind: tree.KindAdvisories, Label: "advisories"}
	n.Children = b.list(colAdvisories, nodes(source(b.client.ListAdvisories, api.ListOptions{}),
		func(a *api.Advisory) *tree.Node {
			ac := *a
			return child(n, &tree.Node{ID: a.UID, Kind: tree.KindAdvisory, Label: safe.String(a.AdvisoryID),
				Note: safe.String(a.ArtifactName), Item: &ac})
		}))
	return n
}

// libraries is the library artifact feed by ecosystem (the service
// lists artifacts of the ecosystems asked for), each ecosystem with its
// count from the count endpoint before it is opened, each artifact with
// its versions.
func (b builder) libraries() *tree.Node {
	n := &tree.Node{ID: "libraries:", Kind: tree.KindLibraries, Label: "libraries", Uncounted: true}
	n.Children = b.list(colArtifacts, func(ctx context.Context, req paging.Request) (paging.Result[*tree.Node], error) {
		if req.Token != "" || req.Skip > 0 {
			return paging.Result[*tree.Node]{}, nil // one page holds every ecosystem
		}
		counts, err := b.client.CountArtifacts(ctx, api.Ecosystems()...)
		if err != nil && !api.NotOnServer(err) {
			return paging.Result[*tree.Node]{}, fmt.Errorf("count library artifacts: %w", err)
		}
		out := paging.Result[*tree.Node]{Total: int64(len(api.Ecosystems()))}
		for _, eco := range api.Ecosystems() {
			en := b.ecosystem(n, eco)
			if counts != nil {
				for _, c := range counts.Counts {
					if c.Ecosystem == eco {
						en.SetCounted(0, int(c.TotalCount)) // shown until its list loads
						en.Item.(*api.EcosystemCount).TotalCount = c.TotalCount
					}
				}
			}
			out.Items = append(out.Items, en)
		}
		return out, nil
	})
	return n
}

// ecosystem is the artifacts of one ecosystem, by name (their default order).
func (b builder) ecosystem(parent *tree.Node, eco string) *tree.Node {
	ec := api.EcosystemCount{Ecosystem: eco}
	n := child(parent, &tree.Node{ID: "libraries:" + eco, Kind: tree.KindLibraries, Label: ecosystemWords(eco), Item: &ec})
	n.Children = b.list(colArtifacts, nodes(source(b.client.ListArtifacts, api.ListOptions{Ecosystems: []string{eco}}),
		func(a *api.Artifact) *tree.Node {
			ac := *a
			an := child(n, &tree.Node{ID: a.UID, Kind: tree.KindArtifact, Label: safe.String(a.Name),
				Note: safe.String(a.LatestVersion), Item: &ac})
			an.Children = b.list(colVersions, nodes(source(func(ctx context.Context, o api.ListOptions) (*api.Page[api.ArtifactVersion], error) {
				return b.client.ListArtifactVersions(ctx, a.UID, o)
			}, api.ListOptions{}), func(v *api.ArtifactVersion) *tree.Node {
				vc := *v
				return child(an, &tree.Node{ID: v.UID, Kind: tree.KindVersion, Label: safe.String(v.Version), Item: &vc})
			}))
			return an
		}))
	return n
}

// ecosystemWords is an ecosystem as people say it: "java", "python".
func ecosystemWords(eco string) string {
	return safe.String(strings.ToLower(strings.TrimPrefix(eco, "ECOSYSTEM_")))
}

// fetch is how the detail pane loads its lazy parts.
func (b builder) fetch() detail.Fetch {
	c := b.client
	return detail.Fetch{
		Readme: func(ctx context.Context, uid string) (string, error) {
			r, err := c.GetRepoReadme(ctx, uid)
			if err != nil {
				return "", fetchError("readme", err)
			}
			return r.Content, nil
		},
		Image: func(ctx context.Context, repo, digest string) ([]detail.ArchSize, error) {
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
		},
		Related: func(ctx context.Context, t *api.Tag, reply func(detail.Related, error) tea.Msg) tea.Cmd {
			return b.tags.ask(c, relatedAsk{ctx: ctx, tag: t, reply: reply})
		},
		Forget: func(item any) {
			if t, ok := item.(*api.Tag); ok {
				b.tags.forget(api.ParentUID(t.UID))
			}
		},
		Bindings: func(ctx context.Context, identity string) ([]api.RoleBinding, error) {
			cur := api.NewCursor(c.ListRoleBindings, api.ListOptions{Identity: identity, PageSize: api.MaxPageSize}, api.RoleBindingKey)
			var out []api.RoleBinding
			for rb, err := range cur.All(ctx) {
				if err != nil {
					return out, fetchError("role bindings", err)
				}
				out = append(out, rb)
			}
			return out, nil
		},
	}
}
