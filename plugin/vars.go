package plugin

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
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
		{"OrgUID", "the organization's uid", matching(uid, "a uid")},
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

// kinds are the kinds a plugin may name, each with the variables it gives
// (beyond UID, Name, Org and OrgUID, which every kind gives).
var kinds = []struct {
	kind, plural string
	gives        []string
}{
	{"tag", "tags", []string{"Ref", "Image", "Repo", "Tag", "Digest"}},
	{"repo", "repos", []string{"Image", "Repo"}},
	{"folder", "folders", nil},
	{"identity", "identities", []string{"Email"}},
	{"role", "roles", nil},
	{"binding", "role bindings", nil},
	{"advisory", "advisories", []string{"Advisory", "Aliases", "Package"}},
	{"subscription", "subscriptions", nil},
	{"library", "libraries", nil},
	{"provider", "identity providers", nil},
	{"invite", "invites", nil},
}

// everyKind's variables.
var everyKind = []string{"UID", "Name", "Org", "OrgUID"}

// Kinds lists the kinds a plugin may name.
func Kinds() []string {
	out := make([]string, len(kinds))
	for i, k := range kinds {
		out[i] = k.kind
	}
	return out
}

// Gives lists the variables a kind gives, nil for no kind.
func Gives(kind string) []string {
	for _, k := range kinds {
		if k.kind == kind {
			return append(slices.Clone(everyKind), k.gives...)
		}
	}
	return nil
}

// Plural is a kind's plural: "identities".
func Plural(kind string) string {
	for _, k := range kinds {
		if k.kind == kind {
			return k.plural
		}
	}
	return kind + "s"
}

// maxValue bounds a value passed to a program.
const maxValue = 2048

// checkValue is what every value must be: UTF-8 without control
// characters, not empty, not too long, and not a flag.
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
	}
	for _, r := range s {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || unicode.Is(unicode.Cf, r) {
			return fmt.Errorf("holds a control character (%U)", r)
		}
	}
	return nil
}

// nameMarks are the marks a name may hold beside letters and digits: none
// of them quotes, escapes, substitutes, separates or ends anything in a
// shell or a programming language, so a name passed inside a program's
// code (python -c "…{{.Name}}…") cannot break out of its string, and, being
// one word, is never a command line (git -c core.pager={{.Name}}).
const nameMarks = "._-@+:,="

// checkText is a name: one word of letters, digits and nameMarks.
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
	}
	return nil
}

var (
	repoName    = regexp.MustCompile(`^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*$`)
	tagName     = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$`)
	digest      = regexp.MustCompile(`^[a-z0-9]+(?:[+._-][a-z0-9]+)*:[a-fA-F0-9]{32,}$`)
	uid         = regexp.MustCompile(`^[0-9a-f]+(?:/[0-9a-f]+)*$`)
	advisoryID  = regexp.MustCompile(`^[A-Z][A-Z0-9]*-[A-Za-z0-9][A-Za-z0-9._-]*$`)
	alias       = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9]*-[A-Za-z0-9][A-Za-z0-9._:-]*$`)
	packageName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._+@/:~-]*$`)
	email       = regexp.MustCompile(`^[^\s@,;'"<>()\\-][^\s@,;'"<>()\\]*@[A-Za-z0-9.-]+$`)
	host        = regexp.MustCompile(`^[a-z0-9]+(?:[.-][a-z0-9]+)*(?::[0-9]+)?$`)
)

// matching checks a value against a pattern, named for the error.
func matching(re *regexp.Regexp, what string) func(string) error {
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
