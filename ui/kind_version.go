package ui

import (
	"context"

	"canopy/api"
	"canopy/resource"
	"canopy/safe"
	"canopy/views"
	"canopy/views/columns"
	"canopy/views/detail"
	"canopy/views/paging"
	"canopy/views/table"
)

// versionKind: one published version of a library.
type versionKind struct{ is[api.ArtifactVersion] }

func (versionKind) of() string            { return resource.Version }
func (versionKind) shape() shape          { return shape{list: colVersions, node: true} }
func (versionKind) page(*env) detail.Page { return detail.VersionPage() }

func versionsTable(e *env, ctx context.Context, title safe.Text, artifact string) views.Screen {
	list := func(ctx context.Context, o api.ListOptions) (*api.Page[api.ArtifactVersion], error) {
		return e.client.ListArtifactVersions(ctx, artifact, o)
	}
	return table.New(e.common, table.Config[api.ArtifactVersion]{Title: title, Columns: columns.Versions(e.common), Refused: e.orders.of(colVersions),
		List: paging.New(ctx, source(list, api.ListOptions{}), api.ArtifactVersionKey), Key: api.ArtifactVersionKey,
		Orders: columns.VersionOrders(), Sort: columns.ByVersion(func(v *api.ArtifactVersion) string { return v.Version }),
		Open: pageOf[api.ArtifactVersion](e), Copy: uidCopy(api.ArtifactVersionKey)})
}
