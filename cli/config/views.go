package config

import (
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"canopy/saved"
)

// readViews reads the `views:` list: every mistake named with its line,
// a view's name given once.
func readViews(n *yaml.Node, at func(*yaml.Node, string, ...any) error) ([]saved.View, error) {
	return readList(n, "views", "views, each `- name: …` with of and how it is shown", at, readView,
		func(v saved.View) (string, int) { return v.Name, v.Line })
}

// readView reads one entry of the list.
func readView(n *yaml.Node, at func(*yaml.Node, string, ...any) error) (saved.View, error) {
	v := saved.View{Line: n.Line}
	if n.Kind != yaml.MappingNode {
		return v, at(n, "views: want each view as `name: …` lines")
	}
	if err := once(n, "views: ", at); err != nil {
		return v, err
	}
	field := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		if !slices.Contains(saved.Fields(), k.Value) {
			return v, at(k, "views: unknown field %q (known: %s)", k.Value, strings.Join(saved.Fields(), ", "))
		}
		field[k.Value] = n.Content[i+1]
	}
	name := field["name"]
	if name == nil {
		return v, at(n, "views: a view without a name (it is also its `:` command)")
	}
	if err := saved.CheckName(name.Value); name.Kind != yaml.ScalarNode || err != nil {
		return v, at(name, "views: %v", err)
	}
	v.Name = name.Value
	in := func(x *yaml.Node, format string, args ...any) error {
		return at(x, "views: "+v.Name+": "+format, args...)
	}
	text := map[string]*string{"of": &v.Of, "in": &v.In, "folder": &v.Folder, "order": &v.Order, "server": &v.Server, "filter": &v.Filter}
	for key, to := range text {
		if x := field[key]; x != nil {
			if x.Kind != yaml.ScalarNode {
				return v, in(x, "%s: want a single value", key)
			}
			*to = x.Value
		}
	}
	if v.Of == "" {
		return v, in(n, "no of: want the table it shows, as its : command (tags, repos, identities, …)")
	}
	if x := field["columns"]; x != nil {
		if x.Kind != yaml.SequenceNode {
			return v, in(x, "columns: want a list of column titles, such as [tag, digest, updated]")
		}
		for _, c := range x.Content {
			if c.Kind != yaml.ScalarNode || c.Value == "" {
				return v, in(c, "columns: want column titles")
			}
			v.Columns = append(v.Columns, c.Value)
		}
	}
	for key, to := range map[string]*bool{"deprecated": &v.Deprecated, "below": &v.Below} {
		if x := field[key]; x != nil {
			b, err := strconv.ParseBool(x.Value)
			if x.Kind != yaml.ScalarNode || err != nil {
				return v, in(x, "%s: %q is not true or false", key, x.Value)
			}
			*to = b
		}
	}
	switch {
	case v.Folder != "" && v.In != "":
		return v, in(n, "folder: and in: both say where: keep one")
	case v.Below && v.Folder == "":
		return v, in(field["below"], "below: says to list under a folder: name it with folder: (a path such as apps/web)")
	}
	for _, part := range saved.FolderParts(v.Folder) {
		if part == "" {
			return v, in(field["folder"], "folder: %q has an empty part: want a path such as apps/web", v.Folder)
		}
	}
	return v, nil
}
