package config

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"canopy/keymap"
	"canopy/theme"
)

// env is a fake environment: a map, with HOME and the XDG dirs in a temp
// dir so that no test reads the user's own config.
func env(t *testing.T, vars map[string]string) func(string) string {
	t.Helper()
	home := t.TempDir()
	all := map[string]string{"HOME": home, "XDG_CONFIG_HOME": filepath.Join(home, "cfg"), "XDG_STATE_HOME": filepath.Join(home, "state")}
	for k, v := range vars {
		all[k] = v
	}
	return func(k string) string { return all[k] }
}

func writeConfig(t *testing.T, getenv func(string) string, body string) string {
	t.Helper()
	p := PathsFrom(getenv).Config
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// settingsFor parses args as a command with a flag for every setting
// (canopy's explore command) would, and resolves them.
func settingsFor(t *testing.T, getenv func(string) string, args ...string) (*Settings, error) {
	t.Helper()
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	var names []string
	for _, d := range Defs() {
		names = append(names, d.Name)
	}
	set, config := Register(fs, names...)
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	return Resolve(set, *config, getenv, PathsFrom(getenv))
}

func TestSettingsPrecedence(t *testing.T) {
	getenv := env(t, map[string]string{"CANOPY_THEME": "light", "CANOPY_ORG": "env-org", "CHAINGUARD_PLATFORM_API": "https://cli.example"})
	file := writeConfig(t, getenv, "# mine\ntheme: high-contrast\norg: file-org\npage-size: 50\nread-only: true\n")
	s, err := settingsFor(t, getenv, "--org", "flag-org")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][2]string{
		"org":       {"flag-org", "flag --org"},
		"theme":     {"light", "env CANOPY_THEME"},
		"page-size": {"50", "file " + file + ":4"},
		"read-only": {"true", "file " + file + ":5"},
		"api-url":   {"https://cli.example", "env CHAINGUARD_PLATFORM_API"},
		"icons":     {"false", "default"},
	}
	for name, w := range want {
		if s.Get(name) != w[0] || s.From(name) != w[1] {
			t.Errorf("%s = %q from %q, want %q from %q", name, s.Get(name), s.From(name), w[0], w[1])
		}
	}
	// CANOPY_API_URL wins over the platform CLI's variable.
	getenv = env(t, map[string]string{"CANOPY_API_URL": "https://canopy.example", "CHAINGUARD_PLATFORM_API": "https://cli.example"})
	if s, _ := settingsFor(t, getenv); s.Get("api-url") != "https://canopy.example" {
		t.Errorf("api-url = %q, want CANOPY_API_URL's", s.Get("api-url"))
	}
}

func TestBadConfigNamesTheLine(t *testing.T) {
	cases := map[string]struct{ body, want string }{
		"unknown Setting": {"theme: dark\ncolour: red\n", `:2: unknown Setting "colour"`},
		"bad theme":       {"theme: neon\n", `:1: theme: unknown theme "neon"`},
		"bad page size":   {"\npage-size: 500\n", `:2: page-size: page size "500": want a number from 1 to 200`},
		"bad bool":        {"read-only: maybe\n", `:1: read-only: "maybe" is not true or false`},
		"not yaml":        {"theme: [dark\n", `config.yaml:1: did not find expected`},
		"unknown action":  {"keys:\n  explode: [x]\n", `:2: keys: unknown action "explode"`},
		"bad color":       {"colors:\n  accent: orange\n", `:2: colors: accent: color "orange": want #rrggbb`},
		"unknown role":    {"colors:\n  sparkle: '#fff'\n", `:2: colors: unknown role "sparkle"`},
		"list value":      {"org: [a, b]\n", `:1: org: want a single value`},
		"tab in keys":     {"theme: dark\nkeys:\n\thelp: [f1]\n", `config.yaml:3: a tab in the indentation: YAML indents with spaces`},
		"tab in a value":  {"theme: dark\n\tpage-size: 3\n", `config.yaml:2: a tab in the indentation`},
		"given twice":     {"theme: dark\npage-size: 20\ntheme: light\n", `config.yaml:3: theme is given twice (first on line 1); keep one`},
		"color twice":     {"colors:\n  accent: '#fff'\n  accent: '#000'\n", `config.yaml:3: colors: accent is given twice (first on line 2)`},
		"below alone":     {"views:\n  - name: v\n    of: repos\n    below: true\n", `config.yaml:4: views: v: below: says to list under a folder`},
		"folder and in":   {"views:\n  - name: v\n    of: tags\n    in: python\n    folder: apps\n", `config.yaml:2: views: v: folder: and in: both say where`},
		"empty part":      {"views:\n  - name: v\n    of: repos\n    folder: apps//web\n", `config.yaml:4: views: v: folder: "apps//web" has an empty part`},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			getenv := env(t, nil)
			writeConfig(t, getenv, c.body)
			_, err := settingsFor(t, getenv)
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "config.yaml") {
				t.Errorf("error = %v, want one naming config.yaml and %q", err, c.want)
			}
		})
	}
}

