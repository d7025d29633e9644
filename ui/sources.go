package ui

import (
	"context"
	"fmt"
	"strings"

	"canopy/api"
	"canopy/safe"
	"canopy/views"
	"canopy/views/paging"
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
		return paging.Result[T]{Items: p.Items, Next: p.NextPageToken, Total: p.Total, NoTotal: !p.HasTotal, Skipped: p.Skipped,
			Ignored: p.Ignored, Dropped: p.Dropped}, nil
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
		out := paging.Result[*tree.Node]{Next: res.Next, Total: res.Total, NoTotal: res.NoTotal, Skipped: res.Skipped, Ignored: res.Ignored, Dropped: res.Dropped,
			Items: make([]*tree.Node, len(res.Items))}
		for i := range res.Items {
			out.Items[i] = mk(&res.Items[i])
		}
		return out, nil
	}
}

// builder makes tree nodes whose lists run under one context.
type builder struct {
	kinds  *registry
	ctx    context.Context
	client *api.Client
	tags   *tagSets
	orders *refusedOrders
	// advise asks for the advisory counts of repo names (repos loaded in
	// the tree); nil asks for none.
	advise func(names ...string)
}

// list is a tree list of a collection: by name where its resources have
// names, unless the server refused that order for the collection; else
// in the server's default order (role bindings, subscriptions and
// advisories have no name; libraries come by name, versions newest first
// by default).
func (b builder) list(k *kind, src paging.Source[*tree.Node]) *paging.List[*tree.Node] {
	l := paging.New(b.ctx, src, tree.NodeKey)
	if k.byName {
		l.SetOrder(api.OrderName)
		if b.orders != nil && b.orders.of(k.list)(api.OrderName) {
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

// folderNodes is the node of a folder's collection of the kind of T, its
// children listed by list, each a node of the kind made by mk (its label
// and note).
func folderNodes[T any](b builder, parent *tree.Node, group string, list api.Lister[T], mk func(it *T) (label, note safe.Text)) *tree.Node {
	k := kindFor[T](b.kinds)
	n := collection(parent, k, group)
	n.Children = b.list(k, nodes(source(list, api.ListOptions{ChildrenOf: group}), func(it *T) *tree.Node {
		c := *it
		label, note := mk(it)
		return child(n, &tree.Node{ID: k.uid(it), Kind: k.node, Label: label, Note: note, Item: &c})
	}))
	return n
}

// collection is the node of a folder's collection of a kind: "repos".
func collection(parent *tree.Node, k *kind, scope string) *tree.Node {
	return child(parent, &tree.Node{ID: k.in(scope), Kind: k.collection, Label: safe.Of(k.nouns)})
}

// ecosystemWords is an ecosystem as people say it: "java", "python".
func ecosystemWords(eco string) string {
	return safe.String(strings.ToLower(strings.TrimPrefix(eco, "ECOSYSTEM_")))
}

// maxKeptPages bounds the server pages one page of a kept list reads.
const maxKeptPages = 50

// kept is src keeping only the items keep accepts (a question the server
// has no filter for): each page asked walks the server's pages until it
// has some or the list ends. A total would count what is not kept, so
// none is given.
func kept[T any](src paging.Source[T], keep func(*T) bool) paging.Source[T] {
	return func(ctx context.Context, req paging.Request) (paging.Result[T], error) {
		var out []T
		r := req
		for range maxKeptPages {
			res, err := src(ctx, r)
			if err != nil {
				return paging.Result[T]{}, err
			}
			for i := range res.Items {
				if keep(&res.Items[i]) {
					out = append(out, res.Items[i])
				}
			}
			if res.Next == "" || len(out) > 0 {
				return paging.Result[T]{Items: out, Next: res.Next, NoTotal: true}, nil
			}
			r = paging.Request{Token: res.Next, Size: req.Size, OrderBy: req.OrderBy}
		}
		return paging.Result[T]{Items: out, Next: r.Token, NoTotal: true}, nil
	}
}
