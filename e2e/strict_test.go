package e2e

import (
	"regexp"
	"strings"
	"testing"
)

// TestDemoStrict runs the real binary on the strict emulator (no totals,
// refused orders, built-in roles only unfiltered), as a user would meet a
// service that differs where its definitions are silent: the feed whose
// first order is refused comes in the server's order with one message, a
// big repo's tags count "at least" until G reaches an exact end, and the
// roles include the built-in ones.
func TestDemoStrict(t *testing.T) {
	t.Parallel()
	tt := startCanopy(t, termOptions{width: 150, height: 40, args: []string{"demo", "--strict"}})
	tt.waitTree()
	tt.command("advisories")
	s := tt.waitText("the server does not sort advisories by update time, descending: shown in its default order")
	if strings.Contains(s, "failed") {
		t.Fatalf("the advisories failed:\n%s", s)
	}
	tt.waitText("sort: server order")
	tt.send("Escape")
	tt.waitTree()
	tt.command("repos")
	tt.waitTable("repos of acme.example", tableHeaderRE)
	tt.typeText("/aws-cli")
	tt.waitText("/aws-cli")
	tt.send("Enter", "Enter")
	tt.waitText("1 of 200+")
	tt.send("G")
	end := regexp.MustCompile(`([\d,]+) of ([\d,]+) · ([\d,]+)/([\d,]+) loaded`)
	s = tt.waitFor(func(s string) bool { return end.MatchString(s) }, "an exact end")
	if m := end.FindStringSubmatch(s); m[1] != m[2] || m[2] != m[4] {
		t.Errorf("G ended at %q", m[0])
	}
	tt.command("tree")
	tt.waitTree()
	tt.command("roles")
	tt.waitText("viewer", "built-in", "custom")
}
