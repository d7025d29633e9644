package cli

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"canopy/resource"
	"canopy/text"
	"canopy/views"
)

// A collection is how canopy list walks and prints the collection of one
// kind, as the UI's table of it shows it (its columns and first order are
// package columns', which the UI's tables read too). What canopy list
// takes for it (flags, whether an organization is needed), and what its
// usage says, is the kind's descriptor in package resource (or canopy
// list's own, for what is no resource: kinds).
type collection func(r listRequest, ctx context.Context, common views.Common) error

// collections are canopy list's collections, by the Collection of their
// descriptor: every descriptor that has one has one here, and nothing else
// (TestEveryCollectionIsListed).
func collections() map[string]collection {
	return map[string]collection{
		"repos":         listRequest.repos,
		"tags":          listRequest.tags,
		"groups":        listRequest.groups,
		"identities":    listRequest.identities,
		"bindings":      listRequest.bindings,
		"roles":         listRequest.roles,
		"access":        listRequest.access, // canopy list's own (accessKind)
		"advisories":    listRequest.advisories,
		"subscriptions": listRequest.subscriptions,
		"libraries":     listRequest.libraries,
		"versions":      listRequest.versions,
		"providers":     listRequest.providers,
		"invites":       listRequest.invites,
		"mappings":      listRequest.mappings,
		"associations":  listRequest.associations,
		"terms":         listRequest.terms,
		// The security advisory service's, for every caller alike.
		"documents":       listRequest.documents,
		"vulnerabilities": listRequest.vulnerabilities,
	}
}

// listed are the kinds canopy list has a collection of, in the order of
// their descriptors.
func listed() []resource.Kind {
	return slices.DeleteFunc(kinds(), func(k resource.Kind) bool { return k.Collection == "" })
}

// listNames are the names canopy list takes, for its usage, errors and
// completion.
func listNames() []string {
	var names []string
	for _, k := range listed() {
		names = append(names, k.Collection)
	}
	return names
}

// collectionNamed is the kind and the collection a word names. A word that
// names no collection is a usage mistake that says what the user meant
// when it can: a kind that has none says why (its Unlisted reason), and
// another name of a kind that has one names it ("folders" is groups).
func collectionNamed(word string) (resource.Kind, collection, error) {
	if k, ok := byCollection(word); ok {
		if c, ok := collections()[word]; ok {
			return k, c, nil
		}
	}
	for _, k := range kinds() {
		switch {
		case !namedBy(k, word) || k.Collection == word: // not meant, or meant but not implemented
		case k.Collection == "" && k.Unlisted != "":
			return k, nil, fmt.Errorf("no collection %q: %s", word, k.Unlisted)
		case k.Collection != "":
			return k, nil, fmt.Errorf("no collection %q: canopy list %s lists %s", word, k.Collection, k.Nouns)
		}
	}
	return resource.Kind{}, nil, fmt.Errorf("no collection %q (want one of %s)", word, strings.Join(listNames(), ", "))
}

// namedBy reports whether a user typing word means kind k: its nouns, its
// `:` command or an alias, its plugin name, in any case, spaces or not
// ("identityproviders", "Ecosystems").
func namedBy(k resource.Kind, word string) bool {
	names := append([]string{k.Noun, k.Nouns, k.Command, k.Plugin}, k.Aliases...)
	squeeze := func(s string) string { return strings.ReplaceAll(strings.ReplaceAll(s, " ", ""), "-", "") }
	for _, n := range names {
		if n != "" && strings.EqualFold(squeeze(n), squeeze(word)) {
			return true
		}
	}
	return false
}

// scopedFlags are the flags only some collections take, in the order they
// are checked, with whether each was given.
func (f *listFlags) scopedFlags() []struct {
	name  string
	given bool
} {
	return []struct {
		name  string
		given bool
	}{{"deprecated", *f.deprecated}, {"repo", *f.repo != ""}, {"artifact", *f.artifact != ""}, {"ecosystem", *f.ecosystem != ""},
		{"identity", *f.identity != ""}, {"folder", *f.folder != ""}, {"role", *f.role != ""}}
}

// takers are the collections that take a scoped flag, as a sentence says
// them ("tags and advisories").
func takers(flag string) string {
	var names []string
	for _, k := range listed() {
		if slices.Contains(k.Flags, flag) {
			names = append(names, k.Collection)
		}
	}
	return and(names)
}

// and joins words as a sentence does: "a", "a and b", "a, b and c".
func and(words []string) string { return text.And(words) }

// listSummary is what the usage of canopy says canopy list does: every
// collection named, in lines that fit beside the command.
func listSummary() string {
	names := listNames()
	text := "print a collection as a table or JSON: " + strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
	return strings.Join(wrap(text, 48), "\n")
}

// collectionUsage is the part of canopy list's usage that says what each
// collection is (its descriptor's Says, else its Nouns, and what canopy
// list adds), then each kind that has none and why.
func collectionUsage() string {
	const width, col = 76, 17 // the text of each starts at col, after its name
	var b strings.Builder
	row := func(name, text string) {
		if len(name) > col-4 {
			// A name too long for the column has its text on the lines
			// below, at the column.
			fmt.Fprintf(&b, "  %s\n", name)
			name = ""
		}
		for i, line := range wrap(text, width-col) {
			if i > 0 {
				name = ""
			}
			fmt.Fprintf(&b, "  %-*s%s\n", col-2, name, line)
		}
	}
	for _, k := range listed() {
		says := k.Says
		if says == "" {
			says = k.Nouns
		}
		row(k.Collection, says+k.Lists)
	}
	for _, k := range kinds() {
		if k.Collection == "" && k.Unlisted != "" {
			row(k.Nouns, "none: "+k.Unlisted)
		}
	}
	return b.String()
}

// wrap breaks text into lines of at most width bytes at spaces (a longer
// word stays whole on a line of its own).
func wrap(text string, width int) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(text) {
		switch {
		case line == "":
			line = word
		case len(line)+1+len(word) > width:
			lines = append(lines, line)
			line = word
		default:
			line += " " + word
		}
	}
	return append(lines, line)
}
