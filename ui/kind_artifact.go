package ui

import (
	"context"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/resource"
	"canopy/safe"
	"canopy/views"
	"canopy/views/columns"
	"canopy/views/detail"
	"canopy/views/paging"
	"canopy/views/table"
	"canopy/views/tree"
)

// artifactKind: a library of an ecosystem (Java, Python), with versions.
type artifactKind struct{ is[api.Artifact] }

func (artifactKind) of() string { return resource.Library }
func (artifactKind) shape() shape {
	return shape{list: colArtifacts, node: true, collection: true}
}
func (artifactKind) page(*env) detail.Page     { return detail.ArtifactPage() }
func (artifactKind) root(b builder) *tree.Node { return libraryNodes(b) }
func (artifactKind) whole(*env) (safe.Text, api.ListOptions) {
	return "libraries", api.ListOptions{}
}
func (artifactKind) table(e *env, ctx context.Context, title safe.Text, o api.ListOptions) views.Screen {
	return artifactsTable(e, ctx, title, o)
}

// scoped: the libraries node, or one ecosystem's.
func (artifactKind) scoped(n *tree.Node) (safe.Text, api.ListOptions) {
	if ec, ok := n.Item.(*api.EcosystemCount); ok {
		return "libraries: " + n.Label, api.ListOptions{Ecosystems: []string{ec.Ecosystem}}
	}
	return "libraries", api.ListOptions{}
}
func (artifactKind) childTable(e *env, ctx context.Context, n *tree.Node) views.Screen {
	return versionsTable(e, ctx, "versions of "+n.Label, n.ID)
}
func (artifactKind) children() string { return "versions" }

func artifactsTable(e *env, ctx context.Context, title safe.Text, opts api.ListOptions) views.Screen {
	return table.New(e.common, table.Config[api.Artifact]{Title: title, Columns: columns.Artifacts(e.common), Refused: e.orders.of(colArtifacts),
		List: paging.New(ctx, source(e.client.ListArtifacts, opts), api.ArtifactKey), Key: api.ArtifactKey,
		Orders: columns.LibraryOrders(), Copy: uidCopy(api.ArtifactKey),
		Open: func(a *api.Artifact) tea.Cmd {
			uid, name := a.UID, safe.String(a.Name)
			return e.open(func(ctx context.Context) views.Screen {
				return versionsTable(e, ctx, "versions of "+safe.Of(name), uid)
			})
		}})
}

// libraries is the library artifact feed by ecosystem (the service
// lists artifacts of the ecosystems asked for), each ecosystem with its
// count from the count endpoint before it is opened, each artifact with
// its versions.
func libraryNodes(b builder) *tree.Node {
	k := kindFor[api.Artifact](b.kinds)
	n := &tree.Node{ID: k.in(""), Kind: k.collection, Label: safe.Of(k.nouns), Uncounted: true}
	n.Children = b.list(kindFor[api.Artifact](b.kinds), func(ctx context.Context, req paging.Request) (paging.Result[*tree.Node], error) {
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
	n := child(parent, &tree.Node{ID: kindFor[api.Artifact](b.kinds).in(eco), Kind: kindFor[api.Artifact](b.kinds).collection, Label: safe.Of(ecosystemWords(eco)), Item: &ec})
	n.Children = b.list(kindFor[api.Artifact](b.kinds), nodes(source(b.client.ListArtifacts, api.ListOptions{Ecosystems: []string{eco}}),
		func(a *api.Artifact) *tree.Node {
			ac := *a
			an := child(n, &tree.Node{ID: a.UID, Kind: kindFor[api.Artifact](b.kinds).node, Label: safe.Of(a.Name),
				Note: safe.Of(a.LatestVersion), Item: &ac})
			an.Children = b.list(kindFor[api.ArtifactVersion](b.kinds), nodes(source(func(ctx context.Context, o api.ListOptions) (*api.Page[api.ArtifactVersion], error) {
				return b.client.ListArtifactVersions(ctx, a.UID, o)
			}, api.ListOptions{}), func(v *api.ArtifactVersion) *tree.Node {
				vc := *v
				return child(an, &tree.Node{ID: v.UID, Kind: kindFor[api.ArtifactVersion](b.kinds).node, Label: safe.Of(v.Version), Item: &vc})
			}))
			return an
		}))
	return n
}
