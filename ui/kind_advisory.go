package ui

import (
	"context"
	"strings"

	"canopy/api"
	"canopy/plugin"
	"canopy/resource"
	"canopy/safe"
	"canopy/views"
	"canopy/views/columns"
	"canopy/views/detail"
	"canopy/views/paging"
	"canopy/views/table"
	"canopy/views/tree"
)

// advisoryKind: the feed's word on a vulnerability in the platform's
// packages (no folder: the feed is the same for every organization).
type advisoryKind struct{ is[api.Advisory] }

func (advisoryKind) of() string { return resource.Advisory }
func (advisoryKind) shape() shape {
	return shape{list: colAdvisories, node: true, collection: true}
}

// page: an advisory's page reads what is known of the vulnerabilities it
// goes by.
func (advisoryKind) page(e *env) detail.Page {
	c := e.client
	return detail.AdvisoryPage(detail.AdvisorySources{
		Vulnerabilities: func(ctx context.Context, ids []string) ([]api.VulnerabilityMetadata, error) {
			vs, err := c.VulnerabilitiesOf(ctx, ids)
			if err != nil {
				return nil, fetchError("vulnerability metadata", err)
			}
			return vs, nil
		}})
}
func (advisoryKind) vars(_ *env, a *api.Advisory, _ any) plugin.Vars {
	return plugin.Vars{"Advisory": a.AdvisoryID, "Aliases": strings.Join(a.Aliases, ","), "Package": a.ArtifactName}
}
func (advisoryKind) root(b builder) *tree.Node { return advisoryNodes(b) }
func (advisoryKind) whole(*env) (safe.Text, api.ListOptions) {
	return "advisories", api.ListOptions{}
}
func (advisoryKind) table(e *env, ctx context.Context, title safe.Text, o api.ListOptions) views.Screen {
	return advisoriesTable(e, ctx, title, o)
}
func (advisoryKind) scoped(*tree.Node) (safe.Text, api.ListOptions) {
	return "advisories", api.ListOptions{}
}
func (advisoryKind) find(c *api.Client, ctx context.Context, o api.ListOptions) (*api.Page[api.Advisory], error) {
	return c.ListAdvisories(ctx, o)
}

// findBy: an advisory is found by its id (CGA-…), or by the CVE or GHSA
// it names: the text search matches far more than a pattern meant to pick
// one out.
func (advisoryKind) findBy(p string) (api.ListOptions, bool) {
	switch _, isID := columns.AdvisoryFilter(p); {
	case isID:
		return api.ListOptions{AdvisoryIDs: []string{columns.AdvisoryIDOf(p)}}, true
	case columns.IsVulnerabilityID(p):
		return api.ListOptions{Query: strings.TrimSpace(p)}, true
	}
	return api.ListOptions{}, false
}

func advisoriesTable(e *env, ctx context.Context, title safe.Text, opts api.ListOptions) views.Screen {
	return table.New(e.common, table.Config[api.Advisory]{Title: title, Columns: columns.Advisories(e.common), Refused: e.orders.of(colAdvisories),
		List: paging.New(ctx, source(e.client.ListAdvisories, opts), api.AdvisoryKey), Key: api.AdvisoryKey,
		Orders: columns.AdvisoryOrders(), Open: pageOf[api.Advisory](e), Copy: uidCopy(api.AdvisoryKey),
		Server: &table.ServerFilter[api.Advisory]{
			Chip: func(p string) string { chip, _ := columns.AdvisoryFilter(p); return chip },
			List: func(p string) *paging.List[api.Advisory] {
				o := opts
				if _, isID := columns.AdvisoryFilter(p); isID {
					o.AdvisoryIDs = []string{columns.AdvisoryIDOf(p)}
				} else {
					o.Query = p
				}
				return paging.New(ctx, source(e.client.ListAdvisories, o), api.AdvisoryKey)
			}}})
}

// advisories is the global advisory feed.
func advisoryNodes(b builder) *tree.Node {
	k := kindFor[api.Advisory](b.kinds)
	n := &tree.Node{ID: k.in(""), Kind: k.collection, Label: safe.Of(k.nouns)}
	n.Children = b.list(kindFor[api.Advisory](b.kinds), nodes(source(b.client.ListAdvisories, api.ListOptions{}),
		func(a *api.Advisory) *tree.Node {
			ac := *a
			return child(n, &tree.Node{ID: a.UID, Kind: kindFor[api.Advisory](b.kinds).node, Label: safe.Of(a.AdvisoryID),
				Note: safe.Of(a.ArtifactName), Item: &ac})
		}))
	return n
}
