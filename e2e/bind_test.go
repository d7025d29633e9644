package e2e

import (
	"regexp"
	"strings"
	"testing"
)

// TestDemoBindViewer binds viewer to an identity on a folder with b, a
// digit and enter, then finds the binding in :bindings.
func TestDemoBindViewer(t *testing.T) {
	t.Parallel()
	tt := startCanopy(t, termOptions{width: 120, height: 36})
	tt.waitTree()
	tt.command("identities")
	tt.waitText("identities of acme.example", "NAME")
	tt.typeText("/carol")
	tt.waitText("/carol", "/20")
	tt.send("Enter")
	// b and the digit in one write, as a fast typist sends them: the 1 is
	// for the role picker that b opens, even before it is there.
	tt.typeText("b1")
	tt.waitText("Bind viewer to carol on which folder?")
	tt.typeText("platform/ci")
	tt.waitText("filter: platform/ci")
	tt.send("Enter")
	tt.waitText("Bind viewer to carol on platform/ci?")
	tt.send("Enter")
	tt.waitText("bound viewer → carol on platform/ci")

	tt.command("bindings")
	tt.waitText("role bindings of acme.example", "IDENTITY")
	tt.typeText("/carol")
	// Created seconds ago: how many depends on the machine (0s quiet, 4s
	// seen at load 17); carol had no binding on platform/ci before.
	tt.waitFor(func(s string) bool {
		return strings.Contains(s, "/carol") && regexp.MustCompile(`(?m)^ carol +viewer +platform/ci +\d+s\b`).MatchString(s)
	}, "carol's new binding in :bindings, filtered")
}
