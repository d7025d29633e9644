package ui

import (
	"context"
	"strings"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/resource"
	"canopy/safe"
	"canopy/views"
	"canopy/views/columns"
	"canopy/views/detail"
	"canopy/views/dialog"
	"canopy/views/paging"
	"canopy/views/table"
	"canopy/views/tree"
)

// associationKind: a folder's account association, the cloud and source
// accounts the folder is tied to. A folder has one at most, and it has no
// uid of its own: its uid is the folder's. So the shell knows it by its
// resource name, accountAssociations/<folder uid> (apart), which no tree
// node, row or delete of its folder shares.
type associationKind struct{ is[api.AccountAssociation] }

func (associationKind) of() string { return resource.Association }
func (associationKind) shape() shape {
	return shape{list: colAssociations, node: true, collection: true}
}

// colAssociations is the collection, as list paths end.
const colAssociations = "accountAssociations"

// associationPrefix begins the key the shell knows an association by.
const associationPrefix = colAssociations + "/"

func (associationKind) apart(a *api.AccountAssociation) string { return associationPrefix + a.UID }

// associationUID is the folder uid of an association's key (or of a uid,
// as canopy open gives one).
func associationUID(key string) string { return strings.TrimPrefix(key, associationPrefix) }

func (associationKind) folder(a *api.AccountAssociation) string { return a.UID }
func (associationKind) copy(a *api.AccountAssociation) (string, string) {
	return a.UID, "uid (its folder's)"
}
func (associationKind) page(e *env) detail.Page { return associationPage(e) }
func (associationKind) title(a *api.AccountAssociation) safe.Text {
	return "account association: " + safe.Of(a.Name)
}
func (associationKind) inFolder(b builder, parent *tree.Node, group string) *tree.Node {
	return associationNodes(b, parent, group)
}
func (associationKind) whole(e *env) (safe.Text, api.ListOptions) {
	return "account associations of " + safe.Of(e.org.Name), api.ListOptions{DescendantsOf: e.org.UID}
}
func (associationKind) table(e *env, ctx context.Context, title safe.Text, o api.ListOptions) views.Screen {
	return associationsTable(e, ctx, title, o)
}
func (associationKind) create(e *env, parent, parentName string) tea.Cmd {
	return newAssociation(e, parent, parentName)
}
func (associationKind) edits(c *api.Client, a *api.AccountAssociation) []edit {
	return associationEdits(c, a)
}
func (associationKind) get(c *api.Client, ctx context.Context, key string) (*api.AccountAssociation, error) {
	return c.GetAccountAssociation(ctx, associationUID(key))
}
func (associationKind) del(c *api.Client, ctx context.Context, key string) error {
	return c.DeleteAccountAssociation(ctx, associationUID(key))
}

func (associationKind) updated(n *tree.Node, _, a *api.AccountAssociation) {
	n.Item, n.Label, n.Note = a, safe.Of(a.Name), associationNote(a)
}
func (associationKind) lost(_ *env, cfg *dialog.Config, as []*api.AccountAssociation) {
	associationLost(cfg, as)
}

// associationNote is what a tree row says beside an association's name:
// the providers it ties.
func associationNote(a *api.AccountAssociation) safe.Text {
	return safe.Of(strings.Join(columns.AssociationParts(a), " · "))
}

// associationNodes is a folder's associations: its own, when it has one.
func associationNodes(b builder, parent *tree.Node, group string) *tree.Node {
	k := kindFor[api.AccountAssociation](b.kinds)
	n := collection(parent, k, group)
	n.Children = b.list(k, nodes(ownAssociation(b.client, group), func(a *api.AccountAssociation) *tree.Node {
		c := *a
		return child(n, &tree.Node{ID: k.uid(a), Kind: k.node, Label: safe.Of(a.Name), Note: associationNote(a), Item: &c})
	}))
	return n
}

// ownAssociation is a folder's association as a list of none or one,
// read by its uid: whether the service lists a folder's own among its
// children or descendants it does not say.
func ownAssociation(c *api.Client, group string) paging.Source[api.AccountAssociation] {
	return func(ctx context.Context, req paging.Request) (paging.Result[api.AccountAssociation], error) {
		if req.Token != "" || req.Skip > 0 {
			return paging.Result[api.AccountAssociation]{Total: 1, Skipped: req.Skip}, nil
		}
		a, err := c.GetAccountAssociation(ctx, group)
		switch {
		case api.IsNotFound(err) && !api.NotOnServer(err):
			return paging.Result[api.AccountAssociation]{}, nil
		case err != nil:
			return paging.Result[api.AccountAssociation]{}, listError(err, req)
		}
		return paging.Result[api.AccountAssociation]{Items: []api.AccountAssociation{*a}, Total: 1}, nil
	}
}

// associationsTable: one folder's (its collection's, ChildrenOf), or
// those of a folder and every folder below it (DescendantsOf), which name
// each one's folder.
func associationsTable(e *env, ctx context.Context, title safe.Text, o api.ListOptions) views.Screen {
	src := source(e.client.AccountAssociationsUnder(), o)
	var loaded func([]*api.AccountAssociation) tea.Cmd
	if o.ChildrenOf != "" {
		src = ownAssociation(e.client, o.ChildrenOf)
	} else {
		loaded = func(as []*api.AccountAssociation) tea.Cmd {
			uids := make([]string, len(as))
			for i, a := range as {
				uids[i] = a.UID
			}
			return e.folders(uids...)
		}
	}
	k := kindFor[api.AccountAssociation](e.kinds)
	key := func(a *api.AccountAssociation) string { return k.uid(a) }
	return table.New(e.common, table.Config[api.AccountAssociation]{Title: title, Refused: e.orders.of(colAssociations),
		Columns: columns.AssociationsIn(e.common, e.folderColumn(o)), Loaded: loaded,
		List: paging.New(ctx, src, key), Key: key,
		Orders: columns.AssociationOrders(), Sort: columns.SortAssociations,
		Open: pageOf[api.AccountAssociation](e), Copy: uidCopy(api.AccountAssociationKey),
		Edit: editOf[api.AccountAssociation](ctx, e),
		New: func() tea.Cmd {
			if spansFolders(o) {
				return associationFolders(e, scopeOf(o))
			}
			return newAssociation(e, scopeOf(o), whereOf(string(title)))
		},
		Watch:  k.watched,
		Delete: rowDelete[api.AccountAssociation](e)})
}
