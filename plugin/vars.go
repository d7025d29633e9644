package plugin

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"canopy/lazyregexp"
	"canopy/resource"
)

// Vars are the values of one resource a plugin's arguments may use, by
// variable name ("Ref"). The shell fills them from what it shows; Expand
// checks each one's shape before it is passed.
type Vars map[string]string

// A variable is one value a template may name: what it is, and the shape a
// value must have to be passed.
type variable struct {
	name, says string
	shape      func(string) error
}

// variables are every variable, in the order the help and errors list them.
func variables() []variable {
	return []variable{
		{"Ref", "a tag's pull reference: cgr.dev/<org>/<repo>:<tag>@<digest>", checkRef},
		{"Image", "a repo's image name: cgr.dev/<org>/<repo>", checkImage},
		{"Repo", "the repo's name", matching(repoName, "a repository name")},
		{"Tag", "the tag's name", matching(tagName, "a tag name")},
		{"Digest", "the image digest of a tag: sha256:…", matching(digest, "a digest (algorithm:hex)")},
		{"UID", "the resource's uid", matching(uid, "a uid")},
		{"Name", "the resource's name", checkText},
		{"Org", "the organization's name", checkText},
		{"OrgUID", "the organization's uid", matching(orgUID, "an organization's uid")},
		{"Advisory", "an advisory's id: CGA-…", matching(advisoryID, "an advisory id")},
		{"Aliases", "an advisory's aliases (CVE-…, GHSA-…), joined by commas", checkAliases},
		{"Package", "the package an advisory is about", matching(packageName, "a package name")},
		{"Email", "an identity's email", matching(email, "an email address")},
	}
}

// Variables lists the variable names a template may use.
func Variables() []string {
	var out []string
	for _, v := range variables() {
		out = append(out, v.name)
	}
	return out
}

// Describe is what a variable is, "" for no variable.
func Describe(name string) string {
	for _, v := range variables() {
		if v.name == name {
			return v.says
		}
	}
	return ""
}

// everyKind's variables: every kind gives them, beyond what its
// descriptor says (resource.Kind.Gives).
func everyKind() []string { return []string{"UID", "Name", "Org", "OrgUID"} }

// Kinds lists the kinds a plugin may name.
func Kinds() []string {
	var out []string
	for _, k := range resource.Kinds() {
		if k.Plugin != "" {
			out = append(out, k.Plugin)
		}
	}
	return out
}

// Gives lists the variables a kind gives, nil for no kind.
func Gives(kind string) []string {
	k, ok := resource.ByPlugin(kind)
	if !ok {
		return nil
	}
	every := everyKind()
	if k.NoName != "" {
		every = slices.DeleteFunc(every, func(v string) bool { return v == "Name" })
	}
	return append(every, k.Gives...)
}

// Plural is a kind's plural: "identities".
func Plural(kind string) string {
	if k, ok := resource.ByPlugin(kind); ok {
		return k.Nouns
	}
	return kind + "s"
}

// maxValue bounds a value passed to a program.
const maxValue = 2048

// checkValue is what every value must be: UTF-8 without control
// characters, not empty, not too long, and not read as more than a value
// by the program it is passed to: not a flag (-x), not a command or
// option in its other spelling (vim, less and more run +cmd; xterm takes
// +option), not a response file (gcc, clang, javac and java read their
// arguments from @file).
func checkValue(s string) error {
	switch {
	case s == "":
		return fmt.Errorf("is empty")
	case len(s) > maxValue:
		return fmt.Errorf("is longer than %d bytes", maxValue)
	case !utf8.ValidString(s):
		return fmt.Errorf("is not valid UTF-8")
	case strings.HasPrefix(s, "-"):
		return fmt.Errorf("starts with '-': a program would read it as a flag")
	case strings.HasPrefix(s, "+"):
		return fmt.Errorf("starts with '+': a program may read it as a command or an option (vim +cmd)")
	case strings.HasPrefix(s, "@"):
		return fmt.Errorf("starts with '@': a program may read its arguments from the file it names (gcc @file)")
	}
	for _, r := range s {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || unicode.Is(unicode.Cf, r) {
			return fmt.Errorf("holds a control character (%U)", r)
		}
	}
	return nil
}

