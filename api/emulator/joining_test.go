package emulator

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"canopy/api"
)

// personTok is a token of a seeded person, for an hour of the env clock.
func (e *env) personTok(name string) string {
	e.t.Helper()
	tok, err := e.srv.TokenOf(name, e.clock.Now().Add(time.Hour))
	if err != nil {
		e.t.Fatal(err)
	}
	return tok
}

// A person of no group sees no group; the lookup finds the verified
// organization of her email's domain, she is eligible, and her request
// to join goes once: a second within the day is RESOURCE_EXHAUSTED, one
// for another group is NOT_FOUND, as is every way of not being eligible.
func TestJoiningAnOrganization(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1})
	erin := e.personTok("erin")
	if p := e.listAs(erin, "/iam/v2/groups", "groups", nil); len(p.Items) != 0 {
		t.Fatalf("erin sees %v", p.Items)
	}
	var found struct{ Group api.Group }
	e.ok(e.call("GET", "/iam/v2/groups:lookupGroup", erin, nil), &found)
	if found.Group.Name != "globex.example" || !found.Group.Verified || api.ParentUID(found.Group.UID) != "" {
		t.Fatalf("found %+v", found.Group)
	}
	var el struct{ Eligible bool }
	e.ok(e.call("GET", "/iam/v2/groups:checkEligibility", erin, nil), &el)
	if !el.Eligible {
		t.Error("erin is not eligible")
	}

	ask := "/iam/v2/groups/" + found.Group.UID + ":requestGroupAccess"
	e.ok(e.call("POST", ask, erin, map[string]any{}), nil)
	s := wantErr(t, e.call("POST", ask, erin, map[string]any{}), http.StatusTooManyRequests, api.CodeResourceExhausted)
	if !strings.Contains(s.Message, "already sent") {
		t.Errorf("the second request says %q", s.Message)
	}
	e.clock.Add(25 * time.Hour)
	e.ok(e.call("POST", ask, e.personTok("erin"), map[string]any{"groupUid": found.Group.UID}), nil)
	wantErr(t, e.call("POST", "/iam/v2/groups/"+e.org+":requestGroupAccess", e.personTok("erin"), map[string]any{}),
		http.StatusNotFound, api.CodeNotFound)
	wantErr(t, e.call("GET", ask, e.personTok("erin"), nil), http.StatusNotImplemented, api.CodeUnimplemented)

	// Free mail, the admin, and a sign-in with no verified email: not
	// eligible, and the lookup says no more than NOT_FOUND.
	for who, tok := range map[string]string{"frank": e.personTok("frank"), "admin": adminTok,
		"a workload": e.tokenFor(issuerGitHub, "repo:acme/app:ref:refs/heads/main")} {
		var el struct{ Eligible bool }
		e.ok(e.call("GET", "/iam/v2/groups:checkEligibility", tok, nil), &el)
		if el.Eligible {
			t.Errorf("%s is eligible", who)
		}
		s := wantErr(t, e.call("GET", "/iam/v2/groups:lookupGroup", tok, nil), http.StatusNotFound, api.CodeNotFound)
		if len(s.Details) > 1 {
			t.Errorf("%s: the refusal tells more than NOT_FOUND: %+v", who, s.Details)
		}
	}
	// A member may look up the organization of her domain too.
	e.ok(e.call("GET", "/iam/v2/groups:lookupGroup", e.personTok("alice"), nil), &found)
	if found.Group.UID != e.org {
		t.Errorf("alice's domain's organization is %s", found.Group.UID)
	}
}

// The verb of a group is routed as a verb: a group's own routes keep
// their uids whole, and a lookup path with more after it is no route.
func TestJoiningRoutesAreVerbs(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1})
	e.ok(e.get("/iam/v2/groups/"+e.org), nil)
	wantNoRoute(t, e.call("GET", "/iam/v2/groups:lookupGroup/x", adminTok, nil))
	wantNoRoute(t, e.call("GET", "/iam/v2/identities:lookupIdentity/x", adminTok, nil))
	s := wantErr(t, e.call("POST", "/iam/v2/groups/:requestGroupAccess", adminTok, map[string]any{}), http.StatusBadRequest, api.CodeInvalidArgument)
	if fieldOf(t, s) != "group_uid" {
		t.Errorf("an empty uid refused on %s", fieldOf(t, s))
	}
}

// LookupIdentity answers a seeded identity's uid, a registered person's,
// and for anyone else the uid a first sign-in will give them, the same
// each time.
func TestLookupIdentity(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1})
	look := func(issuer, subject string) string {
		var out struct{ UID string }
		e.ok(e.call("GET", "/iam/v2/identities:lookupIdentity?"+url.Values{"issuer": {issuer}, "subject": {subject}}.Encode(),
			e.personTok("frank"), nil), &out)
		return out.UID
	}
	carol := e.list("/iam/v2/identities", "identities", url.Values{"name": {"carol"}}).Items[0]["uid"]
	if got := look(issuerGoogle, "109283746501928374650"); got != carol {
		t.Errorf("carol is %s, want %s", got, carol)
	}
	if got := look(issuerGoogle, "118004716502938475610"); got != userUID(issuerGoogle, "118004716502938475610") {
		t.Errorf("erin is %s", got)
	}
	a, b := look("https://idp.example", "newcomer"), look("https://idp.example", "newcomer")
	if a != b || len(a) != 40 || a == look("https://idp.example", "another") {
		t.Errorf("not yet signed in: %s, %s", a, b)
	}
	s := wantErr(t, e.call("GET", "/iam/v2/identities:lookupIdentity?issuer=x", adminTok, nil), http.StatusBadRequest, api.CodeInvalidArgument)
	if fieldOf(t, s) != "subject" {
		t.Errorf("refused on %s", fieldOf(t, s))
	}
}

