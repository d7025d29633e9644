package ui

import (
	"context"
	"strings"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/views/columns"
	"canopy/views/dialog"
	"canopy/views/form"
	"canopy/views/table"
)

// spansFolders reports whether a table's rows can live in several folders
// (its scope is a whole subtree), which then shows a FOLDER column.
func spansFolders(o api.ListOptions) bool { return o.DescendantsOf != "" }

// folderColumn is the FOLDER column's resolver for a table of this scope,
// nil for a table of one folder.
func (e *env) folderColumn(o api.ListOptions) columns.Folders {
	if !spansFolders(o) {
		return nil
	}
	return columns.Folders(e.folderPaths)
}

// loadedIn asks for the folder names of rows that span folders.
func loadedIn[T any](e *env, o api.ListOptions, key func(*T) string) func([]*T) tea.Cmd {
	if !spansFolders(o) {
		return nil
	}
	return func(items []*T) tea.Cmd {
		groups := make([]string, 0, len(items))
		for _, it := range items {
			if g := api.ParentUID(key(it)); g != "" { // a built-in role is in none
				groups = append(groups, g)
			}
		}
		return e.folders(groups...)
	}
}

// editOf is a table's in-place editor: the main field of the row.
func editOf[T any](ctx context.Context, e *env) func(*T) *form.Config {
	return func(it *T) *form.Config {
		c := *it
		eds := e.kinds.editsOf(e.client, &c)
		if len(eds) == 0 {
			return nil
		}
		cfg := e.formOf(ctx, eds[0])
		return &cfg
	}
}

// scopeOf is the group (or repo) a table's list is scoped to.
func scopeOf(o api.ListOptions) string {
	if o.ChildrenOf != "" {
		return o.ChildrenOf
	}
	return o.DescendantsOf
}

// whereOf is the place a table's title names ("repos of platform" →
// "platform").
func whereOf(title string) string {
	if _, where, ok := strings.Cut(title, " of "); ok {
		return where
	}
	return title
}

// rowDelete deletes a table's rows (the marked ones together) after the
// shell's dialog, each named as its kind names it.
func rowDelete[T any](e *env) *table.Delete[T] {
	k := kindFor[T](e.kinds)
	return rowDeleteNamed(e, func(it *T) string { return k.name(it) })
}

// rowDeleteNamed is rowDelete with the name the user knows a row's
// resource by in this table (a tag's "repo:tag").
func rowDeleteNamed[T any](e *env, name func(*T) string) *table.Delete[T] {
	k := kindFor[T](e.kinds)
	return &table.Delete[T]{Noun: k.noun, Nouns: k.nouns, Name: name, Ask: func(items []*T, done func(dialog.Settled) tea.Msg) tea.Cmd {
		ds := make([]doomed, len(items))
		for i, it := range items {
			ds[i] = doomed{item: it, name: name(it)}
		}
		return e.askDelete(ds, done)
	}}
}
