package cli

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"canopy/cli/exit"
)

func TestCompletionScripts(t *testing.T) {
	t.Parallel()
	for _, shell := range []string{"bash", "zsh", "fish"} {
		var out bytes.Buffer
		if code := runCompletion(t.Context(), []string{shell}, &out, &out); code != 0 {
			t.Fatalf("%s: exit %d", shell, code)
		}
		for _, want := range []string{"demo", "emulator", "list", "read-only", "page-size", "fail-rate", "strict", "repos"} {
			if !strings.Contains(out.String(), want) {
				t.Errorf("%s completion lacks %q", shell, want)
			}
		}
	}
	// demo and emulator both take --strict, a switch.
	for _, sub := range []string{"demo", "emulator"} {
		if cmd, _ := commandNamed(sub); !slices.Contains(flagsOf(cmd), compFlag{word: "--strict"}) {
			t.Errorf("canopy %s offers no --strict switch", sub)
		}
	}
	var out bytes.Buffer
	if code := runCompletion(t.Context(), []string{"tcsh"}, &out, &out); code != exit.Usage || !strings.HasPrefix(out.String(), `canopy completion: no completion for "tcsh"`) {
		t.Errorf("an unknown shell: exit %d, %q", code, out.String())
	}
}

// TestBashCompletion sources the bash script and asks it what a user's
// tab would: subcommands, flags of a subcommand, and flag values, also as
// --flag=value (which bash splits at "=").
func TestBashCompletion(t *testing.T) {
	t.Parallel()
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
		{[]string{"canopy", "list", "v"}, "versions vulnerabilities"},
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
	t.Parallel()
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

// flagLine is a flag in Go's usage output: "  -name value" or "  -name"
// (a switch).
var flagLine = regexp.MustCompile(`(?m)^  -([a-z][a-z0-9-]*)( \S+)?$`)

// TestCompletionOffersTheFlagsOfTheUsage: for every command, completion
// offers the flags its -h lists, each taking a value or not as -h shows
// it, and no other (the table and the commands register flags with the
// same functions; this holds them to it).
func TestCompletionOffersTheFlagsOfTheUsage(t *testing.T) {
	t.Parallel()
	for _, cmd := range append([]command{explore()}, commands()...) {
		args := []string{"-h"}
		switch cmd.name {
		case "":
		case "help":
			continue // it takes no flags: help -h is canopy's usage
		case "list":
			args = []string{"list", "repos", "-h"}
		default:
			args = []string{cmd.name, "-h"}
		}
		var out bytes.Buffer
		Run(quick(t.Context()), args, &out, io.Discard)
		var usage []compFlag
		for _, m := range flagLine.FindAllStringSubmatch(out.String(), -1) {
			usage = append(usage, compFlag{word: flagWord(m[1]), value: m[2] != ""})
		}
		sort.Slice(usage, func(i, j int) bool { return usage[i].word < usage[j].word })
		if got := flagsOf(cmd); !slices.Equal(got, usage) {
			t.Errorf("canopy %v: completion offers %v, the usage lists %v", args, got, usage)
		}
	}
}

// The usage's line for list names every collection it lists.
func TestUsageNamesEveryListKind(t *testing.T) {
	t.Parallel()
	for _, c := range commands() {
		if c.name != "list" {
			continue
		}
		summary := strings.Join(strings.Fields(c.summary()), " ")
		for _, kind := range listNames() {
			if !strings.Contains(summary, kind) {
				t.Errorf("the usage of list does not name %s: %q", kind, summary)
			}
		}
	}
}
