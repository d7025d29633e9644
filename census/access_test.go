package census

import (
	"strings"
	"testing"
	"time"

	"canopy/api"
)

func testAccess() *Access {
	now := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	l := &Layout{Org: "org", Folders: map[string]string{"org": "acme", "org/a": "apps", "org/a/w": "web", "org/d": "data"}}
	roles := map[string]api.Role{
		"viewer":     {UID: "viewer", Name: "viewer", Capabilities: []string{"CAP_MANIFEST_LIST", "CAP_REPO_BLOBS_GET", "CAP_REPO_LIST"}},
		"org/pusher": {UID: "org/pusher", Name: "pusher", Capabilities: []string{"CAP_MANIFEST_CREATE", "CAP_TAG_CREATE", "CAP_TAG_UPDATE"}},
		"admin":      {UID: "admin", Name: "admin", Capabilities: []string{"CAP_IAM_IDENTITY_CREATE", "CAP_IAM_ROLE_BINDINGS_CREATE"}},
	}
	ids := map[string]api.Identity{
		"org/u1": {UID: "org/u1", Name: "alice", LastSeenTime: api.TimeOf(now.Add(-time.Hour))},
		"org/u2": {UID: "org/u2", Name: "ci", ClaimMatch: &api.ClaimMatch{Issuer: "x"}, LastSeenTime: api.TimeOf(now.Add(-200 * 24 * time.Hour))},
	}
	bind := func(uid, id, role, on string) api.RoleBinding {
		return api.RoleBinding{UID: uid, Identity: &api.BindingIdentity{UID: id, Name: strings.TrimPrefix(id, "org/")}, Role: &api.Ref{UID: role}, Group: &api.Ref{UID: on}}
	}
	return &Access{Layout: l, Roles: roles, Identities: ids, Stale: 90 * 24 * time.Hour, Now: now, Bindings: []api.RoleBinding{
		bind("org/b1", "org/u1", "viewer", "org"),
		bind("org/a/b2", "org/u2", "org/pusher", "org/a"),
		bind("org/b3", "org/u2", "viewer", "org"),
		bind("org/d/b4", "org/u1", "admin", "org/d"),
		bind("org/b5", "org/gone", "viewer", "org"),
		bind("org/b6", "org/u1", "org/deleted", "org"),
	}}
}

func rowOf(rows []Row, who string) *Row {
	for i := range rows {
		if rows[i].Who.Name == who {
			return &rows[i]
		}
	}
	return nil
}

// A binding applies on its folder and below it: ci pushes in apps and
// web (inherited from apps), not in data; alice manages IAM in data only.
func TestAccessInheritsDown(t *testing.T) {
	a := testAccess()
	push := Groups()[1]
	for _, c := range []struct {
		folder, who string
		push        Level
	}{{"org/a/w", "ci", Fully}, {"org/a", "ci", Fully}, {"org/d", "ci", None}, {"org", "ci", None}, {"org/a/w", "alice", None}} {
		got := rowOf(a.At(c.folder), c.who)
		if got == nil {
			t.Fatalf("%s holds nothing at %s", c.who, c.folder)
		}
		if got.Levels[1] != c.push {
			t.Errorf("%s at %s: push %v, want %v", c.who, c.folder, got.Levels[1], c.push)
		}
		if c.push == Fully {
			if gs := got.Holds(push); len(gs) != 3 || gs[0].On != "org/a" {
				t.Errorf("%s at %s: grants %+v, want pusher on apps", c.who, c.folder, gs)
			}
		}
	}
	if r := rowOf(a.At("org/d"), "alice"); r == nil || r.Levels[4] != Partly || r.Levels[5] != Partly {
		t.Errorf("alice at data: %+v, want bind and IAM in part", r)
	}
	rows := a.Of("org/u1")
	if len(rows) != 4 || a.Path(rows[0].Folder) != "acme" || a.Path(rows[3].Folder) != "data" {
		for _, r := range rows {
			t.Log(a.Path(r.Folder))
		}
		t.Errorf("alice's folders: %d rows", len(rows))
	}
	if rows := a.ByRole("org/pusher"); len(rows) != 1 || rows[0].Who.Name != "ci" || rows[0].Folder != "org/a" {
		t.Errorf("pusher held: %+v", rows)
	}
}

