package ui

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/views"
	"canopy/views/cmdline"
	"canopy/views/columns"
	"canopy/views/detail"
	"canopy/views/paging"
	"canopy/views/safe"
	"canopy/views/table"
	"canopy/views/tree"
)

// artifactKind: a library of an ecosystem (Java, Python), with versions.
func artifactKind() spec[api.Artifact] {
	return spec[api.Artifact]{noun: "library", nouns: "libraries",
		page:    detail.ArtifactPage(),
		name:    func(a *api.Artifact) string { return a.Name },
		uid:     func(a *api.Artifact) string { return a.UID },
		command: &cmdline.Command{Name: "libraries", Aliases: []string{"libs", "artifacts"}, Desc: "library artifacts"},
		whole:   func(*env) (string, api.ListOptions) { return "libraries", api.ListOptions{} },
		table:   (*env).artifactsTable,
		node:    tree.KindArtifact, collection: tree.KindLibraries, hasNode: true, hasCollection: true,
		// The libraries node, or one ecosystem's.
		scoped: func(n *tree.Node) (string, api.ListOptions) {
			if ec, ok := n.Item.(*api.EcosystemCount); ok {
				return "libraries: " + n.Label, api.ListOptions{Ecosystems: []string{ec.Ecosystem}}
			}
			return "libraries", api.ListOptions{}
		},
		childTable: func(e *env, ctx context.Context, n *tree.Node) views.Screen {
			return e.versionsTable(ctx, "versions of "+n.Label, n.ID)
		},
		children: "versions",
	}
}

func (e *env) artifactsTable(ctx context.Context, title string, opts api.ListOptions) views.Screen {
	return table.New(e.common, table.Config[api.Artifact]{Title: title, Columns: columns.Artifacts(e.common), Refused: e.orders.of(colArtifacts),
		List: paging.New(ctx, source(e.client.ListArtifacts, opts), api.ArtifactKey), Key: api.ArtifactKey,
		Orders: columns.Orders()[:2], Copy: uidCopy(api.ArtifactKey),
		Open: func(a *api.Artifact) tea.Cmd {
			uid, name := a.UID, safe.String(a.Name)
			return e.open(func(ctx context.Context) views.Screen { return e.versionsTable(ctx, "versions of "+name, uid) })
		}})
}
