package ui

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"canopy/api/emulator"
)

// editField starts editing the field of the page whose request names
// mask, moving the field cursor down to it.
func editField(h *harness, mask string) {
	h.t.Helper()
	for range 12 {
		h.keys("e")
		if strings.Contains(h.waitText("esc cancels"), "updateMask "+mask+" in the body") {
			return
		}
		h.keys("esc")
		h.waitFor("the editor closed", func(s string) bool { return !strings.Contains(s, "esc cancels") })
		h.keys("down")
	}
	h.t.Fatalf("no field sends the mask %s; screen:\n%s", mask, h.screen())
}

// The caller's own identity's page has its profile: not shown until a
// change answers it (no call reads it); a field set then shows with the
// rest the service answered; a change of a field known is undone with u.
// Another identity's page has no profile.
func TestOwnProfileSetAndUndone(t *testing.T) {
	t.Parallel()
	h := asPerson(t, "alice", "acme.example", nil)
	h.waitText("platform")
	typeCommand(h, "identities")
	h.waitText("identities of acme.example", "alice")
	h.typeText("/alice")
	h.keys("enter", "enter")
	h.waitFor("the page loaded", func(s string) bool {
		return strings.Contains(s, "YOUR PROFILE") && strings.Contains(s, "not shown yet") && !strings.Contains(s, "loading")
	})

	editField(h, "company")
	h.waitText("PATCH /iam/v2/identities:updateIdentityMetadata with updateMask company in the body", "(not shown yet) →")
	h.typeText("Acme Industries")
	h.keys("enter")
	h.waitText(`employer of your profile set to "Acme Industries"; u cannot undo it: what it was before was never shown`)
	h.waitText("Acme Industries", "Platform lead", "Chainguard Containers", "yes, the vendor's news")

	editField(h, "job_title")
	h.typeText(" and SRE")
	h.keys("enter")
	h.waitText(`job title of your profile changed (u undoes): "Platform lead" → "Platform lead and SRE"`)
	h.waitText("Platform lead and SRE")
	h.keys("u")
	h.waitText(`undid job title of your profile: back to "Platform lead"`)
	h.waitFor("the old job title on the page", func(s string) bool {
		return strings.Contains(s, "Platform lead") && !strings.Contains(s, "Platform lead and SRE")
	})

	h.keys("esc", "esc")
	typeCommand(h, "identities")
	h.typeText("/bob")
	h.keys("enter", "enter")
	s := h.waitText("Bob Okafor")
	if strings.Contains(s, "YOUR PROFILE") {
		t.Errorf("another identity's page shows a profile:\n%s", s)
	}
}

// A change of the profile whose answer is lost stays unknown: no call
// reads a profile back, so nothing is sent again by itself.
func TestOwnProfileLostAnswer(t *testing.T) {
	t.Parallel()
	var patches atomic.Int32
	h := asPersonBehind(t, "alice", "acme.example", func(w http.ResponseWriter, r *http.Request, srv *emulator.Server) {
		if r.Method != http.MethodPatch {
			srv.ServeHTTP(w, r)
			return
		}
		patches.Add(1)
		srv.ServeHTTP(httptest.NewRecorder(), r) // made, and the answer lost
		if conn, _, err := w.(http.Hijacker).Hijack(); err == nil {
			conn.Close()
		}
	})
	h.waitText("platform")
	typeCommand(h, "identities")
	h.waitText("identities of acme.example", "alice")
	h.typeText("/alice")
	h.keys("enter", "enter")
	h.waitFor("the page loaded", func(s string) bool {
		return strings.Contains(s, "YOUR PROFILE") && !strings.Contains(s, "loading")
	})
	editField(h, "company")
	h.typeText("Acme Industries")
	h.keys("enter")
	h.waitText("unknown whether the change was made", "no call reads a profile back: the answer to its next change shows it")
	h.keys("enter")
	h.settle()
	if n := patches.Load(); n != 1 {
		t.Errorf("%d PATCHes after a lost answer, want 1", n)
	}
}
