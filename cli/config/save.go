package config

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"canopy/files"
	"canopy/saved"
)

// SaveView writes v into the config file at path under views: (a view of
// the same name is replaced, else v is added at the end of the list; a
// file without views: gets the list at its end; a missing file is made).
// Everything else in the file stays as it was, byte for byte: the entry's
// lines are spliced into the file as it is when it is written (what was
// written to it since canopy started is kept; files.Rewrite). The result
// is read back before it replaces the file, so a file canopy would refuse
// is never written; nor is a read-only one replaced.
func SaveView(ctx context.Context, path string, v saved.View) error {
	path = files.Target(path) // a linked config (dotfiles) is written where it lives
	err := files.Rewrite(ctx, path, maxConfigBytes, func(old []byte) ([]byte, error) {
		out, err := spliceView(path, old, v)
		if err != nil {
			return nil, err
		}
		fc, err := parseConfig(path, out)
		if err != nil {
			return nil, fmt.Errorf("the file would not read back (%w); it is unchanged", err)
		}
		if !slices.ContainsFunc(fc.views, func(w saved.View) bool { return w.Name == v.Name }) {
			return nil, errors.New("it did not read back; the file is unchanged")
		}
		return out, nil
	})
	if err != nil {
		return fmt.Errorf("save the view: %w", err)
	}
	return nil
}

// spliceView is the file's text with v put in.
func spliceView(path string, old []byte, v saved.View) ([]byte, error) {
	var doc yaml.Node
	if len(bytes.TrimSpace(old)) > 0 {
		if err := yaml.Unmarshal(old, &doc); err != nil {
			return nil, yamlError(path, old, err)
		}
	}
	lines := strings.SplitAfter(string(old), "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	if len(lines) > 0 && !strings.HasSuffix(lines[len(lines)-1], "\n") {
		lines[len(lines)-1] += "\n"
	}
	root := &doc
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = root.Content[0]
	}
	var key, list *yaml.Node
	if root.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(root.Content); i += 2 {
			if root.Content[i].Value == "views" {
				key, list = root.Content[i], root.Content[i+1]
			}
		}
	}
	switch {
	case key == nil:
		entry, err := entryText(v, 2)
		if err != nil {
			return nil, err
		}
		return []byte(strings.Join(append(lines, "views:\n", entry), "")), nil
	case list.Kind == yaml.SequenceNode && list.Style&yaml.FlowStyle == 0 && len(list.Content) > 0:
		indent := list.Content[0].Column - 3 // the "- " before the entry's first key
		entry, err := entryText(v, max(indent, 0))
		if err != nil {
			return nil, err
		}
		for i, e := range list.Content {
			if name := fieldOf(e, "name"); name == v.Name {
				start, end := e.Line-1, lastLine(e)
				if i+1 < len(list.Content) {
					end = min(end, list.Content[i+1].Line-1)
				}
				return []byte(strings.Join(slices.Concat(lines[:start], []string{entry}, lines[end:]), "")), nil
			}
		}
		at := lastLine(list)
		return []byte(strings.Join(slices.Concat(lines[:at], []string{entry}, lines[at:]), "")), nil
	case list.Kind == yaml.ScalarNode && list.Tag == "!!null" || list.Kind == yaml.SequenceNode && len(list.Content) == 0:
		// `views:` with nothing, or `views: []`: the list starts here.
		entry, err := entryText(v, 2)
		if err != nil {
			return nil, err
		}
		at := key.Line - 1
		return []byte(strings.Join(slices.Concat(lines[:at], []string{"views:\n", entry}, lines[at+1:]), "")), nil
	}
	return nil, fmt.Errorf("%s:%d: views: is not a list canopy can add to (write it as `- name: …` lines)", path, key.Line)
}

// entryText is a view as a list entry, each line indented by indent.
func entryText(v saved.View, indent int) (string, error) {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode([]saved.View{v}); err != nil {
		return "", err
	}
	enc.Close()
	pad := strings.Repeat(" ", indent)
	var out strings.Builder
	for _, l := range strings.SplitAfter(b.String(), "\n") {
		if l != "" {
			out.WriteString(pad + l)
		}
	}
	return out.String(), nil
}

// fieldOf is a mapping's scalar value of key, "" for none.
func fieldOf(n *yaml.Node, key string) string {
	for i := 0; n.Kind == yaml.MappingNode && i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1].Value
		}
	}
	return ""
}

// lastLine is the last line (1-based) a node's text reaches.
func lastLine(n *yaml.Node) int {
	last := n.Line
	if n.Kind == yaml.ScalarNode && n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		last += strings.Count(strings.TrimRight(n.Value, "\n"), "\n") + 1
	}
	for _, c := range n.Content {
		last = max(last, lastLine(c))
	}
	return last
}
