package ui

import (
	"context"
	"fmt"
	"reflect"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/keymap"
	"canopy/plugin"
	"canopy/resource"
	"canopy/safe"
	"canopy/views"
	"canopy/views/cmdline"
	"canopy/views/detail"
	"canopy/views/dialog"
	"canopy/views/tree"
)

// register adds a kind, with its type T: what it can do is what it
// implements (kindcaps.go), and the shell reaches each capability through
// one function that takes any item (and does nothing, or answers "", for
// an item of another type). Its nouns, command and plugin name are its
// descriptor's.
func register[T any, P interface {
	*T
	api.Resource
}](r *registry, impl kindOf[T]) {
	d := resource.Must(impl.of())
	sh := impl.shape()
	k := &kind{noun: d.Noun, nouns: d.Nouns, plugin: d.Plugin, heldBy: d.HeldBy, list: sh.list, byName: sh.byName}
	label := func(it *T) string { return P(it).GetName() }
	if l, ok := impl.(labeled[T]); ok {
		label = l.label
	}
	k.name = textOf(label)
	k.uid = textOf(func(it *T) string { return P(it).GetUID() })
	if a, ok := impl.(apart[T]); ok {
		k.uid = textOf(a.apart)
	}
	if p, ok := impl.(placed[T]); ok {
		k.folder = textOf(p.folder)
	} else {
		k.folder = textOf[T](nil)
	}
	if d.Command != "" {
		k.command = &cmdline.Command{Name: d.Command, Aliases: d.Aliases, Desc: d.Says}
	}
	r.describeTree(k, impl, sh)
	describeDetail(r, k, impl, label)
	describeChanges[T](k, impl)
	describeFind[T](k, impl)
	describePlugins[T](k, impl)
	r.all = append(r.all, k)
	r.byType[reflect.TypeFor[*T]()] = k
	if k.collection != nil {
		r.byCollection[k.collection] = k
	}
	if k.command != nil {
		r.byCommand[k.command.Name] = k
	}
	if k.list != "" {
		r.byList[k.list] = k
	}
}

// describeTree gives k the kind's tables and tree nodes.
func (r *registry) describeTree(k *kind, impl any, sh shape) {
	if t, ok := impl.(tabled); ok {
		k.table, k.whole = t.table, t.whole
	}
	if f, ok := impl.(foldered); ok {
		k.inFolder = f.inFolder
	}
	if ro, ok := impl.(rooted); ok {
		k.root = ro.root
	}
	if s, ok := impl.(scoper); ok {
		k.scoped = s.scoped
	}
	if h, ok := impl.(holder); ok {
		k.childTable, k.children = h.childTable, h.children()
		if v, ok := impl.(viewHolder); ok {
			k.childView = v.childView
		}
	}
	if n, ok := impl.(nodeNamer); ok {
		k.nodeName = n.nodeName
	}
	if c, ok := impl.(creator); ok {
		k.create = c.create
	}
	if in, ok := impl.(insider); ok {
		k.inside = in.inside
	}
	if sh.node {
		k.node = &tree.Kind{Name: k.noun, Group: sh.group, Flags: sh.flags, Creates: k.inside != nil}
	}
	if sh.top != "" {
		k.top = &tree.Kind{Name: sh.top, Group: sh.group, Creates: k.inside != nil}
	}
	if sh.collection {
		k.collection = &tree.Kind{Name: k.nouns, Collection: true, Creates: k.create != nil}
	}
}

