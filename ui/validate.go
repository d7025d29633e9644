package ui

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"unicode"

	"canopy/api"
)

// The rules the server checks (api/names.go), checked again as the user
// types so that a value the server would refuse is marked before it is
// sent; a field also refuses a key past the rule's longest value.

// matching requires a value keeping rule (what says it in words); every
// such field is required, and an empty one says so as the other forms do,
// not with the whole pattern.
func matching(rule api.Rule, what string) func(string) error {
	return func(s string) error {
		if s == "" {
			return errors.New("required")
		}
		if !rule.Match(s) {
			return fmt.Errorf("%s (%s)", what, rule.Pattern())
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
	if n := api.Chars(s); n > api.DescriptionMax {
		return fmt.Errorf("at most %d characters (%d)", api.DescriptionMax, n)
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
	switch n := api.Chars(s); {
	case n < api.GroupNameMin:
		return fmt.Errorf("at least %d characters (%d)", api.GroupNameMin, n)
	case n > api.GroupNameMax:
		return fmt.Errorf("at most %d characters (%d)", api.GroupNameMax, n)
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
		if !api.IsHTTPSURL(s) || strings.ContainsAny(s, " \t") {
			return fmt.Errorf("%s: an https:// URL with a host", what)
		}
		return nil
	}
}

var (
	issuerURL = httpsURL("the token issuer's URL")
	sinkURL   = httpsURL("where events go")
)
