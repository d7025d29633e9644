package ui

import (
	"strings"
	"testing"

	"canopy/views"
)

// TestAFailureStaysUntilTheNextKey: a failure on the status line outlives
// its clock (a message nobody saw is not gone) and goes at the next key;
// a plain message goes with its clock.
func TestAFailureStaysUntilTheNextKey(t *testing.T) {
	t.Parallel()
	h := start(t, 140, 30, true)
	h.waitText("platform")
	h.send(views.FlashMsg{Text: "the server refused it", Error: true})
	h.waitText("the server refused it")
	h.send(clearFlashMsg{seq: h.m.flashSeq, failure: true})
	h.settle()
	if !strings.Contains(h.screen(), "the server refused it") {
		t.Fatalf("the failure went with its clock:\n%s", h.screen())
	}
	h.keys("j")
	h.waitFor("the failure gone at the next key", func(s string) bool { return !strings.Contains(s, "the server refused it") })

	h.send(views.FlashMsg{Text: "copied something"})
	h.waitText("copied something")
	h.send(clearFlashMsg{seq: h.m.flashSeq})
	h.waitFor("the message gone with its clock", func(s string) bool { return !strings.Contains(s, "copied something") })
}
