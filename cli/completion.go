package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"canopy/cli/exit"
)

// compFlag is a flag as completion offers it.
type compFlag struct {
	word  string // "--theme", or "-o" for a one-letter flag
	value bool   // takes a value
}

// flagsOf are the flags c registers, sorted by word: the flag set itself
// says which take a value (all but the switches), so completion never
// drifts from the flags the command really takes.
func flagsOf(c command) []compFlag {
	if c.flags == nil {
		return nil
	}
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	c.flags(fs)
	var flags []compFlag
	fs.VisitAll(func(f *flag.Flag) {
		word := "--" + f.Name
		if len(f.Name) == 1 {
			word = "-" + f.Name
		}
		b, isBool := f.Value.(interface{ IsBoolFlag() bool })
		flags = append(flags, compFlag{word: word, value: !isBool || !b.IsBoolFlag()})
	})
	sort.Slice(flags, func(i, j int) bool { return flags[i].word < flags[j].word })
	return flags
}

// flagWord is a flag's name as completion offers it: "--theme", "-o".
func flagWord(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// valueChoices are the values completion offers after a flag, by word,
// and fileFlags the flags that take a file name (flagValues).
func valueChoices() map[string][]string {
	choices := map[string][]string{}
	for _, v := range flagValues() {
		if v.words != nil {
			choices[flagWord(v.flag)] = v.words()
		}
	}
	return choices
}

func fileFlags() []string {
	var files []string
	for _, v := range flagValues() {
		if v.words == nil {
			files = append(files, flagWord(v.flag))
		}
	}
	return files
}

// completion is what a completion script needs: the words after each
// command ("" for none named) and the flags that take a value.
type completion struct {
	words  map[string][]string
	valued map[string]bool // flags that take a value, by word
}

// buildCompletion reads the command table: after each command, the words
// that may follow it (the commands themselves after canopy alone), then
// its flags.
func buildCompletion() completion {
	c := completion{words: map[string][]string{}, valued: map[string]bool{}}
	add := func(sub string, cmd command, args []string) {
		c.words[sub] = append([]string{}, args...) // nothing, rather than the top level's words
		for _, f := range flagsOf(cmd) {
			c.words[sub] = append(c.words[sub], f.word)
			if f.value {
				c.valued[f.word] = true
			}
		}
	}
	add("", explore(), subcommands())
	for _, cmd := range commands() {
		var args []string
		if cmd.args != nil {
			args = cmd.args()
		}
		add(cmd.name, cmd, args)
	}
	return c
}

// runCompletion prints a completion script for bash, zsh or fish.
func runCompletion(_ context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) != 1 || !slices.Contains(shells(), args[0]) {
		if len(args) == 1 && (args[0] == "-h" || args[0] == "--help" || args[0] == "-help") {
			fmt.Fprint(stdout, completionUsage)
			return exit.OK
		}
		if len(args) == 1 {
			fmt.Fprintf(stderr, "canopy completion: no completion for %q\n\n", args[0])
		}
		fmt.Fprint(stderr, completionUsage)
		return exit.Usage
	}
	c := buildCompletion()
	switch args[0] {
	case "bash":
		writeBash(stdout, c)
	case "zsh":
		fmt.Fprintln(stdout, "#compdef canopy\nautoload -U +X bashcompinit && bashcompinit")
		writeBash(stdout, c)
	case "fish":
		writeFish(stdout, c)
	}
	return exit.OK
}

const completionUsage = `Usage: canopy completion bash|zsh|fish

Print a shell completion script for subcommands, flags and their values
(themes, -o formats, sizes, file names). For example:
  bash:  source <(canopy completion bash)
  zsh:   canopy completion zsh > "${fpath[1]}/_canopy"
  fish:  canopy completion fish > ~/.config/fish/completions/canopy.fish
`

// alts is a case pattern matching a flag written with one dash or two
// (Go's flag package takes both): "--theme|-theme".
func alts(word string) string {
	name := strings.TrimLeft(word, "-")
	return "--" + name + "|-" + name
}

func writeBash(w io.Writer, c completion) {
	fmt.Fprintln(w, `_canopy() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev="" sub="" words
  [ "$COMP_CWORD" -gt 0 ] && prev=${COMP_WORDS[COMP_CWORD-1]}
  [ "$COMP_CWORD" -gt 1 ] && sub=${COMP_WORDS[1]}
  # --flag=value: bash splits the word at "=".
  if [ "$cur" = "=" ]; then cur=""; elif [ "$prev" = "=" ] && [ "$COMP_CWORD" -gt 1 ]; then prev=${COMP_WORDS[COMP_CWORD-2]}; fi
  case "$prev" in`)
	values := valueChoices()
	for _, f := range sortedKeys(values) {
		fmt.Fprintf(w, "    %s) COMPREPLY=($(compgen -W %q -- \"$cur\")); return ;;\n", alts(f), strings.Join(values[f], " "))
	}
	var files []string
	for _, f := range fileFlags() {
		files = append(files, alts(f))
	}
	fmt.Fprintf(w, "    %s) COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n", strings.Join(files, "|"))
	var free []string
	for _, f := range sortedKeys(boolMap(c.valued)) {
		if _, ok := values[f]; !ok && !slices.Contains(fileFlags(), f) {
			free = append(free, alts(f))
		}
	}
	if len(free) > 0 {
		fmt.Fprintf(w, "    %s) COMPREPLY=(); return ;;\n", strings.Join(free, "|"))
	}
	fmt.Fprintln(w, `  esac
  case "$sub" in`)
	for _, sub := range sortedKeys(c.words) {
		if sub == "" {
			continue
		}
		fmt.Fprintf(w, "    %s) words=%q ;;\n", sub, strings.Join(c.words[sub], " "))
	}
	fmt.Fprintf(w, "    *) words=%q ;;\n", strings.Join(c.words[""], " "))
	fmt.Fprintln(w, `  esac
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -F _canopy canopy`)
}

func writeFish(w io.Writer, c completion) {
	fmt.Fprintln(w, "complete -c canopy -f")
	subs := subcommands()
	values := valueChoices()
	for _, sub := range sortedKeys(c.words) {
		cond := "__fish_use_subcommand"
		if sub != "" {
			cond = "__fish_seen_subcommand_from " + sub
		}
		for _, word := range c.words[sub] {
			name, isFlag := strings.CutPrefix(word, "-")
			switch {
			case !isFlag || sub == "" && slices.Contains(subs, word):
				fmt.Fprintf(w, "complete -c canopy -n '%s' -a %s\n", cond, word)
				continue
			}
			opt := "-o " + name // Go's -name
			if long, ok := strings.CutPrefix(name, "-"); ok {
				opt = "-l " + long
			}
			switch {
			case values[word] != nil:
				fmt.Fprintf(w, "complete -c canopy -n '%s' %s -x -a '%s'\n", cond, opt, strings.Join(values[word], " "))
			case slices.Contains(fileFlags(), word):
				fmt.Fprintf(w, "complete -c canopy -n '%s' %s -r -F\n", cond, opt)
			case c.valued[word]:
				fmt.Fprintf(w, "complete -c canopy -n '%s' %s -x\n", cond, opt)
			default:
				fmt.Fprintf(w, "complete -c canopy -n '%s' %s\n", cond, opt)
			}
		}
	}
}

func boolMap(m map[string]bool) map[string][]string {
	out := make(map[string][]string, len(m))
	for k := range m {
		out[k] = nil
	}
	return out
}

func sortedKeys(m map[string][]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