// nameMarks are the marks a name may hold beside letters and digits.
// None quotes, escapes, substitutes, globs, separates or ends anything in
// a shell (sh, bash, zsh, fish, csh) or a programming language, so a name
// passed inside a program's code (python -c "…{{.Name}}…") cannot break
// out of its string and, being one word, is never a command line where a
// program runs one. '=' and ':' are kept: in a word that is not a command
// a shell reads them as letters; they matter only where a name stands at a
// command's place or follows a tilde, and a name is never a tilde and
// never a command (runners.go refuses the programs that would make it one:
// git -c, make VAR=…).
const nameMarks = "._-@+:,="

// checkText is a name: one word of letters, digits and nameMarks, starting
// with a letter, a digit or '_': a leading '.' is a hidden file or a
// parent directory (..), a leading '=' is a command's path in zsh (=ls),
// and '-', '+' and '@' are options (checkValue). Letters are any
// script's, but not the spacing modifier letters (U+02B0–U+02FF): a name
// holds none, and Windows' best-fit code pages turn several into quotes,
// a backquote or a caret (ʺ→", ʼ→', ˋ→`, ˆ→^) for a program that reads
// its arguments in one. Other letters are a display matter (homoglyphs),
// shown made safe, not a shell one.
func checkText(s string) error {
	if err := checkValue(s); err != nil {
		return err
	}
	for _, r := range s {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune(nameMarks, r) {
			what := fmt.Sprintf("%q", r)
			if r == ' ' {
				what = "a space"
			}
			return fmt.Errorf("holds %s: a name passed to a program is one word of letters, digits and %s", what, nameMarks)
		}
		if r >= 0x02B0 && r <= 0x02FF {
			return fmt.Errorf("holds %q, a modifier letter some programs read as a quote or a caret", r)
		}
	}
	if r, _ := utf8.DecodeRuneInString(s); r != '_' && !unicode.IsLetter(r) && !unicode.IsDigit(r) {
		return fmt.Errorf("starts with %q: a name passed to a program starts with a letter, a digit or _", r)
	}
	return nil
}

// The shapes of the other variables. None admits a shell's marks (quotes,
// $, `, \, globs, braces, brackets, |, &, ;, <, >, !, #, ~, white space):
// beside letters and digits they hold only . _ - / : @ + , % where their
// names need them, and each starts with a letter, a digit or '_'.
//
// A package's name: libstdc++, py3-urllib3, github.com/x/y, a Maven
// group:artifact, name@version. No '~': names do not hold one (Debian and
// RPM versions do: 1.0~rc1), a shell reads it as a home directory at a
// word's start or after ':' in an assignment, and zsh with extendedglob as
// "except" anywhere in a word (a~b).
//
// An email: ASCII letters, digits and . _ % + - before one '@' (no dot
// first, last or twice; '%' is an old relay mark that no shell reads but
// cmd.exe, a program runners.go refuses), then a host name: labels of
// letters, digits and inner hyphens joined by dots. No quoted local part,
// no address literal, no internationalized address: an identity's email is
// none of those, and each would let a quote, a bracket or a space through.
var (
	repoName = lazyregexp.New(`^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*$`)
	tagName  = atMost(128, lazyregexp.New(`^[A-Za-z0-9_][A-Za-z0-9_.-]*$`))
	digest   = lazyregexp.New(`^[a-z0-9]+(?:[+._-][a-z0-9]+)*:[a-fA-F0-9]{32,}$`)
	// A uid: hex for what the platform makes, but a library's is its
	// ecosystem and coordinates (maven/ch.qos.logback:logback-classic).
	uid         = lazyregexp.New(`^[0-9A-Za-z_][0-9A-Za-z._:-]*(?:/[0-9A-Za-z_][0-9A-Za-z._:-]*)*$`)
	orgUID      = lazyregexp.New(`^[0-9a-f]+$`)
	advisoryID  = lazyregexp.New(`^[A-Z][A-Z0-9]*-[A-Za-z0-9][A-Za-z0-9._-]*$`)
	alias       = lazyregexp.New(`^[A-Za-z][A-Za-z0-9]*-[A-Za-z0-9][A-Za-z0-9._:-]*$`)
	packageName = lazyregexp.New(`^[A-Za-z0-9][A-Za-z0-9._+@/:-]*$`)
	email       = emailShape{lazyregexp.New(`^[A-Za-z0-9_][A-Za-z0-9_%+-]*(?:\.[A-Za-z0-9_%+-]+)*@` + hostLabel + `(?:\.` + hostLabel + `)*$`)}
	host        = lazyregexp.New(`^[a-z0-9]+(?:[.-][a-z0-9]+)*(?::[0-9]+)?$`)
)