// A caller sets its own profile, masked (lowerCamelCase paths in the
// body): what the mask names and the body lacks is cleared, what it does
// not name stays, the service's fields cannot be named, and the answer is
// the whole profile. The admin has none.
func TestUpdateIdentityMetadata(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1})
	alice := e.personTok("alice")
	path := "/iam/v2/identities:updateIdentityMetadata"
	var got profile
	e.ok(e.call("PATCH", path, alice, map[string]any{"identityMetadata": map[string]any{"jobTitle": "CTO", "company": "ignored"},
		"updateMask": "jobTitle,product"}), &got)
	if got.JobTitle != "CTO" || got.Product != "" || got.Company != "Acme Corp" || got.Name != "Alice Nakamura" || !got.UpdatesOptIn {
		t.Fatalf("answered %+v", got)
	}
	e.ok(e.call("PATCH", path, alice, map[string]any{"identityMetadata": map[string]any{"updatesOptIn": false}, "updateMask": "updatesOptIn"}), &got)
	if got.UpdatesOptIn || got.JobTitle != "CTO" {
		t.Fatalf("answered %+v", got)
	}
	for mask, field := range map[string]string{"job_title": "update_mask", "name": "update_mask", "nope": "update_mask", "*": "update_mask"} {
		s := wantErr(t, e.call("PATCH", path, alice, map[string]any{"identityMetadata": map[string]any{}, "updateMask": mask}),
			http.StatusBadRequest, api.CodeInvalidArgument)
		if fieldOf(t, s) != field {
			t.Errorf("mask %s refused on %s", mask, fieldOf(t, s))
		}
	}
	wantErr(t, e.call("PATCH", path, alice, map[string]any{"identityMetadata": map[string]any{"company": strings.Repeat("x", 300)},
		"updateMask": "company"}), http.StatusBadRequest, api.CodeInvalidArgument)
	wantErr(t, e.call("PATCH", path, adminTok, map[string]any{"identityMetadata": map[string]any{}, "updateMask": "company"}),
		http.StatusBadRequest, api.CodeFailedPrecondition)
	// Someone without a seeded profile starts from the name the service has.
	e.ok(e.call("PATCH", path, e.personTok("frank"), map[string]any{"identityMetadata": map[string]any{"company": "Initech"}}), &got)
	if got.Company != "Initech" || got.Name != "frank" || got.UID != userUID(issuerGoogle, "103957718264550193847") {
		t.Errorf("frank's profile %+v", got)
	}
}

// A readme is replaced masked; the repo's update time moves; text that is
// not Markdown, too long, a synced repo's, or a caller without the right
// is refused; GetRepoReadme answers what was stored.
func TestUpdateRepoReadme(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1})
	uid := e.repoUID("python")
	path := "/registry/v2/repos/" + uid + "/readme"
	var before api.Repo
	e.ok(e.get("/registry/v2/repos/"+uid), &before)
	var got api.RepoReadme
	e.ok(e.call("PATCH", path+"?update_mask=content", adminTok, map[string]any{"content": "# python\n\nNew.\n"}), &got)
	if got.UID != uid || got.Content != "# python\n\nNew.\n" {
		t.Fatalf("answered %+v", got)
	}
	e.ok(e.get(path), &got)
	if got.Content != "# python\n\nNew.\n" {
		t.Fatalf("reads %q", got.Content)
	}
	var after api.Repo
	e.ok(e.get("/registry/v2/repos/"+uid), &after)
	if !after.UpdateTime.Time().After(before.UpdateTime.Time()) && !after.UpdateTime.Time().Equal(e.clock.Now()) {
		t.Errorf("update time %v, was %v", after.UpdateTime, before.UpdateTime)
	}
	for name, body := range map[string]string{"binary": "a\x00b", "a control character": "a\x1b[31mb", "too long": strings.Repeat("x", maxReadme+1)} {
		s := wantErr(t, e.call("PATCH", path+"?update_mask=content", adminTok, map[string]any{"content": body}), http.StatusBadRequest, api.CodeInvalidArgument)
		if fieldOf(t, s) != "repo_readme.content" {
			t.Errorf("%s refused on %s: %s", name, fieldOf(t, s), s.Message)
		}
	}
	wantErr(t, e.call("PATCH", path+"?update_mask=uid", adminTok, map[string]any{"uid": "x"}), http.StatusBadRequest, api.CodeInvalidArgument)
	wantErr(t, e.call("PATCH", path+"?update_mask=content", e.personTok("carol"), map[string]any{"content": "x"}), http.StatusForbidden, api.CodePermissionDenied)
	wantErr(t, e.call("PATCH", "/registry/v2/repos/"+e.org+"/0123456789abcdef/readme?update_mask=content", adminTok, map[string]any{"content": "x"}),
		http.StatusNotFound, api.CodeNotFound)
	// Cleared: the mask names it, the body lacks it.
	got = api.RepoReadme{}
	e.ok(e.call("PATCH", path+"?update_mask=content", adminTok, map[string]any{}), &got)
	if got.Content != "" {
		t.Errorf("cleared to %q", got.Content)
	}
}
