package ui

import (
	"context"
	"fmt"
	"reflect"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/plugin"
	"canopy/resource"
	"canopy/safe"
	"canopy/views"
	"canopy/views/cmdline"
	"canopy/views/detail"
	"canopy/views/dialog"
	"canopy/views/form"
	"canopy/views/tree"
)

// kind is everything the shell knows of one kind of resource, the way k9s
// keeps a registry of resources: how the user names one, where it lives,
// its table and `:` command, and how one is created, edited, bound and
// deleted. Each kind is built by one file (kind_<noun>.go, from a typed
// spec) and registered in kinds.go; the shell asks the registry instead of
// switching over types. A nil function means the kind does not do that.
type kind struct {
	noun, nouns string
	// name is how the user knows a resource (its name, a subscription's
	// sink): server text, to be made safe where it is shown.
	name func(item any) string
	uid  func(item any) string
	// detail is what the detail pane knows of the kind: its title, what
	// `y` copies, and its page.
	detail *detail.Kind
	// folder is the folder a resource lives in (a folder is its own), ""
	// for kinds outside the hierarchy.
	folder func(item any) string
	// list is the collection its list path ends with (the key under
	// which the orders the server refused are kept); byName: the tree
	// lists it by name (resources without names come in the server's
	// order).
	list   string
	byName bool
	// inFolder is the node of a folder's collection of the kind, with its
	// children, for kinds that live in folders and show in the tree.
	inFolder func(b builder, parent *tree.Node, group string) *tree.Node
	// root is the kind's own root of the tree, beside the organization's
	// (the advisory feed).
	root func(b builder) *tree.Node
	// command is the kind's `:` command, opening the table of the whole
	// organization (or feed) that whole describes.
	command *cmdline.Command
	whole   func(e *env) (title safe.Text, o api.ListOptions)
	// table is a table of the kind's resources in a scope.
	table func(e *env, ctx context.Context, title safe.Text, o api.ListOptions) views.Screen
	// node and collection are the kinds of its tree nodes: one resource,
	// and a collection of them (nil: none). A collection opens as the
	// table of its parent folder's resources, or as scoped says; top is
	// the node kind of a resource at the top (the organization).
	node, collection, top *tree.Kind
	scoped                func(n *tree.Node) (title safe.Text, o api.ListOptions)
	// childTable is `t` on a node of the kind: what it holds, as a table
	// (a repo's tags); children names what it holds, for a failure.
	childTable func(e *env, ctx context.Context, n *tree.Node) views.Screen
	children   string
	// nodeName is how the user knows a node's resource, when its parent
	// tells more than the name (a tag's "repo:tag").
	nodeName func(n *tree.Node) string
	// create makes the creation of one in a parent (nil: none here).
	create func(e *env, parent, parentName string) tea.Cmd
	// inside is `n` on a node of the kind: what it holds gets a new
	// member (a folder in a folder, a tag in a repo).
	inside func(e *env, n *tree.Node) tea.Cmd
	// edits are the updatable parts of one, the main first.
	edits func(c *api.Client, item any) []edit
	// del deletes one by uid, and exists asks whether the server still
	// has it (a delete whose answer was lost).
	del    func(ctx context.Context, c *api.Client, uid string) error
	exists func(ctx context.Context, c *api.Client, uid string) error
	// lost says in a delete dialog what goes with the resources.
	lost func(e *env, cfg *dialog.Config, items []doomed)
	// related are what changes when one is deleted, beside its own row (an
	// identity's bindings).
	related func(r *registry, item any) []views.Change
	// bind starts the binding flow from one.
	bind func(e *env, item any) tea.Cmd
	// renamed follows a new version of one in the names the shell keeps,
	// and updated in the tree node that shows it.
	renamed func(e *env, item any)
	updated func(n *tree.Node, item any)
	// find asks the server for the ones a pattern names exactly (a name,
	// an advisory's id) anywhere in the organization: what ctrl+s in the
	// tree's filter finds beyond the nodes loaded.
	find func(ctx context.Context, c *api.Client, org, pattern string) ([]any, error)
	// plugin is the kind's name in the config's plugins (plugin.Kinds),
	// "" when no plugin runs on it; vars are the variables it gives
	// beyond UID, Name, Org and OrgUID (parent: the tree node's parent's
	// resource, nil elsewhere).
	plugin string
	vars   func(e *env, item, parent any) plugin.Vars
	// ref is what `Y` copies of one (a tag's pull reference) and what that
	// is; parent as for vars. Nil: the kind has none.
	ref func(e *env, item, parent any) (string, string)
	// heldBy is the noun of the kind one lives in, beside its folder (a
	// tag's repo: its uid's parent), "" for none; get reads one by uid.
	heldBy string
	get    func(ctx context.Context, c *api.Client, uid string) (any, error)
}

