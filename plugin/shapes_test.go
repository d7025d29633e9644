package plugin

import (
	"regexp"
	"strings"
	"testing"
)

// The shapes whose lengths are compared apart from their patterns take
// what the counted patterns they stand for take: a tag's name, an email,
// a plugin's name.
func TestShapesMatchTheirCountedPatterns(t *testing.T) {
	t.Parallel()
	label := `[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?`
	for _, tc := range []struct {
		shape   func(string) bool
		pattern string
	}{
		{tagName.MatchString, `^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$`},
		{email.MatchString, `^[A-Za-z0-9_][A-Za-z0-9_%+-]*(?:\.[A-Za-z0-9_%+-]+)*@` + label + `(?:\.` + label + `)*$`},
		{func(s string) bool { return CheckName(s) == nil }, `^[a-z][a-z0-9-]{0,31}$`},
	} {
		re := regexp.MustCompile(tc.pattern)
		for _, n := range []int{0, 1, 2, 30, 31, 32, 33, 61, 62, 63, 64, 126, 127, 128, 129} {
			for _, c := range []string{"a", "Z", "0", "_", ".", "-", "%"} {
				for _, s := range []string{strings.Repeat(c, n), "a" + strings.Repeat(c, n),
					"me@" + strings.Repeat(c, n), "me@a" + strings.Repeat(c, n) + "b.example", "me@x." + strings.Repeat(c, n) + "z"} {
					if got, want := tc.shape(s), re.MatchString(s); got != want {
						t.Errorf("%s: %q: %v, the pattern says %v", tc.pattern, s, got, want)
					}
				}
			}
		}
	}
}
