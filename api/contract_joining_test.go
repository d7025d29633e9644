package api_test

import (
	"testing"
	"time"

	"canopy/api"
	"canopy/api/emulator"
)

// persons makes clients acting as the emulator's seeded persons.
func persons(t *testing.T, srv *emulator.Server, url string) func(name string) *api.Client {
	return func(name string) *api.Client {
		t.Helper()
		// Far ahead of both clocks: the emulator's is fixed, the client's real.
		tok := must(srv.TokenOf(name, time.Now().AddDate(10, 0, 0)))(t)
		return newClient(t, url, api.Options{TokenSource: static(tok), Retry: api.NoRetry()})
	}
}

// driveJoining makes the calls of joining an organization, of the
// caller's own identity and of a readme's update: as erin, a person of
// no organization, and as alice, who keeps a profile.
func driveJoining(ck *contractCheck, c *api.Client, org string, as func(name string) *api.Client) {
	t, ctx := ck.t, ck.t.Context()
	erin := as("erin")
	g := must(erin.LookupGroup(ctx))(t)
	ck.done("LookupGroup", -1)
	if !must(erin.CheckEligibility(ctx))(t) {
		t.Error("erin is not eligible")
	}
	ck.done("CheckEligibility", -1)
	must(0, erin.RequestGroupAccess(ctx, g.UID))(t)
	ck.done("RequestGroupAccess", -1)
	if err := erin.RequestGroupAccess(ctx, g.UID); !api.AlreadyRequested(err) {
		t.Errorf("a second request: %v, want it already sent", err)
	}
	ck.done("RequestGroupAccess", -1)
	_, err := c.LookupGroup(ctx) // the admin token has no email
	if !api.IsNotFound(err) {
		t.Errorf("the admin's lookup: %v", err)
	}
	ck.answered("LookupGroup", err)

	uid := must(c.LookupIdentity(ctx, "https://accounts.google.com", "109283746501928374650"))(t)
	ck.done("LookupIdentity", -1)
	if got := must(c.GetIdentity(ctx, uid))(t); got.Name != "carol" {
		t.Errorf("looked up %s, which is %s", uid, got.Name)
	}
	ck.done("GetIdentity", -1)

	alice := as("alice")
	md := api.IdentityMetadata{Company: "Acme", JobTitle: "CTO", Product: "images", UpdatesOptIn: true}
	for _, m := range []string{api.MetaCompany, api.MetaJobTitle, api.MetaProduct, api.MetaUpdatesOptIn} {
		must(alice.UpdateIdentityMetadata(ctx, md, m))(t)
		ck.done("UpdateIdentityMetadata", -1)
	}
	got := must(alice.UpdateIdentityMetadata(ctx, api.IdentityMetadata{}, api.MetaJobTitle, api.MetaProduct))(t)
	ck.done("UpdateIdentityMetadata", -1)
	if got.Company != "Acme" || got.JobTitle != "" || got.Product != "" || !got.UpdatesOptIn || got.Name != "Alice Nakamura" {
		t.Errorf("the profile after clearing two fields: %+v", got)
	}

	repos := must(c.ListRepos(ctx, api.ListOptions{DescendantsOf: org, Name: "python"}))(t)
	ck.done("ListRepos", len(repos.Items))
	py := pick(t, repos.Items, func(r api.Repo) bool { return r.Name == "python" })
	r := must(c.UpdateRepoReadme(ctx, py.UID, "# python\n\nEdited.\n"))(t)
	ck.done("UpdateRepoReadme", -1)
	if r.Content != "# python\n\nEdited.\n" || must(c.GetRepoReadme(ctx, py.UID))(t).Content != r.Content {
		t.Errorf("the readme is %q", r.Content)
	}
	ck.done("GetRepoReadme", -1)
}
