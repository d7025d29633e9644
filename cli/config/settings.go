// Package config is what canopy is set to and where that came from: each
// setting from a flag, the environment, the config file or its default
// (settings.go), the config file read with every mistake named by its
// line (file.go), and the files canopy reads and writes (paths.go), opened
// only when they are regular files (regular.go).
package config

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"canopy/api"
	"canopy/keymap"
	"canopy/plugin"
	"canopy/saved"
	"canopy/theme"
)

// A Setting is one thing a user can set, by flag, environment or config
// file; the first of those that says something wins, else the default.
type Setting struct {
	Name  string   // the config file key, e.g. "api-url"
	Flag  string   // the flag, "" when there is none
	env   []string // environment variables, first set wins
	def   string
	usage string
	check func(string) error
	Bool  bool // a switch: "--read-only" alone means true
}

// Defs are every scalar Setting. Key overrides and colors are maps,
// read from the config file only.
func Defs() []Setting {
	return []Setting{
		{Name: "api-url", Flag: "api-url", env: []string{"CANOPY_API_URL", "CHAINGUARD_PLATFORM_API"}, def: api.DefaultBaseURL,
			usage: "Platform API base `URL`", check: checkURL},
		{Name: "audience", Flag: "audience", env: []string{"CANOPY_AUDIENCE"}, usage: "token `audience` (default: the API URL)"},
		{Name: "org", Flag: "org", env: []string{"CANOPY_ORG"}, usage: "organization `uid` or name; empty asks when the token sees several"},
		{Name: "token-file", Flag: "token-file", env: []string{"CANOPY_TOKEN_FILE"},
			usage: "read the token from this `file` (mode 0600); else CANOPY_TOKEN, CHAINGUARD_TOKEN, the platform CLI's cache, chainctl"},
		{Name: "allow-insecure-http", Flag: "allow-insecure-http", env: []string{"CANOPY_ALLOW_INSECURE_HTTP"}, def: "false", Bool: true,
			usage: "send the token over plain http:// to a host that is not this machine (anyone on the way can read it)", check: checkBool},
		{Name: "page-size", Flag: "page-size", env: []string{"CANOPY_PAGE_SIZE"}, def: strconv.Itoa(api.MaxPageSize),
			usage: "`items` per request (1-200)", check: checkPageSize},
		{Name: "theme", Flag: "theme", env: []string{"CANOPY_THEME"}, def: theme.Auto,
			usage: "color `theme`: " + strings.Join(theme.Names(), ", "), check: checkTheme},
		{Name: "icons", Flag: "icons", env: []string{"CANOPY_ICONS"}, def: "false", Bool: true,
			usage: "use Unicode icons instead of ASCII glyphs", check: checkBool},
		{Name: "read-only", Flag: "read-only", env: []string{"CANOPY_READ_ONLY"}, def: "false", Bool: true,
			usage: "change nothing: every edit, create, delete and binding key is disabled", check: checkBool},
		{Name: "resume", Flag: "resume", env: []string{"CANOPY_RESUME"}, def: "true", Bool: true,
			usage: "open each organization where the last session on it left the tree (--resume=false: a fresh tree)", check: checkBool},
		{Name: "refresh", Flag: "refresh", env: []string{"CANOPY_REFRESH"}, def: "0s",
			usage: "take the overview's counts again this often (e.g. 30s, 5m; 0s: only on r)", check: checkRefresh},
		{Name: "stale-days", Flag: "stale-days", env: []string{"CANOPY_STALE_DAYS"}, def: "90",
			usage: "the overview counts an identity not seen for this many `days`", check: checkStaleDays},
		{Name: "mouse", Flag: "mouse", env: []string{"CANOPY_MOUSE"}, def: "true", Bool: true,
			usage: "capture the mouse (wheel scrolls, click selects); --mouse=false leaves it to the terminal, to select and copy text", check: checkBool},
	}
}

