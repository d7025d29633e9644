package filter

import (
	"strings"
	"unicode/utf8"
)

// Kind says how a Query's pattern is applied.
type Kind int

const (
	// Fuzzy keeps the rows the pattern fuzzy-matches (github.com/sahilm/fuzzy
	// semantics), best match first.
	Fuzzy Kind = iota
	// Inverse keeps the rows the pattern does NOT fuzzy-match, in their
	// original order. Typed as "!pattern".
	Inverse
	// Regexp keeps the rows a Go regular expression matches, in their
	// original order. Typed as "re:expr"; matching is case-insensitive
	// unless the expression turns it off with (?-i).
	Regexp
)

// Prefixes that select a Kind when a query is typed, k9s style.
const (
	inversePrefix = "!"
	regexpPrefix  = "re:"
)

// Query is a parsed filter query. It is comparable, so a UI can drop a
// stale Result by comparing Result.Query with its current query.
type Query struct {
	Kind    Kind
	Pattern string // the text after the prefix, used as is (spaces count)
}

// ParseQuery parses what the user typed: "!text" is an Inverse query,
// "re:expr" a Regexp query, anything else a Fuzzy query. There is no
// escaping: a fuzzy pattern cannot start with "!" or "re:".
func ParseQuery(s string) Query {
	switch {
	case strings.HasPrefix(s, inversePrefix):
		return Query{Kind: Inverse, Pattern: s[len(inversePrefix):]}
	case strings.HasPrefix(s, regexpPrefix):
		return Query{Kind: Regexp, Pattern: s[len(regexpPrefix):]}
	default:
		return Query{Kind: Fuzzy, Pattern: s}
	}
}

// String returns the query as the user would type it; ParseQuery(q.String())
// == q for every query ParseQuery can produce.
func (q Query) String() string {
	switch q.Kind {
	case Inverse:
		return inversePrefix + q.Pattern
	case Regexp:
		return regexpPrefix + q.Pattern
	default:
		return q.Pattern
	}
}

// IsEmpty reports whether the query filters nothing out (an empty pattern
// of any kind): Filter then returns every row in its original order.
func (q Query) IsEmpty() bool { return q.Pattern == "" }

// extends reports whether every row matching q also matches prev, so q can
// be answered by searching only prev's matches. Only fuzzy patterns
// narrow: a fuzzy match is a case-insensitive subsequence match of the
// pattern's runes, and a string containing runes p+x as a subsequence
// contains p. The prefix must hold for runes, not only bytes: a previous
// pattern that ends inside a multi-byte rune ("\xe2\x84", two U+FFFD) is a
// byte prefix of the completed rune ("\xe2\x84\xaa", the Kelvin sign) but
// matches other rows.
func (q Query) extends(prev Query) bool {
	return q.Kind == Fuzzy && prev.Kind == Fuzzy && prev.Pattern != "" &&
		strings.HasPrefix(q.Pattern, prev.Pattern) && runePrefix(prev.Pattern, q.Pattern)
}

// runePrefix reports whether s, a byte prefix of t, decodes to a prefix of
// t's runes: no rune of t straddles the end of s.
func runePrefix(s, t string) bool {
	for i := 0; i < len(s); {
		_, n := utf8.DecodeRuneInString(s[i:])
		if _, nt := utf8.DecodeRuneInString(t[i:]); nt != n {
			return false
		}
		i += n
	}
	return true
}
