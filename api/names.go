package api

import (
	"canopy/lazyregexp"
	"net/url"
	"unicode/utf8"
)

// The service's rules for names and other typed values, in one place: the
// emulator refuses what breaks them, forms check them as the user types,
// filters ask whether a typed pattern can be sent as an exact name, and the
// clipboard checks what it copies against them.

// Rule is one of the service's rules for a value.
type Rule int

const (
	// RepoName is a registry repository's name: lower-case letters,
	// digits and . _ - /, starting with a letter or digit, at most 128.
	RepoName Rule = iota
	// OrgName is a name that is one segment of a repository path (an
	// organization's, in a pull reference): RepoName without '/'.
	OrgName
	// TagName is a tag's name: letters, digits and . _ -, not starting
	// with . or -, at most 128.
	TagName
	// Digest is an image digest: sha256: and 64 lower-case hex digits.
	Digest
	// IdentityName is an identity's name: 3 to 63 of a-z 0-9 space . _ -.
	IdentityName
	// AdvisoryID is an advisory's id, CGA-xxxx-xxxx-xxxx.
	AdvisoryID
)

// rules holds each Rule's pattern and its bounds; it is never written.
// pattern is the rule as messages show it. match is the same rule with
// the length left to min and max: a counted repetition ({0,127}) compiles
// to a program as long as its count, which took a millisecond of every
// canopy's start (issue 39); a class repeated and a length compared keep
// the same strings.
var rules = [...]struct {
	pattern  string
	match    *lazyregexp.Regexp
	min, max int
}{
	RepoName:     {`^[a-z0-9][a-z0-9._/-]{0,127}$`, lazyregexp.New(`^[a-z0-9][a-z0-9._/-]*$`), 1, 128},
	OrgName:      {`^[a-z0-9][a-z0-9._-]{0,127}$`, lazyregexp.New(`^[a-z0-9][a-z0-9._-]*$`), 1, 128},
	TagName:      {`^[a-zA-Z0-9_][a-zA-Z0-9._-]{0,127}$`, lazyregexp.New(`^[a-zA-Z0-9_][a-zA-Z0-9._-]*$`), 1, 128},
	Digest:       {`^sha256:[0-9a-f]{64}$`, lazyregexp.New(`^sha256:[0-9a-f]*$`), len("sha256:") + 64, len("sha256:") + 64},
	IdentityName: {`^[a-z0-9 ._-]{3,63}$`, lazyregexp.New(`^[a-z0-9 ._-]*$`), 3, 63},
	AdvisoryID: {`^CGA-[a-z0-9]{4}-[a-z0-9]{4}-[a-z0-9]{4}$`, lazyregexp.New(`^CGA-[a-z0-9]{4}-[a-z0-9]{4}-[a-z0-9]{4}$`),
		len("CGA-xxxx-xxxx-xxxx"), len("CGA-xxxx-xxxx-xxxx")},
}

// Match reports whether s keeps the rule. Every rule's characters are
// ASCII, so a match's length in bytes is its length in characters.
func (r Rule) Match(s string) bool {
	rule := rules[r]
	return len(s) >= rule.min && len(s) <= rule.max && rule.match.MatchString(s)
}

// Max is the most characters a value keeping the rule has: a form refuses
// a key past it as it is typed.
func (r Rule) Max() int { return rules[r].max }

// Pattern is the rule as a regular expression, for a message.
func (r Rule) Pattern() string { return rules[r].pattern }

// Bounds the service puts on folder names and descriptions (any printable
// characters).
const (
	GroupNameMin   = 3
	GroupNameMax   = 63
	DescriptionMax = 512
)

// Chars is how many characters s has, as the bounds above count them.
func Chars(s string) int { return utf8.RuneCountInString(s) }

// IsHTTPSURL reports whether s is an https URL with a host: what the
// service takes for a subscription's sink and a token issuer.
func IsHTTPSURL(s string) bool {
	u, err := url.Parse(s)
	return s != "" && err == nil && u.Scheme == "https" && u.Host != ""
}