// spec is a kind written with its own type: its file fills in what the
// kind does, and describe makes the kind the registry holds.
type spec[T any] struct {
	// of is the kind's noun in package resource, whose descriptor gives
	// its nouns, `:` command, plugin name and what holds it.
	of                string
	noun, nouns       string
	name, uid, folder func(*T) string
	// title is the header of its page, safe to print (default: its name
	// made safe); copy what `y` copies (default: its uid); page its page.
	title func(*T) safe.Text
	// fields, for a kind without a page of its own, are what its page
	// shows (detail.FieldsPage); load, when the list leaves parts out,
	// reads them from the server once the page rests on one.
	fields func(*T) []detail.Field
	load   func(ctx context.Context, c *api.Client, it *T) ([]detail.Field, error)
	copy   func(*T) (string, string)
	// copySecret: what copy gives is a secret (the status line does not
	// show it).
	copySecret bool
	page       detail.Page
	list       string
	byName     bool
	inFolder   func(b builder, parent *tree.Node, group string) *tree.Node
	root       func(b builder) *tree.Node
	command    *cmdline.Command
	whole      func(e *env) (safe.Text, api.ListOptions)
	table      func(e *env, ctx context.Context, title safe.Text, o api.ListOptions) views.Screen
	// hasNode, hasCollection: the kind shows in the tree, one by one and
	// as a folder's collection; group: its node holds folders and
	// collections; flags: its children can be flagged; top names the node
	// of one at the top (a folder's: the organization).
	hasNode, hasCollection bool
	group, flags           bool
	top                    string
	scoped                 func(n *tree.Node) (safe.Text, api.ListOptions)
	childTable             func(e *env, ctx context.Context, n *tree.Node) views.Screen
	children               string
	nodeName               func(n *tree.Node) string
	create                 func(e *env, parent, parentName string) tea.Cmd
	inside                 func(e *env, n *tree.Node) tea.Cmd
	edits                  func(c *api.Client, it *T) []edit
	del                    func(c *api.Client, ctx context.Context, uid string) error
	get                    func(c *api.Client, ctx context.Context, uid string) (*T, error)
	lost                   func(e *env, cfg *dialog.Config, items []*T)
	related                func(r *registry, it *T) []views.Change
	bind                   func(e *env, it *T) tea.Cmd
	renamed                func(e *env, it *T)
	updated                func(n *tree.Node, node, it *T)
	find                   func(c *api.Client, ctx context.Context, o api.ListOptions) (*api.Page[T], error)
	// findBy makes the options of a find for a pattern, ok false when the
	// pattern cannot name one (default: an exact name).
	findBy func(pattern string) (o api.ListOptions, ok bool)
	// plugin, vars, ref and heldBy: see kind.
	plugin string
	vars   func(e *env, it *T, parent any) plugin.Vars
	ref    func(e *env, it *T, parent any) (string, string)
	heldBy string
}

