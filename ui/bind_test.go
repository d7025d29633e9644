package ui

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"canopy/api"
	"canopy/api/emulator"
	"canopy/theme"
)

// recorded is a request the emulator received.
type recorded struct {
	Method, Path string
	Body         map[string]any
}

// recordingShell runs the shell on an emulator whose mutating requests are
// recorded.
func recordingShell(t *testing.T, width, height int) (*harness, *[]recorded, *sync.Mutex) {
	t.Helper()
	srv := fresh(t, emulator.Options{Seed: 1, AdminToken: "test-admin-token"})
	var mu sync.Mutex
	var reqs []recorded
	hs := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet {
			b, _ := io.ReadAll(r.Body)
			var body map[string]any
			_ = json.Unmarshal(b, &body)
			mu.Lock()
			reqs = append(reqs, recorded{Method: r.Method, Path: r.URL.RequestURI(), Body: body})
			mu.Unlock()
			r.Body = io.NopCloser(strings.NewReader(string(b)))
		}
		srv.ServeHTTP(rw, r)
	}))
	t.Cleanup(hs.Close)
	changes := &ChangeLog{}
	client, err := api.New(api.Options{BaseURL: hs.URL, TokenSource: api.StaticToken(srv.AdminToken(), "test"), Observe: changes.Record})
	if err != nil {
		t.Fatal(err)
	}
	h := startWith(t, srv, Options{Client: client, Org: srv.OrgUID(), Theme: theme.Options{Name: theme.Dark}, Changes: changes,
		Now: func() time.Time { return fixedNow }}, width, height)
	return h, &reqs, &mu
}

func TestBindViewerOnAFolderSendsTheRequestAndLists(t *testing.T) {
	t.Parallel()
	h, reqs, mu := recordingShell(t, 140, 40)
	h.waitText("identities")
	h.moveTo("identities of acme.example")
	h.keys("l")
	h.waitText("carol")
	h.moveTo("carol")
	h.keys("b")
	h.waitText("Which role for carol?", "1 viewer")
	h.keys("1")
	h.waitText("Bind viewer to carol on which folder?")
	h.keys("p", "l", "a", "t", "f", "o", "r", "m")
	h.waitFor("platform first", func(s string) bool { return strings.Contains(s, "platform") })
	h.keys("enter")
	h.waitText("Bind viewer to carol on platform?")
	h.keys("enter")
	h.waitText("bound viewer → carol on platform")

	mu.Lock()
	got := append([]recorded(nil), *reqs...)
	mu.Unlock()
	if len(got) != 1 {
		t.Fatalf("requests %+v", got)
	}
	platform := h.groupUID(t, "platform")
	r := got[0]
	carol := r.Body["identityUid"]
	if r.Method != "POST" || r.Path != "/iam/v2/roleBindings/"+platform || r.Body["roleUid"] != "63921b2c44617e3f2603851537be0123af4a57d7" || len(r.Body) != 2 {
		t.Errorf("request %+v", r)
	}
	// carol's bindings now list it, in the pane and from the API.
	h.waitFor("the binding in carol's details", func(s string) bool {
		return strings.Contains(s, "viewer             on platform")
	})
	client := h.m.opts.Client
	page, err := client.ListRoleBindings(context.Background(), api.ListOptions{Identity: carol.(string), Group: platform})
	if err != nil || len(page.Items) != 1 || page.Items[0].Role.Name != "viewer" {
		t.Errorf("the API lists %+v, %v", page, err)
	}
}

// groupUID finds a folder's uid by name through the API.
func (h *harness) groupUID(t *testing.T, name string) string {
	t.Helper()
	page, err := h.m.opts.Client.ListGroups(context.Background(), api.ListOptions{DescendantsOf: h.srv.OrgUID(), Name: name})
	if err != nil || len(page.Items) != 1 {
		t.Fatalf("folder %s: %+v %v", name, page, err)
	}
	return page.Items[0].UID
}

func TestBindErrorsAreExplained(t *testing.T) {
	t.Parallel()
	h, _, _ := recordingShell(t, 140, 40)
	h.waitText("identities")
	h.moveTo("identities of acme.example")
	h.keys("l")
	h.waitText("carol")
	h.moveTo("carol")
	// carol already has viewer on the organization: the server refuses the
	// duplicate, and the dialog says so and stays.
	h.keys("b")
	h.waitText("Which role for carol?")
	h.keys("1")
	h.waitText("Bind viewer to carol on which folder?")
	h.keys("enter")
	h.waitText("Bind?")
	h.keys("enter")
	s := h.waitText("1 failed", "already has role")
	if !strings.Contains(s, "Bind viewer to carol on acme.example (organization)?") {
		t.Errorf("the dialog lost its question:\n%s", s)
	}
	// The identity is deleted meanwhile: 404, explained, not "already gone".
	h.keys("esc")
	h.waitText("details: carol")
	carol := h.identityUID(t, "carol")
	if err := h.m.opts.Client.DeleteIdentity(context.Background(), carol); err != nil {
		t.Fatal(err)
	}
	h.keys("b")
	h.waitText("Which role for carol?")
	h.keys("2")
	h.waitText("on which folder?")
	h.keys("enter")
	h.waitText("Bind?")
	h.keys("enter")
	s = h.waitText("1 failed")
	if !strings.Contains(s, "does not exist") || strings.Contains(s, "already gone") {
		t.Errorf("a deleted identity is not explained:\n%s", s)
	}
}

func (h *harness) identityUID(t *testing.T, name string) string {
	t.Helper()
	page, err := h.m.opts.Client.ListIdentities(context.Background(), api.ListOptions{DescendantsOf: h.srv.OrgUID(), Name: name})
	if err != nil || len(page.Items) != 1 {
		t.Fatalf("identity %s: %+v %v", name, page, err)
	}
	return page.Items[0].UID
}
