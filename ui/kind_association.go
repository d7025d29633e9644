package ui

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	tea "charm.land/bubbletea/v2"
	"golang.org/x/sync/errgroup"

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
	var src paging.Source[api.AccountAssociation]
	var loaded func([]*api.AccountAssociation) tea.Cmd
	if o.ChildrenOf != "" {
		src = ownAssociation(e.client, o.ChildrenOf)
	} else {
		src = byFolderPath(e.client, o)
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

// byFolderPath lists the associations of a folder and of every folder
// below it (o.DescendantsOf) in the order their folders' paths read, as
// FOLDER shows them: the folder's own first, then by path
// (columns.ByFolder). The service lists them by folder uid, which reads as
// no order at all. So the first page reads every association (a folder has
// one at most: they are as many as the folders tied) and the names on
// their folders' paths; the pages after it come from what it read, and a
// first page asked again (r, a change) reads them again. Names it cannot
// read leave those last, by uid: the rows still show.
func byFolderPath(c *api.Client, o api.ListOptions) paging.Source[api.AccountAssociation] {
	var mu sync.Mutex
	var all []api.AccountAssociation
	var ignored []string
	read := false
	return func(ctx context.Context, req paging.Request) (paging.Result[api.AccountAssociation], error) {
		mu.Lock()
		defer mu.Unlock()
		from := req.Skip
		if req.Token != "" {
			n, err := strconv.Atoi(req.Token)
			if err != nil || n < 0 {
				return paging.Result[api.AccountAssociation]{}, fmt.Errorf("account associations: a page token not of this list: %q", req.Token)
			}
			from = n
		}
		if !read || from == 0 {
			as, ign, err := associationsByFolder(ctx, c, o)
			if err != nil {
				return paging.Result[api.AccountAssociation]{}, listError(err, req)
			}
			all, ignored, read = as, ign, true
		}
		from = min(from, len(all))
		to := len(all)
		if req.Size > 0 {
			to = min(from+req.Size, len(all))
		}
		res := paging.Result[api.AccountAssociation]{Items: slices.Clone(all[from:to]), Total: int64(len(all)), Skipped: from,
			Ignored: ignored, NoTotal: len(ignored) > 0}
		if to < len(all) {
			res.Next = strconv.Itoa(to)
		}
		return res, nil
	}
}

// associationsByFolder reads every association under o.DescendantsOf and
// sorts them by their folders' paths.
func associationsByFolder(ctx context.Context, c *api.Client, o api.ListOptions) ([]api.AccountAssociation, []string, error) {
	scope := o.DescendantsOf
	o.PageSize, o.PageToken, o.Skip, o.OrderBy = api.MaxPageSize, "", 0, ""
	var all []api.AccountAssociation
	var ignored []string
	lister := c.AccountAssociationsUnder() // one walk: what its first page learns serves the next
	seen := map[string]bool{}
	for {
		p, err := lister(ctx, o)
		if err != nil {
			return nil, nil, err
		}
		all = append(all, p.Items...)
		for _, f := range p.Ignored {
			if !slices.Contains(ignored, f) {
				ignored = append(ignored, f)
			}
		}
		if p.NextPageToken == "" || seen[p.NextPageToken] { // a token again would go round forever
			break
		}
		seen[p.NextPageToken] = true
		o.PageToken = p.NextPageToken
	}
	uids := make([]string, len(all))
	for i, a := range all {
		uids[i] = a.UID
	}
	names := folderNamesOf(ctx, c, api.RootUID(scope), uids)
	columns.ByFolder(all, scope, func(uid string) string { return pathOf(names, api.RootUID(scope), "", uid) })
	return all, ignored, nil
}

// lookupsMost is how many folders folderNamesOf reads one by one; for
// more it lists the organization's folders instead.
const lookupsMost = 16

// folderNamesOf reads the names of the folders on the paths of uids below
// root: one by one when they are few, else in one walk of root's folders.
// What fails to be read is left out (its path is unknown).
func folderNamesOf(ctx context.Context, c *api.Client, root string, uids []string) map[string]string {
	var want []string
	for _, uid := range uids {
		for u := uid; u != "" && u != root; u = api.ParentUID(u) {
			if !slices.Contains(want, u) {
				want = append(want, u)
			}
		}
	}
	names := make(map[string]string, len(want))
	if len(want) > lookupsMost {
		for g, err := range api.NewCursor(c.ListGroups, api.ListOptions{DescendantsOf: root, PageSize: api.MaxPageSize}, api.GroupKey).All(ctx) {
			if err != nil {
				break
			}
			names[g.UID] = g.Name
		}
		return names
	}
	var mu sync.Mutex
	var g errgroup.Group
	g.SetLimit(8)
	for _, uid := range want {
		g.Go(func() error {
			if f, err := c.GetGroup(ctx, uid); err == nil {
				mu.Lock()
				names[uid] = f.Name
				mu.Unlock()
			}
			return nil
		})
	}
	_ = g.Wait()
	return names
}
