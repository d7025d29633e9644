package main

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"canopy/keymap"
	"canopy/theme"
)

// fileConfig is what a config file says, with the line of each setting.
type fileConfig struct {
	values               map[string]fileValue
	keys                 map[string][]string
	colors               map[string]string
	keysLine, colorsLine int
}

type fileValue struct {
	value string
	line  int
}

// readConfig reads a config file. Every mistake is named with its line:
// unknown settings, values of the wrong kind, unknown actions and colors.
func readConfig(path string) (*fileConfig, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	return parseConfig(path, b)
}

// parseConfig reads the text of the config file at path.
func parseConfig(path string, b []byte) (*fileConfig, error) {
	fc := &fileConfig{values: map[string]fileValue{}}
	var doc yaml.Node
	var err error
	if err = yaml.NewDecoder(bytes.NewReader(b)).Decode(&doc); err != nil {
		if err.Error() == "EOF" {
			return fc, nil // an empty file says nothing
		}
		return nil, fmt.Errorf("%s: %s", path, strings.TrimPrefix(err.Error(), "yaml: "))
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
	defs := settingDefs()
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		switch k.Value {
		case "keys":
			if fc.keys, err = readKeys(v, at); err != nil {
				return nil, err
			}
			fc.keysLine = k.Line
			continue
		case "colors":
			if fc.colors, err = readColors(v, at); err != nil {
				return nil, err
			}
			fc.colorsLine = k.Line
			continue
		}
		j := slices.IndexFunc(defs, func(d setting) bool { return d.name == k.Value })
		if j < 0 {
			return nil, at(k, "unknown setting %q (known: %s, keys, colors)", k.Value, strings.Join(names(defs), ", "))
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

func names(defs []setting) []string {
	var out []string
	for _, d := range defs {
		out = append(out, d.name)
	}
	return out
}

// readKeys reads `action: [keys]` (or `action: key`) pairs.
func readKeys(n *yaml.Node, at func(*yaml.Node, string, ...any) error) (map[string][]string, error) {
	if n.Kind != yaml.MappingNode {
		return nil, at(n, "keys: want `action: [key, ...]` lines")
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
		var keys []string
		switch v.Kind {
		case yaml.ScalarNode:
			keys = []string{v.Value}
		case yaml.SequenceNode:
			for _, e := range v.Content {
				if e.Kind != yaml.ScalarNode || e.Value == "" {
					return nil, at(e, "keys: %s: want key names such as ctrl+d", k.Value)
				}
				keys = append(keys, e.Value)
			}
		}
		if len(keys) == 0 {
			return nil, at(v, "keys: %s: no keys given", k.Value)
		}
		out[k.Value] = keys
	}
	return out, nil
}

// readColors reads `role: color` pairs, colors as #rrggbb or 0-255.
func readColors(n *yaml.Node, at func(*yaml.Node, string, ...any) error) (map[string]string, error) {
	if n.Kind != yaml.MappingNode {
		return nil, at(n, "colors: want `role: color` lines")
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
		out[k.Value] = v.Value
	}
	return out, nil
}