// Settings are the effective settings and where each came from.
type Settings struct {
	values map[string]string
	source map[string]string // "flag --x", "env X", "file PATH:LINE", "default"
	Keys   map[string][]string
	Colors map[string]string
	// Plugins are the config file's plugins, each with its line.
	Plugins []plugin.Plugin
	// Views are the config file's saved views, each with its line.
	Views []saved.View
	// keyLines and colorLines are the config file line of each entry.
	keyLines, colorLines map[string]int
	File                 string // the config file read; "" when none
	getenv               func(string) string
}

// At names a line of the config file: "path:line".
func (s *Settings) At(line int) string { return fmt.Sprintf("%s:%d", s.File, line) }

// Get is a setting's value.
func (s *Settings) Get(name string) string { return s.values[name] }

// Flag is a switch's value.
func (s *Settings) Flag(name string) bool { return s.values[name] == "true" }

// From says where a setting's value came from: "flag --x", "env X",
// "file PATH:LINE" or "default".
func (s *Settings) From(name string) string { return s.source[name] }

// KeyLine is the config file's line of an action's key override, and
// whether there is one.
func (s *Settings) KeyLine(action string) (int, bool) {
	line, ok := s.keyLines[action]
	return line, ok
}

// ColorLine is the config file's line of a role's color.
func (s *Settings) ColorLine(role string) int { return s.colorLines[role] }

// PageSize is the items asked for per request.
func (s *Settings) PageSize() int {
	n, _ := strconv.Atoi(s.values["page-size"])
	return n
}

// FlagValues collects the flags given on the command line, by Setting
// name, so that resolving can tell "given" from "default".
type FlagValues map[string]string

type settingFlag struct {
	set  FlagValues
	def  Setting
	text string
}

func (f *settingFlag) String() string   { return f.text }
func (f *settingFlag) IsBoolFlag() bool { return f.def.Bool }
func (f *settingFlag) Set(v string) error {
	if f.def.check != nil {
		if err := f.def.check(v); err != nil {
			return err
		}
	}
	f.set[f.def.Name], f.text = v, v
	return nil
}

// Register adds a flag for each named Setting, and --config.
func Register(fs *flag.FlagSet, names ...string) (FlagValues, *string) {
	set := FlagValues{}
	for _, d := range Defs() {
		if d.Flag == "" || !slices.Contains(names, d.Name) {
			continue
		}
		usage := d.usage
		if len(d.env) > 0 {
			usage += " (env " + strings.Join(d.env, ", ") + ")"
		}
		text := d.def
		if d.Bool && d.def == "false" {
			text = "" // flag's zero: no "(default false)" in the usage
		}
		fs.Var(&settingFlag{set: set, def: d, text: text}, d.Flag, usage)
	}
	config := fs.String("config", "", "config `file` (env CANOPY_CONFIG; default $XDG_CONFIG_HOME/canopy/config.yaml)")
	return set, config
}

// Resolve merges flags, environment, config file and defaults, in that
// order. configFlag is --config; a file named by it or CANOPY_CONFIG must
// exist, the default one need not.
func Resolve(set FlagValues, configFlag string, getenv func(string) string, p Paths) (*Settings, error) {
	s := &Settings{values: map[string]string{}, source: map[string]string{}, getenv: getenv}
	file, named := configFlag, configFlag != ""
	if !named {
		if file = getenv("CANOPY_CONFIG"); file != "" {
			named = true
		} else {
			file = p.Config
		}
	}
	fc, err := readConfig(file)
	switch {
	case errors.Is(err, os.ErrNotExist) && !named:
		fc = &fileConfig{}
	case err != nil:
		return nil, err
	default:
		s.File = file
	}
	for _, d := range Defs() {
		v, src := d.def, "default"
		if fv, ok := fc.values[d.Name]; ok {
			v, src = fv.value, fmt.Sprintf("file %s:%d", file, fv.line)
		}
		for _, e := range slices.Backward(d.env) {
			if ev := getenv(e); ev != "" {
				if d.check != nil {
					if err := d.check(ev); err != nil {
						return nil, fmt.Errorf("env %s: %w", e, err)
					}
				}
				v, src = ev, "env "+e
			}
		}
		if fv, ok := set[d.Name]; ok {
			v, src = fv, "flag --"+d.Flag
		}
		if d.Bool {
			b, _ := strconv.ParseBool(v)
			v = strconv.FormatBool(b)
		}
		s.values[d.Name], s.source[d.Name] = v, src
	}
	s.Keys, s.Colors, s.keyLines, s.colorLines = fc.keys, fc.colors, fc.keyLines, fc.colorLines
	s.Plugins, s.Views = fc.plugins, fc.views
	return s, nil
}

