package config

import (
	"strings"
	"testing"

	"canopy/keymap"
	"canopy/plugin"
	"canopy/resource"
)

const verifyPlugin = `# my tools
plugins:
  - name: verify
    key: ctrl+v
    description: verify the tag's signature
    kinds: [tag]
    command: cosign
    args: ["verify", "--certificate-oidc-issuer=https://token.actions.githubusercontent.com", "{{.Ref}}"]
    mode: foreground
    confirm: false
  - name: manifest
    kinds: tag
    command: crane
    args: ["manifest", "{{ .Ref }}"]
    mode: background
    confirm: true
`

func TestPluginsAreRead(t *testing.T) {
	getenv := env(t, nil)
	writeConfig(t, getenv, verifyPlugin)
	s, err := settingsFor(t, getenv)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Plugins) != 2 {
		t.Fatalf("plugins: %+v", s.Plugins)
	}
	v, m := s.Plugins[0], s.Plugins[1]
	if v.Name != "verify" || v.Key != "ctrl+v" || v.Mode != plugin.Foreground || v.Confirm || v.Line != 3 ||
		v.Summary() != "cosign verify --certificate-oidc-issuer=https://token.actions.githubusercontent.com {{.Ref}}" {
		t.Errorf("verify: %+v", v)
	}
	if m.Key != "" || m.Mode != plugin.Background || !m.Confirm || len(m.Kinds) != 1 || m.Kinds[0] != "tag" {
		t.Errorf("manifest: %+v", m)
	}
	km, _, err := s.KeyMap()
	if err != nil {
		t.Fatal(err)
	}
	d, ok := km.Def(keymap.PluginAction("verify"))
	if !ok || d.Group != keymap.Plugins || len(d.Keys) != 1 || d.Keys[0] != "ctrl+v" || d.Desc != ":verify · foreground · verify the tag's signature" {
		t.Errorf("the keymap's verify: %+v %v", d, ok)
	}
}

// TestPluginMistakesNameTheirLine: every mistake in a plugin says the file
// and line, and what would be right.
func TestPluginMistakesNameTheirLine(t *testing.T) {
	head := "theme: dark\nplugins:\n"
	cases := []struct{ body, says string }{
		{"  name: x\n", ":3: plugins: want a list"},
		{"  - key: ctrl+v\n    kinds: [tag]\n    command: x\n", ":3: plugins: a plugin without a name"},
		{"  - name: Verify!\n    kinds: [tag]\n    command: x\n", ":3: plugins: name \"Verify!\""},
		{"  - name: x\n    kinds: [tag]\n    command: x\n    shell: true\n", ":6: plugins: unknown field \"shell\""},
		{"  - name: x\n    kinds: [tags]\n    command: x\n", ":4: plugins: x: kinds: unknown kind \"tags\""},
		{"  - name: x\n    command: x\n", ":3: plugins: x: no kinds"},
		{"  - name: x\n    kinds: [tag]\n", ":3: plugins: x: no command"},
		{"  - name: x\n    kinds: [tag]\n    command: \"{{.Repo}}\"\n", ":5: plugins: x: command: no variables here"},
		{"  - name: x\n    kinds: [tag]\n    command: x\n    args: \"{{.Ref}}\"\n", ":6: plugins: x: args: want a list"},
		{"  - name: x\n    kinds: [tag]\n    command: x\n    args:\n      - ok\n      - \"{{.Nope}}\"\n", ":8: plugins: x: args[1]: {{.Nope}} is no variable"},
		{"  - name: x\n    kinds: [repo]\n    command: x\n    args:\n      - \"{{.Digest}}\"\n", ":7: plugins: x: args[0]: a repo has no {{.Digest}}"},
		{"  - name: x\n    kinds: [tag]\n    command: bash\n    args: [\"-c\", \"crane ls {{.Repo}}\"]\n", "plugins: x: args[1]: {{.Repo}} would reach bash"},
		// issue 33: tmux ran an identity's email through a shell.
		{"  - name: x\n    kinds: [identity]\n    command: tmux\n    args: [\"new-session\", \"-d\", \"{{.Email}}\"]\n",
			":6: plugins: x: args[2]: {{.Email}} would reach tmux, which may read it as code"},
		{"  - name: x\n    kinds: [tag]\n    command: /usr/bin/docker\n    args:\n      - run\n      - \"{{.Ref}}\"\n",
			":8: plugins: x: args[1]: {{.Ref}} would reach docker run, which may read it as code"},
		{"  - name: x\n    kinds: [tag]\n    command: x\n    mode: detached\n", ":6: plugins: x: mode \"detached\""},
		{"  - name: x\n    kinds: [tag]\n    command: x\n    confirm: maybe\n", ":6: plugins: x: confirm: \"maybe\""},
		{"  - name: x\n    key: ctrl+shift+\n    kinds: [tag]\n    command: x\n", ":4: plugins: x: key:"},
		{"  - name: x\n    kinds: [tag]\n    command: x\n  - name: x\n    kinds: [repo]\n    command: y\n", ":6: plugins: x is given twice (first on line 3)"},
		{"  - name: x\n    name: y\n", ":4: plugins: name is given twice"},
	}
	for _, c := range cases {
		getenv := env(t, nil)
		file := writeConfig(t, getenv, head+c.body)
		_, err := settingsFor(t, getenv)
		if err == nil || !strings.Contains(err.Error(), c.says) || !strings.HasPrefix(err.Error(), file+":") {
			t.Errorf("%q: err %v, want %s%s", c.body, err, file, c.says)
		}
	}
}

