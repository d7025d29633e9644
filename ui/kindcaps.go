package ui

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/keymap"
	"canopy/plugin"
	"canopy/safe"
	"canopy/saved"
	"canopy/views"
	"canopy/views/detail"
	"canopy/views/dialog"
	"canopy/views/tree"
)

// What a kind can do, one small interface each, as k9s's accessors are: a
// kind is a type of its own (kind_<noun>.go) that implements kindOf and
// whichever of these it does; register asks it which, and a capability it
// lacks is one the shell does not offer on it. T is the api type of one
// resource of the kind; uid, name and parent come from api.Resource.

// kindOf is what every kind is: a kind of package resource (a noun there,
// whose descriptor names it, gives its `:` command and plugin name), with
// the shape of its tree nodes and tables.
type kindOf[T any] interface {
	resourceType(*T)
	of() string
	shape() shape
}

// is, embedded in a kind's type, names the api type of its resources: a
// kind registered with another type does not compile.
type is[T any] struct{}

func (is[T]) resourceType(*T) {}

// shape is where a kind shows. list is the collection its list path ends
// with (the key under which the orders the server refused are kept);
// byName: the tree lists it by name (resources without names come in the
// server's order). node, collection: it shows in the tree one by one, and
// as a folder's collection; group: its node holds folders and collections;
// flags: its children can be flagged; top names the node of one at the top
// (a folder's: the organization).
type shape struct {
	list                           string
	byName                         bool
	node, collection, group, flags bool
	top                            string
}

// labeled: the user knows one by a label of canopy's making rather than
// the name the service gives (a role binding by its role and identity, a
// subscription by its sink); server text, made safe where it is shown.
type labeled[T any] interface{ label(it *T) string }

// apart: the shell tells one apart by a key of its own, not its uid,
// which is another resource's too (an account association's is its
// folder's): what tree nodes, rows, deletes, pages and plugins take for
// its uid, and what its getter and deleter are given.
type apart[T any] interface{ apart(it *T) string }

// placed: one lives in a folder (a folder is its own), by its uid.
type placed[T any] interface{ folder(it *T) string }

// titled: the header of its page, safe to print (default: its label or
// name made safe).
type titled[T any] interface{ title(it *T) safe.Text }

// paged: its page of its own (detail.RepoPage, …) in an env, which gives
// what the page loads (a repo's readme and counts, a tag's image and
// relations, an identity's bindings) from the env's client and what the
// shell keeps; each env makes it once (registry.detailsIn).
type paged interface{ page(e *env) detail.Page }

// fielded: a kind without a page of its own shows these fields on its
// page (detail.FieldsPage); loaded: the list leaves parts out, read from
// the server once the page rests on one.
type fielded[T any] interface{ fields(it *T) []detail.Field }
type loaded[T any] interface {
	load(ctx context.Context, c *api.Client, it *T) ([]detail.Field, error)
}

// copier: what `y` copies of one and what that is (default: its uid);
// secretCopier: that is a secret (the status line does not show it).
type copier[T any] interface {
	copy(it *T) (text, what string)
}
type secretCopier interface{ copiesSecret() bool }

// tabled: a table of its resources in a scope, and the scope and title of
// its `:` command (the whole organization, or the feed).
type tabled interface {
	table(e *env, ctx context.Context, title safe.Text, o api.ListOptions) views.Screen
	whole(e *env) (safe.Text, api.ListOptions)
}

// foldered: the node of a folder's collection of the kind, with its
// children. rooted: its own root of the tree, beside the organization's
// (the advisory feed). scoper: a collection of it opens as this table
// (default: the table of its parent folder's resources).
type foldered interface {
	inFolder(b builder, parent *tree.Node, group string) *tree.Node
}
type rooted interface{ root(b builder) *tree.Node }
type scoper interface {
	scoped(n *tree.Node) (safe.Text, api.ListOptions)
}

// holder: `t` on a node of it shows what it holds as a table (a repo's
// tags); children names what it holds, for a failure.
type holder interface {
	childTable(e *env, ctx context.Context, n *tree.Node) views.Screen
	children() string
}

// reviewed: w on one opens who can do what where it is.
type reviewed[T any] interface {
	access(e *env, it *T) (whoseAccess, safe.Text)
}

