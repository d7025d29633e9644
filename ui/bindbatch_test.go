package ui

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"canopy/api"
)

// bindThreeOnSecurity marks alice, bob and carol in :identities and binds
// viewer to them on the security folder, up to the dialog's results.
func bindThreeOnSecurity(h *harness, results string) string {
	h.waitText("platform")
	typeCommand(h, "identities")
	h.waitText("identities of acme.example", " loaded")
	// Rows by name: alice, auditor-bot, bob, carol; space moves down.
	h.keys("g", "space", "j", "space", "space")
	h.waitText("3 marked")
	h.keys("b")
	h.waitText("Which role for 3 identities?")
	h.keys("1")
	h.waitText("Bind viewer to 3 identities on which folder?")
	h.typeText("security")
	h.keys("enter")
	h.waitText("Bind viewer to 3 identities on security?")
	h.keys("enter")
	return h.waitText(results)
}

// threeBound fails the test unless alice, bob and carol are viewers on
// security, as the server says.
func (h *harness) threeBound(t *testing.T, c *api.Client) {
	t.Helper()
	ids := []string{h.identityUID(t, "alice"), h.identityUID(t, "bob"), h.identityUID(t, "carol")}
	found, err := c.FindRoleBindings(context.Background(), h.groupUID(t, "security"), h.roleUID(t, "viewer"), ids)
	if err != nil || len(found) != 3 {
		t.Errorf("viewers on security: %v %v", found, err)
	}
}

// Three identities marked and bound go in one request, the batch create:
// the dialog says it before it is sent, then each identity's result; the
// rows bound are unmarked.
func TestBindThreeIdentitiesInOneRequest(t *testing.T) {
	t.Parallel()
	h, reqs, mu := recordingShell(t, 220, 40)
	h.waitText("platform")
	typeCommand(h, "identities")
	h.waitText("identities of acme.example", " loaded")
	h.keys("g", "space", "j", "space", "space")
	h.waitText("3 marked")
	h.keys("b")
	h.waitText("Which role for 3 identities?")
	h.keys("1")
	h.waitText("on which folder?")
	h.typeText("security")
	h.keys("enter")
	h.waitText("Bind viewer to 3 identities on security?", "POST /iam/v2/roleBindings:batchCreate",
		"All of a request are bound or none")
	h.keys("enter")
	s := h.waitText("3 done")
	for _, who := range []string{"alice", "bob", "carol"} {
		if !strings.Contains(s, "viewer → "+who+" on security") {
			t.Errorf("no result for %s:\n%s", who, s)
		}
	}
	got := last(reqs, mu)
	if len(got) != 1 || got[0].Method != "POST" || got[0].Path != "/iam/v2/roleBindings:batchCreate" {
		t.Fatalf("requests %+v, want the one batch", got)
	}
	security := h.groupUID(t, "security")
	if rs, _ := got[0].Body["requests"].([]any); got[0].Body["parent"] != security || len(rs) != 3 {
		t.Fatalf("the batch sent %+v", got[0].Body)
	}
	h.keys("esc")
	h.waitText("bound 3 identities: viewer → alice on security; viewer → bob on security; viewer → carol on security")
	h.waitFor("the rows unmarked", func(s string) bool { return !strings.Contains(s, "marked") })
	h.threeBound(t, h.m.opts.Client)
}