// Flags: a workload pushing below the org is no workload-at-org flag but
// a stale writer; IAM below the org; a gone identity and a gone role.
func TestAccessFlags(t *testing.T) {
	a := testAccess()
	words := func(r *Row) string {
		if r == nil {
			return ""
		}
		var out []string
		for _, f := range r.Flags {
			out = append(out, FlagWord(f.Kind)+": "+f.Says)
		}
		return strings.Join(out, "\n")
	}
	at := a.At("org/a/w")
	if got := words(rowOf(at, "ci")); !strings.Contains(got, "stale writer: holds write capabilities, not seen for 200 days") || strings.Contains(got, "workload at org") {
		t.Errorf("ci: %s", got)
	}
	if got := words(rowOf(a.At("org/d"), "alice")); !strings.Contains(got, "IAM below org: manages IAM below the organization: admin on data (") ||
		!strings.Contains(got, "role org/deleted, which no longer exists") {
		t.Errorf("alice: %s", got)
	}
	if got := words(rowOf(at, "gone")); !strings.Contains(got, "the identity no longer exists") {
		t.Errorf("gone: %s", got)
	}
	// A workload bound with write capabilities at the organization.
	a.Bindings = append(a.Bindings, api.RoleBinding{UID: "org/b7", Identity: &api.BindingIdentity{UID: "org/u2"}, Role: &api.Ref{UID: "org/pusher"}, Group: &api.Ref{UID: "org"}})
	if got := words(rowOf(a.At("org"), "ci")); !strings.Contains(got, "workload at org: a workload (claim match of x) holds write capabilities at the organization: pusher") {
		t.Errorf("ci at the org: %s", got)
	}
	// Partial answers claim nothing gone, and say what they cannot judge.
	a.Unread = []string{"identities: permission denied"}
	if got := words(rowOf(a.At("org"), "gone")); strings.Contains(got, "gone") || !strings.Contains(got, "not judged: whether it is a workload") {
		t.Errorf("with identities unread: %s", got)
	}
	// Roles unread: what their bindings grant is unknown, not none.
	a.Unread = []string{"roles: not readable with this token"}
	delete(a.Roles, "viewer")
	r := rowOf(a.At("org"), "alice")
	if r == nil || r.Levels[0] != Unknown || r.Levels[0].Word() != "unknown" || !strings.Contains(words(r), "what viewer, org/deleted grants is not known: roles: not readable") {
		t.Errorf("alice with viewer unread: %+v %s", r, words(r))
	}
}

// IAM below the organization is what the BIND and IAM columns hold, said
// with the capabilities that make it so.
func TestAccessIAMBelowOrgNamesItsCapabilities(t *testing.T) {
	a := testAccess()
	got := ""
	for _, f := range rowOf(a.At("org/d"), "alice").Flags {
		if f.Kind == FlagIAMBelowOrg {
			got = f.Says
		}
	}
	if got != "manages IAM below the organization: admin on data (identity.create, role_bindings.create)" {
		t.Errorf("says %q", got)
	}
	if ManagesIAM("CAP_IAM_GROUPS_CREATE") || ManagesIAM("CAP_IAM_ACCOUNT_ASSOCIATIONS_CREATE") || !ManagesIAM("CAP_IAM_SCIM_MANAGE") {
		t.Error("IAM management is not the BIND and IAM columns")
	}
}

// Changes made here change a copy: a binding made or deleted shows at
// once; an identity deleted asks for a new reading; the old copy stays.
func TestAccessChangesACopy(t *testing.T) {
	a := testAccess()
	b, changed := a.Made(&api.RoleBinding{UID: "org/d/b9", Identity: &api.BindingIdentity{UID: "org/u2", Name: "ci"},
		Role: &api.Ref{UID: "org/pusher"}, Group: &api.Ref{UID: "org/d"}})
	if !changed || rowOf(b.At("org/d"), "ci") == nil || rowOf(b.At("org/d"), "ci").Levels[1] != Fully {
		t.Fatalf("the binding made does not show: %+v", rowOf(b.At("org/d"), "ci"))
	}
	if rowOf(a.At("org/d"), "ci").Levels[1] != None {
		t.Error("the old copy changed")
	}
	if _, changed := a.Made(&api.RoleBinding{UID: "other/b", Group: &api.Ref{UID: "other"}}); changed {
		t.Error("a binding of another organization changed the answers")
	}
	c, changed, again := b.Deleted("org/d/b9")
	if !changed || again || rowOf(c.At("org/d"), "ci").Levels[1] != None {
		t.Error("the binding deleted still shows")
	}
	if _, changed, again := c.Deleted("org/u1"); !changed || !again {
		t.Errorf("an identity deleted: changed %v, again %v", changed, again)
	}
}