// viewHolder: the table of what one holds as a saved view finds it again
// (a folder's repos by its path, a repo's tags by its name).
type viewHolder interface {
	childView(e *env, n *tree.Node) *saved.View
}

// nodeNamer: how the user knows a node's resource when its parent tells
// more than the name (a tag's "repo:tag").
type nodeNamer interface{ nodeName(n *tree.Node) string }

// creator: the form of a new one in a parent. insider: `n` on a node of
// it gives what it holds a new member (a folder in a folder, a tag in a
// repo).
type creator interface {
	create(e *env, parent, parentName string) tea.Cmd
}
type insider interface {
	inside(e *env, n *tree.Node) tea.Cmd
}

// getter reads one by uid.
type getter[T any] interface {
	get(c *api.Client, ctx context.Context, uid string) (*T, error)
}

// editor: the updatable parts of one, the main first; each reads its
// values again from the server (get) to learn what became of a lost edit.
type editor[T any] interface {
	getter[T]
	edits(c *api.Client, it *T) []edit
}

// deleter deletes one by uid; get asks whether the server still has it (a
// delete whose answer was lost).
type deleter[T any] interface {
	getter[T]
	del(c *api.Client, ctx context.Context, uid string) error
}

// batchDeleter deletes several of one parent in one request (the marked
// mappings of one identity provider): batchOf is the parent of one, and
// delBatch answers the uids it deleted (one the server no longer had is
// skipped, not refused). A dialog deleting one alone uses del.
type batchDeleter[T any] interface {
	deleter[T]
	batchOf(it *T) string
	delBatch(c *api.Client, ctx context.Context, parent string, uids []string) ([]string, error)
}

// warner: what a delete dialog says goes with the resources.
type warner[T any] interface {
	lost(e *env, cfg *dialog.Config, items []*T)
}

// relater: what changes when one is deleted, beside its own row (an
// identity's bindings).
type relater[T any] interface {
	related(r *registry, it *T) []views.Change
}

// keyed: keys of its own on one's page (a role's n and d, or why a
// built-in one's e and d are off), each with what it does.
type keyed[T any] interface {
	keys(e *env, it *T) []keymap.State
}

// binder starts the binding flow from one.
type binder[T any] interface{ bind(e *env, it *T) tea.Cmd }

// renamer follows a new version of one in the names the shell keeps;
// updater in the tree node that shows it (node: the node's own).
type renamer[T any] interface{ renamed(e *env, it *T) }
type updater[T any] interface {
	updated(n *tree.Node, node, it *T)
}

// finder asks the server for the ones a pattern names exactly, anywhere
// in the organization: what ctrl+s in the tree's filter finds beyond the
// nodes loaded. patterned makes the options of a find, ok false when the
// pattern cannot name one (default: an exact name).
type finder[T any] interface {
	find(c *api.Client, ctx context.Context, o api.ListOptions) (*api.Page[T], error)
}
type patterned interface {
	findBy(pattern string) (o api.ListOptions, ok bool)
}

// plugged: the variables one gives plugins beyond UID, Name, Org and
// OrgUID (parent: the tree node's parent's resource, nil elsewhere).
// referrer: what `Y` copies of one (a tag's pull reference) and what that
// is.
type plugged[T any] interface {
	vars(e *env, it *T, parent any) plugin.Vars
}
type referrer[T any] interface {
	ref(e *env, it *T, parent any) (text, what string)
}

// forgetter drops what the shell keeps about one (r on its page counts or
// reads it again): a repo's tag and advisory counts, a tag's repo's tags.
type forgetter[T any] interface{ forget(e *env, it *T) }

// tallied: what the shell's counts gain when one is made here and lose
// when one is deleted (a tag: its repo's tags and deprecated tags, in the
// counts the overview, the tree and the repo's page show).
type tallied[T any] interface {
	made(e *env, it *T)
	gone(e *env, it *T)
}

// advised: the advisories of what one ships (a on a repo), and the notes
// its collapsed tree row shows of them.
type advised[T any] interface {
	advisories(e *env, it *T) tea.Cmd
	notes(e *env, it *T, expanded bool) []safe.Text
}
