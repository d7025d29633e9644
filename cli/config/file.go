package config

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"canopy/keymap"
	"canopy/lazyregexp"
	"canopy/plugin"
	"canopy/saved"
	"canopy/theme"
)

// fileConfig is what a config file says, with the line of each Setting.
type fileConfig struct {
	values map[string]fileValue
	keys   map[string][]string
	colors map[string]string
	// plugins are the user's tools, views the saved views, in the file's
	// order.
	plugins []plugin.Plugin
	views   []saved.View
	// keyLines and colorLines are the line of each action's and role's entry.
	keyLines, colorLines map[string]int
}

type fileValue struct {
	value string
	line  int
}

// maxConfigBytes bounds what is read of a config file: a few settings,
// keys and colors.
const maxConfigBytes = 1 << 20

// readConfig reads a config file, a regular one (a FIFO would block canopy
// before its first frame). Every mistake is named with its line: unknown
// settings, values of the wrong kind, unknown actions and colors.
func readConfig(path string) (*fileConfig, error) {
	b, err := readRegular(path, maxConfigBytes)
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	return parseConfig(path, b)
}

// parseConfig reads the text of the config file at path.
func parseConfig(path string, b []byte) (*fileConfig, error) {
	fc := &fileConfig{values: map[string]fileValue{}, keyLines: map[string]int{}, colorLines: map[string]int{}}
	var doc yaml.Node
	var err error
	if err = yaml.NewDecoder(bytes.NewReader(b)).Decode(&doc); err != nil {
		if err.Error() == "EOF" {
			return fc, nil // an empty file says nothing
		}
		return nil, yamlError(path, b, err)
	}
	at := func(n *yaml.Node, format string, args ...any) error {
		return fmt.Errorf("%s:%d: %s", path, n.Line, fmt.Sprintf(format, args...))
	}
	root := &doc
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = root.Content[0]
	}
	if root.Kind != yaml.MappingNode {
		return nil, at(root, "want settings as `name: value` lines")
	}
	defs := Defs()
	if err := once(root, "", at); err != nil {
		return nil, err
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		switch k.Value {
		case "keys":
			if fc.keys, err = readKeys(v, fc.keyLines, at); err != nil {
				return nil, err
			}
			continue
		case "colors":
			if fc.colors, err = readColors(v, fc.colorLines, at); err != nil {
				return nil, err
			}
			continue
		case "plugins":
			if fc.plugins, err = readPlugins(v, at); err != nil {
				return nil, err
			}
			continue
		case "views":
			if fc.views, err = readViews(v, at); err != nil {
				return nil, err
			}
			continue
		}
		j := slices.IndexFunc(defs, func(d Setting) bool { return d.Name == k.Value })
		if j < 0 {
			return nil, at(k, "unknown Setting %q (known: %s, keys, colors, plugins, views)", k.Value, strings.Join(names(defs), ", "))
		}
		if v.Kind != yaml.ScalarNode {
			return nil, at(v, "%s: want a single value", k.Value)
		}
		if d := defs[j]; d.check != nil {
			if err := d.check(v.Value); err != nil {
				return nil, at(v, "%s: %v", k.Value, err)
			}
		}
		fc.values[k.Value] = fileValue{value: v.Value, line: v.Line}
	}
	return fc, nil
}

func names(defs []Setting) []string {
	var out []string
	for _, d := range defs {
		out = append(out, d.Name)
	}
	return out
}

// once refuses a mapping that gives one name twice: the second would
// silently win.
func once(n *yaml.Node, in string, at func(*yaml.Node, string, ...any) error) error {
	if n.Kind != yaml.MappingNode {
		return nil
	}
	first := map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		if line, ok := first[k.Value]; ok {
			return at(k, "%s%s is given twice (first on line %d); keep one", in, k.Value, line)
		}
		first[k.Value] = k.Line
	}
	return nil
}

// yamlError names the line of a YAML syntax error as path:line, and says
// what a tab in the indentation is (YAML indents with spaces only).
func yamlError(path string, b []byte, err error) error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	line := 0
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		line, _ = strconv.Atoi(m[1])
		msg = msg[len(m[0]):]
	}
	for i, l := range strings.Split(string(b), "\n") {
		indent := l[:len(l)-len(strings.TrimLeft(l, " \t"))]
		if strings.Contains(indent, "\t") && (line == 0 || line == i+1) {
			return fmt.Errorf("%s:%d: a tab in the indentation: YAML indents with spaces (%s)", path, i+1, msg)
		}
	}
	if line == 0 {
		return fmt.Errorf("%s: %s", path, msg)
	}
	return fmt.Errorf("%s:%d: %s", path, line, msg)
}

// yamlLine is how the YAML parser names a line: "line 3: ".
var yamlLine = lazyregexp.New(`^line (\d+): `)

// readKeys reads `action: [keys]` (or `action: key`) pairs, each key
// spelled as Bubble Tea spells it (keymap.NormalizeKey), and the line of
// each entry into lines.
func readKeys(n *yaml.Node, lines map[string]int, at func(*yaml.Node, string, ...any) error) (map[string][]string, error) {
	if n.Kind != yaml.MappingNode {
		return nil, at(n, "keys: want `action: [key, ...]` lines")
	}
	if err := once(n, "keys: ", at); err != nil {
		return nil, err
	}
	known := map[string]bool{}
	for _, d := range keymap.Default().Defs() {
		known[string(d.Action)] = true
	}
	out := map[string][]string{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if !known[k.Value] {
			return nil, at(k, "keys: unknown action %q (canopy config lists them)", k.Value)
		}
		var elems []*yaml.Node
		switch v.Kind {
		case yaml.ScalarNode:
			elems = []*yaml.Node{v}
		case yaml.SequenceNode:
			elems = v.Content
		}
		var keys []string
		for _, e := range elems {
			if e.Kind != yaml.ScalarNode || e.Value == "" {
				return nil, at(e, "keys: %s: want key names such as ctrl+d", k.Value)
			}
			key, err := keymap.NormalizeKey(e.Value)
			if err != nil {
				return nil, at(e, "keys: %s: %v", k.Value, err)
			}
			keys = append(keys, key)
		}
		if len(keys) == 0 {
			return nil, at(v, "keys: %s: no keys given", k.Value)
		}
		out[k.Value], lines[k.Value] = keys, k.Line
	}
	return out, nil
}

// readColors reads `role: color` pairs, colors as #rrggbb or 0-255, and
// the line of each into lines.
func readColors(n *yaml.Node, lines map[string]int, at func(*yaml.Node, string, ...any) error) (map[string]string, error) {
	if n.Kind != yaml.MappingNode {
		return nil, at(n, "colors: want `role: color` lines")
	}
	if err := once(n, "colors: ", at); err != nil {
		return nil, err
	}
	out := map[string]string{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if !slices.Contains(theme.ColorRoles(), k.Value) {
			return nil, at(k, "colors: unknown role %q (known: %s)", k.Value, strings.Join(theme.ColorRoles(), ", "))
		}
		if err := theme.CheckColor(v.Value); v.Kind != yaml.ScalarNode || err != nil {
			return nil, at(v, "colors: %s: %v", k.Value, err)
		}
		out[k.Value], lines[k.Value] = v.Value, k.Line
	}
	return out, nil
}
