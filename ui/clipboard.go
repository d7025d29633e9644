package ui

// What goes to the clipboard is checked by the shell, which knows the
// service's name rules (package api): a screen asks for a copy
// (views.Copy), and the shell refuses it, saying why, when it does not
// have its shape.

import (
	"fmt"
	"strings"

	"canopy/api"
	"canopy/lazyregexp"
	"canopy/safe"
	"canopy/views"
)

// The shapes the registry and the API give these things. A server that
// sends anything else (a tag name ending a bracketed paste and running a
// command) gets nothing onto the clipboard.
var (
	// copyUIDShape: slash-separated segments of letters, digits, '.', '_',
	// ':' and '-' (the API's own are hex: 40 digits, then /16 digits per
	// level; a library's is its coordinates, maven/group:artifact).
	copyUIDShape = lazyregexp.New(`^[0-9A-Za-z._:-]+(/[0-9A-Za-z._:-]+)*$`)
)

// The other shapes are the service's name rules: a repository name
// (nested names included), an organization name (one such segment), a
// tag name, a digest.

// checkCopy says why text (a what) must not go to the clipboard, nil when
// it may. Any control, format, bidi or other invisible character is
// refused, whatever the kind (a multi-line copy may hold newlines between
// its lines); uids, digests, pull references and repo:tag@digest lines
// must also have their shape, checked part by part so the refusal names
// the part.
func checkCopy(text, what string) error {
	switch {
	case what == views.CopyUID:
		return part("uid", text, copyUIDShape.MatchString)
	case what == views.CopyDigest:
		return part("digest", text, api.Digest.Match)
	case what == views.CopyPullRef:
		return checkRef(text, true)
	case strings.HasSuffix(what, views.CopyRefLines):
		for _, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
			if err := checkRef(l, false); err != nil {
				return err
			}
		}
		return nil
	}
	for _, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		if safe.String(l) != l {
			return fmt.Errorf("the %s holds control characters", what)
		}
	}
	return nil
}

// part checks one part of what is copied: no unsafe character, then its
// shape (match).
func part(name, value string, match func(string) bool) error {
	if safe.String(value) != value {
		return fmt.Errorf("the %s holds control characters", name)
	}
	if !match(value) {
		if len(value) > 80 {
			return fmt.Errorf("the %s %q… is not a valid %s", name, value[:60], name)
		}
		return fmt.Errorf("the %s %q is not a valid %s", name, value, name)
	}
	return nil
}

// checkRef checks a pull reference, host/org/repo:tag@digest (withOrg), or
// a repo:tag@digest line, part by part: digest, tag, repo, organization.
func checkRef(ref string, withOrg bool) error {
	rest, digest, _ := cutLast(ref, "@")
	rest, tag, _ := cutLast(rest, ":")
	repo := rest
	if withOrg {
		_, rest, _ = strings.Cut(rest, "/") // the registry host is canopy's own
		org := ""
		org, repo, _ = strings.Cut(rest, "/")
		if err := part("organization name", org, api.OrgName.Match); err != nil {
			return err
		}
	}
	if err := part("repo name", repo, api.RepoName.Match); err != nil {
		return err
	}
	if err := part("tag name", tag, api.TagName.Match); err != nil {
		return err
	}
	return part("digest", digest, api.Digest.Match)
}

func cutLast(s, sep string) (before, after string, found bool) {
	i := strings.LastIndex(s, sep)
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+len(sep):], true
}