// describeDetail gives k its page, what `y` copies, its edits, and what a
// delete does and warns of.
func describeDetail[T any](r *registry, k *kind, impl kindOf[T], label func(*T) string) {
	title := func(it *T) safe.Text { return safe.Of(label(it)) }
	if t, ok := impl.(titled[T]); ok {
		title = t.title
	}
	uid := func(it *T) string { return k.uid(it) }
	if p, ok := impl.(paged); ok {
		k.page = p.page
	}
	if f, ok := impl.(fielded[T]); ok {
		page := detail.FieldsPage(uid, f.fields)
		if l, ok := impl.(loaded[T]); ok {
			c := r.client
			page = detail.LoadedPage(uid, f.fields, func(ctx context.Context, it *T) ([]detail.Field, error) { return l.load(ctx, c, it) })
		}
		k.page = func(*env) detail.Page { return page }
	}
	if k.page == nil {
		// Every kind opens on a page: one without (or with a page method
		// of another signature, which implements nothing) is a mistake of
		// its file, caught by every test that makes a registry.
		panic(fmt.Sprintf("ui: the %s kind has no page: give it page(e *env) detail.Page, or fields", k.noun))
	}
	if kk, ok := impl.(keyed[T]); ok {
		k.pageKeys = func(e *env, item any) []keymap.State {
			return anyOf(func(it *T) []keymap.State { return kk.keys(e, it) })(item)
		}
	}
	b, binds := impl.(binder[T])
	k.detail = &detail.Kind{UID: k.uid, Title: anyOf(title), Bindable: binds}
	if c, ok := impl.(copier[T]); ok {
		if s, ok := impl.(secretCopier); ok {
			k.detail.CopySecret = s.copiesSecret()
		}
		k.detail.Copy = func(item any) (string, string) {
			if it, ok := item.(*T); ok {
				return c.copy(it)
			}
			return "", ""
		}
	}
	if binds {
		k.bind = func(e *env, item any) tea.Cmd { return anyOf(func(it *T) tea.Cmd { return b.bind(e, it) })(item) }
		if k.node != nil {
			k.node.Binds = true
		}
		if k.top != nil {
			k.top.Binds = true
		}
	}
	if ed, ok := impl.(editor[T]); ok {
		k.edits = func(c *api.Client, item any) []edit { return editsOfAny(ed, c, item, k.uid(item)) }
	}
	if d, ok := impl.(deleter[T]); ok {
		k.del = func(ctx context.Context, c *api.Client, uid string) error { return d.del(c, ctx, uid) }
		k.exists = func(ctx context.Context, c *api.Client, uid string) error {
			_, err := d.get(c, ctx, uid)
			return err
		}
		if k.node != nil {
			k.node.Deletes = true
		}
	}
	if b, ok := impl.(batchDeleter[T]); ok {
		k.batchOf = textOf(b.batchOf)
		k.delBatch = func(ctx context.Context, c *api.Client, parent string, uids []string) ([]string, error) {
			return b.delBatch(c, ctx, parent, uids)
		}
	}
	if g, ok := impl.(getter[T]); ok {
		k.get = func(ctx context.Context, c *api.Client, uid string) (any, error) {
			it, err := g.get(c, ctx, uid)
			if err != nil {
				return nil, err
			}
			return it, nil
		}
	}
	if w, ok := impl.(warner[T]); ok {
		k.lost = func(e *env, cfg *dialog.Config, items []doomed) {
			typed := make([]*T, 0, len(items))
			for _, d := range items {
				if it, ok := d.item.(*T); ok {
					typed = append(typed, it)
				}
			}
			w.lost(e, cfg, typed)
		}
	}
}

// describeChanges gives k what follows a change to one: what else changes
// with its delete, the names the shell keeps, the tree node showing it.
func describeChanges[T any](k *kind, impl kindOf[T]) {
	if rel, ok := impl.(relater[T]); ok {
		k.related = func(r *registry, item any) []views.Change {
			return anyOf(func(it *T) []views.Change { return rel.related(r, it) })(item)
		}
	}
	if rn, ok := impl.(renamer[T]); ok {
		k.renamed = func(e *env, item any) {
			if it, ok := item.(*T); ok {
				rn.renamed(e, it)
			}
		}
	}
	if u, ok := impl.(updater[T]); ok {
		k.updated = func(n *tree.Node, item any) {
			node, ok := n.Item.(*T)
			it, same := item.(*T)
			if ok && same && k.uid(node) == k.uid(it) {
				u.updated(n, node, it)
			}
		}
	}
}

