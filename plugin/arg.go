package plugin

import (
	"canopy/lazyregexp"
	"fmt"
	"slices"
	"strings"
)

// Arg is one argument as written: text with {{.Variable}} in it. Only
// plain variables are expanded, no pipelines or functions: what an
// argument can become is what its variables' shapes allow.
type Arg struct {
	text  string
	parts []part
}

// part is a run of literal text, or a variable (name != "").
type part struct{ literal, name string }

// action is a template action: {{.Name}}, spaces allowed inside.
var action = lazyregexp.New(`\{\{\s*\.([A-Za-z][A-Za-z0-9]*)\s*\}\}`)

// ParseArg reads one argument; a {{ that is no {{.Variable}}, or a
// variable no kind gives, is an error.
func ParseArg(s string) (Arg, error) {
	a := Arg{text: s}
	rest := s
	for rest != "" {
		loc := action.FindStringSubmatchIndex(rest)
		open := strings.Index(rest, "{{")
		if open >= 0 && (loc == nil || open < loc[0]) {
			end := strings.Index(rest[open:], "}}")
			bad := rest[open:]
			if end >= 0 {
				bad = rest[open : open+end+2]
			}
			return Arg{}, fmt.Errorf("%s: only {{.Variable}} is expanded here (variables: %s)", bad, strings.Join(Variables(), ", "))
		}
		if loc == nil {
			a.parts = append(a.parts, part{literal: rest})
			break
		}
		if loc[0] > 0 {
			a.parts = append(a.parts, part{literal: rest[:loc[0]]})
		}
		name := rest[loc[2]:loc[3]]
		if !slices.Contains(Variables(), name) {
			return Arg{}, fmt.Errorf("{{.%s}} is no variable (variables: %s)", name, strings.Join(Variables(), ", "))
		}
		a.parts = append(a.parts, part{name: name})
		rest = rest[loc[1]:]
	}
	if strings.Contains(s, "}}") && len(a.Vars()) == 0 {
		return Arg{}, fmt.Errorf("%q: }} without {{.Variable}}", s)
	}
	return a, nil
}

// MustArgs parses arguments known to be right (tests, examples).
func MustArgs(texts ...string) []Arg {
	out := make([]Arg, len(texts))
	for i, t := range texts {
		a, err := ParseArg(t)
		if err != nil {
			panic(err)
		}
		out[i] = a
	}
	return out
}

// Text is the argument as written.
func (a Arg) Text() string { return a.text }

// Vars lists the variables the argument uses, in order, once each.
func (a Arg) Vars() []string {
	var out []string
	for _, p := range a.parts {
		if p.name != "" && !slices.Contains(out, p.name) {
			out = append(out, p.name)
		}
	}
	return out
}

// ShapeError is a value that may not be passed: the variable, and why.
type ShapeError struct {
	Var string
	Err error
}

func (e *ShapeError) Error() string { return fmt.Sprintf("{{.%s}} %v", e.Var, e.Err) }

// Expand is the argument vector for one resource: the command, then each
// argument with its variables replaced. A value that is missing or not of
// its variable's shape is a *ShapeError, and nothing runs; so is a
// variable that would reach a runner as the command resolves now (an
// *ArgError: PATH or a link may have changed since the config was read).
// Plugin.Job makes a Job of it that is checked once more as it starts.
func (p Plugin) Expand(v Vars) ([]string, error) {
	argv := []string{p.Command}
	for _, a := range p.Args {
		var b strings.Builder
		for _, pt := range a.parts {
			if pt.name == "" {
				b.WriteString(pt.literal)
				continue
			}
			value := v[pt.name]
			if err := check(pt.name, value); err != nil {
				return nil, &ShapeError{Var: pt.name, Err: err}
			}
			b.WriteString(value)
		}
		argv = append(argv, b.String())
	}
	if err := p.reachesRunner(resolve(p.Command)); err != nil {
		return nil, err
	}
	return argv, nil
}

// Job is the run of p on one resource (on names it): Expand's vector, with
// p kept so that the program is checked again as the job starts.
func (p Plugin) Job(on string, v Vars) (Job, error) {
	argv, err := p.Expand(v)
	if err != nil {
		return Job{}, err
	}
	return Job{On: on, Argv: argv, from: &p}, nil
}
