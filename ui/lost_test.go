package ui

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"canopy/api"
)

// posts counts the POSTs to a path prefix among the changes received.
func posts(d *dropper, prefix string) int {
	n := 0
	for _, c := range d.received() {
		if strings.HasPrefix(c, "POST "+prefix) {
			n++
		}
	}
	return n
}

// newRepoForm opens the create form of a repo in platform and types a
// name and a description.
func newRepoForm(h *harness, name, description string) {
	h.waitText("platform")
	h.moveTo("platform")
	h.keys("l")
	h.moveTo("repos of platform")
	h.keys("n")
	h.waitText("New repo in platform", "POST /registry/v2/repos")
	h.typeText(name)
	h.keys("tab")
	h.typeText(description)
}

// repoIn is the repo named name in platform, as the server has it (nil:
// none).
func repoIn(t *testing.T, h *harness, truth *api.Client, name string) *api.Repo {
	t.Helper()
	ctx := context.Background()
	p, err := truth.ListGroups(ctx, api.ListOptions{DescendantsOf: h.srv.OrgUID(), Name: "platform"})
	if err != nil || len(p.Items) != 1 {
		t.Fatalf("platform: %+v %v", p, err)
	}
	r, err := truth.FindRepo(ctx, p.Items[0].UID, name)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestLostCreateThatWasMadeIsFoundNotSentAgain: the server makes the repo
// and drops the connection before answering. The form does not say "not
// changed" nor offer to send again: it looks the name up, finds the repo,
// and goes on as after a create (flash, tree); :changes says so. One POST.
func TestLostCreateThatWasMadeIsFoundNotSentAgain(t *testing.T) {
	t.Parallel()
	h, truth, d := droppingShellWith(t, 140, 40, func(r *http.Request) bool {
		return r.Method == http.MethodPost && strings.HasPrefix(r.URL.Path, "/registry/v2/repos/")
	})
	newRepoForm(h, "canopy-lost", "made, answer lost")
	h.keys("enter")
	s := h.waitText(`no answer, but the server has it: created repo "canopy-lost" in platform`)
	if strings.Contains(s, "not changed") || strings.Contains(s, "sends again") {
		t.Errorf("a create the server made is offered again:\n%s", s)
	}
	h.waitText("total         16 repos")
	// Enter now belongs to the tree: nothing more is posted.
	h.keys("enter")
	h.settle()
	if n := posts(d, "/registry/v2/repos/"); n != 1 {
		t.Errorf("%d POSTs of the repo, want 1: %v", n, d.received())
	}
	if repoIn(t, h, truth, "canopy-lost") == nil {
		t.Fatal("the emulator does not have the repo")
	}
	typeCommand(h, "changes")
	s = h.waitText("changes made in this session", "POST /registry/v2/repos")
	if !strings.Contains(line(s, "POST /registry/v2/repos"), "unknown, then found created") {
		t.Errorf(":changes does not say what the lookup found:\n%s", s)
	}
}

// TestLostCreateThatWasNotMadeOffersToSendAgain: the connection drops
// before the server sees the create. The form says the answer was lost,
// looks the name up, says the server does not have it, and only then does
// enter send again.
func TestLostCreateThatWasNotMadeOffersToSendAgain(t *testing.T) {
	t.Parallel()
	h, truth, d := droppingShellWith(t, 140, 40, func(r *http.Request) bool {
		return r.Method == http.MethodPost && strings.HasPrefix(r.URL.Path, "/registry/v2/repos/")
	})
	d.setUnapplied(true)
	newRepoForm(h, "canopy-lost", "never made")
	h.keys("enter")
	s := h.waitText("? no answer; the server does not have it · enter sends again",
		"unknown whether the change was made", "the server does not have it: enter sends again")
	if strings.Contains(s, "not changed") {
		t.Errorf("a lost answer is said to be a refusal:\n%s", s)
	}
	if repoIn(t, h, truth, "canopy-lost") != nil {
		t.Fatal("the emulator has the repo")
	}
	d.setDrop(nil)
	h.keys("enter")
	h.waitText(`created repo "canopy-lost" in platform`)
	if n := posts(d, "/registry/v2/repos/"); n != 2 {
		t.Errorf("%d POSTs of the repo, want 2 (one lost, one sent again): %v", n, d.received())
	}
	typeCommand(h, "changes")
	s = h.waitText("changes made in this session", "unknown, then found not created", "ok (")
	if c := strings.Count(s, "POST /registry/v2/repos"); c != 2 {
		t.Errorf(":changes lists %d POSTs, want 2:\n%s", c, s)
	}
}

// TestLostCreateWhoseLookupFailsIsNeverSentBlindly: the create is made and
// its answer lost, and the lookups fail too: the form says it could not
// look, and enter looks again (never sends) until a lookup answers.
func TestLostCreateWhoseLookupFailsIsNeverSentBlindly(t *testing.T) {
	t.Parallel()
	h, truth, d := droppingShellWith(t, 140, 40, nil)
	lookups := func(r *http.Request) bool {
		return r.Method == http.MethodGet && r.URL.Path == "/registry/v2/repos" && r.URL.Query().Get("name") == "canopy-lost"
	}
	newRepoForm(h, "canopy-lost", "made, answer lost")
	d.setDrop(func(r *http.Request) bool {
		return r.Method == http.MethodPost && strings.HasPrefix(r.URL.Path, "/registry/v2/repos/") || lookups(r)
	})
	h.keys("enter")
	s := h.waitText("? no answer; could not look it up · enter looks again", "could not look it up:", "enter looks again")
	if strings.Contains(s, "sends again") {
		t.Errorf("a resend is offered without a lookup:\n%s", s)
	}
	h.keys("enter")
	h.waitText("could not look it up:")
	if n := posts(d, "/registry/v2/repos/"); n != 1 {
		t.Errorf("enter after a failed lookup posted again: %v", d.received())
	}
	d.setDrop(nil)
	h.keys("enter")
	h.waitText(`no answer, but the server has it: created repo "canopy-lost" in platform`)
	if n := posts(d, "/registry/v2/repos/"); n != 1 {
		t.Errorf("%d POSTs of the repo, want 1: %v", n, d.received())
	}
	if repoIn(t, h, truth, "canopy-lost") == nil {
		t.Fatal("the emulator does not have the repo")
	}
}

// TestLostSubscriptionIsFoundBySink: subscriptions have no name; the
// lookup after a lost answer lists the folder's and compares the sink.
func TestLostSubscriptionIsFoundBySink(t *testing.T) {
	t.Parallel()
	h, truth, d := droppingShellWith(t, 140, 50, func(r *http.Request) bool {
		return r.Method == http.MethodPost && strings.HasPrefix(r.URL.Path, "/events/v2/subscriptions/")
	})
	platform := h.groupUID(t, "platform")
	h.toAlertmanager()
	h.moveTo("subscriptions of platform")
	h.keys("n")
	h.waitText("New subscription in platform")
	h.typeText("https://hooks.example.com/lost")
	h.keys("enter")
	h.waitText(`no answer, but the server has it: created subscription "https://hooks.example.com/lost" in platform`)
	if n := posts(d, "/events/v2/subscriptions/"); n != 1 {
		t.Errorf("%d POSTs, want 1: %v", n, d.received())
	}
	if s, err := truth.FindSubscription(context.Background(), platform, "https://hooks.example.com/lost"); s == nil || err != nil {
		t.Errorf("the emulator does not have it: %v", err)
	}
}
