package config

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"canopy/keymap"
	"canopy/plugin"
	"canopy/resource"
)

// pluginFields are the fields of a plugin's entry, in the order the
// errors list them.
var pluginFields = []string{"name", "key", "description", "kinds", "command", "args", "mode", "confirm"}

// readPlugins reads the `plugins:` list: every mistake is named with its
// line, and a plugin's name is given once.
func readPlugins(n *yaml.Node, at func(*yaml.Node, string, ...any) error) ([]plugin.Plugin, error) {
	return readList(n, "plugins", "plugins, each `- name: …` with key, kinds, command and args", at, readPlugin,
		func(p plugin.Plugin) (string, int) { return p.Name, p.Line })
}

// readList reads a list of named entries (plugins:, views:), each with
// read: a name given twice is refused, naming both lines.
func readList[T any](n *yaml.Node, what, want string, at func(*yaml.Node, string, ...any) error,
	read func(*yaml.Node, func(*yaml.Node, string, ...any) error) (T, error), named func(T) (string, int)) ([]T, error) {
	if n.Kind != yaml.SequenceNode {
		return nil, at(n, "%s: want a list of %s", what, want)
	}
	var out []T
	names := map[string]int{}
	for _, e := range n.Content {
		it, err := read(e, at)
		if err != nil {
			return nil, err
		}
		name, line := named(it)
		if first, ok := names[name]; ok {
			return nil, at(e, "%s: %s is given twice (first on line %d); keep one", what, name, first)
		}
		names[name] = line
		out = append(out, it)
	}
	return out, nil
}

// readPlugin reads one entry of the list.
func readPlugin(n *yaml.Node, at func(*yaml.Node, string, ...any) error) (plugin.Plugin, error) {
	p := plugin.Plugin{Mode: plugin.Foreground, Line: n.Line}
	if n.Kind != yaml.MappingNode {
		return p, at(n, "plugins: want each plugin as `name: …` lines")
	}
	if err := once(n, "plugins: ", at); err != nil {
		return p, err
	}
	field := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		if !slices.Contains(pluginFields, k.Value) {
			return p, at(k, "plugins: unknown field %q (known: %s)", k.Value, strings.Join(pluginFields, ", "))
		}
		field[k.Value] = n.Content[i+1]
	}
	name := field["name"]
	if name == nil {
		return p, at(n, "plugins: a plugin without a name (it is also its `:` command)")
	}
	p.Name = name.Value
	if err := plugin.CheckName(name.Value); name.Kind != yaml.ScalarNode || err != nil {
		return p, at(name, "plugins: %v", err)
	}
	in := func(v *yaml.Node, format string, args ...any) error {
		return at(v, "plugins: %s: %s", p.Name, fmt.Sprintf(format, args...))
	}
	scalar := func(key string) (*yaml.Node, error) {
		v := field[key]
		if v != nil && v.Kind != yaml.ScalarNode {
			return nil, in(v, "%s: want a single value", key)
		}
		return v, nil
	}
	if v, err := scalar("key"); err != nil {
		return p, err
	} else if v != nil {
		key, err := keymap.NormalizeKey(v.Value)
		if err != nil {
			return p, in(v, "key: %v", err)
		}
		p.Key, p.KeyLine = key, v.Line
	}
	if v, err := scalar("description"); err != nil {
		return p, err
	} else if v != nil {
		p.Description = v.Value
	}
	if err := readKinds(field["kinds"], &p, n, in); err != nil {
		return p, err
	}
	v, err := scalar("command")
	if err != nil {
		return p, err
	}
	if v == nil {
		return p, in(n, "no command: want the program to run, such as cosign")
	}
	if err := plugin.CheckCommand(v.Value); err != nil {
		return p, in(v, "%v", err)
	}
	p.Command = v.Value
	if err := readArgs(field["args"], &p, in); err != nil {
		return p, err
	}
	if v, err := scalar("mode"); err != nil {
		return p, err
	} else if v != nil {
		if !slices.Contains(plugin.Modes(), plugin.Mode(v.Value)) {
			return p, in(v, "mode %q: want foreground (the terminal is handed over) or background (its output in a page)", v.Value)
		}
		p.Mode = plugin.Mode(v.Value)
	}
	if v, err := scalar("confirm"); err != nil {
		return p, err
	} else if v != nil {
		b, err := strconv.ParseBool(v.Value)
		if err != nil {
			return p, in(v, "confirm: %q is not true or false", v.Value)
		}
		p.Confirm = b
	}
	if err := p.Check(); err != nil {
		var arg *plugin.ArgError
		if errors.As(err, &arg) && field["args"] != nil && arg.Index < len(field["args"].Content) {
			return p, in(field["args"].Content[arg.Index], "%v", err)
		}
		return p, in(n, "%v", err)
	}
	return p, nil
}

// readKinds reads `kinds: [tag, repo]` (or one kind).
func readKinds(v *yaml.Node, p *plugin.Plugin, entry *yaml.Node, in func(*yaml.Node, string, ...any) error) error {
	if v == nil {
		return in(entry, "no kinds: want the kinds it runs on, such as [tag] (known: %s)", strings.Join(plugin.Kinds(), ", "))
	}
	elems := v.Content
	if v.Kind == yaml.ScalarNode {
		elems = []*yaml.Node{v}
	}
	for _, e := range elems {
		if e.Kind != yaml.ScalarNode || !slices.Contains(plugin.Kinds(), e.Value) {
			if d, ok := noPlugin(e.Value); ok {
				return in(e, "kinds: no plugin runs on %s %s: %s (known: %s)", plugin.Article(d.Noun), d.Noun, d.NoPlugin, strings.Join(plugin.Kinds(), ", "))
			}
			return in(e, "kinds: unknown kind %q (known: %s)", e.Value, strings.Join(plugin.Kinds(), ", "))
		}
		if !slices.Contains(p.Kinds, e.Value) {
			p.Kinds = append(p.Kinds, e.Value)
		}
	}
	if len(p.Kinds) == 0 {
		return in(v, "kinds: none given (known: %s)", strings.Join(plugin.Kinds(), ", "))
	}
	return nil
}

// readArgs reads `args: [...]`, each a template.
func readArgs(v *yaml.Node, p *plugin.Plugin, in func(*yaml.Node, string, ...any) error) error {
	if v == nil {
		return nil
	}
	if v.Kind != yaml.SequenceNode {
		return in(v, "args: want a list, one entry per argument: [\"verify\", \"{{.Ref}}\"] (nothing is split on spaces)")
	}
	for i, e := range v.Content {
		if e.Kind != yaml.ScalarNode {
			return in(e, "args[%d]: want a single value", i)
		}
		a, err := plugin.ParseArg(e.Value)
		if err != nil {
			return in(e, "args[%d]: %v", i, err)
		}
		p.Args = append(p.Args, a)
	}
	return nil
}

// noPlugin is the kind a name in kinds: means when its descriptor says no
// plugin runs on it (a version, an ecosystem).
func noPlugin(name string) (resource.Kind, bool) {
	for _, d := range resource.Kinds() {
		if d.NoPlugin != "" && (name == d.Noun || name == d.Nouns || name == strings.ReplaceAll(d.Noun, " ", "")) {
			return d, true
		}
	}
	return resource.Kind{}, false
}
