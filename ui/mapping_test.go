package ui

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/api/emulator"
	"canopy/theme"
)

// mappingRows are the organization's mappings in the order :mappings
// starts with (the server's: by uid), read from the emulator.
func (h *harness) mappingRows(t *testing.T) []api.ExternalGroupRoleMapping {
	t.Helper()
	p, err := h.m.opts.Client.ListExternalGroupRoleMappings(context.Background(), api.ListOptions{DescendantsOf: h.srv.OrgUID()})
	if err != nil {
		t.Fatal(err)
	}
	return p.Items
}

// markRows marks the table's rows whose external group is one of groups.
func (h *harness) markRows(t *testing.T, rows []api.ExternalGroupRoleMapping, groups ...string) {
	t.Helper()
	for _, g := range groups {
		i := slices.IndexFunc(rows, func(m api.ExternalGroupRoleMapping) bool { return m.ExternalGroupID == g })
		if i < 0 {
			t.Fatalf("no row of %s", g)
		}
		h.keys("g")
		for range i {
			h.keys("j")
		}
		h.keys("space")
	}
}

// providerUIDs are the seeded identity providers' uids, by name.
func (h *harness) providerUIDs(t *testing.T) map[string]string {
	t.Helper()
	p, err := h.m.opts.Client.ListIdentityProviders(context.Background(), api.ListOptions{DescendantsOf: h.srv.OrgUID()})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, it := range p.Items {
		out[it.Name] = it.UID
	}
	return out
}

// Role mappings are a kind like any other: `:mappings` lists them with
// their roles, providers and scope by name; enter opens one's page; n
// makes one (the provider chosen among the organization's, the role by
// name); d deletes one after the dialog, and the marked ones of one
// provider go in one batch delete, each said done.
func TestMappingsListShowCreateDelete(t *testing.T) {
	t.Parallel()
	h, reqs, mu := recordingShell(t, 160, 40)
	providers := h.providerUIDs(t)
	h.waitText("platform")
	h.typeText(":mappings")
	h.keys("enter")
	s := h.waitText("role mappings of acme.example", "EXTERNAL GROUP", "ROLE", "PROVIDER", "SCOPE", "CREATED",
		"acme-platform-admins", "1 of 4")
	// The names come once the organization's roles and providers are read.
	s = h.waitFor("the names of roles and providers", func(s string) bool {
		return strings.Contains(line(s, "acme-platform-admins"), "owner") && strings.Contains(line(s, "acme-security-review"), "auditor")
	})
	for group, want := range map[string][]string{"acme-platform-admins": {"owner", "okta-sso", "acme.example"},
		"acme-engineering": {"editor", "okta-sso"}, "b7e4c2a9-5d31-4f8e-9a60-2c7d1e3f4b58": {"viewer", "entra-contractors"}} {
		for _, w := range want {
			if !strings.Contains(line(s, group), w) {
				t.Errorf("the row of %s does not show %s:\n%s", group, w, s)
			}
		}
	}
	rows := h.mappingRows(t)

	// enter: the page, its role, provider and scope named beside their uids.
	h.keys("g", "enter")
	first := rows[0]
	s = h.waitText("role mapping: "+first.ExternalGroupID+" → ", "group", "provider", "role", "scope", "created",
		first.IdentityProviderUID+")", first.RoleUID+")")
	if !strings.Contains(line(s, "scope"), "acme.example  (") {
		t.Errorf("the page does not name the scope:\n%s", s)
	}
	// A mapping is never changed: e says what to do instead.
	h.keys("esc")
	h.waitText("EXTERNAL GROUP", "1 of 4")
	h.keys("e")
	h.waitText("a role mapping cannot be changed: n makes the new one, then d deletes this one")

	// n: the providers by name (entra-contractors first), the group, the
	// role by name; the scope is the organization.
	// The preview is the request sent: under the provider chosen.
	h.keys("n")
	h.waitText("New role mapping in acme.example", "POST "+api.ShortPath("/iam/v2/externalGroupRoleMappings/"+providers["entra-contractors"]),
		"‹ entra-contractors ›", "acme.example (the organization: the one scope a mapping takes)")
	h.send(tea.KeyPressMsg{Code: tea.KeyRight})
	h.waitText("‹ okta-sso ›", "POST "+api.ShortPath("/iam/v2/externalGroupRoleMappings/"+providers["okta-sso"]))
	h.send(tea.KeyPressMsg{Code: tea.KeyLeft})
	h.waitText("‹ entra-contractors ›", "POST "+api.ShortPath("/iam/v2/externalGroupRoleMappings/"+providers["entra-contractors"]))
	h.keys("tab")
	h.typeText("acme-oncall")
	h.keys("tab")
	for range len("viewer") {
		h.keys("backspace")
	}
	h.typeText("nobody")
	h.keys("enter")
	h.waitText(`no role is named "nobody"`)
	if got := last(reqs, mu); len(got) != 0 {
		t.Fatalf("sent %+v", got)
	}
	for range len("nobody") {
		h.keys("backspace")
	}
	h.typeText("viewer")
	h.keys("enter")
	h.waitText(`created role mapping "acme-oncall → viewer" in acme.example`)
	got := last(reqs, mu)
	if len(got) != 1 || got[0].Method != "POST" || got[0].Path != "/iam/v2/externalGroupRoleMappings/"+providers["entra-contractors"] ||
		got[0].Body["externalGroupId"] != "acme-oncall" || got[0].Body["roleUid"] == "viewer" || got[0].Body["scope"] != h.srv.OrgUID() {
		t.Fatalf("requests %+v", got)
	}
	// The cursor is on the new row: d deletes it, after the dialog.
	h.waitFor("the new row", func(s string) bool {
		return strings.Contains(tableBody(s), "acme-oncall") && strings.Contains(s, "of 5")
	})
	h.keys("d")
	h.waitText("Delete role mapping acme-oncall → viewer?",
		"Members of acme-oncall stop getting viewer at their next sign-in through entra-contractors")
	h.keys("y")
	h.waitText("deleted role mapping acme-oncall") // the status line cuts the rest
	h.waitFor("acme-oncall gone from the rows", func(s string) bool { return !strings.Contains(tableBody(s), "acme-oncall") })
	if got := last(reqs, mu); len(got) != 2 || got[1].Method != "DELETE" || !strings.HasPrefix(got[1].Path, "/iam/v2/externalGroupRoleMappings/"+providers["entra-contractors"]+"/") {
		t.Fatalf("requests %+v", got)
	}

	// Two of okta's and entra's one, marked: okta's go in one batch
	// delete, entra's alone; each is said done.
	h.waitText(" of 4 ")
	h.markRows(t, rows, "acme-engineering", "acme-security-review", "b7e4c2a9-5d31-4f8e-9a60-2c7d1e3f4b58")
	h.keys("d")
	h.waitText("Delete 3 role mappings?", "Members of these groups stop getting these roles at their next sign-in")
	h.keys("y")
	h.waitText("3 done")
	got = last(reqs, mu)[2:]
	batch := slices.IndexFunc(got, func(r recorded) bool { return r.Path == "/iam/v2/externalGroupRoleMappings:batchDelete" })
	if len(got) != 2 || batch < 0 || got[batch].Method != "POST" || got[batch].Body["parent"] != providers["okta-sso"] ||
		len(got[batch].Body["names"].([]any)) != 2 || got[1-batch].Method != "DELETE" {
		t.Fatalf("requests %+v", got)
	}
	h.keys("enter")
	h.waitFor("one row left", func(s string) bool {
		body := tableBody(s)
		return strings.Contains(body, "acme-platform-admins") && !strings.Contains(body, "acme-engineering") &&
			!strings.Contains(body, "b7e4c2a9")
	})
	// :changes has the batch as one request, naming both.
	h.typeText(":changes")
	h.keys("enter")
	h.waitText("POST /iam/v2/externalGroupRoleMappings:batchD", `2 role mappings "acme-`)
	if left := h.mappingRows(t); len(left) != 1 || left[0].ExternalGroupID != "acme-platform-admins" {
		t.Errorf("the server has %+v", left)
	}
}

