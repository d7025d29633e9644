package filter

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/sahilm/fuzzy"
)

// The tests in this file hold the engine to its one promise: for a fuzzy
// pattern, Filter (and Narrow, and Highlight) answer exactly what
// github.com/sahilm/fuzzy v0.1.3 fuzzy.Find answers — the same rows, the
// same scores, the same order, the same matched byte offsets. Every random
// case comes from a seeded math/rand/v2 source and a failure prints the
// seed and the case, so it reproduces.

// equalSeed seeds the random equality tests; change it to explore, keep it
// fixed in the repository so failures reproduce.
const equalSeed = 0x5eed_f022

// checkEqualFind fails t unless res (the engine's answer for the fuzzy
// pattern over names) is exactly fuzzy.Find(pattern, names), and unless
// Highlight gives each match's MatchedIndexes. It returns the number of
// matches.
func checkEqualFind(t testing.TB, what, pattern string, names []string, res Result) int {
	t.Helper()
	want := fuzzy.Find(pattern, names)
	if res.Total != len(names) {
		t.Fatalf("%s: pattern %q: Total = %d, want %d", what, pattern, res.Total, len(names))
	}
	if (Query{Kind: Fuzzy, Pattern: pattern}) != res.Query {
		t.Fatalf("%s: pattern %q: Result.Query = %#v", what, pattern, res.Query)
	}
	if len(res.Matches) != len(want) {
		t.Fatalf("%s: pattern %q over %d names: %d matches, fuzzy.Find has %d\n%s",
			what, pattern, len(names), len(res.Matches), len(want), diffMatches(res.Matches, want, names))
	}
	for i, w := range want {
		g := res.Matches[i]
		if g.Index != w.Index || g.Score != w.Score {
			t.Fatalf("%s: pattern %q: match %d is {Index %d Score %d}, fuzzy.Find has {Index %d Score %d} (%q)\n%s",
				what, pattern, i, g.Index, g.Score, w.Index, w.Score, w.Str, diffMatches(res.Matches, want, names))
		}
		if h := Highlight(pattern, names[w.Index]); !slices.Equal(h, w.MatchedIndexes) {
			t.Fatalf("%s: Highlight(%q, %q) = %v, fuzzy.Find's MatchedIndexes = %v",
				what, pattern, names[w.Index], h, w.MatchedIndexes)
		}
	}
	return len(want)
}

// diffMatches shows the first differences between the engine's matches and
// fuzzy's, for failure messages.
func diffMatches(got []Match, want fuzzy.Matches, names []string) string {
	var b strings.Builder
	shown := 0
	for i := 0; i < max(len(got), len(want)) && shown < 8; i++ {
		var g, w string
		if i < len(got) {
			g = fmt.Sprintf("{%d %d %q}", got[i].Index, got[i].Score, names[got[i].Index])
		}
		if i < len(want) {
			w = fmt.Sprintf("{%d %d %q}", want[i].Index, want[i].Score, want[i].Str)
		}
		if g != w {
			fmt.Fprintf(&b, "  [%d] engine %s, fuzzy %s\n", i, g, w)
			shown++
		}
	}
	return b.String()
}

// Name material: registry paths as canopy lists them.
var (
	orgs    = []string{"acme", "Globex", "initech", "umbrella-corp", "hooli", "stark_industries", "wayne", "wonka"}
	folders = []string{"platform/base-images", "apps/web", "data/ml", "infra", "teams/payments/api", "sandbox", "ci.tools", "Legacy\\win"}
	repos   = []string{"nginx", "python", "node", "go", "postgres", "redis", "grafana", "prometheus", "alpine",
		"ubuntu", "busybox", "mysql", "mongo", "rabbitmq", "elasticsearch", "kibana", "traefik", "vault",
		"consul", "etcd", "httpd", "memcached", "openjdk", "golang", "rust", "ruby", "php", "haproxy",
		"nginx-ingress", "cert-manager", "CoreDNS", "kube-proxy", "fluent-bit", "jenkins", "sonarqube",
		"minio", "zookeeper", "kafka", "cassandra", "mariadb", "influxdb", "telegraf", "loki", "tempo",
		"jaeger", "envoy", "istio-proxy", "argo-cd", "flux", "harbor", "keycloak", "nextcloud", "wordpress",
		"drupal", "tomcat", "wildfly", "dotnet-sdk", "aspnet", "pytorch", "tensorflow", "jupyter-lab",
		"myApp", "TheBlackKnight", "camelCaseRepo"}
	suffixes = []string{"", "", "", "-dev", "-r4", "-slim", "-alpine", "-rc1", "-fips", "_debug", " (old)"}
)