// TestPluginKeysClash: a plugin's key that is one of canopy's (after the
// overrides), or that another plugin has on a kind both run on, is refused
// with the line; a key freed by an override, or shared across kinds, is not.
func TestPluginKeysClash(t *testing.T) {
	cases := []struct{ body, says string }{
		{"plugins:\n  - name: x\n    key: d\n    kinds: [tag]\n    command: x\n", ":3: plugins: x: key d is canopy's key for delete"},
		{"plugins:\n  - name: a\n    key: ctrl+v\n    kinds: [tag]\n    command: x\n  - name: b\n    key: ctrl+v\n    kinds: [repo, tag]\n    command: x\n",
			":7: plugins: b: key ctrl+v is a's too (line 3), and both run on tags"},
		{"keys:\n  delete: [ctrl+x]\nplugins:\n  - name: x\n    key: d\n    kinds: [tag]\n    command: x\n", ""},
		{"plugins:\n  - name: a\n    key: ctrl+v\n    kinds: [tag]\n    command: x\n  - name: b\n    key: ctrl+v\n    kinds: [repo]\n    command: x\n", ""},
	}
	for _, c := range cases {
		getenv := env(t, nil)
		file := writeConfig(t, getenv, c.body)
		s, err := settingsFor(t, getenv)
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = s.KeyMap()
		switch {
		case c.says == "" && err != nil:
			t.Errorf("%q: %v", c.body, err)
		case c.says != "" && (err == nil || !strings.Contains(err.Error(), c.says) || !strings.HasPrefix(err.Error(), file+":")):
			t.Errorf("%q: err %v, want %s%s", c.body, err, file, c.says)
		}
	}
}

// TestPluginsTakeEveryKind: a plugin may name every kind whose descriptor
// has a plugin name, with each variable it says the kind gives; a kind
// whose descriptor says no plugin runs on it is an unknown kind.
func TestPluginsTakeEveryKind(t *testing.T) {
	for _, d := range resource.Kinds() {
		getenv := env(t, nil)
		name, args := d.Plugin, []string{`"{{.UID}}"`}
		if d.NoName == "" {
			args = append(args, `"{{.Name}}"`)
		}
		if name == "" {
			name = strings.ReplaceAll(d.Noun, " ", "")
		}
		for _, v := range d.Gives {
			args = append(args, `"{{.`+v+`}}"`)
		}
		writeConfig(t, getenv, "plugins:\n  - name: p\n    kinds: ["+name+"]\n    command: cosign\n    args: ["+strings.Join(args, ", ")+"]\n")
		s, err := settingsFor(t, getenv)
		switch {
		case d.Plugin != "" && (err != nil || len(s.Plugins) != 1):
			t.Errorf("%s: a plugin on %s: %v", d.Noun, name, err)
		case d.Plugin == "" && (err == nil || !strings.Contains(err.Error(), d.NoPlugin)):
			t.Errorf("%s: a plugin on %s was taken (%v), yet its descriptor says %q", d.Noun, name, err, d.NoPlugin)
		}
	}
}
