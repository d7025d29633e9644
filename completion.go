package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"
)

// subcommands are the words after `canopy`, for usage and completion.
func subcommands() []string {
	return []string{"demo", "emulator", "list", "config", "info", "completion", "version", "help"}
}

// flagLine is a flag in Go's usage output: "  -name value" or "  -name".
var flagLine = regexp.MustCompile(`(?m)^  -([a-z][a-z0-9-]*)`)

// flagsOf reads a command's flags from its own -h output, so completion
// never drifts from the flags the command really takes.
func flagsOf(ctx context.Context, cmd ...string) []string {
	var out bytes.Buffer
	run(ctx, append(cmd, "-h"), &out, io.Discard)
	var flags []string
	for _, m := range flagLine.FindAllStringSubmatch(out.String(), -1) {
		flags = append(flags, "--"+m[1])
	}
	sort.Strings(flags)
	return flags
}

// runCompletion prints a completion script for bash, zsh or fish.
func runCompletion(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) != 1 || (args[0] != "bash" && args[0] != "zsh" && args[0] != "fish") {
		if len(args) == 1 && (args[0] == "-h" || args[0] == "--help") {
			fmt.Fprint(stdout, completionUsage)
			return exitOK
		}
		fmt.Fprint(stderr, completionUsage)
		return exitUsage
	}
	words := map[string][]string{"": append(subcommands(), flagsOf(ctx)...)}
	for _, c := range []string{"demo", "emulator", "config", "info"} {
		words[c] = flagsOf(ctx, c)
	}
	words["list"] = append(listKinds(), flagsOf(ctx, "list", "repos")...)
	words["completion"] = []string{"bash", "zsh", "fish"}
	switch args[0] {
	case "bash":
		writeBash(stdout, words)
	case "zsh":
		fmt.Fprintln(stdout, "#compdef canopy\nautoload -U +X bashcompinit && bashcompinit")
		writeBash(stdout, words)
	case "fish":
		writeFish(stdout, words)
	}
	return exitOK
}

const completionUsage = `Usage: canopy completion bash|zsh|fish

Print a shell completion script for subcommands and flags. For example:
  bash:  source <(canopy completion bash)
  zsh:   canopy completion zsh > "${fpath[1]}/_canopy"
  fish:  canopy completion fish > ~/.config/fish/completions/canopy.fish
`

func writeBash(w io.Writer, words map[string][]string) {
	fmt.Fprintln(w, `_canopy() {
  local cur=${COMP_WORDS[COMP_CWORD]} sub=""
  [ "$COMP_CWORD" -gt 1 ] && sub=${COMP_WORDS[1]}
  local words
  case "$sub" in`)
	for _, sub := range sortedKeys(words) {
		if sub == "" {
			continue
		}
		fmt.Fprintf(w, "    %s) words=%q ;;\n", sub, strings.Join(words[sub], " "))
	}
	fmt.Fprintf(w, "    *) words=%q ;;\n", strings.Join(words[""], " "))
	fmt.Fprintln(w, `  esac
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -o default -F _canopy canopy`)
}

func writeFish(w io.Writer, words map[string][]string) {
	fmt.Fprintln(w, "complete -c canopy -f")
	subs := strings.Join(subcommands(), " ")
	for _, sub := range sortedKeys(words) {
		cond := "__fish_use_subcommand"
		if sub != "" {
			cond = "__fish_seen_subcommand_from " + sub
		}
		for _, word := range words[sub] {
			if sub == "" && strings.Contains(" "+subs+" ", " "+word+" ") {
				fmt.Fprintf(w, "complete -c canopy -n '%s' -a %s\n", cond, word)
			} else if name, ok := strings.CutPrefix(word, "--"); ok {
				fmt.Fprintf(w, "complete -c canopy -n '%s' -l %s\n", cond, name)
			} else {
				fmt.Fprintf(w, "complete -c canopy -n '%s' -a %s\n", cond, word)
			}
		}
	}
}

func sortedKeys(m map[string][]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
