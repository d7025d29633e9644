// Package saved is what a saved view is: a collection (a `:` table) with
// how it is shown (its order, exact server filter, columns, fuzzy filter,
// deprecated rows only), under a name that is its own `:` command. The
// config file's views: hold them; `:save` writes one there.
package saved

import (
	"canopy/lazyregexp"
	"fmt"
	"strings"
)

// View is one saved view.
type View struct {
	Name string `yaml:"name"`
	// Of is the table's `:` command (tags, repos, identities, …); In, for
	// a kind held by another, the holder's name (the repo of :tags python).
	Of string `yaml:"of"`
	In string `yaml:"in,omitempty"`
	// Folder, for a kind kept in folders, is the folder whose own members
	// the table lists, by its path below the organization ("apps/web";
	// "/" is the organization itself); Below lists those of every folder
	// under it too.
	Folder  string   `yaml:"folder,omitempty"`
	Below   bool     `yaml:"below,omitempty"`
	Order   string   `yaml:"order,omitempty"`
	Server  string   `yaml:"server,omitempty"`
	Columns []string `yaml:"columns,omitempty,flow"`
	Filter  string   `yaml:"filter,omitempty"`
	// Deprecated shows only the deprecated rows (D).
	Deprecated bool `yaml:"deprecated,omitempty"`
	// Line is its entry's line in the config file (0: not from one).
	Line int `yaml:"-"`
}

// Fields are the fields of an entry, in the order a saved one is written.
func Fields() []string {
	return []string{"name", "of", "in", "folder", "below", "order", "server", "columns", "filter", "deprecated"}
}

// namePattern is a view's name: a word a `:` command can be.
//
// At most maxName characters, compared apart from the pattern: a counted
// repetition ({0,31}) compiles to a program as long as its count, which
// took a part of every canopy's start (issue 39).
var namePattern = lazyregexp.New(`^[a-z][a-z0-9-]*$`)

// maxName is the most characters a name has.
const maxName = 32

// CheckName checks a view's name.
func CheckName(name string) error {
	if len(name) > maxName || !namePattern.MatchString(name) {
		return fmt.Errorf("name %q: want a lower-case word that starts with a letter (a-z, then a-z, 0-9 or -; at most 32), it is also the view's `:` command", name)
	}
	return nil
}

// Says is what the view shows, in words: "tags of python · deprecated ·
// filter !dev".
func (v View) Says() string {
	parts := []string{v.Of}
	if v.In != "" {
		parts[0] += " of " + v.In
	}
	if v.Folder != "" {
		where := " in " + strings.Trim(v.Folder, "/")
		if TopFolder(v.Folder) {
			where = " in the organization"
		}
		if v.Below {
			where = " under " + strings.Trim(v.Folder, "/")
		}
		parts[0] += where
	}
	if v.Server != "" {
		parts = append(parts, "server "+v.Server)
	}
	if v.Deprecated {
		parts = append(parts, "deprecated")
	}
	if v.Order != "" {
		parts = append(parts, "by "+v.Order)
	}
	if v.Filter != "" {
		parts = append(parts, "filter "+v.Filter)
	}
	if len(v.Columns) > 0 {
		parts = append(parts, strings.Join(v.Columns, " "))
	}
	return strings.Join(parts, " · ")
}

// TopFolder reports whether a view's folder is the organization itself.
func TopFolder(path string) bool { return path != "" && strings.Trim(path, "/") == "" }

// FolderParts are a view's folder path's names, top first (none for the
// organization).
func FolderParts(path string) []string {
	if p := strings.Trim(path, "/"); p != "" {
		return strings.Split(p, "/")
	}
	return nil
}
