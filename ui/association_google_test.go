package ui

import (
	"strings"
	"testing"
)

// A Google Cloud part is checked by Google's own rules before it is sent,
// and each refusal says the rule the value breaks: a project id does not
// end with a hyphen; a project number is a positive 64-bit number.
func TestAssociationGoogleRulesAreSaid(t *testing.T) {
	t.Parallel()
	h, reqs, mu := recordingShell(t, 160, 50)
	h.toAssociations("apps")
	h.waitFor("apps has none", func(s string) bool { return strings.Contains(line(s, "v account associations"), " 0") })
	h.keys("k")
	h.moveTo("account associations of apps")
	h.keys("n")
	h.waitText("New account association in apps: what does it tie first?", "Google Cloud")
	h.keys("2")
	h.waitText("New account association in apps", "gcp project")
	h.typeText("apps-gcp")
	h.keys("tab", "tab")
	h.typeText("acme-apps-")
	h.keys("tab")
	h.typeText("0")
	h.keys("enter")
	h.waitText("ends with a hyphen: a project id ends with a letter or digit")
	h.keys("shift+tab", "backspace", "enter")
	h.waitText("is 0: a project number is a positive number")
	h.keys("tab", "backspace")
	h.typeText(strings.Repeat("1234567890", 3))
	h.keys("enter")
	h.waitText("is 30 digits: a project number has at most 19 (a 64-bit number)")
	if got := last(reqs, mu); len(got) != 0 {
		t.Fatalf("sent %+v", got)
	}
	h.keys(pressed("backspace", 30)...)
	h.typeText("4815162342")
	h.keys("enter")
	h.waitText(`created account association "apps-gcp" in apps`)
	got := last(reqs, mu)
	if len(got) != 1 || got[0].Body["google"].(map[string]any)["projectId"] != "acme-apps" ||
		got[0].Body["google"].(map[string]any)["projectNumber"] != "4815162342" {
		t.Fatalf("requests %+v", got)
	}
}

// pressed is key pressed n times.
func pressed(key string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = key
	}
	return out
}