// KeyMap applies the key overrides (keymap.Apply). A key taken from the
// default keys of another action is a move, which canopy config reports; a
// key the file gives two actions that apply together, or one that cannot be
// bound, is an error naming the entries' lines.
func (s *Settings) KeyMap() (*keymap.KeyMap, []keymap.Move, error) {
	km := keymap.Default()
	user := map[keymap.Action][]string{}
	for a, keys := range s.Keys {
		user[keymap.Action(a)] = keys
	}
	moves, err := km.Apply(user)
	var claim *keymap.ClaimError
	var bad *keymap.KeyError
	switch {
	case errors.As(err, &claim):
		a, b := claim.Actions[0], claim.Actions[1]
		if s.keyLines[string(b)] < s.keyLines[string(a)] {
			a, b = b, a
		}
		la, lb := s.keyLines[string(a)], s.keyLines[string(b)]
		return nil, nil, fmt.Errorf("%s: keys: %q is bound to both %s (line %d) and %s (line %d); give it to one of them",
			s.At(lb), claim.Key, a, la, b, lb)
	case errors.As(err, &bad):
		return nil, nil, fmt.Errorf("%s: keys: %v", s.At(s.keyLines[string(bad.Action)]), bad)
	case err != nil:
		return nil, nil, fmt.Errorf("keys: %w", err)
	}
	if c := km.Conflicts(); len(c) > 0 {
		var lines []string
		for _, x := range c {
			lines = append(lines, fmt.Sprintf("%q is bound to both %s and %s", x.Key, x.Actions[0], x.Actions[1]))
		}
		return nil, nil, fmt.Errorf("keys: %s", strings.Join(lines, "; "))
	}
	if err := s.addPlugins(km); err != nil {
		return nil, nil, err
	}
	return km, moves, nil
}

// ThemeOptions builds the theme from the settings, NO_COLOR, TERM and the
// locale.
func (s *Settings) ThemeOptions(getenv func(string) string) theme.Options {
	mono, _ := NoColor(getenv)
	utf8, _ := UTF8Locale(getenv)
	return theme.Options{Name: s.Get("theme"), Dark: true, NoColor: mono, Icons: s.Flag("icons"), Colors: s.Colors, ASCII: !utf8}
}

// NoColor honours NO_COLOR for any non-empty value (no-color.org), and a
// dumb terminal; why names the variable that decided.
func NoColor(getenv func(string) string) (mono bool, why string) {
	switch {
	case getenv("NO_COLOR") != "":
		return true, "env NO_COLOR"
	case getenv("TERM") == "dumb":
		return true, "env TERM=dumb"
	}
	return false, ""
}

// UTF8Locale reports whether the terminal's locale is UTF-8, as tmux
// decides: the first of LC_ALL, LC_CTYPE and LANG that is set names the
// locale, which must say UTF-8 (or UTF8). why names what decided. Without
// UTF-8 every glyph, separator, arrow and border canopy draws is ASCII.
func UTF8Locale(getenv func(string) string) (ok bool, why string) {
	for _, name := range []string{"LC_ALL", "LC_CTYPE", "LANG"} {
		if v := getenv(name); v != "" {
			u := strings.ToUpper(v)
			return strings.Contains(u, "UTF-8") || strings.Contains(u, "UTF8"), "env " + name + "=" + v
		}
	}
	return false, "no LC_ALL, LC_CTYPE or LANG"
}

func checkURL(v string) error {
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("%q is not an http(s) URL", ShownURL(v))
	}
	return nil
}

