package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"canopy/cli/config"
	"canopy/cli/exit"
	"canopy/theme"
)

func runArgs(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errs bytes.Buffer
	code := Run(t.Context(), args, &out, &errs)
	return out.String(), errs.String(), code
}

func TestUnknownCommandAndVersionHelp(t *testing.T) {
	for _, args := range [][]string{{"bogus"}, {"--read-only", "bogus"}} {
		_, errs, code := runArgs(t, args...)
		if code != exit.Usage || !strings.Contains(errs, `canopy: unknown command "bogus"`) || !strings.Contains(errs, "Commands: demo, emulator, list") {
			t.Errorf("%v: exit %d %q", args, code, errs)
		}
	}
	if _, errs, _ := runArgs(t, "lsit"); !strings.Contains(errs, `Did you mean "list"?`) {
		t.Errorf("a typo: %q", errs)
	}
	for _, h := range []string{"-h", "--help"} {
		out, _, code := runArgs(t, "version", h)
		if code != 0 || !strings.HasPrefix(out, "Usage: canopy version") {
			t.Errorf("version %s: exit %d %q", h, code, out)
		}
	}
	if out, _, code := runArgs(t, "--version"); code != 0 || !strings.HasPrefix(out, "canopy ") {
		t.Errorf("--version: %d %q", code, out)
	}
	if _, errs, code := runArgs(t, "version", "extra"); code != exit.Usage || !strings.Contains(errs, "unexpected argument") {
		t.Errorf("version extra: %d %q", code, errs)
	}
	if out, _, code := runArgs(t, "help", "list"); code != 0 || !strings.HasPrefix(out, "Usage: canopy list") {
		t.Errorf("help list: %d %q", code, out)
	}
}

// TestBashCompletion sources the bash script and asks it what a user's
// tab would: subcommands, flags of a subcommand, and flag values, also as
// --flag=value (which bash splits at "=").
func TestBashCompletion(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	out, _, code := runArgs(t, "completion", "bash")
	if code != 0 {
		t.Fatal("completion bash failed")
	}
	script := filepath.Join(t.TempDir(), "canopy.bash")
	if err := os.WriteFile(script, []byte(out), 0o600); err != nil {
		t.Fatal(err)
	}
	if msg, err := exec.Command(bash, "-n", script).CombinedOutput(); err != nil {
		t.Fatalf("bash -n: %v\n%s", err, msg)
	}
	complete := func(words ...string) []string {
		t.Helper()
		var quoted []string
		for _, w := range words {
			quoted = append(quoted, "'"+w+"'")
		}
		prog := "source " + script + "\nCOMP_WORDS=(" + strings.Join(quoted, " ") + ")\nCOMP_CWORD=" +
			string(rune('0'+len(words)-1)) + "\n_canopy\nprintf '%s\\n' \"${COMPREPLY[@]}\"\n"
		got, err := exec.Command(bash, "-c", prog).CombinedOutput()
		if err != nil {
			t.Fatalf("%v: %v\n%s", words, err, got)
		}
		return strings.Fields(string(got))
	}
	for _, tc := range []struct {
		words []string
		want  string
	}{
		{[]string{"canopy", "li"}, "list"},
		{[]string{"canopy", "demo", "--theme", "d"}, "dark"},
		{[]string{"canopy", "demo", "--theme", "=", "hi"}, "high-contrast"},
		{[]string{"canopy", "demo", "--theme", "="}, "auto dark light high-contrast mono"},
		{[]string{"canopy", "list", "-o", "j"}, "json"},
		{[]string{"canopy", "list", "--org", "acme", "re"}, "repos"},
		{[]string{"canopy", "list", "--org", ""}, ""},
		{[]string{"canopy", "list", "sub"}, "subscriptions"},
		{[]string{"canopy", "list", "li"}, "libraries"},
		{[]string{"canopy", "list", "v"}, "versions"},
		{[]string{"canopy", "list", "--ecosystem", ""}, "java python"},
		{[]string{"canopy", "list", "versions", "--artifact", ""}, ""},
		{[]string{"canopy", "demo", "--si"}, "--size"},
		{[]string{"canopy", "demo", "--size", "m"}, "medium"},
		{[]string{"canopy", "info", ""}, ""},
		{[]string{"canopy", "completion", "f"}, "fish"},
	} {
		if got := strings.Join(complete(tc.words...), " "); got != tc.want {
			t.Errorf("%q: completes to %q, want %q", tc.words, got, tc.want)
		}
	}
	if got := complete("canopy", "list", "-"); !contains(got, "-o") || contains(got, "--o") || !contains(got, "--deprecated") || !contains(got, "--artifact") || !contains(got, "--ecosystem") {
		t.Errorf("list's flags: %v", got)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestFishAndZshScripts checks what can be checked without those shells:
// every fish line is a complete command of the known form, a flag with
// values lists them, and zsh loads bash completion first.
func TestFishAndZshScripts(t *testing.T) {
	out, _, _ := runArgs(t, "completion", "fish")
	for i, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if !strings.HasPrefix(line, "complete -c canopy ") || strings.Count(line, "'")%2 != 0 {
			t.Errorf("fish line %d: %q", i+1, line)
		}
	}
	for _, want := range []string{
		"complete -c canopy -n '__fish_seen_subcommand_from demo' -l theme -x -a 'auto dark light high-contrast mono'",
		"complete -c canopy -n '__fish_seen_subcommand_from list' -o o -x -a 'table json'",
		"complete -c canopy -n '__fish_seen_subcommand_from list' -l ecosystem -x -a 'java python'",
		"complete -c canopy -n '__fish_seen_subcommand_from list' -l token-file -r -F",
		"complete -c canopy -n '__fish_use_subcommand' -a list",
	} {
		if !strings.Contains(out, want+"\n") {
			t.Errorf("fish script lacks %q", want)
		}
	}
	zsh, _, _ := runArgs(t, "completion", "zsh")
	if !strings.HasPrefix(zsh, "#compdef canopy\nautoload -U +X bashcompinit && bashcompinit\n") || !strings.Contains(zsh, "complete -F _canopy canopy") {
		t.Errorf("zsh script:\n%s", zsh)
	}
}

// TestDisplayOf: a mono theme (or NO_COLOR) keeps attributes and drops
// colors, and --mouse=false leaves the mouse to the terminal.
func TestDisplayOf(t *testing.T) {
	s, err := config.Resolve(nil, "", env(t, map[string]string{"CANOPY_MOUSE": "false"}), config.PathsFrom(env(t, nil)))
	if err != nil {
		t.Fatal(err)
	}
	if d := displayOf(theme.Options{Name: theme.Mono}, s); !d.Mono || d.Mouse {
		t.Errorf("displayOf: %+v", d)
	}
}
