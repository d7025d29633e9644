package plugin_test

import (
	"errors"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"canopy/plugin"
)

// ordinary are values of each variable as a server sends them: each one
// passes as it is.
var ordinary = map[string][]string{
	"Ref":      {"cgr.dev/acme.example/python:3.12@" + digest, "registry.example:5000/a/b-c:v1.2_rc@" + digest},
	"Image":    {"cgr.dev/acme.example/python", "cgr.dev/chainguard/node-lts"},
	"Repo":     {"python", "team/my-app", "a__b.c"},
	"Tag":      {"3.12", "latest-dev", "v1.2.3_rc1", "_x"},
	"Digest":   {digest, "sha512+x:" + strings.Repeat("ab", 32)},
	"UID":      {"0123abcd", "0123abcd/0123456789abcdef/0123456789abcdef", "maven/ch.qos.logback:logback-classic", "pypi/requests/5.1.0"},
	"Name":     {"alice", "ci-runner", "日本語", "サーバー", "Zoë", "svc@acme.example", "a:c+d,e=f", "_internal", "3.12", "١٢٣"},
	"Org":      {"acme.example", "Acme_Corp"},
	"OrgUID":   {"0123abcd"},
	"Advisory": {"CGA-2x3v-4f5g-6h7j", "GHSA-abcd-1234-efgh"},
	"Aliases":  {"CVE-2024-12345", "CVE-2024-1,GHSA-xxxx-yyyy-zzzz", "PYSEC-2024:12"},
	"Package":  {"py3-urllib3", "libstdc++", "openjdk-17", "github.com/acme/x", "org.apache.logging.log4j:log4j-core", "foo@1.2"},
	"Email": {"alice@example.com", "first.last+tag@example.co.uk", "a_b%c@sub-domain.example", "ALICE@EXAMPLE.COM",
		"user@localhost", "x@xn--bcher-kva.example", "1234@a1.example"},
}

// expand passes value as variable name to a plugin that uses it alone.
func expand(name, value string) error {
	p := plugin.Plugin{Name: "t", Kinds: []string{"tag"}, Command: "echo", Args: plugin.MustArgs("{{." + name + "}}")}
	_, err := p.Expand(plugin.Vars{name: value})
	return err
}

func TestOrdinaryValuesPass(t *testing.T) {
	if len(ordinary) != len(plugin.Variables()) {
		t.Fatalf("ordinary values for %d variables, there are %d", len(ordinary), len(plugin.Variables()))
	}
	for name, values := range ordinary {
		for _, v := range values {
			if err := expand(name, v); err != nil {
				t.Errorf("%s %q refused: %v", name, v, err)
			}
		}
	}
}

// TestEmailWithShellCodeIsRefused is issue 33's attack: this address
// reached `tmux new-session -d {{.Email}}`, and tmux's shell ran it.
func TestEmailWithShellCodeIsRefused(t *testing.T) {
	p := plugin.Plugin{Name: "attach", Kinds: []string{"identity"}, Command: "tmux", Args: plugin.MustArgs("new-session", "-d", "{{.Email}}")}
	argv, err := p.Expand(plugin.Vars{"Email": "`touch${IFS}pwned`@evil.example"})
	var shape *plugin.ShapeError
	if !errors.As(err, &shape) || shape.Var != "Email" || argv != nil {
		t.Fatalf("argv %q, err %v; want a shape error on Email", argv, err)
	}
}

// shellMarks are what a shell (sh, bash, zsh, fish, csh, cmd) reads as
// more than a letter somewhere in a word: quotes, escapes, substitutions,
// separators, redirections, globs, history, comments, tildes, white space.
const shellMarks = "`$(){}[]|&;<>*?!#~'\"\\^ \t\n\r"

