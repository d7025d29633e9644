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

// secretPW is the password of every URL in these tests: it must never be
// printed, logged or reported.
const secretPW = "s3cret-pw-9f2"

func withPassword(url string) string { return strings.Replace(url, "://", "://alice:"+secretPW+"@", 1) }

func noPassword(t *testing.T, where, text string) {
	t.Helper()
	if strings.Contains(text, secretPW) || strings.Contains(text, "alice") {
		t.Errorf("%s shows the URL's user or password:\n%s", where, text)
	}
}

// TestConfigHidesURLPasswords: canopy config shows an API URL with a user
// and password as http://***@host, from a flag, the environment or the
// config file, in the audience row it implies, and in --debug's log.
func TestConfigHidesURLPasswords(t *testing.T) {
	t.Parallel()
	url := withPassword("http://api.example:8080/base")
	for _, tc := range []struct {
		name string
		args []string
		vars map[string]string
		file string
	}{
		{"flag", []string{"--api-url", url, "--debug"}, nil, ""},
		{"env", []string{"--debug"}, map[string]string{"CANOPY_API_URL": url}, ""},
		{"file", []string{"--debug"}, nil, "api-url: " + url + "\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			getenv := env(t, tc.vars)
			if tc.file != "" {
				writeConfig(t, getenv, tc.file)
			}
			var out, errs bytes.Buffer
			if code := runConfig(t.Context(), tc.args, getenv, &out, &errs); code != 0 {
				t.Fatalf("exit %d: %s", code, errs.String())
			}
			noPassword(t, "canopy config", out.String()+errs.String())
			for _, re := range []string{`(?m)^api-url +http://\*\*\*@api\.example:8080/base +`, `(?m)^audience +http://api\.example:8080/base +the api-url`} {
				if !regexp.MustCompile(re).MatchString(out.String()) {
					t.Errorf("no %s:\n%s", re, out.String())
				}
			}
			log, err := os.ReadFile(config.PathsFrom(getenv).Log)
			if err != nil {
				t.Fatal(err)
			}
			noPassword(t, "the debug log", string(log))
			if !strings.Contains(string(log), "value=http://***@api.example:8080/base") {
				t.Errorf("the log lacks the API URL:\n%s", log)
			}
		})
	}
}

// TestURLPasswordsNotInErrors: a URL that is no http(s) URL, does not
// parse, or cannot be reached is named without its user and password by
// every command, and canopy info shows none.
func TestURLPasswordsNotInErrors(t *testing.T) {
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	refused := withPassword(refusedURL(t))
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"config", "--api-url", "ftp://alice:" + secretPW + "@host"}, exit.Usage, `"ftp://***@host" is not an http(s) URL`},
		{[]string{"config", "--api-url", "alice:" + secretPW + "@host"}, exit.Usage, `"***@host" is not an http(s) URL`},
		{[]string{"config", "--api-url", "http://alice:" + secretPW + "@host:port"}, exit.Usage, `"http://***@host:port" is not an http(s) URL`},
		{[]string{"--api-url", refused, "--debug"}, exit.NoServer, "canopy: cannot reach http://***@127.0.0.1:"},
		{[]string{"list", "repos", "--api-url", refused, "--debug"}, exit.NoServer, "connection refused"},
		{[]string{"demo", "--api-url", refused}, exit.Usage, "flag provided but not defined"},
		{[]string{"--api-url", "http://alice:" + secretPW + "@api.example.test"}, exit.Usage, `"http://***@api.example.test": the token would travel unencrypted`},
	} {
		var out, errs bytes.Buffer
		t.Setenv("CANOPY_TOKEN", "t")
		code := Run(quick(t.Context()), tc.args, &out, &errs)
		if code != tc.code || !strings.Contains(errs.String(), tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tc.args, code, errs.String(), tc.code, tc.want)
		}
		noPassword(t, strings.Join(tc.args[:1], " "), out.String()+errs.String())
	}
	log, err := os.ReadFile(filepath.Join(state, "canopy", "canopy.log"))
	if err != nil {
		t.Fatal(err)
	}
	noPassword(t, "the debug log", string(log))

	t.Setenv("CANOPY_API_URL", refused)
	var out bytes.Buffer
	if code := Run(quick(t.Context()), []string{"info"}, &out, &out); code != 0 {
		t.Fatalf("info: %s", out.String())
	}
	noPassword(t, "canopy info", out.String())
}
