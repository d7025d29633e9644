package ui

import (
	"net/http"
	"strings"
	"testing"
)

// :terms lists what the organization accepted, by whom (by name once
// read) and when. n asks which documents, sends nothing, and a dialog
// names exactly each document and version and says which are accepted
// already; esc there sends nothing; y sends the acceptance once, and the
// table has it.
func TestTermsAcceptWithConfirmation(t *testing.T) {
	t.Parallel()
	h, reqs, mu := recordingShell(t, 150, 40)
	org := h.srv.OrgUID()
	h.waitText("platform")
	typeCommand(h, "terms")
	h.waitText("terms accepted by acme.example", "DOCUMENT", "VERSION", "ACCEPTED BY", "ACCEPTED", "1 of 1")
	h.waitFor("who accepted, by name", func(s string) bool {
		return strings.Contains(line(s, "chainguard-tos"), "alice <alice@acme.example>") && strings.Contains(line(s, "chainguard-tos"), " 3 ")
	})
	h.keys("e")
	h.waitText("an acceptance is a record: it is never changed")

	h.keys("n")
	h.waitText("Accept terms for acme.example", "POST /iam/v2/terms/")
	h.typeText("guardener-tos.v1, chainguard-tos.v3")
	h.keys("enter")
	h.waitText("Accept 2 documents for acme.example?", "• guardener-tos, version 1  (guardener-tos.v1)",
		"• chainguard-tos, version 3  (chainguard-tos.v3)", "Accepting records that acme.example agrees to them, as ",
		"chainguard-tos.v3 is accepted already, 1 year ago", "by alice <alice@acme.example>")
	if got := last(reqs, mu); len(got) != 0 {
		t.Fatalf("sent before the dialog's yes: %+v", got)
	}
	h.keys("esc")
	h.waitText("terms accepted by acme.example", "1 of 1")
	if got := last(reqs, mu); len(got) != 0 {
		t.Fatalf("sent after esc: %+v", got)
	}

	h.keys("n")
	h.waitText("Accept terms for acme.example")
	h.typeText("guardener-tos.v1")
	h.keys("enter")
	h.waitText("Accept 1 document for acme.example?", "• guardener-tos, version 1  (guardener-tos.v1)", "None of them is accepted yet")
	h.keys("y")
	h.waitFor("the new row", func(s string) bool {
		return strings.Contains(tableBody(s), "guardener-tos") && strings.Contains(s, "of 2")
	})
	got := last(reqs, mu)
	if len(got) != 1 || got[0].Method != "POST" || got[0].Path != "/iam/v2/terms/"+org ||
		len(got[0].Body["documentIds"].([]any)) != 1 || got[0].Body["documentIds"].([]any)[0] != "guardener-tos.v1" {
		t.Fatalf("requests %+v", got)
	}
	// Its page: the document and its version apart, who by name.
	h.keys("g", "enter")
	h.waitText("terms accepted: guardener-tos.v1", "document      guardener-tos", "version       1", "accepted by", "accepted ")
}

// An acceptance whose answer was lost is looked up, found made, said so,
// and not sent again.
func TestLostAcceptanceIsLookedUp(t *testing.T) {
	t.Parallel()
	h, _, d := droppingShellWith(t, 150, 40, func(r *http.Request) bool {
		return r.Method == http.MethodPost && strings.HasPrefix(r.URL.Path, "/iam/v2/terms/")
	})
	h.waitText("platform")
	typeCommand(h, "terms")
	h.waitText("terms accepted by acme.example", "1 of 1")
	h.keys("n")
	h.waitText("Accept terms for acme.example")
	h.typeText("chainguard-dpa.v2")
	h.keys("enter")
	h.waitText("Accept 1 document for acme.example?")
	h.keys("y")
	h.waitText("but the server has every one accepted")
	h.settle()
	if n := posts(d, "/iam/v2/terms/"); n != 1 {
		t.Errorf("%d POSTs, want 1: %v", n, d.received())
	}
}

// A document the platform does not have is refused: the dialog says the
// server's reason once (its message names the field, and so does the
// field violation that comes with it), and offers r.
func TestTermsRefusedSaidOnce(t *testing.T) {
	t.Parallel()
	h, _, _ := recordingShell(t, 150, 40)
	h.waitText("platform")
	typeCommand(h, "terms")
	h.waitText("terms accepted by acme.example", "1 of 1")
	h.keys("n")
	h.waitText("Accept terms for acme.example")
	h.typeText("chainguard-tos.v4")
	h.keys("enter")
	h.waitText("Accept 1 document for acme.example?", "None of them is accepted yet")
	h.keys("y")
	const why = `document_ids[0]: "chainguard-tos.v4" is no document of the platform`
	s := h.waitText("1 failed", "Invalid argument: "+why, "r retry failed")
	if n := strings.Count(s, why); n != 1 {
		t.Errorf("the reason is said %d times, want once:\n%s", n, s)
	}
}
