package ui

import (
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The rules the server checks (api/emulator/validate.go, after API.md),
// checked again as the user types so that a value the server would refuse
// is marked before it is sent.
var (
	identityNameRE = regexp.MustCompile(`^[a-z0-9 ._-]{3,63}$`)
	repoNameRE     = regexp.MustCompile(`^[a-z0-9][a-z0-9._/-]{0,127}$`)
	tagNameRE      = regexp.MustCompile(`^[a-zA-Z0-9_][a-zA-Z0-9._-]{0,127}$`)
	digestRE       = regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)
)

// groupNameMin and groupNameMax bound a folder's name (the service says
// 3 to 63 characters).
const (
	groupNameMin = 3
	groupNameMax = 63
)

// descriptionMax is the longest description the server takes.
const descriptionMax = 512

// The longest names and digests the patterns above take: a field refuses
// a key past them as it is typed.
const (
	identityNameMax = 63
	repoNameMax     = 128
	tagNameMax      = 128
	digestLen       = len("sha256:") + 64
)

// matching requires a value matching re; every such field is required, and
// an empty one says so as the other forms do, not with the whole pattern.
func matching(re *regexp.Regexp, what string) func(string) error {
	return func(s string) error {
		if s == "" {
			return errors.New("required")
		}
		if !re.MatchString(s) {
			return fmt.Errorf("%s (%s)", what, re.String())
		}
		return nil
	}
}

// required refuses a blank value.
func required(s string) error {
	if strings.TrimSpace(s) == "" {
		return errors.New("required")
	}
	return nil
}

// description is API.md's description pattern: at most 512 printable
// characters.
func description(s string) error {
	if n := utf8.RuneCountInString(s); n > descriptionMax {
		return fmt.Errorf("at most %d characters (%d)", descriptionMax, n)
	}
	for _, r := range s {
		if !unicode.IsPrint(r) {
			return fmt.Errorf("printable characters only (%U)", r)
		}
	}
	return nil
}

// groupName is a folder's name: 3 to 63 printable characters.
func groupName(s string) error {
	if err := required(s); err != nil {
		return err
	}
	switch n := utf8.RuneCountInString(s); {
	case n < groupNameMin:
		return fmt.Errorf("at least %d characters (%d)", groupNameMin, n)
	case n > groupNameMax:
		return fmt.Errorf("at most %d characters (%d)", groupNameMax, n)
	}
	return description(s)
}

// pattern requires a regular expression the server can compile (it
// matches token claims with it).
func pattern(s string) error {
	if err := required(s); err != nil {
		return err
	}
	if _, err := regexp.Compile(s); err != nil {
		return fmt.Errorf("not a regular expression: %v", strings.TrimPrefix(err.Error(), "error parsing regexp: "))
	}
	return nil
}

// httpsURL requires an https URL with a host (what: what it is for).
func httpsURL(what string) func(string) error {
	return func(s string) error {
		if s == "" {
			return errors.New("required")
		}
		u, err := url.Parse(s)
		if err != nil || u.Scheme != "https" || u.Host == "" || strings.ContainsAny(s, " \t") {
			return fmt.Errorf("%s: an https:// URL with a host", what)
		}
		return nil
	}
}

var (
	issuerURL = httpsURL("the token issuer's URL")
	sinkURL   = httpsURL("where events go")
)
