package filter

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Scoring constants, identical to github.com/sahilm/fuzzy v0.1.3.
const (
	firstCharMatchBonus            = 10
	matchFollowingSeparatorBonus   = 20
	camelCaseMatchBonus            = 20
	adjacentMatchBonus             = 5
	unmatchedLeadingCharPenalty    = -5
	maxUnmatchedLeadingCharPenalty = -15
)

// matcher scores names against one fuzzy pattern. It is read-only after
// newMatcher, so one matcher is shared by all workers.
type matcher struct {
	runes []rune // the pattern, as fuzzy.Find decodes it
	// lower is the pattern folded to ASCII lower case when the pattern is
	// all ASCII (nil otherwise); it drives the byte-level pre-check.
	lower []byte
}

func newMatcher(pattern string) *matcher {
	m := &matcher{runes: []rune(pattern)}
	lower := make([]byte, 0, len(pattern))
	for i := 0; i < len(pattern); i++ {
		c := pattern[i]
		if c >= utf8.RuneSelf {
			return m // a non-ASCII rune may fold to ASCII (K → k): no pre-check
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		lower = append(lower, c)
	}
	m.lower = lower
	return m
}

// asciiFold maps a byte to what the ASCII fast paths compare: an ASCII
// letter to its lower case, other ASCII bytes to themselves, NUL to
// foldNUL and every non-ASCII byte to foldNonASCII. No pattern byte (ASCII,
// lower-cased) equals foldNUL or foldNonASCII, and no folded byte equals
// foldNone.
var asciiFold = func() (t [256]byte) {
	for c := range 256 {
		switch {
		case c == 0:
			t[c] = foldNUL
		case c >= utf8.RuneSelf:
			t[c] = foldNonASCII
		case 'A' <= c && c <= 'Z':
			t[c] = byte(c + 'a' - 'A')
		default:
			t[c] = byte(c)
		}
	}
	return t
}()

const (
	foldNUL      = 0xFD
	foldNonASCII = 0xFE
	foldNone     = 0xFF // "no pattern byte": equals no folded byte
)

// mayMatch is the allocation-free pre-check: false only when s certainly
// does not fuzzy-match. fuzzy.Find accepts exactly the strings that hold the
// pattern as a case-folded subsequence (before any NUL), so for an ASCII
// pattern an ASCII-case-insensitive byte scan decides it; the first
// non-ASCII byte (which may fold to an ASCII letter, e.g. the Kelvin sign)
// defers to the full scorer. (A pattern holding NUL matches nothing: its
// NUL equals no folded byte.)
func (m *matcher) mayMatch(s string) bool {
	p := m.lower
	if p == nil {
		return true
	}
	k := 0
	want := p[0]
	for i := 0; i < len(s); i++ {
		c := asciiFold[s[i]]
		if c == want {
			if k++; k == len(p) {
				return true
			}
			want = p[k]
		} else if c >= foldNUL {
			return c == foldNonASCII // fuzzy stops at the first NUL
		}
	}
	return false
}

// scoreASCII is score (without matched indexes) for an ASCII pattern
// (m.lower != nil) over an ASCII string, on bytes. It gives up and returns
// fallback at the first non-ASCII byte before any NUL; the caller then runs
// score, which handles every string.
func (m *matcher) scoreASCII(s string) (score int, ok, fallback bool) {
	p := m.lower
	if i := strings.IndexByte(s, 0); i > -1 {
		s = s[:i]
	}
	n := len(s)
	pi := 0
	cur, nxt := p[0], byte(foldNone)
	if len(p) > 1 {
		nxt = p[1]
	}
	bestScore := -1
	matchedIndex := -1
	currAdjacentMatchBonus := 0
	nMatched, lastMatch := 0, 0
	var last byte
	for j := 0; j < n; j++ {
		c := s[j]
		if c >= utf8.RuneSelf {
			return 0, false, true
		}
		if asciiFold[c] == cur {
			sc := 0
			if j == 0 {
				sc += firstCharMatchBonus
			} else {
				// unicode.IsLower(last) && unicode.IsUpper(candidate), in ASCII.
				if 'a' <= last && last <= 'z' && 'A' <= c && c <= 'Z' {
					sc += camelCaseMatchBonus
				}
				if isSeparator(rune(last)) {
					sc += matchFollowingSeparatorBonus
				}
			}
			if nMatched > 0 && lastMatch == j-1 {
				bonus := currAdjacentMatchBonus*2 + adjacentMatchBonus
				sc += bonus
				currAdjacentMatchBonus += bonus
			}
			if sc > bestScore {
				bestScore = sc
				matchedIndex = j
			}
		}
		// Commit when the string ends or the next byte is the next pattern
		// byte. A non-ASCII next byte folds to foldNonASCII and does not
		// commit here, but the next iteration falls back anyway.
		if (j+1 == n || asciiFold[s[j+1]] == nxt) && matchedIndex > -1 {
			if nMatched == 0 {
				bestScore += max(matchedIndex*unmatchedLeadingCharPenalty, maxUnmatchedLeadingCharPenalty)
			}
			score += bestScore
			nMatched++
			lastMatch = matchedIndex
			bestScore = -1
			pi++
			cur, nxt = foldNone, foldNone
			if pi < len(p) {
				cur = p[pi]
			}
			if pi+1 < len(p) {
				nxt = p[pi+1]
			}
		}
		last = c
	}
	score += nMatched - n
	return score, nMatched == len(p), false
}

// match reports whether s matches and its score, by the fastest exact path.
func (m *matcher) match(s string) (score int, ok bool) {
	if !m.mayMatch(s) {
		return 0, false
	}
	if m.lower != nil {
		if score, ok, fallback := m.scoreASCII(s); !fallback {
			return score, ok
		}
	}
	score, _, ok = m.score(s, nil)
	return score, ok
}

// score is fuzzy.Find's matching loop for one string, step for step, with
// the matched-index slice replaced by a count and the last index so it
// does not allocate. When idx is non-nil the matched byte offsets are
// appended to it (that is fuzzy's MatchedIndexes).
func (m *matcher) score(s string, idx []int) (score int, matched []int, ok bool) {
	runes := m.runes
	if i := strings.IndexByte(s, 0); i > -1 {
		s = s[:i]
	}
	patternIndex := 0
	bestScore := -1
	matchedIndex := -1
	currAdjacentMatchBonus := 0
	nMatched, lastMatch := 0, 0
	var last rune
	var lastIndex int
	nextc, nextSize := utf8.DecodeRuneInString(s)
	var candidate rune
	var candidateSize int
	for j := 0; j < len(s); j += candidateSize {
		candidate, candidateSize = nextc, nextSize
		if equalFold(candidate, runes[patternIndex]) {
			sc := 0
			if j == 0 {
				sc += firstCharMatchBonus
			}
			if unicode.IsLower(last) && unicode.IsUpper(candidate) {
				sc += camelCaseMatchBonus
			}
			if j != 0 && isSeparator(last) {
				sc += matchFollowingSeparatorBonus
			}
			if nMatched > 0 && lastMatch == lastIndex {
				bonus := currAdjacentMatchBonus*2 + adjacentMatchBonus
				sc += bonus
				currAdjacentMatchBonus += bonus
			}
			if sc > bestScore {
				bestScore = sc
				matchedIndex = j
			}
		}
		var nextp rune
		if patternIndex < len(runes)-1 {
			nextp = runes[patternIndex+1]
		}
		if next := j + candidateSize; next < len(s) {
			if s[next] < utf8.RuneSelf {
				nextc, nextSize = rune(s[next]), 1
			} else {
				nextc, nextSize = utf8.DecodeRuneInString(s[next:])
			}
		} else {
			nextc, nextSize = 0, 0
		}
		// Like fuzzy, commit the best candidate for this pattern rune when
		// the next pattern rune comes up next or the string ends.
		if (nextc == 0 || equalFold(nextp, nextc)) && matchedIndex > -1 {
			if nMatched == 0 {
				bestScore += max(matchedIndex*unmatchedLeadingCharPenalty, maxUnmatchedLeadingCharPenalty)
			}
			score += bestScore
			nMatched++
			lastMatch = matchedIndex
			if idx != nil {
				idx = append(idx, matchedIndex)
			}
			bestScore = -1
			patternIndex++
		}
		lastIndex = j
		last = candidate
	}
	score += nMatched - len(s)
	return score, idx, nMatched == len(runes)
}

// Highlight returns the byte offsets in s of the pattern's matched
// characters, exactly as fuzzy.Find reports them in Match.MatchedIndexes,
// or nil when s does not match. The UI calls it only for displayed rows.
func Highlight(pattern, s string) []int {
	return NewHighlighter(pattern).Indexes(s)
}

// Highlighter is Highlight for one pattern over many strings (the rows of
// a frame): the pattern is prepared once, not once per row, which a long
// pattern (a flood typed into the filter) would make the cost of a frame.
type Highlighter struct {
	m *matcher // nil for the empty pattern
}

// NewHighlighter prepares pattern.
func NewHighlighter(pattern string) Highlighter {
	if pattern == "" {
		return Highlighter{}
	}
	return Highlighter{m: newMatcher(pattern)}
}

// Indexes is Highlight(pattern, s).
func (h Highlighter) Indexes(s string) []int {
	// Every character of the pattern is one of s's: s shorter (in bytes)
	// than the pattern (in characters) cannot match.
	if h.m == nil || len(s) < len(h.m.runes) {
		return nil
	}
	_, idx, ok := h.m.score(s, make([]int, 0, len(h.m.runes)))
	if !ok {
		return nil
	}
	return idx
}

// equalFold is fuzzy's (and strings.EqualFold's) simple case folding.
func equalFold(tr, sr rune) bool {
	if tr == sr {
		return true
	}
	if tr < sr {
		tr, sr = sr, tr
	}
	if tr < utf8.RuneSelf {
		return 'A' <= sr && sr <= 'Z' && tr == sr+'a'-'A'
	}
	r := unicode.SimpleFold(sr)
	for r != sr && r < tr {
		r = unicode.SimpleFold(r)
	}
	return r == tr
}

// isSeparator reports whether r is one of fuzzy's word separators.
func isSeparator(r rune) bool {
	switch r {
	case '/', '-', '_', ' ', '.', '\\':
		return true
	}
	return false
}