// A batch delete is one request. Refused, each of its rows is said
// refused, and r sends them again in one request. When its answer is
// lost, nothing is sent again before each is looked up, and each is said
// as found (deleted: the server did it). One gone meanwhile is said
// already gone.
func TestMappingsBatchDeleteRefusedLostAndGone(t *testing.T) {
	t.Parallel()
	var batches, refuse, lose atomic.Int32
	h := startBehind(t, func(w http.ResponseWriter, r *http.Request, emu http.Handler) {
		if r.URL.Path != "/iam/v2/externalGroupRoleMappings:batchDelete" {
			emu.ServeHTTP(w, r)
			return
		}
		batches.Add(1)
		w.Header().Set("Content-Type", "application/json")
		switch {
		case refuse.Add(-1) >= 0:
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = w.Write([]byte(`{"code":14,"message":"the service is busy"}`))
		case lose.Add(-1) >= 0:
			// Done, but the gateway lost the answer.
			emu.ServeHTTP(httptest.NewRecorder(), r)
			w.WriteHeader(http.StatusBadGateway)
			_, _ = w.Write([]byte(`{"code":14,"message":"upstream connect error"}`))
		default:
			emu.ServeHTTP(w, r)
		}
	}, api.NoRetry(), 160, 40)
	ctx, c := context.Background(), h.m.opts.Client
	okta := h.providerUIDs(t)["okta-sso"]
	viewer := builtinRole(t, c, h.srv.OrgUID(), "viewer")
	for _, g := range []string{"x1", "x2", "x3"} {
		if _, err := c.CreateExternalGroupRoleMapping(ctx, okta, api.NewExternalGroupRoleMapping{ExternalGroupID: g,
			RoleUID: viewer, Scope: h.srv.OrgUID()}); err != nil {
			t.Fatal(err)
		}
	}
	h.waitText("platform")
	h.typeText(":mappings")
	h.keys("enter")
	h.waitText("role mappings of acme.example", "1 of 7")
	rows := h.mappingRows(t)

	refuse.Store(1)
	h.markRows(t, rows, "acme-platform-admins", "acme-engineering")
	h.keys("d")
	h.waitText("Delete 2 role mappings?")
	h.keys("y")
	h.waitText("0 done", "2 failed", "the service is busy")
	if n := batches.Load(); n != 1 {
		t.Fatalf("%d batch requests, want 1", n)
	}
	h.keys("r")
	h.waitText("2 done")
	if n := batches.Load(); n != 2 {
		t.Fatalf("%d batch requests after r, want 2", n)
	}
	h.keys("enter")
	h.waitFor("five rows left", func(s string) bool { return strings.Contains(s, "of 5") })

	lose.Store(1)
	rows = h.mappingRows(t)
	h.markRows(t, rows, "acme-security-review", "x1")
	h.keys("d")
	h.waitText("Delete 2 role mappings?")
	h.keys("y")
	s := h.waitText("2 done")
	if n := strings.Count(s, "but the server no longer has it"); n != 2 || batches.Load() != 3 {
		t.Errorf("a lost batch: %d said found deleted, %d batch requests (want 2 and 3):\n%s", n, batches.Load(), s)
	}
	h.keys("enter")
	h.waitFor("three rows left", func(s string) bool { return strings.Contains(s, "of 3") })

	rows = h.mappingRows(t)
	h.markRows(t, rows, "x2", "x3")
	h.keys("d")
	h.waitText("Delete 2 role mappings?")
	gone := rows[slices.IndexFunc(rows, func(m api.ExternalGroupRoleMapping) bool { return m.ExternalGroupID == "x3" })]
	if err := c.DeleteExternalGroupRoleMapping(ctx, gone.UID); err != nil {
		t.Fatal(err)
	}
	h.keys("y")
	s = h.waitText("2 done", "already gone")
	if n := strings.Count(s, "already gone"); n != 1 {
		t.Errorf("%d said already gone, want x3's only:\n%s", n, s)
	}
}

