package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
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
	p := pathsFrom(getenv).Config
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// settingsFor parses args as the explore command would and resolves them.
func settingsFor(t *testing.T, getenv func(string) string, args ...string) (*settings, error) {
	t.Helper()
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	uf := uiFlags{settings: exploreSettings()}
	uf.register(fs)
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	return resolve(uf.set, *uf.config, getenv, pathsFrom(getenv))
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
		if s.get(name) != w[0] || s.from(name) != w[1] {
			t.Errorf("%s = %q from %q, want %q from %q", name, s.get(name), s.from(name), w[0], w[1])
		}
	}
	// CANOPY_API_URL wins over the platform CLI's variable.
	getenv = env(t, map[string]string{"CANOPY_API_URL": "https://canopy.example", "CHAINGUARD_PLATFORM_API": "https://cli.example"})
	if s, _ := settingsFor(t, getenv); s.get("api-url") != "https://canopy.example" {
		t.Errorf("api-url = %q, want CANOPY_API_URL's", s.get("api-url"))
	}
}

func TestBadConfigNamesTheLine(t *testing.T) {
	cases := map[string]struct{ body, want string }{
		"unknown setting": {"theme: dark\ncolour: red\n", `:2: unknown setting "colour"`},
		"bad theme":       {"theme: neon\n", `:1: theme: unknown theme "neon"`},
		"bad page size":   {"\npage-size: 500\n", `:2: page-size: page size "500": want a number from 1 to 200`},
		"bad bool":        {"read-only: maybe\n", `:1: read-only: "maybe" is not true or false`},
		"not yaml":        {"theme: [dark\n", `line 1`},
		"unknown action":  {"keys:\n  explode: [x]\n", `:2: keys: unknown action "explode"`},
		"bad color":       {"colors:\n  accent: orange\n", `:2: colors: accent: color "orange": want #rrggbb`},
		"unknown role":    {"colors:\n  sparkle: '#fff'\n", `:2: colors: unknown role "sparkle"`},
		"list value":      {"org: [a, b]\n", `:1: org: want a single value`},
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
	if err != nil || s.get("theme") != "mono" || s.File != other {
		t.Errorf("CANOPY_CONFIG: %v, theme %q, file %q", err, s.get("theme"), s.File)
	}
}

func TestKeyOverridesAndConflicts(t *testing.T) {
	getenv := env(t, nil)
	writeConfig(t, getenv, "keys:\n  delete: [ctrl+x]\n  undo: z\n")
	s, err := settingsFor(t, getenv)
	if err != nil {
		t.Fatal(err)
	}
	km, err := s.keyMap()
	if err != nil {
		t.Fatal(err)
	}
	if d, _ := km.Def(keymap.Delete); strings.Join(d.Keys, ",") != "ctrl+x" {
		t.Errorf("delete keys = %v", d.Keys)
	}
	if d, _ := km.Def(keymap.Undo); strings.Join(d.Keys, ",") != "z" {
		t.Errorf("undo keys = %v", d.Keys)
	}

	writeConfig(t, getenv, "keys:\n  delete: [e]\n")
	s, _ = settingsFor(t, getenv)
	if _, err := s.keyMap(); err == nil || !strings.Contains(err.Error(), `"e" is bound to both`) || !strings.Contains(err.Error(), ":1: keys") {
		t.Errorf("a conflict is not reported with its place: %v", err)
	}
}

func TestUserColorsReachTheTheme(t *testing.T) {
	getenv := env(t, nil)
	writeConfig(t, getenv, "theme: dark\ncolors:\n  accent: '#ff8800'\n")
	s, err := settingsFor(t, getenv)
	if err != nil {
		t.Fatal(err)
	}
	th := theme.New(s.themeOptions(getenv))
	r, g, b, _ := th.Palette.Accent.RGBA()
	if r>>8 != 0xff || g>>8 != 0x88 || b>>8 != 0 {
		t.Errorf("accent = %v, want #ff8800", th.Palette.Accent)
	}
	if th := theme.New(s.themeOptions(env(t, map[string]string{"NO_COLOR": "yes"}))); !th.NoColor {
		t.Error("NO_COLOR with any value does not turn color off")
	}
}

func TestConfigCommandSaysWhereEachSettingCameFrom(t *testing.T) {
	getenv := env(t, map[string]string{"CANOPY_PAGE_SIZE": "20"})
	file := writeConfig(t, getenv, "theme: light\nkeys:\n  delete: [ctrl+x]\n")
	var out, errs bytes.Buffer
	if code := runConfig([]string{"--read-only"}, getenv, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	for _, re := range []string{
		`config file: ` + regexp.QuoteMeta(file),
		`(?m)^theme +light +file ` + regexp.QuoteMeta(file) + `:1$`,
		`(?m)^page-size +20 +env CANOPY_PAGE_SIZE$`,
		`(?m)^read-only +true +flag --read-only$`,
		`(?m)^api-url +https://console-api.enforce.dev +default$`,
		`(?m)^  delete +ctrl\+x +file ` + regexp.QuoteMeta(file) + `:2 `,
		`(?m)^  undo +u +default `,
	} {
		if !regexp.MustCompile(re).MatchString(out.String()) {
			t.Errorf("canopy config output lacks %s:\n%s", re, out.String())
		}
	}
	writeConfig(t, getenv, "theme: nope\n")
	errs.Reset()
	if code := runConfig(nil, getenv, &out, &errs); code != exitUsage || !strings.Contains(errs.String(), "config.yaml:1") {
		t.Errorf("bad config: exit %d, %q", code, errs.String())
	}
}

func TestInfoPrintsThePaths(t *testing.T) {
	getenv := env(t, nil)
	var out bytes.Buffer
	if code := runInfo(nil, getenv, &out, &out); code != 0 {
		t.Fatal(out.String())
	}
	p := pathsFrom(getenv)
	for _, want := range []string{p.Config, p.State, p.Log, p.Cache, "version"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("canopy info lacks %q:\n%s", want, out.String())
		}
	}
}

func TestCompletionScripts(t *testing.T) {
	for _, shell := range []string{"bash", "zsh", "fish"} {
		var out bytes.Buffer
		if code := runCompletion(t.Context(), []string{shell}, &out, &out); code != 0 {
			t.Fatalf("%s: exit %d", shell, code)
		}
		for _, want := range []string{"demo", "emulator", "list", "read-only", "page-size", "fail-rate", "repos"} {
			if !strings.Contains(out.String(), want) {
				t.Errorf("%s completion lacks %q", shell, want)
			}
		}
	}
	var out bytes.Buffer
	if code := runCompletion(t.Context(), []string{"tcsh"}, &out, &out); code != exitUsage {
		t.Errorf("an unknown shell: exit %d", code)
	}
}

// FuzzReadConfig: whatever the file holds, reading it gives settings or an
// error naming the file, never a panic.
func FuzzReadConfig(f *testing.F) {
	for _, seed := range []string{"", "theme: dark\n", "keys:\n  delete: [ctrl+d]\n", "colors:\n  accent: '#fff'\n",
		"page-size: 0\n", "- a\n- b\n", "keys: 3\n", "theme: &a x\norg: *a\n", "{", "keys:\n  delete: [[x]]\n"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, body string) {
		const p = "/home/u/.config/canopy/config.yaml"
		if _, err := parseConfig(p, []byte(body)); err != nil && !strings.Contains(err.Error(), p) {
			t.Errorf("error %q does not name the file", err)
		}
	})
}
