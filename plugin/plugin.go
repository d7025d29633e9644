// Package plugin is what canopy knows of the user's own tools: a plugin
// names a program, the arguments it is given (templates over the
// resource under the cursor: {{.Ref}}, {{.Digest}}, …), the kinds of
// resource it applies to, and how it runs. Arguments are expanded into an
// argument vector and the program is started directly, never through a
// shell; every value taken from the server is checked for its shape first
// (vars.go), so that a hostile name is never a flag, a second argument or
// a command. Running is run.go's: in the background, with the output
// streamed and bounded; in the foreground, with the terminal handed over.
package plugin

import (
	"canopy/lazyregexp"
	"canopy/resource"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// Mode is how a plugin runs.
type Mode string

const (
	// Foreground hands the terminal to the program and takes it back when
	// it ends (an interactive tool, a pager of its own).
	Foreground Mode = "foreground"
	// Background keeps canopy on screen: the output streams into a page
	// of its own, with each run's exit status.
	Background Mode = "background"
)

// Modes are the modes a config may name.
func Modes() []Mode { return []Mode{Foreground, Background} }

// Plugin is one tool the user runs on resources.
type Plugin struct {
	Name        string   // also its `:` command
	Key         string   // its key, as Bubble Tea spells it; "" for none
	Description string   // what it does, for the help; "" says the command
	Kinds       []string // the kinds it applies to (Kinds)
	Command     string   // the program: a name looked up in PATH, or a path
	Args        []Arg
	Mode        Mode
	Confirm     bool // ask before running
	// Line is the line of its entry in the config file (0: not from one),
	// KeyLine its key's.
	Line, KeyLine int
}

// Applies reports whether the plugin runs on resources of kind.
func (p Plugin) Applies(kind string) bool { return slices.Contains(p.Kinds, kind) }

// Summary is the plugin's command line as written, for the help and the
// confirmation: "cosign verify … {{.Ref}}".
func (p Plugin) Summary() string {
	parts := []string{quoted(p.Command)}
	for _, a := range p.Args {
		parts = append(parts, quoted(a.text))
	}
	return strings.Join(parts, " ")
}

// Says is what the plugin does in a line: its description, or its command.
func (p Plugin) Says() string {
	if p.Description != "" {
		return p.Description
	}
	return "runs " + p.Summary()
}

// Help is the plugin's line in the help: its command, its mode and what
// it does.
func (p Plugin) Help() string {
	return ":" + p.Name + " · " + string(p.Mode) + " · " + p.Says()
}

// KindsText lists the kinds it runs on in words: "tags and repos".
func (p Plugin) KindsText() string {
	plural := make([]string, len(p.Kinds))
	for i, k := range p.Kinds {
		plural[i] = Plural(k)
	}
	switch len(plural) {
	case 0:
		return "nothing"
	case 1:
		return plural[0]
	}
	return strings.Join(plural[:len(plural)-1], ", ") + " and " + plural[len(plural)-1]
}

// namePattern is a plugin's name: a word a `:` command can be.
//
// At most maxName characters, compared apart from the pattern: a counted
// repetition ({0,31}) compiles to a program as long as its count, which
// took a part of every canopy's start (issue 39).
var namePattern = lazyregexp.New(`^[a-z][a-z0-9-]*$`)

// maxName is the most characters a name has.
const maxName = 32

// CheckName checks a plugin's name.
func CheckName(name string) error {
	if len(name) > maxName || !namePattern.MatchString(name) {
		return fmt.Errorf("name %q: want a lower-case word that starts with a letter (a-z, then a-z, 0-9 or -; at most 32), it is also the plugin's `:` command", name)
	}
	return nil
}

// CheckCommand checks the program a plugin runs: a name or a path, never a
// template (a server value must not choose what runs).
func CheckCommand(cmd string) error {
	switch {
	case strings.TrimSpace(cmd) == "":
		return errors.New("command: want the program to run, such as cosign")
	case strings.Contains(cmd, "{{"):
		return errors.New("command: no variables here: a value from the server never chooses the program")
	case strings.ContainsAny(cmd, " \t\n") && !strings.ContainsRune(cmd, filepath.Separator):
		return fmt.Errorf("command %q: one program, without arguments (they go under args)", cmd)
	}
	return nil
}

// ArgError is a mistake in one argument.
type ArgError struct {
	Index int
	Err   error
}

func (e *ArgError) Error() string { return fmt.Sprintf("args[%d]: %v", e.Index, e.Err) }

// Check checks what the arguments and kinds say together: each variable
// is one the kinds give, and no variable reaches a program that may run it
// as a command (runners.go), by the name written or by the file that name
// finds on PATH now (program.go; an *ArgError). A command not found is
// matched by its name alone: it is resolved again when it runs.
func (p Plugin) Check() error {
	if len(p.Kinds) == 0 {
		return errors.New("kinds: want the kinds it runs on, such as [tag]")
	}
	if err := p.reachesRunner(resolve(p.Command)); err != nil {
		return err
	}
	for i, a := range p.Args {
		for _, v := range a.Vars() {
			for _, k := range p.Kinds {
				if !slices.Contains(Gives(k), v) {
					return &ArgError{i, hasNo(k, v)}
				}
			}
		}
	}
	return nil
}

// hasNo says that a plugin's kind gives no such variable, in the kind's
// own words.
func hasNo(kind, v string) error {
	d, _ := resource.ByPlugin(kind)
	one := Article(d.Noun) + " " + d.Noun
	if v == "Name" && d.NoName != "" {
		return fmt.Errorf("%s has no {{.Name}}: %s (it gives %s)", one, d.NoName, strings.Join(Gives(kind), ", "))
	}
	return fmt.Errorf("%s has no {{.%s}} (it gives %s)", one, v, strings.Join(Gives(kind), ", "))
}

// Article is "an" before a noun said with a vowel, else "a".
func Article(noun string) string {
	if noun != "" && strings.ContainsRune("aeiou", rune(noun[0])) {
		return "an"
	}
	return "a"
}