// builtinRole is the uid of the role of that name the organization may bind.
func builtinRole(t *testing.T, c *api.Client, org, name string) string {
	t.Helper()
	roles, err := c.RolesOf(context.Background(), org)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(roles, func(r api.Role) bool { return r.Name == name })
	if i < 0 {
		t.Fatalf("no role %s", name)
	}
	return roles[i].UID
}

// TestLostMappingIsFoundNotSentAgain: a mapping has no name; after a lost
// answer the form looks for the provider's mapping of that group, role
// and scope, finds it made, and sends nothing again.
func TestLostMappingIsFoundNotSentAgain(t *testing.T) {
	t.Parallel()
	h, truth, d := droppingShellWith(t, 160, 40, func(r *http.Request) bool {
		return r.Method == http.MethodPost && strings.HasPrefix(r.URL.Path, "/iam/v2/externalGroupRoleMappings/")
	})
	h.waitText("platform")
	h.typeText(":mappings")
	h.keys("enter")
	h.waitFor("the names of roles and providers", func(s string) bool { return strings.Contains(line(s, "acme-engineering"), "editor") })
	h.keys("n")
	h.waitText("New role mapping in acme.example", "‹ entra-contractors ›")
	h.keys("tab")
	h.typeText("acme-lost")
	h.keys("enter")
	h.waitText(`no answer, but the server has it: created role mapping "acme-lost → viewer" in acme.example`)
	h.settle()
	if n := posts(d, "/iam/v2/externalGroupRoleMappings/"); n != 1 {
		t.Errorf("%d POSTs, want 1: %v", n, d.received())
	}
	p, err := truth.ListExternalGroupRoleMappings(context.Background(), api.ListOptions{DescendantsOf: h.srv.OrgUID()})
	if err != nil || !slices.ContainsFunc(p.Items, func(m api.ExternalGroupRoleMapping) bool { return m.ExternalGroupID == "acme-lost" }) {
		t.Errorf("the emulator does not have it: %v", err)
	}
}

// canopy open <mapping uid>: the status line names the mapping as its
// page does, its role by name (read with it), not its uid.
func TestOpenAMappingNamesItsRole(t *testing.T) {
	t.Parallel()
	srv, client := newEmulator(t, emulator.Options{Seed: 1})
	p, err := client.ListExternalGroupRoleMappings(context.Background(), api.ListOptions{DescendantsOf: srv.OrgUID()})
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(p.Items, func(m api.ExternalGroupRoleMapping) bool { return m.ExternalGroupID == "acme-security-review" })
	if i < 0 {
		t.Fatalf("no mapping of acme-security-review: %+v", p.Items)
	}
	h := startWith(t, srv, Options{Client: client, Org: srv.OrgUID(), Host: "test", Identity: "admin (test)",
		Theme: theme.Options{Name: theme.Dark}, Now: func() time.Time { return fixedNow }, Start: Start{Open: p.Items[i].UID}}, 160, 40)
	s := h.waitText("opened the role mapping acme-security-review → auditor, on its page", "role mapping: acme-security-review → auditor")
	if got := line(s, "provider"); !strings.Contains(got, "okta-sso  (") {
		t.Errorf("provider: %q", got)
	}
}
