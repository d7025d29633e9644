package e2e

import (
	"strings"
	"testing"
)

// TestDemoFuzzyFilter types /ngx over the demo's repos and sees nginx first,
// then asks the server for every tag named latest.
func TestDemoFuzzyFilter(t *testing.T) {
	t.Parallel()
	tt := startCanopy(t, termOptions{width: 120, height: 36})
	tt.waitTree()
	tt.command("repos")
	s := tt.waitTable("repos of acme.example", tableHeaderRE)
	tt.typeText("/ngx")
	s = tt.waitFor(func(s string) bool { return strings.Contains(s, "/ngx") && strings.Contains(s, "/63") }, "the filter's count")
	if first := firstTableRow(t, s, tableHeaderRE); !strings.HasPrefix(first, "nginx") {
		t.Errorf("first row %q, want nginx", first)
	}
	// q is a letter while typing; enter keeps the filter; esc clears it.
	tt.typeText("q")
	tt.waitText("/ngxq")
	tt.send("BSpace", "Enter")
	tt.waitText("(/ edits, esc clears)")
	tt.send("Escape")
	tt.waitFor(func(s string) bool { return !strings.Contains(s, "/ngx") && strings.Contains(s, "sort:") }, "the filter cleared")

	tt.command("tags")
	tt.waitTable("tags of acme.example", tagsHeaderRE)
	tt.typeText("/latest")
	tt.waitText(`ctrl+s: server name = "latest"`)
	tt.send("C-s")
	s = tt.waitText(`[name = "latest"]`, "1 of 63 · 63/63 loaded")
	if strings.Count(s, " latest ") < 10 {
		t.Errorf("the server filter did not list latest tags:\n%s", s)
	}
}
