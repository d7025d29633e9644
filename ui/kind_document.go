package ui

import (
	"context"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/keymap"
	"canopy/plugin"
	"canopy/resource"
	"canopy/safe"
	"canopy/text"
	"canopy/views"
	"canopy/views/columns"
	"canopy/views/detail"
	"canopy/views/paging"
	"canopy/views/table"
)

// documentKind: an advisory document, the advisories of one package as
// its distribution publishes them. The same for every organization, like
// the advisory feed; known by its package, which is its only id. The
// service answers every document that matches at once: no paging, no
// order.
type documentKind struct{ is[api.Document] }

func (documentKind) of() string   { return resource.Document }
func (documentKind) shape() shape { return shape{list: colDocuments} }
func (documentKind) title(d *api.Document) safe.Text {
	return "advisory document: " + safe.Of(d.ID)
}
func (documentKind) page(*env) detail.Page                 { return detail.DocumentPage() }
func (documentKind) copy(d *api.Document) (string, string) { return d.ID, "package" }
func (documentKind) vars(_ *env, d *api.Document, _ any) plugin.Vars {
	return plugin.Vars{"Package": d.ID}
}
func (documentKind) whole(*env) (safe.Text, api.ListOptions) {
	return "advisory documents", api.ListOptions{}
}
func (documentKind) table(e *env, ctx context.Context, title safe.Text, _ api.ListOptions) views.Screen {
	return documentsTable(e, ctx, title)
}

// colDocuments is the collection of documents, as its path ends.
const colDocuments = "documents"

// documentsTable lists the documents; the server filter asks for one
// package's, or for those of the advisories going by a CVE or GHSA id.
func documentsTable(e *env, ctx context.Context, title safe.Text) views.Screen {
	c := e.client
	return table.New(e.common, table.Config[api.Document]{Title: title, Columns: columns.Documents(e.common),
		List: paging.New(ctx, documentsOf(c, e.common.Keys, api.DocumentFilter{}), api.DocumentKey), Key: api.DocumentKey,
		Orders: columns.DocumentOrders(), Open: pageOf[api.Document](e),
		Copy:   func(d *api.Document) (string, string) { return d.ID, "package" },
		Loaded: documentsCut(e.common.Keys),
		Server: &table.ServerFilter[api.Document]{
			Chip: func(p string) string { chip, _ := columns.DocumentFilter(p); return chip },
			List: func(p string) *paging.List[api.Document] {
				_, f := columns.DocumentFilter(p)
				return paging.New(ctx, documentsOf(c, e.common.Keys, f), api.DocumentKey)
			}}})
}

// documentsCut says, when an answer held as many documents as canopy
// reads of one, that there may be more and how to ask for fewer.
func documentsCut(keys *keymap.KeyMap) func([]*api.Document) tea.Cmd {
	return func(ds []*api.Document) tea.Cmd {
		if len(ds) < api.MaxDocuments {
			return nil
		}
		return views.Flash(fmt.Sprintf("the first %s documents, the most canopy reads at once: %s then %s asks for a package's or a CVE's",
			text.Count(len(ds)), keys.Key(keymap.Filter), keys.Key(keymap.ServerFilter)))
	}
}

// documentsOf is a source of one page: every document of f. An answer
// canopy did not read whole is a page with no total and more to come (the
// table counts "1,000+", and offers the server filter); what follows it
// cannot be asked for, and says so: the count stays a floor, and the
// server filter stays on offer, however far the cursor goes.
func documentsOf(c *api.Client, keys *keymap.KeyMap, f api.DocumentFilter) paging.Source[api.Document] {
	return func(ctx context.Context, req paging.Request) (paging.Result[api.Document], error) {
		if req.Token == documentsCutToken {
			return paging.Result[api.Document]{}, fmt.Errorf("more documents than canopy reads of one answer (%s): %s then %s asks for a package's or a CVE's",
				text.Count(api.MaxDocuments), keys.Key(keymap.Filter), keys.Key(keymap.ServerFilter))
		}
		if req.Token != "" || req.Skip > 0 {
			return paging.Result[api.Document]{NoTotal: true}, nil // one page holds all canopy reads
		}
		docs, err := c.ListDocuments(ctx, f)
		if err != nil {
			return paging.Result[api.Document]{}, listError(err, req)
		}
		if docs.Cut {
			return paging.Result[api.Document]{Items: docs.Items, NoTotal: true, Next: documentsCutToken}, nil
		}
		return paging.Result[api.Document]{Items: docs.Items, Total: int64(len(docs.Items))}, nil
	}
}

// documentsCutToken stands for the documents an answer held past what
// canopy reads of one: they cannot be asked for.
const documentsCutToken = "cut"