// ShownURL is a URL as a message may show it: its user and password
// hidden, also when it has no scheme ("user:pw@host").
func ShownURL(v string) string {
	if !strings.Contains(v, "://") {
		if at := strings.LastIndexByte(v, '@'); at >= 0 {
			return "***" + v[at:]
		}
	}
	return api.RedactUserinfo(v)
}

func checkPageSize(v string) error {
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > api.MaxPageSize {
		return fmt.Errorf("page size %q: want a number from 1 to %d", v, api.MaxPageSize)
	}
	return nil
}

// minRefresh is the shortest refresh: counts of a large organization take
// longer than that to take.
const minRefresh = 10 * time.Second

func checkRefresh(v string) error {
	d, err := time.ParseDuration(v)
	if err != nil || (d != 0 && d < minRefresh) || d < 0 || d > 24*time.Hour {
		return fmt.Errorf("refresh %q: want a duration from %s to 24h (e.g. 30s, 5m), or 0s for none", v, minRefresh)
	}
	return nil
}

func checkStaleDays(v string) error {
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > 3650 {
		return fmt.Errorf("stale days %q: want a number of days from 1 to 3650", v)
	}
	return nil
}

// Refresh is how often the overview takes its counts again (0: never).
func (s *Settings) Refresh() time.Duration {
	d, _ := time.ParseDuration(s.values["refresh"])
	return d
}

// Stale is how long an identity may go unseen before the overview counts it.
func (s *Settings) Stale() time.Duration {
	n, _ := strconv.Atoi(s.values["stale-days"])
	return time.Duration(n) * 24 * time.Hour
}

func checkTheme(v string) error {
	if !slices.Contains(theme.Names(), v) {
		return fmt.Errorf("unknown theme %q (want one of %s)", v, strings.Join(theme.Names(), ", "))
	}
	return nil
}

func checkBool(v string) error {
	if _, err := strconv.ParseBool(v); err != nil {
		return fmt.Errorf("%q is not true or false", v)
	}
	return nil
}

// TokenSource is the token chain of API.md for these settings; when
// session ends (canopy is interrupted) a chainctl it runs is stopped.
func (s *Settings) TokenSource(session context.Context) *api.TokenSource {
	return api.NewTokenSource(api.TokenOptions{Audience: s.Audience(), TokenFile: s.Get("token-file"), Getenv: s.getenv,
		Session: session})
}

// Audience is the audience tokens are asked for: the Setting, else the API
// URL without a user and password (a token is minted for the service, and
// the audience is passed to chainctl and named in messages).
func (s *Settings) Audience() string {
	if aud := s.Get("audience"); aud != "" {
		return aud
	}
	aud := s.Get("api-url")
	if u, err := url.Parse(aud); err == nil && u.User != nil {
		u.User = nil
		return u.String()
	}
	return aud
}

// addPlugins declares each plugin's key: one of canopy's keys (after the
// overrides) is refused, and so is a key two plugins share on one kind.
func (s *Settings) addPlugins(km *keymap.KeyMap) error {
	for i, p := range s.Plugins {
		for _, q := range s.Plugins[:i] {
			if p.Key == "" || q.Key != p.Key {
				continue
			}
			for _, k := range p.Kinds {
				if q.Applies(k) {
					return fmt.Errorf("%s: plugins: %s: key %s is %s's too (line %d), and both run on %s; give one another key",
						s.At(p.KeyLine), p.Name, p.Key, q.Name, q.KeyLine, plugin.Plural(k))
				}
			}
		}
		err := km.AddPlugin(p.Name, p.Key, p.Help())
		var claim *keymap.ClaimError
		switch {
		case errors.As(err, &claim):
			return fmt.Errorf("%s: plugins: %s: key %s is canopy's key for %s; choose another, or move %s under keys:",
				s.At(p.KeyLine), p.Name, p.Key, claim.Actions[0], claim.Actions[0])
		case err != nil:
			return fmt.Errorf("%s: plugins: %w", s.At(p.Line), err)
		}
	}
	return nil
}