// TestNoShapeAdmitsAShellMark puts each mark at every place of every
// ordinary value: none passes.
func TestNoShapeAdmitsAShellMark(t *testing.T) {
	for name, values := range ordinary {
		for _, v := range values {
			for i := range len(v) + 1 {
				if i < len(v) && !utf8.RuneStart(v[i]) {
					continue
				}
				for _, m := range shellMarks {
					bad := v[:i] + string(m) + v[i:]
					if err := expand(name, bad); err == nil {
						t.Errorf("%s %q passed", name, bad)
					}
				}
			}
		}
	}
}

func TestHostileValuesPerVariable(t *testing.T) {
	hostile := map[string][]string{
		"Ref":      {"cgr.dev/a/b:1@" + digest + ";id", "+cgr.dev/a/b:1@" + digest, "cgr.dev/a/b:$(id)@" + digest},
		"Image":    {"cgr.dev/a/b c", "@cgr.dev/a/b", "cgr.dev/a/~b"},
		"Repo":     {"a b", "../x", "a/b/..", "~root"},
		"Tag":      {"x;id", "x${IFS}y", ".hidden", "~x"},
		"Digest":   {"sha256:" + strings.Repeat("a", 64) + "`id`"},
		"UID":      {"0123abcd;id", "0123ABCD "},
		"Name":     {"=ls", "+qa", "@args", ".hidden", "..", ":x", "a~b", "x%PATH%", "quoteʺbreak", "tickˋx", "caretˆx", "a b", "~root"},
		"Org":      {"acme example", "$HOME", "=cmd"},
		"OrgUID":   {"x"},
		"Advisory": {"CGA-x;id", "CGA-$(id)"},
		"Aliases":  {"CVE-1,$(id)", "CVE-1, CVE-2", ",CVE-1", "CVE-1,,CVE-2"},
		"Package":  {"a~b", "pkg:~root", "a b", "+x", "@scope/x", "x|y", "a=b"},
		"Email": {"`touch${IFS}pwned`@evil.example", "$(id)@evil.example", "a|b@evil.example", "a&b@evil.example",
			"a*@evil.example", "a?@evil.example", "a!b@evil.example", "#a@evil.example", "~root@evil.example",
			"{a,b}@evil.example", "a@b@evil.example", "a@evil.example;id", "a@-evil.example", "a@evil-.example",
			"a@.evil.example", "a@evil..example", "a@evil.example.", ".a@evil.example", "a.@evil.example",
			"a..b@evil.example", "+a@evil.example", "%a@evil.example", "@evil.example", "a@", "a",
			"\"a b\"@evil.example", "a@[127.0.0.1]", "a@evil_host.example", "ünï@evil.example", "a@évil.example",
			"a@evil.example:22", "a/b@evil.example", "a=b@evil.example"},
	}
	for name, values := range hostile {
		for _, v := range values {
			var shape *plugin.ShapeError
			if err := expand(name, v); !errors.As(err, &shape) || shape.Var != name {
				t.Errorf("%s %q: err %v, want a shape error on %s", name, v, err, name)
			}
		}
	}
}

// passable are the only marks a value that passes may hold beside
// letters and digits.
const passable = "._-@+:,=/%"

// FuzzPassedValuesAreOneWord: whatever a shape lets through is letters,
// digits and passable marks, not starting like a flag, an option, a
// response file, a hidden path or a zsh =command.
func FuzzPassedValuesAreOneWord(f *testing.F) {
	for name, values := range ordinary {
		for _, v := range values {
			f.Add(name, v)
		}
	}
	f.Add("Email", "`touch${IFS}pwned`@evil.example")
	f.Fuzz(func(t *testing.T, name, v string) {
		if plugin.Describe(name) == "" || expand(name, v) != nil {
			return
		}
		if strings.ContainsAny(v[:1], "-+@=.~:/") {
			t.Errorf("%s %q passed, starting with %q", name, v, v[:1])
		}
		for _, r := range v {
			if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune(passable, r) {
				t.Errorf("%s %q passed, holding %q", name, v, r)
			}
		}
	})
}
