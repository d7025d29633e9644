package api

import (
	"regexp"
	"strings"
	"testing"
)

// Each rule takes what the service takes and refuses the rest; its Max is
// the longest value its pattern matches.
func TestRules(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		rule    Rule
		ok, bad []string
		longest string
		tooLong string
	}{
		{RepoName, []string{"nginx", "base/python", "a.b_c-d"}, []string{"", "Nginx", "-x", "/x", "a b", "x\x1b"},
			strings.Repeat("a", 128), strings.Repeat("a", 129)},
		{OrgName, []string{"acme.example"}, []string{"acme/x", "Acme"}, strings.Repeat("a", 128), strings.Repeat("a", 129)},
		{TagName, []string{"latest", "1.2.3-r4", "_x", "V1"}, []string{"", ".x", "-x", "a/b", "a:b"},
			strings.Repeat("t", 128), strings.Repeat("t", 129)},
		{Digest, []string{"sha256:" + strings.Repeat("ab", 32)}, []string{"sha256:" + strings.Repeat("AB", 32), "sha512:00", "sha256:" + strings.Repeat("a", 63)},
			"sha256:" + strings.Repeat("0", 64), "sha256:" + strings.Repeat("0", 65)},
		{IdentityName, []string{"ci bot", "a.b"}, []string{"ab", "CI", "a/b"}, strings.Repeat("i", 63), strings.Repeat("i", 64)},
		{AdvisoryID, []string{"CGA-abcd-1234-wxyz"}, []string{"cga-abcd-1234-wxyz", "CGA-abc-1234-wxyz"}, "CGA-abcd-1234-wxyz", "CGA-abcd-1234-wxyzz"},
	} {
		for _, s := range append(tc.ok, tc.longest) {
			if !tc.rule.Match(s) {
				t.Errorf("rule %d refuses %q", tc.rule, s)
			}
		}
		for _, s := range append(tc.bad, tc.tooLong) {
			if tc.rule.Match(s) {
				t.Errorf("rule %d takes %q", tc.rule, s)
			}
		}
		if tc.rule.Max() != len(tc.longest) {
			t.Errorf("rule %d: Max %d, its longest value has %d", tc.rule, tc.rule.Max(), len(tc.longest))
		}
	}
}

// Each rule's Match takes exactly what its Pattern (the rule as messages
// show it) takes, on strings around its bounds and of every character
// class the patterns use.
func TestRulesMatchTheirPatterns(t *testing.T) {
	t.Parallel()
	alphabet := []string{"a", "Z", "0", "_", ".", "-", "/", " ", ":", "é", "sha256:", "CGA-", "f"}
	for r := range Rule(len(rules)) {
		re := regexp.MustCompile(r.Pattern())
		try := func(s string) {
			if got, want := r.Match(s), re.MatchString(s); got != want {
				t.Errorf("rule %d: Match(%q) = %v, its pattern says %v", r, s, got, want)
			}
		}
		for _, n := range []int{0, 1, 2, 3, 4, 17, 18, 19, 62, 63, 64, 70, 71, 72, 127, 128, 129} {
			for _, c := range alphabet {
				try(strings.Repeat(c, n))
				try("a" + strings.Repeat(c, n))
				try("sha256:" + strings.Repeat(c, n))
			}
		}
		try("CGA-abcd-1234-wxyz")
		try("sha256:" + strings.Repeat("0f", 32))
	}
}