// hostLabel is one label of a host name: it neither starts nor ends with
// '-'; emailShape bounds its length (maxHostLabel).
const hostLabel = `[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?`

// maxHostLabel is the most characters a label of a host name has.
const maxHostLabel = 63

// The lengths in these shapes are compared apart from their patterns: a
// counted repetition ({0,127}) compiles to a program as long as its
// count, which took milliseconds of every canopy's start (issue 39). The
// patterns' characters are ASCII, so a match's bytes are its characters.

// shape is what a value is matched against: a pattern, or a pattern and
// a length.
type shape interface{ MatchString(string) bool }

// lengthBound is a pattern whose matches have at most max characters.
type lengthBound struct {
	max int
	re  shape
}

func atMost(max int, re shape) lengthBound { return lengthBound{max: max, re: re} }

func (b lengthBound) MatchString(s string) bool { return len(s) <= b.max && b.re.MatchString(s) }

// emailShape is an email's pattern, each label of its host at most
// maxHostLabel characters.
type emailShape struct{ re shape }

func (e emailShape) MatchString(s string) bool {
	if !e.re.MatchString(s) {
		return false
	}
	_, domain, _ := strings.Cut(s, "@")
	for label := range strings.SplitSeq(domain, ".") {
		if len(label) > maxHostLabel {
			return false
		}
	}
	return true
}

// matching checks a value against a shape, named for the error.
func matching(re shape, what string) func(string) error {
	return func(s string) error {
		if err := checkValue(s); err != nil {
			return err
		}
		if !re.MatchString(s) {
			return fmt.Errorf("is not %s", what)
		}
		return nil
	}
}

// checkImage checks host/org/repo: an image name a registry client takes.
func checkImage(s string) error {
	if err := checkValue(s); err != nil {
		return err
	}
	h, path, ok := strings.Cut(s, "/")
	if !ok || !host.MatchString(h) || !repoName.MatchString(path) {
		return fmt.Errorf("is not an image name (host/path, lower case)")
	}
	return nil
}

// checkRef checks image:tag@digest.
func checkRef(s string) error {
	if err := checkValue(s); err != nil {
		return err
	}
	rest, dig, ok := strings.Cut(s, "@")
	i := strings.LastIndexByte(rest, ':')
	if !ok || i < 0 || checkImage(rest[:i]) != nil || !tagName.MatchString(rest[i+1:]) || !digest.MatchString(dig) {
		return fmt.Errorf("is not a pull reference (image:tag@digest)")
	}
	return nil
}

// checkAliases checks a comma-joined list of aliases.
func checkAliases(s string) error {
	if err := checkValue(s); err != nil {
		return err
	}
	for _, a := range strings.Split(s, ",") {
		if !alias.MatchString(a) {
			return fmt.Errorf("holds %q, which is no advisory alias", a)
		}
	}
	return nil
}

// check checks the value of variable name.
func check(name, value string) error {
	for _, v := range variables() {
		if v.name == name {
			return v.shape(value)
		}
	}
	return fmt.Errorf("is no variable")
}