// tagName returns a random name of the shape org/folder/repo:1.2.3-r4.
func tagName(r *rand.Rand) string {
	var b strings.Builder
	b.WriteString(orgs[r.IntN(len(orgs))])
	b.WriteByte('/')
	b.WriteString(folders[r.IntN(len(folders))])
	b.WriteByte('/')
	b.WriteString(repos[r.IntN(len(repos))])
	b.WriteByte(':')
	fmt.Fprintf(&b, "%d.%d.%d", r.IntN(4), r.IntN(20), r.IntN(30))
	b.WriteString(suffixes[r.IntN(len(suffixes))])
	return b.String()
}

// trickyRunes are the runes that have broken fuzzy-matcher re-implementations:
// non-ASCII runes that fold to ASCII letters (Kelvin sign, long s), other
// folding orbits (Σσς, İ ı, Ǆǅǆ), letters whose case is neither upper nor
// lower, CJK, combining marks, NUL, the separators, the replacement character.
var trickyRunes = []rune{
	'K', 'k', 'K', 's', 'S', 'ſ', 'a', 'A', 'b', 'B', 'e', 'E', 'i', 'I', 'n', 'x', 'z', '1', '2',
	'\u212A', '\u017F', 'Σ', 'σ', 'ς', 'İ', 'ı', 'Ǆ', 'ǅ', 'ǆ', 'ß', 'ẞ', 'é', 'É', 'ø', 'Ø',
	'世', '界', 'ア', '\u0301', '\u0308', 0, '/', '-', '_', ' ', '.', '\\', ':', '\uFFFD', 'Ω', 'ω', '\u2126',
}

// unicodeName returns a random string over trickyRunes, sometimes with raw
// invalid UTF-8 bytes.
func unicodeName(r *rand.Rand) string {
	n := r.IntN(16)
	var b strings.Builder
	for range n {
		switch r.IntN(20) {
		case 0:
			b.WriteByte(byte(0x80 + r.IntN(0x80))) // an invalid or truncated sequence
		case 1:
			b.WriteString(strings.ToUpper(repos[r.IntN(len(repos))]))
		default:
			b.WriteRune(trickyRunes[r.IntN(len(trickyRunes))])
		}
	}
	return b.String()
}

// randomPattern returns a pattern for names: usually a subsequence of one
// of them (with its case flipped at random), otherwise random letters or
// tricky runes. It is never empty (fuzzy.Find matches nothing for an empty
// pattern, Filter everything).
func randomPattern(r *rand.Rand, names []string) string {
	switch k := r.IntN(10); {
	case k < 6 && len(names) > 0:
		src := []rune(names[r.IntN(len(names))])
		var p []rune
		for _, c := range src {
			if r.IntN(3) == 0 {
				switch r.IntN(4) {
				case 0:
					c = []rune(strings.ToUpper(string(c)))[0]
				case 1:
					c = []rune(strings.ToLower(string(c)))[0]
				}
				p = append(p, c)
			}
		}
		if len(p) == 0 && len(src) > 0 {
			p = src[:1]
		}
		if len(p) > 0 {
			return string(p)
		}
		fallthrough // an empty name: random letters instead
	case k < 8:
		const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789./-_:"
		b := make([]byte, 1+r.IntN(5))
		for i := range b {
			b[i] = letters[r.IntN(len(letters))]
		}
		return string(b)
	default:
		p := make([]rune, 1+r.IntN(4))
		for i := range p {
			p[i] = trickyRunes[r.IntN(len(trickyRunes))]
		}
		return string(p)
	}
}

// randomNames returns n names: registry paths, unicode strings, or a mix.
func randomNames(r *rand.Rand, n int) []string {
	names := make([]string, n)
	mode := r.IntN(3)
	for i := range names {
		if mode == 0 || (mode == 2 && r.IntN(2) == 0) {
			names[i] = tagName(r)
		} else {
			names[i] = unicodeName(r)
		}
	}
	return names
}

// TestFilterEqualsFuzzyFind: random names and patterns, Filter against
// fuzzy.Find (indexes, scores, order) and Highlight against MatchedIndexes.
func TestFilterEqualsFuzzyFind(t *testing.T) {
	r := rand.New(rand.NewPCG(equalSeed, 1))
	ctx := context.Background()
	cases, matched := 0, 0
	for trial := range 400 {
		names := randomNames(r, 1+r.IntN(200))
		for range 8 {
			p := randomPattern(r, names)
			res, err := Filter(ctx, Query{Kind: Fuzzy, Pattern: p}, names)
			if err != nil {
				t.Fatalf("trial %d: Filter(%q): %v", trial, p, err)
			}
			matched += checkEqualFind(t, fmt.Sprintf("seed %#x trial %d", equalSeed, trial), p, names, res)
			cases++
		}
	}
	if matched < cases {
		t.Fatalf("only %d matches over %d cases: the generator hardly exercises matching", matched, cases)
	}
	t.Logf("%d patterns, %d matches compared", cases, matched)
}

