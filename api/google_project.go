package api

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The proto (iam/v2/account_associations.proto, AccountAssociation.Google)
// requires a project id and number and says no more; their shapes are
// Google Cloud's own. A project id is 6 to 30 lower-case letters, digits
// and hyphens, starting with a letter and not ending with a hyphen
// (Resource Manager's "Creating and managing projects"). A project number
// is what Resource Manager gives it: a positive 64-bit integer (its
// projectNumber is int64), written in decimal without leading zeros.
const (
	GoogleProjectIDMin     = 6
	GoogleProjectIDMax     = 30
	GoogleProjectNumberMax = 19 // digits of the largest int64
)

// CheckGoogleProjectID says which of Google Cloud's rules for a project id
// s breaks, nil if none.
func CheckGoogleProjectID(s string) error {
	switch n := utf8.RuneCountInString(s); {
	case n == 0:
		return errors.New("is required: a project id is 6 to 30 lower-case letters, digits or hyphens")
	case n < GoogleProjectIDMin || n > GoogleProjectIDMax:
		return fmt.Errorf("is %d characters: a project id has %d to %d", n, GoogleProjectIDMin, GoogleProjectIDMax)
	}
	if i := strings.IndexFunc(s, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') }); i >= 0 {
		c := []rune(s[i:])[0]
		if c >= 'A' && c <= 'Z' {
			return fmt.Errorf("holds the capital %q: a project id is lower-case letters, digits and hyphens", c)
		}
		return fmt.Errorf("holds %q: a project id is lower-case letters, digits and hyphens only", c)
	}
	if c := s[0]; c < 'a' || c > 'z' {
		return fmt.Errorf("starts with %q: a project id starts with a letter", c)
	}
	if strings.HasSuffix(s, "-") {
		return errors.New("ends with a hyphen: a project id ends with a letter or digit")
	}
	return nil
}

// CheckGoogleProjectNumber says which of Google Cloud's rules for a
// project number s breaks, nil if none.
func CheckGoogleProjectNumber(s string) error {
	if s == "" {
		return errors.New("is required: a project number is digits, as Google Cloud gives it")
	}
	if i := strings.IndexFunc(s, func(r rune) bool { return r < '0' || r > '9' }); i >= 0 {
		return fmt.Errorf("holds %q: a project number is digits only", []rune(s[i:])[0])
	}
	if s[0] == '0' {
		if strings.Trim(s, "0") == "" {
			return errors.New("is 0: a project number is a positive number")
		}
		return errors.New("starts with 0: a project number has no leading zeros")
	}
	if len(s) > GoogleProjectNumberMax {
		return fmt.Errorf("is %d digits: a project number has at most %d (a 64-bit number)", len(s), GoogleProjectNumberMax)
	}
	if _, err := strconv.ParseInt(s, 10, 64); err != nil {
		return fmt.Errorf("is past %d: a project number is a 64-bit number", int64(1<<63-1))
	}
	return nil
}