func TestConfigFileFlagAndEnv(t *testing.T) {
	getenv := env(t, nil)
	if _, err := settingsFor(t, getenv, "--config", "/nonexistent/canopy.yaml"); err == nil {
		t.Error("a missing --config file is not an error")
	}
	if s, err := settingsFor(t, getenv); err != nil || s.File != "" {
		t.Errorf("a missing default config: %v, file %q; want defaults", err, s.File)
	}
	other := filepath.Join(t.TempDir(), "other.yaml")
	os.WriteFile(other, []byte("theme: mono\n"), 0o600)
	s, err := settingsFor(t, env(t, map[string]string{"CANOPY_CONFIG": other}))
	if err != nil || s.Get("theme") != "mono" || s.File != other {
		t.Errorf("CANOPY_CONFIG: %v, theme %q, file %q", err, s.Get("theme"), s.File)
	}
}

func TestKeyOverridesAndConflicts(t *testing.T) {
	getenv := env(t, nil)
	writeConfig(t, getenv, "keys:\n  delete: [ctrl+x]\n  undo: z\n  help: [F1]\n")
	s, err := settingsFor(t, getenv)
	if err != nil {
		t.Fatal(err)
	}
	km, _, err := s.KeyMap()
	if err != nil {
		t.Fatal(err)
	}
	for a, want := range map[keymap.Action]string{keymap.Delete: "ctrl+x", keymap.Undo: "z", keymap.Help: "f1"} {
		if d, _ := km.Def(a); strings.Join(d.Keys, ",") != want {
			t.Errorf("%s keys = %v, want %s", a, d.Keys, want)
		}
	}

	// The README's own example: ctrl+d moves from half-down to delete.
	writeConfig(t, getenv, "theme: dark\nkeys:\n  delete: [ctrl+d]\n")
	s, _ = settingsFor(t, getenv)
	km, moves, err := s.KeyMap()
	if err != nil || len(moves) != 1 || moves[0].From != keymap.HalfDown {
		t.Fatalf("delete: [ctrl+d]: %v, moves %+v", err, moves)
	}
	if d, _ := km.Def(keymap.Delete); strings.Join(d.Keys, ",") != "ctrl+d" {
		t.Errorf("delete keys = %v", d.Keys)
	}
}

// TestKeyMistakesNameTheirLines: each mistake in keys: names the line of
// the entry (or the key) at fault, not the keys: line.
func TestKeyMistakesNameTheirLines(t *testing.T) {
	for name, c := range map[string]struct{ body, want string }{
		"two actions claim a key": {"theme: dark\nkeys:\n  delete: [x]\n  sort: [s]\n  edit: [x]\n",
			`config.yaml:5: keys: "x" is bound to both delete (line 3) and edit (line 5)`},
		"printable key for an input action": {"keys:\n  help: [f1]\n  next: [j]\n",
			`config.yaml:3: keys: next: "j" types a character, and next is live while you type`},
		"unknown key name": {"keys:\n  help:\n    - f1\n    - ctrl+shift+banana\n",
			`config.yaml:4: keys: help: key "ctrl+shift+banana": unknown key "banana"`},
		"action twice": {"keys:\n  help: [f1]\n  help: [f2]\n", `config.yaml:3: keys: help is given twice (first on line 2)`},
	} {
		t.Run(name, func(t *testing.T) {
			getenv := env(t, nil)
			writeConfig(t, getenv, c.body)
			s, err := settingsFor(t, getenv)
			if err == nil {
				_, _, err = s.KeyMap()
			}
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error = %v, want %q", err, c.want)
			}
		})
	}
}