// A server without the batch create (a gateway's 404) is asked one
// identity at a time: each result is its own, and the status line says
// once why.
func TestBindWithoutBatchGoesOneByOne(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var sent []string
	h := startBehind(t, func(w http.ResponseWriter, r *http.Request, emu http.Handler) {
		if r.Method == http.MethodPost {
			mu.Lock()
			sent = append(sent, r.URL.Path)
			mu.Unlock()
		}
		if strings.HasSuffix(r.URL.Path, ":batchCreate") {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusNotFound)
			_, _ = io.WriteString(w, `{"code":5,"message":"Not Found"}`)
			return
		}
		emu.ServeHTTP(w, r)
	}, api.RetryPolicy{MaxAttempts: 1}, 220, 40)
	bindThreeOnSecurity(h, "3 done")
	h.keys("esc")
	s := h.waitText("bound 3 identities", "the server has no batch create: bound one by one")
	if strings.Count(s, "no batch create") != 1 {
		t.Errorf("said more than once:\n%s", s)
	}
	mu.Lock()
	if len(sent) != 4 || !strings.HasSuffix(sent[0], ":batchCreate") || strings.Count(strings.Join(sent[1:], " "), "/iam/v2/roleBindings/") != 3 {
		t.Errorf("POSTs %v, want the batch then one each", sent)
	}
	mu.Unlock()

	// The session remembers: the next identities marked go one by one at
	// once, and nothing more is said of it.
	h.waitFor("the rows unmarked", func(s string) bool { return !strings.Contains(s, "marked") })
	h.keys("g", "space", "space")
	h.waitText("2 marked")
	h.keys("b")
	h.waitText("Which role for 2 identities?")
	h.keys("2")
	h.waitText("Bind editor to 2 identities on which folder?")
	h.typeText("security")
	h.keys("enter")
	s = h.waitText("Bind editor to 2 identities on security?")
	if strings.Contains(s, ":batchCreate") {
		t.Errorf("the batch is offered again:\n%s", s)
	}
	h.keys("enter")
	h.waitText("2 done")
	h.keys("esc")
	s = h.waitText("bound 2 identities")
	if strings.Contains(s, "no batch create") {
		t.Errorf("said again:\n%s", s)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(sent) != 6 || strings.Contains(strings.Join(sent[4:], " "), ":batchCreate") {
		t.Errorf("POSTs %v, want two more, one each", sent)
	}
}

// A batch the server refuses as a whole made nothing: its identities are
// asked one at a time, so that each says its own result (carol has the
// role there already; alice and bob are bound).
func TestRefusedBatchSaysWhichIdentity(t *testing.T) {
	t.Parallel()
	h, reqs, mu := recordingShell(t, 220, 40)
	h.waitText("platform")
	typeCommand(h, "identities")
	h.waitText("identities of acme.example", " loaded")
	h.keys("g", "space", "j", "space", "space")
	h.waitText("3 marked")
	h.keys("b")
	h.waitText("Which role for 3 identities?")
	h.keys("1")
	h.waitText("Bind viewer to 3 identities on which folder?")
	h.keys("enter") // the organization, where carol is a viewer
	h.waitText("Bind viewer to 3 identities on acme.example")
	h.keys("enter")
	s := h.waitText("2 done, 1 failed", "already has role")
	if !strings.Contains(s, "carol") {
		t.Errorf("the failure is not carol's:\n%s", s)
	}
	got := last(reqs, mu)
	if len(got) != 4 || got[0].Path != "/iam/v2/roleBindings:batchCreate" {
		t.Errorf("requests %+v, want the refused batch, then one each", got)
	}
	h.keys("esc")
	h.waitText("bound 2 identities", "the server refused the batch whole: bound one by one to see which")
}

// The batch's answer is lost after the server made it: one listing of the
// folder's bindings finds all three, and nothing is sent again.
func TestLostBatchIsLookedUpNotSentAgain(t *testing.T) {
	t.Parallel()
	h, truth, d := droppingShellWith(t, 220, 40, func(r *http.Request) bool {
		return r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, ":batchCreate")
	})
	s := bindThreeOnSecurity(h, "3 done")
	if !strings.Contains(s, "no answer") || !strings.Contains(s, "the server has it: bound") {
		t.Errorf("the results do not say how they were learnt:\n%s", s)
	}
	if n := posts(d, "/iam/v2/roleBindings"); n != 1 {
		t.Errorf("%d POSTs, want the one batch: %v", n, d.received())
	}
	h.threeBound(t, truth)
	h.keys("esc")
	h.waitText("bound 3 identities")
	typeCommand(h, "changes")
	s = h.waitText("changes made in this session", "POST /iam/v2/roleBindings:batchCreate")
	if !strings.Contains(line(s, ":batchCreate"), "found bound") {
		t.Errorf(":changes does not say what the lookup found:\n%s", s)
	}
	b, _ := json.Marshal(d.received())
	if strings.Count(string(b), "batchCreate") != 1 {
		t.Errorf("received %s", b)
	}
}