// findMax bounds what one kind's find brings: a name is meant to pick a
// few out, not to list.
const findMax = 20

// describeFind gives k its find: the ones a pattern names, under org.
func describeFind[T any](k *kind, impl kindOf[T]) {
	f, ok := impl.(finder[T])
	if !ok {
		return
	}
	by := func(pattern string) (api.ListOptions, bool) { return api.ListOptions{Name: pattern}, true }
	if p, ok := impl.(patterned); ok {
		by = p.findBy
	}
	_, inFolders := impl.(placed[T])
	nouns := k.nouns
	k.find = func(ctx context.Context, c *api.Client, org, pattern string) ([]any, error) {
		o, ok := by(pattern)
		if !ok {
			return nil, nil
		}
		if inFolders {
			o.DescendantsOf = org
		}
		o.PageSize = findMax
		page, err := f.find(c, ctx, o)
		if err != nil {
			return nil, fmt.Errorf("looking up %s: %w", nouns, err)
		}
		out := make([]any, 0, min(len(page.Items), findMax))
		for i := range page.Items[:min(len(page.Items), findMax)] {
			out = append(out, &page.Items[i])
		}
		return out, nil
	}
}

// describePlugins gives k the variables one gives plugins, what `Y`
// copies of one, what the shell forgets of one and its advisories.
func describePlugins[T any](k *kind, impl kindOf[T]) {
	if p, ok := impl.(plugged[T]); ok {
		k.vars = func(e *env, item, parent any) plugin.Vars {
			if it, ok := item.(*T); ok {
				return p.vars(e, it, parent)
			}
			return nil
		}
	}
	if f, ok := impl.(forgetter[T]); ok {
		k.forget = func(e *env, item any) {
			if it, ok := item.(*T); ok {
				f.forget(e, it)
			}
		}
	}
	if r, ok := impl.(reviewed[T]); ok {
		k.access = func(e *env, item any) (whoseAccess, safe.Text) {
			if it, ok := item.(*T); ok {
				return r.access(e, it)
			}
			return whoseAccess{}, ""
		}
	}
	if u, ok := impl.(tallied[T]); ok {
		k.made = func(e *env, item any) {
			if it, ok := item.(*T); ok {
				u.made(e, it)
			}
		}
		k.gone = func(e *env, item any) {
			if it, ok := item.(*T); ok {
				u.gone(e, it)
			}
		}
	}
	if a, ok := impl.(advised[T]); ok {
		k.advisories = func(e *env, item any) tea.Cmd {
			return anyOf(func(it *T) tea.Cmd { return a.advisories(e, it) })(item)
		}
		k.notes = func(e *env, item any, expanded bool) []safe.Text {
			return anyOf(func(it *T) []safe.Text { return a.notes(e, it, expanded) })(item)
		}
	}
	if rf, ok := impl.(referrer[T]); ok {
		k.ref = func(e *env, item, parent any) (string, string) {
			if it, ok := item.(*T); ok {
				return rf.ref(e, it, parent)
			}
			return "", ""
		}
	}
}

// editsOfAny are the edits of an item of the kind, each able to read its
// values from an answer (values) and from the server (current).
func editsOfAny[T any](ed editor[T], c *api.Client, item any, uid string) []edit {
	it, ok := item.(*T)
	if !ok {
		return nil
	}
	eds := ed.edits(c, it)
	for i := range eds {
		mask := eds[i].mask
		// Only the fields are read of the edits of a result: no request
		// is made without a client.
		eds[i].values = func(result any) map[string]string {
			if r, ok := result.(*T); ok {
				return valuesIn(ed.edits(nil, r), mask)
			}
			return map[string]string{}
		}
		eds[i].current = func(ctx context.Context) (map[string]string, any, error) {
			res, err := ed.get(c, ctx, uid)
			if err != nil {
				return nil, nil, err
			}
			return valuesIn(ed.edits(nil, res), mask), res, nil
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