// TestFilterEqualsFuzzyFindChunked runs names spanning several chunks (and
// so several workers), where order across chunks matters.
func TestFilterEqualsFuzzyFindChunked(t *testing.T) {
	r := rand.New(rand.NewPCG(equalSeed, 2))
	names := make([]string, 3*chunkSize+123)
	for i := range names {
		if i%7 == 0 {
			names[i] = unicodeName(r)
		} else {
			names[i] = tagName(r)
		}
	}
	for _, p := range []string{"ngx", "pstgr", "ngx1.2", "o", "e1", "K", "\u212A", "ſ", "AcMe/DaTa", "wonka:", "zzzq"} {
		res, err := Filter(context.Background(), Query{Kind: Fuzzy, Pattern: p}, names)
		if err != nil {
			t.Fatal(err)
		}
		checkEqualFind(t, "chunked", p, names, res)
	}
}

// TestNarrowEqualsFilter: a pattern extended by one rune (or a few bytes),
// answered from the previous result, equals a fresh Filter and fuzzy.Find.
func TestNarrowEqualsFilter(t *testing.T) {
	r := rand.New(rand.NewPCG(equalSeed, 3))
	ctx := context.Background()
	for trial := range 300 {
		names := randomNames(r, 1+r.IntN(200))
		p := randomPattern(r, names)
		prev, err := Filter(ctx, Query{Kind: Fuzzy, Pattern: p}, names)
		if err != nil {
			t.Fatal(err)
		}
		// Type up to four more characters, narrowing each time from the
		// last result, as the search view does.
		for range 1 + r.IntN(4) {
			var ext string
			switch r.IntN(4) {
			case 0:
				ext = string(trickyRunes[r.IntN(len(trickyRunes))])
			default:
				ext = randomPattern(r, names)[:1]
			}
			q := Query{Kind: Fuzzy, Pattern: prev.Query.Pattern + ext}
			got, err := Narrow(ctx, q, names, prev)
			if err != nil {
				t.Fatal(err)
			}
			checkEqualFind(t, fmt.Sprintf("seed %#x trial %d: Narrow from %q", equalSeed, trial, prev.Query.Pattern), q.Pattern, names, got)
			fresh, err := Filter(ctx, q, names)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got.Matches, fresh.Matches) {
				t.Fatalf("trial %d: Narrow(%q from %q) != Filter", trial, q.Pattern, prev.Query.Pattern)
			}
			prev = got
		}
	}
}

// TestNarrowSplitRune: the previous pattern ends inside a multi-byte rune
// that the next keystroke completes ("\xe2\x84" then "\xe2\x84\xaa", the
// Kelvin sign). The byte prefix is not a rune prefix: the previous
// pattern's runes are two U+FFFD, which "k" does not contain, so narrowing
// from that result would lose rows.
func TestNarrowSplitRune(t *testing.T) {
	ctx := context.Background()
	names := []string{"k", "K", "\u212A", "kelvin", "\xe2\x84x", "nothing"}
	for _, c := range []struct{ prev, next string }{
		{"\xe2\x84", "\xe2\x84\xaa"}, // Kelvin sign, completed
		{"\xe2", "\xe2\x84\xaa"},
		{"\xc5", "\xc5\xbf"}, // ſ, completed
		{"a\xe2\x84", "a\xe2\x84\xaax"},
	} {
		prev, err := Filter(ctx, Query{Kind: Fuzzy, Pattern: c.prev}, names)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Narrow(ctx, Query{Kind: Fuzzy, Pattern: c.next}, names, prev)
		if err != nil {
			t.Fatal(err)
		}
		checkEqualFind(t, fmt.Sprintf("Narrow from %q", c.prev), c.next, names, got)
	}
}