// describe makes the kind of a spec: each function takes any item and does
// nothing (or answers "") for an item of another type.
func describe[T any](s spec[T]) *kind {
	k := &kind{noun: s.noun, nouns: s.nouns, list: s.list, byName: s.byName, inFolder: s.inFolder, root: s.root, command: s.command, whole: s.whole, table: s.table,
		scoped: s.scoped, childTable: s.childTable, children: s.children, nodeName: s.nodeName, create: s.create, inside: s.inside}
	k.name, k.uid, k.folder = textOf(s.name), textOf(s.uid), textOf(s.folder)
	title := s.title
	if title == nil {
		title = func(it *T) safe.Text { return safe.Of(s.name(it)) }
	}
	k.detail = &detail.Kind{UID: k.uid, Title: anyOf(title), Bindable: s.bind != nil, Page: s.page}
	if s.copy != nil {
		k.detail.CopySecret = s.copySecret
		k.detail.Copy = func(item any) (string, string) {
			if it, ok := item.(*T); ok {
				return s.copy(it)
			}
			return "", ""
		}
	}
	if s.edits != nil {
		k.edits = s.editsOfAny
	}
	if s.del != nil {
		k.del = func(ctx context.Context, c *api.Client, uid string) error { return s.del(c, ctx, uid) }
		k.exists = func(ctx context.Context, c *api.Client, uid string) error {
			_, err := s.get(c, ctx, uid)
			return err
		}
	}
	if s.lost != nil {
		k.lost = func(e *env, cfg *dialog.Config, items []doomed) {
			typed := make([]*T, 0, len(items))
			for _, d := range items {
				if it, ok := d.item.(*T); ok {
					typed = append(typed, it)
				}
			}
			s.lost(e, cfg, typed)
		}
	}
	if s.related != nil {
		k.related = func(r *registry, item any) []views.Change {
			return anyOf(func(it *T) []views.Change { return s.related(r, it) })(item)
		}
	}
	if s.bind != nil {
		k.bind = func(e *env, item any) tea.Cmd { return anyOf(func(it *T) tea.Cmd { return s.bind(e, it) })(item) }
	}
	if s.renamed != nil {
		k.renamed = func(e *env, item any) {
			if it, ok := item.(*T); ok {
				s.renamed(e, it)
			}
		}
	}
	if s.find != nil {
		k.find = s.findAny
	}
	k.plugin, k.heldBy = s.plugin, s.heldBy
	if s.get != nil {
		k.get = func(ctx context.Context, c *api.Client, uid string) (any, error) {
			it, err := s.get(c, ctx, uid)
			if err != nil {
				return nil, err
			}
			return it, nil
		}
	}
	if s.vars != nil {
		k.vars = func(e *env, item, parent any) plugin.Vars {
			if it, ok := item.(*T); ok {
				return s.vars(e, it, parent)
			}
			return nil
		}
	}
	if s.ref != nil {
		k.ref = func(e *env, item, parent any) (string, string) {
			if it, ok := item.(*T); ok {
				return s.ref(e, it, parent)
			}
			return "", ""
		}
	}
	if s.updated != nil {
		k.updated = func(n *tree.Node, item any) {
			node, ok := n.Item.(*T)
			it, same := item.(*T)
			if ok && same && s.uid(node) == s.uid(it) {
				s.updated(n, node, it)
			}
		}
	}
	return k
}

// findMax bounds what one kind's find brings: a name is meant to pick a
// few out, not to list.
const findMax = 20

// findAny asks the server for the ones pattern names, under org.
func (s spec[T]) findAny(ctx context.Context, c *api.Client, org, pattern string) ([]any, error) {
	o, ok := api.ListOptions{Name: pattern}, true
	if s.findBy != nil {
		o, ok = s.findBy(pattern)
	}
	if !ok {
		return nil, nil
	}
	if s.folder != nil {
		o.DescendantsOf = org
	}
	o.PageSize = findMax
	page, err := s.find(c, ctx, o)
	if err != nil {
		return nil, fmt.Errorf("looking up %s: %w", s.nouns, err)
	}
	out := make([]any, 0, min(len(page.Items), findMax))
	for i := range page.Items[:min(len(page.Items), findMax)] {
		out = append(out, &page.Items[i])
	}
	return out, nil
}

// editsOfAny are the edits of an item of the kind, each able to read its
// values from an answer (values) and from the server (current).
func (s spec[T]) editsOfAny(c *api.Client, item any) []edit {
	it, ok := item.(*T)
	if !ok {
		return nil
	}
	eds := s.edits(c, it)
	uid := s.uid(it)
	for i := range eds {
		mask := eds[i].mask
		// Only the fields are read of the edits of a result: no request
		// is made without a client.
		eds[i].values = func(result any) map[string]string {
			if r, ok := result.(*T); ok {
				return valuesIn(s.edits(nil, r), mask)
			}
			return map[string]string{}
		}
		eds[i].current = func(ctx context.Context) (map[string]string, any, error) {
			res, err := s.get(c, ctx, uid)
			if err != nil {
				return nil, nil, err
			}
			return valuesIn(s.edits(nil, res), mask), res, nil
		}
	}
	return eds
}

// anyOf makes a function of one *T take any item (the zero answer for an
// item of another type).
func anyOf[T, R any](f func(*T) R) func(any) R {
	return func(item any) R {
		if it, ok := item.(*T); ok {
			return f(it)
		}
		var zero R
		return zero
	}
}