func TestUserColorsReachTheTheme(t *testing.T) {
	getenv := env(t, nil)
	writeConfig(t, getenv, "theme: dark\ncolors:\n  accent: '#ff8800'\n")
	s, err := settingsFor(t, getenv)
	if err != nil {
		t.Fatal(err)
	}
	th := theme.New(s.ThemeOptions(getenv))
	r, g, b, _ := th.Palette.Accent.RGBA()
	if r>>8 != 0xff || g>>8 != 0x88 || b>>8 != 0 {
		t.Errorf("accent = %v, want #ff8800", th.Palette.Accent)
	}
	if th := theme.New(s.ThemeOptions(env(t, map[string]string{"NO_COLOR": "yes"}))); !th.NoColor {
		t.Error("NO_COLOR with any value does not turn color off")
	}
}

// FuzzReadConfig: whatever the file holds, reading it gives settings or an
// error naming the file, never a panic.
func FuzzReadConfig(f *testing.F) {
	for _, seed := range []string{"", "theme: dark\n", "keys:\n  delete: [ctrl+d]\n", "colors:\n  accent: '#fff'\n",
		"page-size: 0\n", "- a\n- b\n", "keys: 3\n", "theme: &a x\norg: *a\n", "{", "keys:\n  delete: [[x]]\n",
		// The lists, so that a short fuzzing run starts from what they cover.
		verifyPlugin,
		"plugins:\n  - name: x\n    key: ctrl+v\n    kinds: [tag, repo]\n    command: crane\n    args: [\"{{.Image}}\", \"--x={{ .Repo }}\"]\n    mode: background\n    confirm: true\n    description: d\n",
		"plugins:\n  - name: x\n    kinds: tag\n    command: sh\n    args: [\"-c\", \"{{.Tag}}\"]\n",
		"plugins:\n  - name: x\n    kinds: [nope]\n", "plugins:\n  - {name: a, kinds: [tag], command: x}\n  - {name: a, kinds: [tag], command: y}\n",
		"plugins: x\n", "plugins:\n  - 3\n", "plugins:\n  - name: x\n    kinds: [tag]\n    command: x\n    args: [\"{{.Nope}}\", \"{{ }}\"]\n",
		commented,
		"views:\n  - name: v\n    of: tags\n    in: python\n    order: name desc\n    server: \"3\"\n    columns: [tag, repo]\n    filter: x\n    deprecated: true\n",
		"views:\n  - name: v\n    columns: tag\n", "views: []\n", "views:\n  - {name: v, of: repos, deprecated: maybe}\n", "views: x\n",
		"views:\n  - {name: v, of: repos, folder: apps/web, below: true}\n",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, body string) {
		const p = "/home/u/.config/canopy/config.yaml"
		if _, err := parseConfig(p, []byte(body)); err != nil && !strings.Contains(err.Error(), p) {
			t.Errorf("error %q does not name the file", err)
		}
	})
}

func TestUTF8Locale(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		want bool
	}{
		{map[string]string{"LANG": "en_US.UTF-8"}, true},
		{map[string]string{"LANG": "C.utf8"}, true},
		{map[string]string{"LANG": "C"}, false},
		{map[string]string{"LC_ALL": "C", "LANG": "en_US.UTF-8"}, false},
		{map[string]string{"LC_CTYPE": "en_US.UTF-8", "LANG": "C"}, true},
		{map[string]string{"TERM": "linux"}, false},
		{nil, false},
	} {
		if got, why := UTF8Locale(func(k string) string { return tc.env[k] }); got != tc.want {
			t.Errorf("%v: %v (%s), want %v", tc.env, got, why, tc.want)
		}
	}
}
