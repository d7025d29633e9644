package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"canopy/cli/config"
	"canopy/cli/exit"
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
	p := config.PathsFrom(getenv).Config
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestConfigCommandSaysWhereEachSettingCameFrom(t *testing.T) {
	t.Parallel()
	getenv := env(t, map[string]string{"CANOPY_PAGE_SIZE": "20"})
	file := writeConfig(t, getenv, "theme: light\nkeys:\n  delete: [ctrl+x]\n")
	var out, errs bytes.Buffer
	if code := runConfig(t.Context(), []string{"--read-only"}, getenv, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	for _, re := range []string{
		`config file: ` + regexp.QuoteMeta(file),
		`(?m)^theme +light +file ` + regexp.QuoteMeta(file) + `:1$`,
		`(?m)^page-size +20 +env CANOPY_PAGE_SIZE$`,
		`(?m)^read-only +true +flag --read-only$`,
		`(?m)^api-url +https://console-api.enforce.dev +default$`,
		`(?m)^  delete +ctrl\+x +file ` + regexp.QuoteMeta(file) + `:3 `,
		`(?m)^  undo +u +default `,
	} {
		if !regexp.MustCompile(re).MatchString(out.String()) {
			t.Errorf("canopy config output lacks %s:\n%s", re, out.String())
		}
	}
	// Effective values: NO_COLOR makes the theme mono whatever the file
	// says, the audience is the API URL, moved keys are said.
	mono := env(t, map[string]string{"NO_COLOR": "1", "LANG": "C"})
	file = writeConfig(t, mono, "theme: light\nkeys:\n  delete: [ctrl+d]\n")
	out.Reset()
	if code := runConfig(t.Context(), nil, mono, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	for _, re := range []string{
		`(?m)^theme +mono +env NO_COLOR \(overrides light from file ` + regexp.QuoteMeta(file) + `:1\)$`,
		`(?m)^audience +https://console-api.enforce.dev +the api-url \(default\)$`,
		`(?m)^glyphs +ascii, ascii frame +env LANG=C: not UTF-8$`,
		`(?m)^ctrl\+d moved from half-down to delete \(file ` + regexp.QuoteMeta(file) + `:3\)$`,
		`(?m)^  half-down +\(none\) +default `,
	} {
		if !regexp.MustCompile(re).MatchString(out.String()) {
			t.Errorf("canopy config output lacks %s:\n%s", re, out.String())
		}
	}
	writeConfig(t, getenv, "theme: nope\n")
	errs.Reset()
	if code := runConfig(t.Context(), nil, getenv, &out, &errs); code != exit.Usage || !strings.Contains(errs.String(), "config.yaml:1") {
		t.Errorf("bad config: exit %d, %q", code, errs.String())
	}
}

func TestInfoPrintsThePaths(t *testing.T) {
	t.Parallel()
	getenv := env(t, nil)
	var out bytes.Buffer
	if code := runInfo(t.Context(), nil, getenv, &out, &out); code != 0 {
		t.Fatal(out.String())
	}
	p := config.PathsFrom(getenv)
	for _, want := range []string{p.Config, p.State, p.Log, p.Cache, "version"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("canopy info lacks %q:\n%s", want, out.String())
		}
	}
}

// TestConfigDebugLogsTheSettings: canopy config --debug writes the
// effective settings to the debug log.
func TestConfigDebugLogsTheSettings(t *testing.T) {
	t.Parallel()
	getenv := env(t, map[string]string{"CANOPY_PAGE_SIZE": "20", "CANOPY_TOKEN": "secret-token"})
	var out, errs bytes.Buffer
	if code := runConfig(t.Context(), []string{"--debug"}, getenv, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	b, err := os.ReadFile(config.PathsFrom(getenv).Log)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `name=page-size value=20 from="env CANOPY_PAGE_SIZE"`) || strings.Contains(string(b), "secret-token") {
		t.Errorf("log:\n%s", b)
	}
	if !regexp.MustCompile(`(?m)^debug +on: `).MatchString(out.String()) {
		t.Errorf("canopy config does not say the log is on:\n%s", out.String())
	}
}