// textOf makes a typed text function take any item ("" for another type,
// or when the kind has none).
func textOf[T any](f func(*T) string) func(any) string {
	return func(item any) string {
		if it, ok := item.(*T); ok && f != nil {
			return f(it)
		}
		return ""
	}
}

// registry holds the kinds, found by the type of a resource, by tree
// node kind, and by `:` command.
type registry struct {
	all          []*kind
	byType       map[reflect.Type]*kind
	byCollection map[*tree.Kind]*kind
	byCommand    map[string]*kind
	byList       map[string]*kind
	client       *api.Client // what pages that load read with
}

// register adds the kind of T, named as its descriptor says.
func register[T any](r *registry, s spec[T]) {
	d := resource.Must(s.of)
	s.noun, s.nouns, s.plugin, s.heldBy = d.Noun, d.Nouns, d.Plugin, d.HeldBy
	if d.Command != "" {
		s.command = &cmdline.Command{Name: d.Command, Aliases: d.Aliases, Desc: d.Says}
	}
	if s.fields != nil {
		s.page = detail.FieldsPage(s.uid, s.fields)
		if s.load != nil {
			c := r.client
			s.page = detail.LoadedPage(s.uid, s.fields, func(ctx context.Context, it *T) ([]detail.Field, error) { return s.load(ctx, c, it) })
		}
	}
	k := describe(s)
	r.all = append(r.all, k)
	r.byType[reflect.TypeFor[*T]()] = k
	if s.hasNode {
		k.node = &tree.Kind{Name: s.noun, Group: s.group, Flags: s.flags, Binds: s.bind != nil, Creates: s.inside != nil, Deletes: s.del != nil}
	}
	if s.top != "" {
		k.top = &tree.Kind{Name: s.top, Group: s.group, Binds: s.bind != nil, Creates: s.inside != nil}
	}
	if s.hasCollection {
		k.collection = &tree.Kind{Name: s.nouns, Collection: true, Creates: s.create != nil}
		r.byCollection[k.collection] = k
	}
	if s.command != nil {
		r.byCommand[s.command.Name] = k
	}
	if s.list != "" {
		r.byList[s.list] = k
	}
}

// holdsFolders reports whether nodes of the kind hold folders (the
// folder kind: a folder's place is its parent's).
func (k *kind) holdsFolders() bool { return k.node != nil && k.node.Group }

// in is the id of a collection of the kind in scope (see
// views.CollectionID).
func (k *kind) in(scope string) string { return views.CollectionID(k.nouns, scope) }

// changedIn is the change to the collection of the kind in scope.
func (k *kind) changedIn(scope string) views.Change { return views.ChangedIn(k.nouns, scope) }

// watched reports whether a change concerns collections of the kind.
func (k *kind) watched(c views.Change) bool { return c.Nouns == k.nouns }

// kindFor is the kind of T (which the registry must hold).
func kindFor[T any](r *registry) *kind { return r.byType[reflect.TypeFor[*T]()] }

// of is the kind of a resource; nil for what is none (a summary).
func (r *registry) of(item any) *kind {
	if item == nil {
		return nil
	}
	return r.byType[reflect.TypeOf(item)]
}

// byNoun is the kind named noun, nil for none.
func (r *registry) byNoun(noun string) *kind {
	for _, k := range r.all {
		if k.noun == noun {
			return k
		}
	}
	return nil
}

// detailOf is what the detail pane knows of a resource's kind.
func (r *registry) detailOf(item any) *detail.Kind {
	if k := r.of(item); k != nil {
		return k.detail
	}
	return nil
}

// editsOf are the updatable parts of a resource (none for a kind that
// has none).
func (r *registry) editsOf(c *api.Client, item any) []edit {
	if k := r.of(item); k != nil && k.edits != nil {
		return k.edits(c, item)
	}
	return nil
}

// creation is what a create form of a kind sends: its fields, the
// request for the preview, the collection it changes, and how to look
// for what it made when the answer is lost.
type creation struct {
	// parent is where it goes, loaded again once it is made with the
	// collection of its kind there.
	parent string
	sends  api.Request
	fields []form.Field
	submit func(ctx context.Context, v map[string]string) (any, error)
	find   func(ctx context.Context, v map[string]string) (any, error)
	// named is the name a value set gives what it makes ("name", a
	// subscription's "sink").
	named string
	// show opens the page of what was made once the form closes: its
	// answer says what no later read does (an invite's code).
	show bool
}