// TestEqualFindCases: hand-picked cases, each against fuzzy.Find.
func TestEqualFindCases(t *testing.T) {
	names := []string{
		"The Black Knight", "tk", "TK", "the_knight", "thE\u212Anight", "\u212A", "k", "K",
		"ſtrasse", "STRASSE", "Straße", "σίσυφος", "ΣΊΣΥΦΟΣ", "café", "cafe\u0301", "CAFÉ",
		"a\x00bc", "abc\x00", "\x00abc", "", "/", "a/b/c", "a-b_c d.e\\f", "AbCdEf", "abcABC",
		"世界/世界", "\xff\xfeabc", "abc\xff", "nginx", "platform/base-images/nginx:1.2.3-r4",
		"apps/web/nginx-ingress:1.20.3-dev", "İstanbul", "istanbul", "ıstanbul",
	}
	patterns := []string{
		"tk", "TK", "k", "K", "\u212A", "s", "S", "ſ", "ss", "ß", "σ", "Σ", "ς", "é", "e\u0301", "É",
		"bc", "abc", "a/c", "abcdef", "ACE", "世", "界/", "\uFFFD", "\xff", "ngx", "ngx1.2", "n1.2.3r4",
		"i", "İ", "ı", "/", " ", "\x00", "a\x00", "\\f",
	}
	for _, p := range patterns {
		res, err := Filter(context.Background(), Query{Kind: Fuzzy, Pattern: p}, names)
		if err != nil {
			t.Fatal(err)
		}
		checkEqualFind(t, "case", p, names, res)
	}
	// fuzzy.Find's own example: the second k of "The Black Knight" wins.
	if got, want := Highlight("tk", "The Black Knight"), []int{0, 10}; !slices.Equal(got, want) {
		t.Errorf(`Highlight("tk", "The Black Knight") = %v, want %v`, got, want)
	}
	if got := Highlight("xyz", "The Black Knight"); got != nil {
		t.Errorf("Highlight of a non-match = %v, want nil", got)
	}
	if got := Highlight("", "abc"); got != nil {
		t.Errorf("Highlight of an empty pattern = %v, want nil", got)
	}
}

// FuzzEqual compares the engine with fuzzy.Find on one (name, pattern):
// the match, its score, its matched indexes, the Inverse query, and
// narrowing from byte prefixes of the pattern.
//
//	go test ./views/filter -run '^$' -fuzz FuzzEqual -fuzztime 30s
func FuzzEqual(f *testing.F) {
	for _, c := range [][2]string{
		{"The Black Knight", "tk"},
		{"platform/base-images/nginx:1.2.3-r4", "ngx1.2"},
		{"\u212Aelvin", "k"},
		{"kelvin", "\u212A"},
		{"ſtraße", "ss"},
		{"a\x00b", "ab"},
		{"abc\xff", "\xff"},
		{"cafe\u0301", "é"},
		{"k", "\xe2\x84\xaa"},
		{"AbCdEf", "ace"},
		{"σίσυφος", "ΣΣ"},
	} {
		f.Add(c[0], c[1])
	}
	ctx := context.Background()
	f.Fuzz(func(t *testing.T, name, pattern string) {
		names := []string{name}
		res, err := Filter(ctx, Query{Kind: Fuzzy, Pattern: pattern}, names)
		if err != nil {
			t.Fatal(err)
		}
		if pattern == "" {
			if len(res.Matches) != 1 || res.Matches[0] != (Match{}) {
				t.Fatalf("empty pattern: %v, want every row", res.Matches)
			}
			return
		}
		checkEqualFind(t, "fuzz", pattern, names, res)
		inv, err := Filter(ctx, Query{Kind: Inverse, Pattern: pattern}, names)
		if err != nil {
			t.Fatal(err)
		}
		if len(inv.Matches)+len(res.Matches) != 1 {
			t.Fatalf("Inverse %q keeps %d rows and Fuzzy %d: want exactly one of them", pattern, len(inv.Matches), len(res.Matches))
		}
		// Narrow from the prefixes one to eight bytes shorter (every way a
		// multi-byte rune can be split) and from half the pattern; not from
		// every prefix, which makes long inputs slow to minimize.
		for cut := range len(pattern) {
			if cut == 0 || (cut < len(pattern)-8 && cut != len(pattern)/2) {
				continue
			}
			prev, err := Filter(ctx, Query{Kind: Fuzzy, Pattern: pattern[:cut]}, names)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Narrow(ctx, Query{Kind: Fuzzy, Pattern: pattern}, names, prev)
			if err != nil {
				t.Fatal(err)
			}
			checkEqualFind(t, fmt.Sprintf("Narrow from %q", pattern[:cut]), pattern, names, got)
		}
	})
}

// TestWideScoreSpan: runs of adjacent matches double their bonus, so long
// patterns spread scores over a range too wide to rank by counting (and
// past 60 or so adjacent matches the score overflows int, in fuzzy.Find as
// here); rank then sorts by comparison, with the same order.
func TestWideScoreSpan(t *testing.T) {
	r := rand.New(rand.NewPCG(equalSeed, 4))
	for _, n := range []int{20, 40, 70, 130} {
		names := make([]string, 300)
		for i := range names {
			run := strings.Repeat("a", r.IntN(n+1))
			names[i] = tagName(r)[:r.IntN(10)] + run + strings.Repeat("b", r.IntN(3)) + run
		}
		for _, p := range []string{strings.Repeat("a", n), strings.Repeat("a", n/2), strings.Repeat("A", n/2) + "b"} {
			res, err := Filter(context.Background(), Query{Kind: Fuzzy, Pattern: p}, names)
			if err != nil {
				t.Fatal(err)
			}
			checkEqualFind(t, fmt.Sprintf("runs up to %d", n), p, names, res)
		}
	}
}
