package ui

import (
	"context"
	"reflect"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/keymap"
	"canopy/plugin"
	"canopy/safe"
	"canopy/saved"
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
// deleted. Each kind is a type of its own in one file (kind_<noun>.go),
// implementing the small interfaces of what it can do (kindcaps.go), and
// registered in kinds.go; register makes this entry of it, whose functions
// take any item, and the shell asks the registry instead of switching over
// types. A nil function means the kind does not do that.
type kind struct {
	noun, nouns string
	// name is how the user knows a resource (its name, a subscription's
	// sink): server text, to be made safe where it is shown.
	name func(item any) string
	uid  func(item any) string
	// detail is what the detail pane knows of the kind in any env: its
	// title and what `y` copies. Its Page is left out: page makes the
	// kind's page in an env, and the pane asks the env's whole detail
	// (env.details, made once by registry.detailsIn).
	detail *detail.Kind
	page   func(e *env) detail.Page
	// pageKeys are keys of the kind's own on one's page, in an env.
	pageKeys func(e *env, item any) []keymap.State
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
	// access is w on one: who can do what where it is (its scope and
	// the matrix's title); nil for kinds with none.
	access func(e *env, item any) (whoseAccess, safe.Text)
	// childView is that table as a view, for :save (nil: it is none).
	childView func(e *env, n *tree.Node) *saved.View
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
	// batchOf is the parent whose several are deleted in one request
	// (delBatch, which answers the uids it deleted); nil: one by one.
	batchOf  func(item any) string
	delBatch func(ctx context.Context, c *api.Client, parent string, uids []string) ([]string, error)
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
	// forget drops what the shell keeps about one; advisories opens the
	// advisories of what one ships, whose counts notes gives its tree row.
	forget     func(e *env, item any)
	made, gone func(e *env, item any) // see tallied
	advisories func(e *env, item any) tea.Cmd
	notes      func(e *env, item any, expanded bool) []safe.Text
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

// detailsIn is what the detail pane knows of each kind in e, its page
// made in e: the env makes it once, as it is made (never in a View).
func (r *registry) detailsIn(e *env) map[*kind]*detail.Kind {
	out := make(map[*kind]*detail.Kind, len(r.all))
	for _, k := range r.all {
		d := *k.detail
		if k.page != nil {
			d.Page = k.page(e)
		}
		if k.pageKeys != nil {
			keys := k.pageKeys
			d.Keys = func(item any) []keymap.State { return keys(e, item) }
		}
		out[k] = &d
	}
	return out
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
	// sendsFor, when set, is the request the values would send, for the
	// preview, where the path depends on them (a mapping's is its
	// provider's); sends is the one shown otherwise.
	sendsFor func(v map[string]string) api.Request
	fields   []form.Field
	submit   func(ctx context.Context, v map[string]string) (any, error)
	find     func(ctx context.Context, v map[string]string) (any, error)
	// named is the name a value set gives what it makes ("name", a
	// subscription's "sink").
	named string
	// show opens the page of what was made once the form closes: its
	// answer says what no later read does (an invite's code).
	show bool
}
